import DockAPI
import DockVocabulary
import Synchronization

/// The one `Watch` stream of a manager's connection, shared: every stream an app opens
/// (`motionStates`, `trackingStates`, `accessoryEvents`, `accessoryStateChanges`) is a subscriber
/// to it, so that however many are open the app has one connection to dockd and one reader thread.
/// The stream starts with the first subscriber; each subscriber keeps the newest events it has
/// not read yet, up to `bufferedEvents`.
final class EventHub: Sendable {
    /// Events a subscriber that does not read keeps (the newest); 10 s of the 10 Hz status.
    static let bufferedEvents = 100

    private struct State {
        var nextIdentifier = 0
        /// Each subscriber, with the accessory it follows (nil: all).
        var subscribers: [Int: (continuation: AsyncThrowingStream<Dock.Event, any Error>.Continuation, accessory: String?)] = [:]
        /// The task reading the stream, once started.
        var watching: Task<Void, Never>?
        /// How the stream ended (later subscribers hear it at once).
        var ending: DockClientError?
    }

    /// The state, apart from the hub: the reading task holds it, not the hub, so that the hub
    /// going away (with its manager and docks) ends the task, which lets the connection go.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let connection: VarlinkConnection
    private let shared = Shared()

    /// A hub on `connection`.
    init(connection: VarlinkConnection) {
        self.connection = connection
    }

    deinit { shared.state.withLock { $0.watching?.cancel() } }

    /// The events of the accessory named `accessory` (nil: every accessory's) from now on; the
    /// stream fails as the shared stream does (dockd gone: ``DockClientError/disconnected``). An
    /// event that does not say whose it is (from a dockd before several accessories) is everyone's.
    func subscribe(accessory: String? = nil) -> AsyncThrowingStream<Dock.Event, any Error> {
        let (events, continuation) = AsyncThrowingStream<Dock.Event, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.bufferedEvents))
        let identifier = shared.state.withLock { state -> Int? in
            if state.ending != nil { return nil }
            defer { state.nextIdentifier += 1 }
            state.subscribers[state.nextIdentifier] = (continuation, accessory)
            if state.watching == nil { state.watching = watch() }
            return state.nextIdentifier
        }
        guard let identifier else {
            continuation.finish(throwing: shared.state.withLock { $0.ending } ?? .disconnected)
            return events
        }
        continuation.onTermination = { [shared] _ in
            _ = shared.state.withLock { $0.subscribers.removeValue(forKey: identifier) }
        }
        return events
    }

    /// Reads the connection's `Watch` and hands each event to every subscriber.
    private func watch() -> Task<Void, Never> {
        let events = connection.events()
        return Task { [shared] in
            var failure = DockClientError.disconnected
            do {
                for try await event in events {
                    for subscriber in shared.state.withLock({ Array($0.subscribers.values) })
                    where subscriber.accessory == nil || event.accessoryName == nil || subscriber.accessory == event.accessoryName {
                        subscriber.continuation.yield(event)
                    }
                }
            } catch {
                failure = error as? DockClientError ?? .disconnected
            }
            let ended = shared.state.withLock { state in
                defer {
                    state.subscribers.removeAll()
                    state.ending = failure
                }
                return Array(state.subscribers.values)
            }
            for subscriber in ended { subscriber.continuation.finish(throwing: failure) }
        }
    }
}
