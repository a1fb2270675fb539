public import DockAPI
public import DockJSON
public import DockVocabulary

/// What went wrong talking to dockd.
public enum DockClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The socket could not be reached.
    case cannotConnect(path: String, reason: String)
    /// None of the default sockets could be reached: each one's ``cannotConnect(path:reason:)``, in the order tried.
    case cannotConnectToAny([DockClientError])
    /// dockd closed the connection.
    case disconnected
    /// dockd answered with a named error.
    case remote(name: String, parameters: [String: JSONValue])
    /// dockd answered something this client does not understand.
    case unexpectedReply(String)
    /// An argument cannot be sent (the parameter as the interface names it).
    case invalidArgument(ParameterError)
    /// The connection already carries a stream (open another connection, or share that
    /// stream's events).
    case streamInUse
    /// A reply lacks a field the interface requires, or has one of the wrong type.
    case invalidReply(ReplyError)

    /// What went wrong, and how to put it right where there is a way.
    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): "cannot connect to \(path): \(reason)"
        case .cannotConnectToAny(let failures):
            "cannot connect to dockd; tried "
                + failures.map { failure in
                    if case .cannotConnect(let path, let reason) = failure { "\(path) (\(reason))" } else { "\(failure)" }
                }.joined(separator: ", then ")
                + "; is dockd running? --socket PATH or DOCKD_SOCKET names its socket"
        case .disconnected: "dockd closed the connection"
        case .remote(let name, let parameters):
            switch failure {
            case .busy?, .notReady?, .invalidParameter?, .noSuchAccessory?, .dockRefused?, .dockFault?: failure!.description
            default: "\(name) \(JSONValue.object(parameters).serialized)"
            }
        case .unexpectedReply(let text): "unexpected reply: \(text)"
        case .streamInUse: "the connection already carries a stream"
        case .invalidArgument(let error): "invalid \(error.parameter): \(error.reason)"
        case .invalidReply(let error): "dockd's reply is not what io.dockd.Dock says: \(error)"
        }
    }
}

extension DockClientError {
    /// dockd's named error with its fields read (nil: not a ``remote(name:parameters:)``, or its
    /// fields are not what the interface says).
    public var failure: Dock.Failure? {
        guard case .remote(let name, let parameters) = self else { return nil }
        return try? Dock.Failure(name: name, parameters: parameters)
    }
}
