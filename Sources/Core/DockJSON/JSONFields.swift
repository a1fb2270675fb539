/// dockd's one field reader: typed access to the members of one JSON object, for the API's calls
/// and replies and for every file dockd reads. A member that is missing, of the wrong type, not
/// finite, not whole or out of range is a `JSONFieldError` naming its path — and its line, for an
/// object of a `JSONDocument` — never a default read in its place.
///
/// Two readings differ only as their users need: a value read for the API (`init(_:path:)`)
/// counts `null` as absent and has no lines, and its caller refuses unknown members up front
/// (`refuseUnknown`) or ignores them (a newer dockd may add fields to a reply); an object of a
/// document counts `null` as a value, and `finish()` refuses the first member nobody read, in the
/// text's order. Non-mutating throughout, so that a reader may be a `let`.
public struct JSONFields {
    /// The object's own path (empty: the text's value itself).
    public let path: String
    /// The line the object starts on; nil without the text's places.
    public let line: Int?
    /// The object's members (a key given twice keeps its last value).
    public let members: [String: JSONValue]
    private let place: JSONPlace?
    private let nullIsAbsent: Bool
    /// The members read so far, for `finish()`: kept for a document's objects only, so that the
    /// API's hot path (every object of every `Track` call) pays nothing for it.
    private let used: UsedMembers?

    private final class UsedMembers {
        var keys: Set<String> = []
    }

    /// Reads `value`, which must be an object, without its text's places (the API's reading).
    ///
    /// - Parameters:
    ///   - path: The object's path, for errors (empty for the text's value itself).
    ///   - nullIsAbsent: Whether a member that is `null` counts as absent (the API's rule).
    /// - Throws: `JSONFieldError` when `value` is not an object.
    public init(_ value: JSONValue, path: String = "", nullIsAbsent: Bool = true) throws(JSONFieldError) {
        try self.init(value, place: nil, path: path, nullIsAbsent: nullIsAbsent)
    }

    init(_ value: JSONValue, place: JSONPlace?, path: String, nullIsAbsent: Bool) throws(JSONFieldError) {
        guard case .object(let members) = value else {
            throw JSONFieldError(path: path, line: place?.line, problem: .wrongType(expected: "an object", found: value.typeName))
        }
        self.path = path
        self.line = place?.line
        self.members = members
        self.place = place
        self.nullIsAbsent = nullIsAbsent
        used = place == nil ? nil : UsedMembers()
    }

    /// The path of the member `key` (the object's own path for an empty key).
    public func fieldPath(_ key: String) -> String {
        if key.isEmpty { return path }
        return path.isEmpty ? key : "\(path).\(key)"
    }

    /// The line of the member `key`, or of the object where the member is absent.
    private func line(of key: String) -> Int? { place?.member(key)?.line ?? line }

    /// The member's value, noted as read; nil when it is absent (or `null`, where that counts as
    /// absent).
    public func value(_ key: String) -> JSONValue? {
        used?.keys.insert(key)
        guard let value = members[key], !(nullIsAbsent && value == .null) else { return nil }
        return value
    }

    /// Whether the member is present and `null` (noted as read).
    public func isNull(_ key: String) -> Bool {
        used?.keys.insert(key)
        return members[key] == .null
    }

    private func required(_ key: String) throws(JSONFieldError) -> JSONValue {
        guard let value = value(key) else { throw JSONFieldError(path: fieldPath(key), line: line, problem: .missing) }
        return value
    }

    private func wrongType(_ key: String, _ expected: String, _ value: JSONValue) -> JSONFieldError {
        JSONFieldError(path: fieldPath(key), line: line(of: key), problem: .wrongType(expected: expected, found: value.typeName))
    }

    /// An error about the member `key` in the reader's own words, at its line (the object's
    /// line when it is absent; the object itself for an empty key).
    public func error(_ key: String, _ reason: String) -> JSONFieldError {
        JSONFieldError(path: fieldPath(key), line: line(of: key), problem: .invalid(reason))
    }

    // MARK: Strings and Booleans

    /// A required string, of at most `maximumBytes` bytes of UTF-8 when given.
    public func string(_ key: String, maximumBytes: Int? = nil) throws(JSONFieldError) -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw wrongType(key, "a string", value) }
        if let maximumBytes, text.utf8.count > maximumBytes { throw error(key, "must be at most \(maximumBytes) bytes long") }
        return text
    }

    /// An optional string, of at most `maximumBytes` bytes of UTF-8 when given.
    public func optionalString(_ key: String, maximumBytes: Int? = nil) throws(JSONFieldError) -> String? {
        guard value(key) != nil else { return nil }
        return try string(key, maximumBytes: maximumBytes)
    }

    /// A required Boolean.
    public func bool(_ key: String) throws(JSONFieldError) -> Bool {
        let value = try required(key)
        guard case .bool(let flag) = value else { throw wrongType(key, "true or false", value) }
        return flag
    }

    /// An optional Boolean.
    public func optionalBool(_ key: String) throws(JSONFieldError) -> Bool? {
        guard value(key) != nil else { return nil }
        return try bool(key)
    }

    // MARK: Numbers

    /// A required finite number, written with or without a fraction.
    public func number(_ key: String) throws(JSONFieldError) -> Double {
        let value = try required(key)
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number):
            guard number.isFinite else {
                throw JSONFieldError(path: fieldPath(key), line: line(of: key), problem: .notFinite(written: written(key, number)))
            }
            return number
        default: throw wrongType(key, "a number", value)
        }
    }

    /// An optional finite number.
    public func optionalNumber(_ key: String) throws(JSONFieldError) -> Double? {
        guard value(key) != nil else { return nil }
        return try number(key)
    }

    /// A required finite number within `range` (above its lower bound, not at it, when
    /// `excludingLowerBound`).
    public func number(_ key: String, in range: ClosedRange<Double>, excludingLowerBound: Bool = false) throws(JSONFieldError) -> Double {
        let value = try number(key)
        let isAboveLower = excludingLowerBound ? value > range.lowerBound : value >= range.lowerBound
        guard isAboveLower, value <= range.upperBound else {
            let lower = excludingLowerBound ? "greater than \(Self.text(range.lowerBound))" : "at least \(Self.text(range.lowerBound))"
            throw error(key, "must be \(lower) and at most \(Self.text(range.upperBound)), got \(Self.text(value))")
        }
        return value
    }

    /// An optional finite number within `range`.
    public func optionalNumber(_ key: String, in range: ClosedRange<Double>, excludingLowerBound: Bool = false) throws(JSONFieldError)
        -> Double?
    {
        guard value(key) != nil else { return nil }
        return try number(key, in: range, excludingLowerBound: excludingLowerBound)
    }

    /// A required whole number that fits in 64 bits. In a document it must also be written as one
    /// (`12`, not `12.0` or `1.2e1`); for the API, as Foundation reads JSON, however it is written.
    public func integer(_ key: String) throws(JSONFieldError) -> Int64 {
        let value = try required(key)
        switch value {
        case .integer(let integer):
            if let text = place?.member(key)?.text,
                text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
            {
                throw JSONFieldError(path: fieldPath(key), line: line(of: key), problem: .notWhole(written: text))
            }
            return integer
        case .number(let number):
            throw JSONFieldError(path: fieldPath(key), line: line(of: key), problem: .notWhole(written: written(key, number)))
        default: throw wrongType(key, "a whole number", value)
        }
    }

    /// An optional whole number.
    public func optionalInteger(_ key: String) throws(JSONFieldError) -> Int64? {
        guard value(key) != nil else { return nil }
        return try integer(key)
    }

    /// A required whole number within `range`.
    public func integer(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
        let integer = try integer(key)
        guard let whole = Int(exactly: integer), range.contains(whole) else {
            throw JSONFieldError(
                path: fieldPath(key), line: line(of: key),
                problem: .outOfRange(lower: "\(range.lowerBound)", upper: "\(range.upperBound)", found: "\(integer)"))
        }
        return whole
    }

    /// A required whole number that `Value` holds.
    public func integer<Value: FixedWidthInteger>(_ key: String, as type: Value.Type) throws(JSONFieldError) -> Value {
        let integer = try integer(key)
        guard let value = Value(exactly: integer) else {
            throw JSONFieldError(
                path: fieldPath(key), line: line(of: key),
                problem: .outOfRange(lower: "\(Value.min)", upper: "\(Value.max)", found: "\(integer)"))
        }
        return value
    }

    /// An optional whole number that `Value` holds.
    public func optionalInteger<Value: FixedWidthInteger>(_ key: String, as type: Value.Type) throws(JSONFieldError) -> Value? {
        guard value(key) != nil else { return nil }
        return try integer(key, as: type)
    }

    /// An optional whole number within `range`.
    public func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int? {
        guard value(key) != nil else { return nil }
        return try integer(key, in: range)
    }

    /// A number as its text wrote it (`NaN`, `1e999`), or as Swift writes it without the text.
    private func written(_ key: String, _ number: Double) -> String { place?.member(key)?.text ?? "\(number)" }

    /// A bound or a value as a person writes it: whole numbers without a fraction.
    static func text(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    // MARK: Names

    /// A required name out of `Value`'s cases.
    public func choice<Value: RawRepresentable & CaseIterable>(_ key: String, as type: Value.Type) throws(JSONFieldError) -> Value
    where Value.RawValue == String {
        try choice(key, Value.allCases.map { ($0.rawValue, $0) })
    }

    /// An optional name out of `Value`'s cases.
    public func optionalChoice<Value: RawRepresentable & CaseIterable>(_ key: String, as type: Value.Type) throws(JSONFieldError)
        -> Value? where Value.RawValue == String
    {
        guard value(key) != nil else { return nil }
        return try choice(key, as: type)
    }

    /// A required name out of `choices`, each with the value it stands for.
    public func choice<Value>(_ key: String, _ choices: [(name: String, value: Value)]) throws(JSONFieldError) -> Value {
        let value = try required(key)
        guard case .string(let name) = value else {
            throw JSONFieldError(
                path: fieldPath(key), line: line(of: key), problem: .notOneOf(choices.map(\.name), found: .type(value.typeName)))
        }
        guard let match = choices.first(where: { $0.name == name }) else {
            throw JSONFieldError(path: fieldPath(key), line: line(of: key), problem: .notOneOf(choices.map(\.name), found: .name(name)))
        }
        return match.value
    }

    /// An optional name out of `choices`.
    public func optionalChoice<Value>(_ key: String, _ choices: [(name: String, value: Value)]) throws(JSONFieldError) -> Value? {
        guard value(key) != nil else { return nil }
        return try choice(key, choices)
    }

    // MARK: Objects and arrays

    /// A required object.
    public func object(_ key: String) throws(JSONFieldError) -> JSONFields {
        try JSONFields(try required(key), place: place?.member(key), path: fieldPath(key), nullIsAbsent: nullIsAbsent)
    }

    /// An optional object.
    public func optionalObject(_ key: String) throws(JSONFieldError) -> JSONFields? {
        guard value(key) != nil else { return nil }
        return try object(key)
    }

    /// A required array's elements, each with its path (`subjects[2]`) and line.
    public func array(_ key: String) throws(JSONFieldError) -> [JSONElement] {
        let value = try required(key)
        guard case .array(let values) = value else { throw wrongType(key, "an array", value) }
        let places = place?.member(key)?.elements
        let arrayPath = fieldPath(key)
        return values.indices.map { index in
            JSONElement(
                value: values[index], arrayPath: arrayPath, index: index, place: places.flatMap { index < $0.count ? $0[index] : nil },
                nullIsAbsent: nullIsAbsent)
        }
    }

    /// An optional array's elements.
    public func optionalArray(_ key: String) throws(JSONFieldError) -> [JSONElement]? {
        guard value(key) != nil else { return nil }
        return try array(key)
    }

    /// A required array of objects, each read by `read`.
    public func objects<Value>(_ key: String, _ read: (JSONFields) throws(JSONFieldError) -> Value) throws(JSONFieldError) -> [Value] {
        var values: [Value] = []
        for element in try array(key) { values.append(try read(element.fields())) }
        return values
    }

    /// A required array of strings.
    public func strings(_ key: String) throws(JSONFieldError) -> [String] {
        var strings: [String] = []
        for element in try array(key) { strings.append(try element.string()) }
        return strings
    }

    /// A required array of whole numbers.
    public func integers(_ key: String) throws(JSONFieldError) -> [Int64] {
        var integers: [Int64] = []
        for element in try array(key) { integers.append(try element.integer()) }
        return integers
    }

    // MARK: Unknown members

    /// Refuses a document's object member that nobody read: the first in the text's order. (A
    /// value read for the API keeps no note of what was read: `refuseUnknown` checks its names.)
    public func finish() throws(JSONFieldError) {
        guard let used, let place else { return }
        if let unread = place.members.first(where: { !used.keys.contains($0.key) }) {
            throw JSONFieldError(path: fieldPath(unread.key), line: unread.place.line, problem: .unknown)
        }
    }

    /// Refuses a member whose name `allows` refuses, before anything is read: the first in sorted
    /// order (the API's check of a call's parameters).
    public func refuseUnknown(allowing allows: (String) -> Bool) throws(JSONFieldError) {
        guard members.keys.contains(where: { !allows($0) }) else { return }
        for name in members.keys.sorted() where !allows(name) {
            throw JSONFieldError(path: fieldPath(name), line: line(of: name), problem: .unknown)
        }
    }
}

/// One element of an array read by `JSONFields`: its value, its path (made only when asked for:
/// an array of 512 numbers makes no path text unless one is wrong) and its line.
public struct JSONElement {
    /// The element's value.
    public let value: JSONValue
    private let arrayPath: String
    /// Its index in the array.
    public let index: Int
    private let place: JSONPlace?
    private let nullIsAbsent: Bool

    init(value: JSONValue, arrayPath: String, index: Int, place: JSONPlace?, nullIsAbsent: Bool) {
        self.value = value
        self.arrayPath = arrayPath
        self.index = index
        self.place = place
        self.nullIsAbsent = nullIsAbsent
    }

    /// The element's path (`subjects[2]`).
    public var path: String { "\(arrayPath)[\(index)]" }
    /// The line it starts on; nil without the text's places.
    public var line: Int? { place?.line }

    /// The element read as an object.
    public func fields() throws(JSONFieldError) -> JSONFields {
        try JSONFields(value, place: place, path: path, nullIsAbsent: nullIsAbsent)
    }

    /// An error about the element in the reader's own words.
    public func error(_ reason: String) -> JSONFieldError { JSONFieldError(path: path, line: line, problem: .invalid(reason)) }

    /// The error for an element that is not `expected` (`a string`).
    public func wrongType(_ expected: String) -> JSONFieldError {
        JSONFieldError(path: path, line: line, problem: .wrongType(expected: expected, found: value.typeName))
    }

    /// The element as a string.
    public func string() throws(JSONFieldError) -> String {
        guard case .string(let text) = value else { throw wrongType("a string") }
        return text
    }

    /// The element as a finite number.
    public func number() throws(JSONFieldError) -> Double {
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number):
            guard number.isFinite else {
                throw JSONFieldError(path: path, line: line, problem: .notFinite(written: place?.text ?? "\(number)"))
            }
            return number
        default: throw wrongType("a number")
        }
    }

    /// The element as a whole number (in a document, written as one).
    public func integer() throws(JSONFieldError) -> Int64 {
        switch value {
        case .integer(let integer):
            if let text = place?.text,
                text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
            {
                throw JSONFieldError(path: path, line: line, problem: .notWhole(written: text))
            }
            return integer
        case .number(let number): throw JSONFieldError(path: path, line: line, problem: .notWhole(written: place?.text ?? "\(number)"))
        default: throw wrongType("a whole number")
        }
    }
}
