public import DockPolicy

/// What a watcher hears: an event and when it happened.
public struct WatchItem: Sendable {
    /// When, on the host's monotonic clock.
    public var time: Duration
    /// What.
    public var event: HostEvent
    /// The status at that moment (a fault may have cleared by the time the event is written).
    public var status: DockStatus
}
