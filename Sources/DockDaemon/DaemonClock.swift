import DockSystem

/// The daemon's sense of time: monotonic, as a `Duration` since an arbitrary origin, with a way
/// to wait. The running service uses `CLOCK_MONOTONIC`; tests may drive their own.
public protocol DaemonClock: Sendable {
    /// The current time.
    func now() -> Duration
    /// Waits until `deadline` (or returns at once if it has passed).
    func sleep(until deadline: Duration) async throws
}

/// `CLOCK_MONOTONIC`, and `Task.sleep` to wait.
public struct SystemClock: DaemonClock {
    /// Creates the clock.
    public init() {}

    public func now() -> Duration { MonotonicClock.now() }

    public func sleep(until deadline: Duration) async throws {
        let wait = deadline - now()
        if wait > .zero { try await Task.sleep(for: wait) }
    }
}
