public import DockJSON

/// Varlink framing: each message is a JSON object followed by a NUL byte. The splitter gathers
/// bytes from a stream socket and hands out whole messages; a message longer than the limit is an
/// error after which the connection must be closed.
public struct VarlinkFrameSplitter: Sendable {
    /// The longest message accepted, in bytes.
    public static let maximumMessageBytes = 64 * 1024

    private var buffer: [UInt8] = []

    /// Creates an empty splitter.
    public init() {}

    /// A message over `maximumMessageBytes`.
    public struct Oversize: Error, Hashable, Sendable {
        /// Creates the error.
        public init() {}
    }

    /// Adds bytes; returns the messages they complete, without their NUL. Each message is
    /// copied whole between NULs (a byte at a time through a generic sequence was a fifth of a
    /// client's CPU reading `GetStatus` replies).
    public mutating func append(_ bytes: [UInt8]) throws(Oversize) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var start = 0
        while let end = bytes[start...].firstIndex(of: 0) {
            guard buffer.count + (end - start) <= Self.maximumMessageBytes else { throw Oversize() }
            buffer.append(contentsOf: bytes[start..<end])
            messages.append(buffer)
            buffer.removeAll(keepingCapacity: true)
            start = end + 1
        }
        guard buffer.count + (bytes.count - start) <= Self.maximumMessageBytes else { throw Oversize() }
        buffer.append(contentsOf: bytes[start...])
        return messages
    }

    /// Adds bytes from any sequence (see `append(_:)` for an array's).
    public mutating func append(_ bytes: some Sequence<UInt8>) throws(Oversize) -> [[UInt8]] {
        try append(Array(bytes))
    }
}

/// A method call as a client sends it.
public struct VarlinkCall: Hashable, Sendable {
    /// The fully qualified method (`io.dockd.Dock.GetStatus`).
    public var method: String
    /// The parameters (an empty object when absent).
    public var parameters: [String: JSONValue]
    /// The client wants no reply.
    public var isOneway: Bool
    /// The client accepts several replies (`continues`).
    public var wantsMore: Bool

    /// Creates a call.
    public init(method: String, parameters: [String: JSONValue], isOneway: Bool = false, wantsMore: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.isOneway = isOneway
        self.wantsMore = wantsMore
    }

    /// The call as it goes on the socket, NUL included.
    public var bytes: [UInt8] {
        var members: [String: JSONValue] = ["method": .string(method), "parameters": .object(parameters)]
        if isOneway { members["oneway"] = .bool(true) }
        if wantsMore { members["more"] = .bool(true) }
        var bytes = JSONValue.object(members).serializedBytes
        bytes.append(0)
        return bytes
    }

    /// Why a message is not a valid call.
    public struct Malformed: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        /// Creates the error.
        public init(reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// Parses one message (without its NUL).
    public static func parse(_ bytes: [UInt8]) throws(Malformed) -> VarlinkCall {
        let value: JSONValue
        do {
            // 1e999 is valid JSON: it reaches the parameter check as an infinity, refused there by name.
            value = try JSONParser.parse(bytes, keepsOverflow: true)
        } catch {
            throw Malformed(reason: "not valid JSON")
        }
        guard case .object(let members) = value else { throw Malformed(reason: "a call must be a JSON object") }
        guard case .string(let method)? = members["method"] else { throw Malformed(reason: "a call needs a \"method\" string") }
        var parameters: [String: JSONValue] = [:]
        switch members["parameters"] {
        case nil, .null?: break
        case .object(let given)?: parameters = given
        case let other?: throw Malformed(reason: "\"parameters\" must be an object, got \(other.typeName)")
        }
        func flag(_ key: String) throws(Malformed) -> Bool {
            switch members[key] {
            case nil, .null?: return false
            case .bool(let value)?: return value
            case let other?: throw Malformed(reason: "\"\(key)\" must be a Boolean, got \(other.typeName)")
            }
        }
        return VarlinkCall(
            method: method, parameters: parameters, isOneway: try flag("oneway"),
            wantsMore: try flag("more"))
    }
}

/// A reply: parameters, or a named error with parameters; `continues` when more replies follow.
public struct VarlinkReply: Hashable, Sendable {
    /// The error's name, when the call failed.
    public var error: String?
    /// The reply's (or the error's) parameters.
    public var parameters: [String: JSONValue]
    /// More replies follow.
    public var continues: Bool

    /// A successful reply.
    public static func success(_ parameters: [String: JSONValue] = [:], continues: Bool = false) -> VarlinkReply {
        VarlinkReply(error: nil, parameters: parameters, continues: continues)
    }

    /// A failed call.
    public static func failure(_ name: String, _ parameters: [String: JSONValue] = [:]) -> VarlinkReply {
        VarlinkReply(error: name, parameters: parameters, continues: false)
    }

    private static let emptySuccessBytes = Array(#"{"parameters":{}}"#.utf8) + [0]

    /// Reads one reply (without its NUL), as a client does.
    public static func parse(_ bytes: [UInt8]) throws(VarlinkCall.Malformed) -> VarlinkReply {
        guard let value = try? JSONValue.parse(bytes: bytes), case .object(let members) = value else {
            throw VarlinkCall.Malformed(reason: "a reply must be a JSON object")
        }
        var parameters: [String: JSONValue] = [:]
        switch members["parameters"] {
        case nil, .null?: break
        case .object(let given)?: parameters = given
        case let other?: throw VarlinkCall.Malformed(reason: "\"parameters\" must be an object, got \(other.typeName)")
        }
        var error: String?
        switch members["error"] {
        case nil, .null?: break
        case .string(let name)?: error = name
        case let other?: throw VarlinkCall.Malformed(reason: "\"error\" must be a string, got \(other.typeName)")
        }
        return VarlinkReply(error: error, parameters: parameters, continues: members["continues"] == .bool(true))
    }

    /// The reply as it goes on the socket, NUL included.
    public var bytes: [UInt8] {
        // The commonest reply (every Track call's), written once.
        if error == nil, !continues, parameters.isEmpty { return Self.emptySuccessBytes }
        var members: [String: JSONValue] = ["parameters": .object(parameters)]
        if let error { members["error"] = .string(error) }
        if continues { members["continues"] = .bool(true) }
        var bytes = JSONValue.object(members).serializedBytes
        bytes.append(0)
        return bytes
    }
}
