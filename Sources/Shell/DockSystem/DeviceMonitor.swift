import CUdev
public import DockSockets
import Glibc

/// udev's add and remove events of one subsystem (`tty`, or `video4linux` for webcams)
/// (`udev_monitor_*`), so a dock plugged in is noticed at once rather than at the next retry. The
/// owner watches ``descriptor`` on its event loop and calls ``receive()`` when it is readable;
/// the C handles live in this one object, used from the loop's thread only.
public final class DeviceMonitor {
    /// A device came or went.
    public enum Change: Hashable, Sendable {
        case added(SerialDeviceDescription)
        case removed(path: String)
    }

    private var udev: OpaquePointer?
    private var monitor: OpaquePointer?
    /// Readable when udev has events (non-blocking, as libudev opens it).
    public let descriptor: FileDescriptor

    /// Starts listening to `subsystem`; nil when udev's netlink socket cannot be opened (in some
    /// containers).
    public init?(subsystem: String = "tty") {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            return nil
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        guard udev_monitor_enable_receiving(monitor) >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            return nil
        }
        self.udev = udev
        self.monitor = monitor
        descriptor = FileDescriptor(rawValue: udev_monitor_get_fd(monitor))
    }

    /// The changes waiting, in order (none when there are none; never blocks).
    public func receive() -> [Change] {
        guard let monitor else { return [] }
        var changes: [Change] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            guard let action = udev_device_get_action(device).map({ String(cString: $0) }),
                let description = DeviceDiscovery.describe(device)
            else { continue }
            switch action {
            case "add": changes.append(.added(description))
            case "remove": changes.append(.removed(path: description.path))
            default: continue
            }
        }
        return changes
    }

    /// Closes the monitor (the owner unwatches ``descriptor`` first).
    public func close() {
        if let monitor { udev_monitor_unref(monitor) }
        if let udev { udev_unref(udev) }
        monitor = nil
        udev = nil
    }

    deinit { close() }
}
