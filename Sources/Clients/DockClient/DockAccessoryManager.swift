import DockAPI
import DockSockets
public import DockVocabulary

/// The entry point, as in DockKit: connects to dockd and lists its docks.
///
/// A manager keeps one connection to dockd, which carries its calls and every stream of its
/// docks; keep it as long as you use them. See <doc:GettingStarted>.
public final class DockAccessoryManager: Sendable {
    /// dockd's socket.
    public let socketPath: String
    private let connection: VarlinkConnection
    private let hub: EventHub

    /// Connects to dockd at `socketPath`; without one, at the first that answers of
    /// ``DockdSocket/defaultPaths(environment:)``: `DOCKD_SOCKET`, else (for a normal user) the
    /// per-user socket and then `/run/dockd/dockd.sock`.
    ///
    /// - Parameters:
    ///   - socketPath: dockd's socket; nil: the default ones, in order.
    ///   - environment: where `DOCKD_SOCKET` and `XDG_RUNTIME_DIR` are read; nil: the process's.
    /// - Throws: ``DockClientError/cannotConnect(path:reason:)`` for one socket,
    ///   ``DockClientError/cannotConnectToAny(_:)`` when none of the default ones answers.
    public init(socketPath: String? = nil, environment: [String: String]? = nil) throws(DockClientError) {
        let paths =
            socketPath.map { [$0] }
            ?? DockdSocket.defaultPaths(environment: environment ?? ProcessEnvironment.current())
        (connection, self.socketPath) = try VarlinkConnection.connect(toFirstOf: paths)
        hub = EventHub(connection: connection)
    }

    /// The docks dockd has attached (of every accessory it serves, those attached now).
    public func accessories() async throws(DockClientError) -> [DockAccessory] {
        guard case .accessories(let list) = try await connection.call(.listAccessories) else { return [] }
        return list.compactMap { entry in
            entry.accessory.map { DockAccessory($0, name: entry.name, connection: connection, hub: hub) }
        }
    }

    /// A dock attaching or going away, as DockKit's `accessoryStateChanges` reports it.
    public struct StateChange: Hashable, Sendable {
        /// Docked or not.
        public enum State: Hashable, Sendable {
            /// A camera is on a dock that is attached.
            case docked
            /// The camera was removed, or the dock went away.
            case undocked
        }

        /// What changed.
        public var state: State
        /// The dock's serial number, when dockd knows it.
        public var accessoryIdentifier: String?
        /// Whether system tracking is on.
        public var isTrackingEnabled: Bool
    }

    /// Docked and undocked changes (a dock attaching counts as docked when a camera is mounted),
    /// on the manager's connection.
    public var accessoryStateChanges: AsyncThrowingStream<StateChange, any Error> {
        get throws(DockClientError) {
            let events = hub.subscribe()
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await event in events {
                            let status = event.status
                            let identifier = status.accessory?.identifier
                            switch event.kind {
                            case .attached, .docked:
                                if status.isDocked {
                                    continuation.yield(
                                        StateChange(
                                            state: .docked, accessoryIdentifier: identifier,
                                            isTrackingEnabled: status.isTrackingEnabled))
                                }
                            case .undocked, .disconnected:
                                continuation.yield(
                                    StateChange(
                                        state: .undocked, accessoryIdentifier: identifier,
                                        isTrackingEnabled: status.isTrackingEnabled))
                            case .status, .button, .fault, .control, .refused, .framing, .motionEnded:
                                continue
                            }
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

    /// Turns system tracking on or off for dockd's only accessory (when dockd serves several, it
    /// answers `AccessoryAmbiguous`: each ``DockAccessory`` has its own call).
    public func setSystemTrackingEnabled(_ enabled: Bool) async throws(DockClientError) {
        _ = try await connection.call(.host(.setSystemTracking(enabled)))
    }

    /// The status of dockd's only accessory, in dockd's own conventions (yaw > 0 right, pitch > 0
    /// up, boxes from the top left); when dockd serves several, it answers `AccessoryAmbiguous`.
    public func status() async throws(DockClientError) -> Dock.Status {
        try await connection.status()
    }
}
