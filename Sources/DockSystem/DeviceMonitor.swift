import CUdev
import Foundation
import Glibc

/// udev's add and remove events of one subsystem (`tty`, or `video4linux` for webcams), read on a thread of their own (`udev_monitor_*`), so a dock
/// plugged in is noticed at once rather than at the next retry.
public final class DeviceMonitor: Sendable {
    /// A device came or went.
    public enum Change: Hashable, Sendable {
        case added(SerialDeviceDescription)
        case removed(path: String)
    }

    /// The changes, in order.
    public let changes: AsyncStream<Change>

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
        let descriptor = FileDescriptor(rawValue: udev_monitor_get_fd(monitor))
        let (stream, continuation) = AsyncStream<Change>.makeStream()
        changes = stream
        // The C handles are owned by the thread from here on and never touched elsewhere.
        nonisolated(unsafe) let handles = (udev: udev, monitor: monitor)
        let reader = Thread {
            while true {
                guard (try? Poll.waitForReading([descriptor], timeout: .seconds(1))) != nil else { break }
                while let device = udev_monitor_receive_device(handles.monitor) {
                    defer { udev_device_unref(device) }
                    guard let action = udev_device_get_action(device).map({ String(cString: $0) }),
                        let description = DeviceDiscovery.describe(device)
                    else { continue }
                    switch action {
                    case "add":
                        continuation.yield(.added(description))
                    case "remove":
                        continuation.yield(.removed(path: description.path))
                    default:
                        continue
                    }
                }
            }
            continuation.finish()
            udev_monitor_unref(handles.monitor)
            udev_unref(handles.udev)
        }
        reader.name = "dockd udev"
        reader.start()
    }
}
