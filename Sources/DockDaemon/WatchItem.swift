import Synchronization
public import DockHost

/// What a watcher hears: an event and when it happened.
public struct WatchItem: Sendable {
    /// When, on the host's monotonic clock.
    public var time: Duration
    /// What.
    public var event: HostEvent
}

/// The watchers of one dock: each gets its own stream of events (the newest 256 kept when it
/// falls behind; the server drops a watcher that stops reading).
public final class WatcherList: Sendable {
    private let streams = Mutex<(next: Int, continuations: [Int: AsyncStream<WatchItem>.Continuation])>((0, [:]))

    /// Creates an empty list.
    public init() {}

    /// Starts a stream of events for a watcher.
    public func subscribe() -> (id: Int, events: AsyncStream<WatchItem>) {
        let (stream, continuation) = AsyncStream<WatchItem>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = streams.withLock { streams in
            streams.next += 1
            streams.continuations[streams.next] = continuation
            return streams.next
        }
        return (id, stream)
    }

    /// Ends a watcher's stream.
    public func unsubscribe(_ id: Int) {
        streams.withLock { $0.continuations.removeValue(forKey: id) }?.finish()
    }

    /// Hands an event to every watcher.
    public func publish(_ item: WatchItem) {
        for continuation in streams.withLock({ Array($0.continuations.values) }) { continuation.yield(item) }
    }
}
