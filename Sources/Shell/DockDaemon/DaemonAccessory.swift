import DockSystem
public import DockVocabulary

/// One accessory the daemon serves: the name clients address it by and its session runner, which
/// holds its transport and its own `HostPolicy` (control arbitration, tracker and framing). Every
/// accessory's runner is on the daemon's one event loop.
public final class DaemonAccessory {
    /// The name the unnamed accessory (the settings' top level) goes by.
    public static let defaultName = NamedAccessorySettings.defaultName

    /// The stable name clients address it by (`accessory` in every call).
    public let name: String
    /// The settings it was started with (its device's, which SIGHUP cannot change).
    public let configuration: Configuration
    /// Its runner.
    public let runner: SessionRunner
    /// The udev monitor that tells its runner of a device appearing, when it looks one up.
    var monitor: DeviceMonitor?

    /// Creates the entry for `runner`, addressed as `name`, started with `configuration`.
    public init(name: String, configuration: Configuration = Configuration(), runner: SessionRunner) {
        self.name = name
        self.configuration = configuration
        self.runner = runner
    }

    /// Whether a call's `accessory` is this one's serial number (once one has attached).
    public func hasSerialNumber(_ wanted: String) -> Bool { wanted == runner.serialNumber }

    /// What `ListAccessories` says of it: its name, state and device, and what is attached.
    public var entry: Dock.AccessoryEntry {
        let status = runner.latestStatus
        return Dock.AccessoryEntry(name: name, state: status.state, device: runner.transport.name, accessory: status.accessory)
    }

    /// `Watch`'s `event`, said to be this accessory's.
    public func named(_ event: Dock.Event) -> Dock.Event {
        var event = event
        event.accessoryName = name
        return event
    }
}
