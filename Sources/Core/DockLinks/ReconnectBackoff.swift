/// When a link's lost port is opened again: after a wait that starts at `initial` and doubles on
/// each failure up to `maximum`, and starts afresh once a session is up or a device appears. One
/// rule for every protocol's link.
public struct ReconnectBackoff: Hashable, Sendable {
    /// The first wait.
    public let initial: Duration
    /// The longest wait.
    public let maximum: Duration
    /// When the next attempt is due; nil while none is waiting.
    public private(set) var reconnectAt: Duration?
    private var wait: Duration

    /// A backoff that waits `initial` first.
    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
        wait = initial
    }

    /// The port was lost or could not be opened at `now`: the next attempt waits; returns how long.
    @discardableResult
    public mutating func schedule(now: Duration) -> Duration {
        let waited = wait
        reconnectAt = now + waited
        wait = min(wait * 2, maximum)
        return waited
    }

    /// Whether the attempt is due at `now`; if so it is taken (no longer waiting).
    public mutating func takeIfDue(now: Duration) -> Bool {
        guard let due = reconnectAt, now >= due else { return false }
        reconnectAt = nil
        return true
    }

    /// An attempt starts now, whatever was waiting.
    public mutating func attempting() { reconnectAt = nil }

    /// A session came up, or a device appeared: the next wait is the first again.
    public mutating func reset() { wait = initial }
}
