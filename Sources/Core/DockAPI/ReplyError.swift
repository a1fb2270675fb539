public import DockJSON
public import DockVocabulary

/// A field of a reply or an event that is missing, of the wrong type or out of range: the client
/// refuses the whole reply and names the field by its path (`status.pose.yaw`,
/// `status.subjects[2].box`) rather than read a default in its place.
public struct ReplyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the field is, from the reply's parameters (`status.pose.yaw`).
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// Creates the error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The error the field reader found, in the API's words (the reply's parameters themselves
    /// are `parameters`).
    public init(_ error: JSONFieldError) {
        self.init(path: error.path.isEmpty ? "parameters" : error.path, reason: error.apiReason)
    }

    public var description: String { "\(path): \(reason)" }
}

extension ParameterError {
    /// The error the field reader found in a call's parameters, in the words `InvalidParameter`
    /// has always used on the wire.
    public init(_ error: JSONFieldError) {
        self.init(parameter: error.path, reason: error.apiReason)
    }
}

extension JSONFieldError {
    /// The problem as the API words it, on the wire (`InvalidParameter`'s `reason`) and to a client
    /// reading a reply: shorter than a file's reader's words, and without the line (a Varlink
    /// message is one line).
    public var apiReason: String {
        switch problem {
        case .missing: "required"
        case .unknown: "unknown parameter"
        case .wrongType(let expected, let found): "must be \(expected), got \(found)"
        case .notFinite: "must be finite"
        case .notWhole: "must be a whole number, got a number"
        case .notOneOf(_, .type(let found)): "must be a string, got \(found)"
        case .notOneOf(let names, .name(let found)): "must be one of \(names.joined(separator: ", ")), got \"\(found)\""
        case .outOfRange(let lower, let upper, _): "must be within \(lower)...\(upper)"
        case .invalid(let reason): reason
        }
    }

    /// An error about a call's parameter or a reply's field in the API's own words.
    static func field(_ path: String, _ reason: String) -> JSONFieldError {
        JSONFieldError(path: path, line: nil, problem: .invalid(reason))
    }
}

extension JSONValue {
    /// Reads the value at `path` with `read`, its errors in the API's words.
    func read<Value>(at path: String, _ read: (JSONFields) throws(JSONFieldError) -> Value) throws(ReplyError) -> Value {
        do {
            return try read(JSONFields(self, path: path))
        } catch {
            throw ReplyError(error)
        }
    }
}
