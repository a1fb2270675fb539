import DockAPI
import DockVocabulary

/// A dock as the manager lists it, as DockKit's `DockAccessory`: what it is, and the calls and
/// streams that move it, watch it and have it track (all over the manager's one connection).
public struct DockAccessory: Sendable {
    /// The name dockd serves it by (its `[accessory NAME]` section, or `default`): every call and
    /// stream of this value names it.
    public let name: String
    /// The dock's serial number.
    public let identifier: String
    /// Its model name.
    public let model: String
    /// Its firmware version.
    public let firmwareVersion: String
    /// The port it is on.
    public let device: String
    let connection: VarlinkConnection
    private let hub: EventHub

    init(_ accessory: Dock.Accessory, name: String, connection: VarlinkConnection, hub: EventHub) {
        self.name = name
        identifier = accessory.identifier
        model = accessory.model
        firmwareVersion = accessory.firmwareVersion
        device = accessory.device
        self.connection = connection
        self.hub = hub
    }

    /// Calls dockd for this dock.
    func call(_ request: ClientRequest) async throws(DockClientError) -> Dock.Reply {
        try await connection.call(.host(request), accessory: name)
    }

    /// `Watch`'s events of this dock, from the manager's one stream of every accessory's.
    func events() -> AsyncThrowingStream<Dock.Event, any Error> {
        hub.subscribe(accessory: name)
    }
}

extension DockAccessory {
    /// Turns system tracking on or off for this dock.
    public func setSystemTrackingEnabled(_ enabled: Bool) async throws(DockClientError) {
        _ = try await call(.setSystemTracking(enabled))
    }

    /// Watch's events, each turned into a value (or skipped when `transform` returns nil).
    func watchEvents<Value: Sendable>(
        _ transform: @escaping @Sendable (Dock.Event) -> Value?
    ) throws(DockClientError) -> AsyncThrowingStream<Value, any Error> {
        let events = events()
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        if let value = transform(event) { continuation.yield(value) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
