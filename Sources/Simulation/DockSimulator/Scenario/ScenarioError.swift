import DockJSON

/// Why a scenario file was refused: the field (as a path such as `subjects[1].path.waypoints[0].t_s`),
/// its line, and what is wrong with it.
public struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending field, or "" for the document itself.
    public var field: String
    /// The 1-based line of the offending value.
    public var line: Int
    /// What is wrong and what would be right.
    public var message: String

    /// Creates an error.
    public init(field: String, line: Int, message: String) {
        self.field = field
        self.line = line
        self.message = message
    }

    public var description: String {
        field.isEmpty ? "line \(line): \(message)" : "line \(line): \(field): \(message)"
    }
}

/// Reads the members of one JSON object, tracking which keys were used so that unknown keys can be
/// refused.
struct ObjectReader {
    let path: String
    let line: Int
    private let members: [JSONNode.Member]
    private var used: Set<String> = []

    init(_ node: JSONNode, path: String) throws(ScenarioError) {
        guard case .object(let members) = node.value else {
            throw ScenarioError(field: path, line: node.line, message: "must be an object, got \(node.kindName)")
        }
        self.path = path
        self.line = node.line
        self.members = members
    }

    func fieldPath(_ key: String) -> String {
        if key.isEmpty { return path }
        return path.isEmpty ? key : "\(path).\(key)"
    }

    mutating func node(_ key: String) -> JSONNode? {
        used.insert(key)
        return members.first { $0.key == key }?.node
    }

    func error(_ key: String, _ message: String, line: Int? = nil) -> ScenarioError {
        ScenarioError(field: fieldPath(key), line: line ?? self.line, message: message)
    }

    private mutating func required(_ key: String) throws(ScenarioError) -> JSONNode {
        guard let node = node(key) else { throw error(key, "is required") }
        return node
    }

    /// A number within `range`, or `defaultValue` when absent (required when there is none).
    mutating func number(
        _ key: String, in range: ClosedRange<Double>, default defaultValue: Double? = nil,
        excludingLowerBound: Bool = false
    ) throws(ScenarioError) -> Double {
        guard let node = node(key) else {
            guard let defaultValue else { throw error(key, "is required") }
            return defaultValue
        }
        guard case .number(let value, let text) = node.value else {
            throw error(key, "must be a number, got \(node.kindName)", line: node.line)
        }
        guard value.isFinite else { throw error(key, "must be a finite number, got \(text)", line: node.line) }
        let lowOK = excludingLowerBound ? value > range.lowerBound : value >= range.lowerBound
        guard lowOK, value <= range.upperBound else {
            let low = excludingLowerBound ? "greater than \(format(range.lowerBound))" : "at least \(format(range.lowerBound))"
            throw error(key, "must be \(low) and at most \(format(range.upperBound)), got \(format(value))", line: node.line)
        }
        return value
    }

    /// A whole number within `range`.
    mutating func integer(
        _ key: String, in range: ClosedRange<Int>, default defaultValue: Int? = nil
    ) throws(ScenarioError) -> Int {
        guard let node = node(key) else {
            guard let defaultValue else { throw error(key, "is required") }
            return defaultValue
        }
        guard case .number(let value, let text) = node.value else {
            throw error(key, "must be a whole number, got \(node.kindName)", line: node.line)
        }
        guard value.isFinite, !text.contains("."), !text.contains("e"), !text.contains("E"),
            let whole = Int(exactly: value)
        else {
            throw error(key, "must be a whole number, got \(text)", line: node.line)
        }
        guard range.contains(whole) else {
            throw error(key, "must be from \(range.lowerBound) to \(range.upperBound), got \(whole)", line: node.line)
        }
        return whole
    }

    /// A string, or `defaultValue` when absent.
    mutating func string(_ key: String, default defaultValue: String? = nil, maximumBytes: Int = 1024) throws(ScenarioError) -> String {
        guard let node = node(key) else {
            guard let defaultValue else { throw error(key, "is required") }
            return defaultValue
        }
        guard case .string(let value) = node.value else {
            throw error(key, "must be a string, got \(node.kindName)", line: node.line)
        }
        guard value.utf8.count <= maximumBytes else {
            throw error(key, "must be at most \(maximumBytes) bytes long", line: node.line)
        }
        return value
    }

    /// One of a fixed set of names.
    mutating func choice<T>(_ key: String, _ choices: [(String, T)], default defaultValue: T? = nil) throws(ScenarioError) -> T {
        guard let node = node(key) else {
            guard let defaultValue else { throw error(key, "is required") }
            return defaultValue
        }
        let names = choices.map { "\"\($0.0)\"" }.joined(separator: ", ")
        guard case .string(let value) = node.value else {
            throw error(key, "must be one of \(names), got \(node.kindName)", line: node.line)
        }
        guard let match = choices.first(where: { $0.0 == value }) else {
            throw error(key, "unknown value \"\(value)\"; expected one of \(names)", line: node.line)
        }
        return match.1
    }

    /// A Boolean, or `defaultValue` when absent.
    mutating func bool(_ key: String, default defaultValue: Bool) throws(ScenarioError) -> Bool {
        guard let node = node(key) else { return defaultValue }
        guard case .bool(let value) = node.value else {
            throw error(key, "must be true or false, got \(node.kindName)", line: node.line)
        }
        return value
    }

    /// A nested object, or nil when absent.
    mutating func object(_ key: String) throws(ScenarioError) -> ObjectReader? {
        guard let node = node(key) else { return nil }
        return try ObjectReader(node, path: fieldPath(key))
    }

    /// The elements of an array with their paths, or [] when absent.
    mutating func array(_ key: String, required: Bool = false) throws(ScenarioError) -> [(node: JSONNode, path: String)] {
        guard let node = node(key) else {
            if required { throw error(key, "is required") }
            return []
        }
        guard case .array(let elements) = node.value else {
            throw error(key, "must be an array, got \(node.kindName)", line: node.line)
        }
        return elements.enumerated().map { ($1, "\(fieldPath(key))[\($0)]") }
    }

    /// Refuses keys that no reader asked for.
    func finish() throws(ScenarioError) {
        for member in members where !used.contains(member.key) {
            throw ScenarioError(field: fieldPath(member.key), line: member.node.line, message: "is not a known field")
        }
    }
}

private func format(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
