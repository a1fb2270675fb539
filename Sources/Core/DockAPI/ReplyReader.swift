public import DockJSON

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

    public var description: String { "\(path): \(reason)" }
}

/// Typed access to one JSON object of a reply, each field named by its path when it is wrong;
/// `null` counts as absent. Fields the reader does not ask for are ignored, so a newer dockd
/// may add some.
public struct ReplyReader: Sendable {
    /// The object's own path (empty: the reply's parameters).
    public let path: String
    private let members: [String: JSONValue]

    /// Reads `value`, which must be an object.
    public init(_ value: JSONValue, path: String) throws(ReplyError) {
        guard case .object(let members) = value else {
            throw ReplyError(path: path.isEmpty ? "parameters" : path, reason: "must be an object, got \(value.typeName)")
        }
        self.init(members: members, path: path)
    }

    /// Reads a reply's parameters.
    public init(members: [String: JSONValue], path: String = "") {
        self.members = members
        self.path = path
    }

    private func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func present(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    private func required(_ key: String) throws(ReplyError) -> JSONValue {
        guard let value = present(key) else { throw ReplyError(path: fieldPath(key), reason: "required") }
        return value
    }

    private func wrongType(_ key: String, _ expected: String, _ value: JSONValue) -> ReplyError {
        ReplyError(path: fieldPath(key), reason: "must be \(expected), got \(value.typeName)")
    }

    /// A required string.
    public func string(_ key: String) throws(ReplyError) -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw wrongType(key, "a string", value) }
        return text
    }

    /// An optional string.
    public func optionalString(_ key: String) throws(ReplyError) -> String? {
        guard present(key) != nil else { return nil }
        return try string(key)
    }

    /// A required Boolean.
    public func bool(_ key: String) throws(ReplyError) -> Bool {
        let value = try required(key)
        guard case .bool(let flag) = value else { throw wrongType(key, "true or false", value) }
        return flag
    }

    /// A required finite number (written with or without a fraction).
    public func double(_ key: String) throws(ReplyError) -> Double {
        let value = try required(key)
        let number: Double
        switch value {
        case .integer(let integer): number = Double(integer)
        case .number(let double): number = double
        default: throw wrongType(key, "a number", value)
        }
        guard number.isFinite else { throw ReplyError(path: fieldPath(key), reason: "must be finite") }
        return number
    }

    /// An optional finite number.
    public func optionalDouble(_ key: String) throws(ReplyError) -> Double? {
        guard present(key) != nil else { return nil }
        return try double(key)
    }

    /// A required whole number.
    public func integer(_ key: String) throws(ReplyError) -> Int {
        let value = try required(key)
        guard case .integer(let integer) = value else { throw wrongType(key, "a whole number", value) }
        return Int(integer)
    }

    /// An optional whole number.
    public func optionalInteger(_ key: String) throws(ReplyError) -> Int? {
        guard present(key) != nil else { return nil }
        return try integer(key)
    }

    /// A required whole number within `range`.
    public func integer<Value: FixedWidthInteger>(_ key: String, as type: Value.Type) throws(ReplyError) -> Value {
        let integer = try integer(key)
        guard let value = Value(exactly: integer) else {
            throw ReplyError(path: fieldPath(key), reason: "must be within \(Value.min)...\(Value.max)")
        }
        return value
    }

    /// An optional whole number of type `Value`.
    public func optionalInteger<Value: FixedWidthInteger>(_ key: String, as type: Value.Type) throws(ReplyError) -> Value? {
        guard present(key) != nil else { return nil }
        return try integer(key, as: type)
    }

    /// A required name out of `Value`'s cases.
    public func choice<Value: RawRepresentable & CaseIterable>(_ key: String, as type: Value.Type) throws(ReplyError) -> Value
    where Value.RawValue == String {
        let name = try string(key)
        guard let value = Value(rawValue: name) else {
            throw ReplyError(
                path: fieldPath(key),
                reason: "must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name)\"")
        }
        return value
    }

    /// An optional name out of `Value`'s cases.
    public func optionalChoice<Value: RawRepresentable & CaseIterable>(_ key: String, as type: Value.Type) throws(ReplyError)
        -> Value? where Value.RawValue == String
    {
        guard present(key) != nil else { return nil }
        return try choice(key, as: type)
    }

    /// A required object.
    public func object(_ key: String) throws(ReplyError) -> ReplyReader {
        try ReplyReader(try required(key), path: fieldPath(key))
    }

    /// An optional object.
    public func optionalObject(_ key: String) throws(ReplyError) -> ReplyReader? {
        guard present(key) != nil else { return nil }
        return try object(key)
    }

    /// A required field read by `decode`, which is handed the value and its path.
    public func decoded<Value>(_ key: String, _ decode: (JSONValue, String) throws(ReplyError) -> Value) throws(ReplyError) -> Value {
        try decode(try required(key), fieldPath(key))
    }

    /// An optional field read by `decode`.
    public func optionalDecoded<Value>(_ key: String, _ decode: (JSONValue, String) throws(ReplyError) -> Value) throws(ReplyError)
        -> Value?
    {
        guard let value = present(key) else { return nil }
        return try decode(value, fieldPath(key))
    }

    /// A required array whose elements `decode` reads.
    public func decodedArray<Value>(_ key: String, _ decode: (JSONValue, String) throws(ReplyError) -> Value) throws(ReplyError)
        -> [Value]
    {
        var values: [Value] = []
        for element in try array(key) { values.append(try decode(element.value, element.path)) }
        return values
    }

    /// A required array, each element with its path (`subjects[2]`).
    public func array(_ key: String) throws(ReplyError) -> [(value: JSONValue, path: String)] {
        let value = try required(key)
        guard case .array(let elements) = value else { throw wrongType(key, "an array", value) }
        return elements.enumerated().map { ($0.element, "\(fieldPath(key))[\($0.offset)]") }
    }

    /// A required array of objects.
    public func objects(_ key: String) throws(ReplyError) -> [ReplyReader] {
        var readers: [ReplyReader] = []
        for element in try array(key) { readers.append(try ReplyReader(element.value, path: element.path)) }
        return readers
    }

    /// A required array of strings.
    public func strings(_ key: String) throws(ReplyError) -> [String] {
        var strings: [String] = []
        for element in try array(key) {
            guard case .string(let text) = element.value else {
                throw ReplyError(path: element.path, reason: "must be a string, got \(element.value.typeName)")
            }
            strings.append(text)
        }
        return strings
    }

    /// A required array of whole numbers.
    public func integers(_ key: String) throws(ReplyError) -> [Int] {
        var integers: [Int] = []
        for element in try array(key) {
            guard case .integer(let integer) = element.value else {
                throw ReplyError(path: element.path, reason: "must be a whole number, got \(element.value.typeName)")
            }
            integers.append(Int(integer))
        }
        return integers
    }
}
