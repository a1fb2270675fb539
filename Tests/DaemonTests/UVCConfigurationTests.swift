import DockLinks
import DockSockets
import DockSystem
import Glibc
import Testing
import V4L2Protocol

@testable import DockDaemon

/// The UVC settings and the real ioctl transport (against a device that is no video device:
/// the path through the kernel is the shipped one, the answers are `ENOTTY`).
@Suite struct UVCConfigurationTests {
    func parse(_ arguments: [String]) throws(DaemonCommand.Failure) -> DaemonCommand {
        try DaemonCommand.parse(arguments) { _ in nil }
    }

    func configuration(_ arguments: [String]) throws -> Configuration {
        guard case .run(let configuration, _) = try parse(arguments) else {
            Issue.record("not a run: \(arguments)")
            return Configuration()
        }
        return configuration
    }

    @Test func aWebcamOnADeviceWithAModel() throws {
        let settings = try configuration(["--protocol", "uvc", "--device", "/dev/video0", "--uvc-model", "obsbot-tiny"])
        #expect(settings.accessoryProtocol == .uvc)
        let link = try #require(try settings.accessoryLink(identifier: "/dev/video0"))
        #expect(link.accessoryProtocol == .uvc)
        #expect((link as? UVCSession)?.configuration.displayName == "OBSBOT Tiny")
        #expect(try configuration(["--device", "/dev/ttyACM0"]).accessoryLink(identifier: "x") == nil, "dock-serial: HostPolicy's own")
    }

    @Test func aWebcamIsFoundOrNamedAndNeedsAKnownModel() throws {
        #expect(try configuration(["--protocol", "uvc"]).device.isEmpty, "no device: the first V4L2 device with pan/tilt")
        #expect(throws: DaemonCommand.Failure.self) {
            try parse(["--protocol", "uvc", "--device", "/dev/video0", "--uvc-model", "no-such"])
        }
        #expect(throws: DaemonCommand.Failure.self) { try parse(["--protocol", "uvc", "--simulator"]) }
    }

    /// Framed ioctls on `/dev/null` go to the kernel and come back as `ENOTTY`, in order, with
    /// the struct images as long as their requests say and the `EXT_CTRLS` pointer not leaked.
    /// The device's thread hands them to the daemon's own loop (a real one: the thread is real).
    @Test(.timeLimit(.minutes(1))) func theTransportPerformsFramedIoctls() throws {
        let loop = try EpollLoop()
        var decoder = V4L2Frame.Decoder.replies()
        var replies: [V4L2Frame.Reply] = []
        let events = DockLinkEvents(
            received: { chunk in
                replies += (try? decoder.replies(chunk)) ?? []
                if replies.count == 3 { loop.stop() }
            }, hungUp: { loop.stop() })
        let connection = try V4L2Transport(path: "/dev/null").open(baudRate: nil, on: loop, events: events)
        let capability = V4L2Frame.Request(request: V4L2Request.queryCapability, bytes: [])
        let set = V4L2Frame.Request(
            request: V4L2Request.setExtendedControls,
            bytes: V4L2ExtendedControls.encode([(V4L2ControlID.panAbsolute, 3600), (V4L2ControlID.tiltAbsolute, 0)]))
        let short = V4L2Frame.Request(
            request: V4L2Request.setExtendedControls,
            bytes: Array(V4L2ExtendedControls.encode([(V4L2ControlID.panAbsolute, 1)]).prefix(40)))
        #expect(connection.write(capability.encode() + set.encode()))
        #expect(connection.write(short.encode()))
        loop.schedule(at: loop.now + .seconds(30)) { loop.stop() }  // a guard, not a wait
        loop.run()
        connection.close()
        #expect(replies.map(\.request) == [V4L2Request.queryCapability, V4L2Request.setExtendedControls, V4L2Request.setExtendedControls])
        guard replies.count == 3 else { return }
        #expect(replies[0].errno == ENOTTY && replies[0].bytes.count == V4L2Capability.size)
        #expect(replies[1].errno == ENOTTY && replies[1].bytes == set.bytes, "the pointer field zero again")
        #expect(replies[2].errno == EINVAL, "an array shorter than its count is refused before the kernel sees it")
        #expect(throws: SystemError.self) { try V4L2Transport(path: "/nonexistent/video9").open(baudRate: nil, on: loop, events: events) }
    }

    /// What was written before the close is performed before the device closes: the stop that
    /// shutdown writes reaches the camera before dockd exits.
    @Test func requestsWrittenBeforeTheCloseArePerformed() throws {
        let loop = VirtualEventLoop()
        let opened = try V4L2Transport(path: "/dev/null").open(
            baudRate: nil, on: loop, events: DockLinkEvents(received: { _ in }, hungUp: {}))
        let connection = try #require(opened as? V4L2Connection)
        let request = V4L2Frame.Request(
            request: V4L2Request.setExtendedControls,
            bytes: V4L2ExtendedControls.encode([(V4L2ControlID.panSpeed, 0), (V4L2ControlID.tiltSpeed, 0)]))
        for _ in 0..<5 { #expect(connection.write(request.encode())) }
        connection.close()
        #expect(!connection.write(request.encode()), "nothing is taken after the close")
        #expect(connection.performedCount == 5)
    }

    /// The probe runs the session's handshake on a device: a node that is no V4L2 device, or
    /// none at all, has no pan/tilt.
    @Test func theProbeFindsNoPanTiltWhereThereIsNone() {
        #expect(V4L2Probe.controls(path: "/dev/null") == nil)
        #expect(V4L2Probe.controls(path: "/nonexistent/video9") == nil)
        if DeviceDiscovery.videoDevices().allSatisfy({ V4L2Probe.controls(path: $0.path) == nil }) {
            let events = DockLinkEvents(received: { _ in }, hungUp: {})
            #expect(throws: SystemError.self) { try DiscoveredVideoTransport().open(baudRate: nil, on: VirtualEventLoop(), events: events) }
        }
    }
}
