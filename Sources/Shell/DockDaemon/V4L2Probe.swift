public import DockLinks
public import DockSockets
public import DockSystem
import Glibc
import V4L2Protocol

/// What a video device can do as a PTZ camera, found by running the UVC session's own handshake
/// on it (QUERYCAP, the controls, the stop of its speeds, the first pose) with each framed ioctl
/// performed at once — the same rules as a running dockd, so `--list-devices` and discovery
/// classify a camera as the session will.
public enum V4L2Probe {
    /// The controls of the device at `path` when it is a V4L2 device with pan or tilt; nil when
    /// it cannot be opened, is no V4L2 device or has neither.
    public static func controls(path: String) -> UVCControls? {
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var session = UVCSession(configuration: UVCSession.Configuration())
        var decoder = V4L2Frame.Decoder.requests()
        var pending = session.start(now: .zero)
        var steps = 0
        while !pending.isEmpty, steps < 64 {
            steps += 1
            switch pending.removeFirst() {
            case .openTransport:
                pending += session.transportOpened(now: .zero)
            case .write(let bytes):
                for request in (try? decoder.requests(bytes)) ?? [] {
                    pending += session.bytesReceived(performFramedIoctl(request, on: descriptor).encode(), now: .zero)
                }
            case .closeTransport:
                return nil
            case .emit(let event):
                if case .attached = event { return session.controls }
            }
        }
        return nil
    }
}

/// The first video4linux device udev knows that has pan or tilt controls, looked for each time
/// the session opens the link, so a webcam plugged in later is found.
public struct DiscoveredVideoTransport: DockTransport {
    /// Creates the transport.
    public init() {}

    public var name: String { "the first V4L2 device with pan/tilt" }

    public func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection {
        guard let device = DeviceDiscovery.videoDevices().first(where: { V4L2Probe.controls(path: $0.path) != nil }) else {
            throw SystemError("find", "a V4L2 device with pan/tilt", code: ENODEV)
        }
        return try V4L2Transport(path: device.path).open(baudRate: baudRate, on: loop, events: events)
    }
}
