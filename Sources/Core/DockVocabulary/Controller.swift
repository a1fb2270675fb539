/// A client of the daemon: its connection's number, as the arbiter, `Busy` and `Watch` name it.
public typealias ClientID = UInt64

extension Dock {
    /// Who holds control of a dock: nobody, the system tracker, or one client (the interface's
    /// `Controller`).
    public enum Controller: Hashable, Sendable {
        /// Nobody: the dock holds still.
        case none
        /// The system tracker.
        case systemTracker
        /// A client; `isExplicit` when it acquired control rather than just moving the dock.
        case client(ClientID, isExplicit: Bool)
        /// A bounded motion of a client that has gone away, playing to its end; any client may
        /// replace it without taking over.
        case unattended(formerClient: ClientID)
    }
}

extension Dock.Controller: CustomStringConvertible {
    /// How logs and `Watch` name the controller.
    public var description: String {
        switch self {
        case .none: "nobody"
        case .systemTracker: "system tracker"
        case .client(let client, let isExplicit): "client \(client)\(isExplicit ? " (acquired)" : "")"
        case .unattended(let client): "client \(client)'s motion (client gone)"
        }
    }
}

extension Dock.Controller {
    /// The names of a `Controller`'s kinds.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// Nobody.
        case none
        /// The system tracker.
        case tracker
        /// A client.
        case client
        /// A disconnected client's bounded motion, playing to its end.
        case unattended
    }

    /// Which kind of controller this is.
    public var kind: Kind {
        switch self {
        case .none: .none
        case .systemTracker: .tracker
        case .client: .client
        case .unattended: .unattended
        }
    }
}
