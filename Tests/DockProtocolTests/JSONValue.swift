import Foundation

/// A JSON document as read from a vector file, keeping 64-bit integers exact.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .unsigned(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var description: String {
        switch self {
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .unsigned(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[\(values.map(\.description).joined(separator: ", "))]"
        case .object(let members):
            "{\(members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", "))}"
        case .null: "null"
        }
    }

    /// Why a vector does not have the shape its file's format promises.
    struct ShapeError: Error, CustomStringConvertible {
        var path: String
        var expected: String
        var description: String { "vector field \(path): expected \(expected)" }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    func member(_ key: String) throws -> JSONValue {
        guard let value = self[key] else { throw ShapeError(path: key, expected: "a value") }
        return value
    }

    func string(_ key: String) throws -> String {
        guard case .string(let value) = try member(key) else { throw ShapeError(path: key, expected: "a string") }
        return value
    }

    func bool(_ key: String) throws -> Bool {
        guard case .bool(let value) = try member(key) else { throw ShapeError(path: key, expected: "a Boolean") }
        return value
    }

    func integer<Value: FixedWidthInteger>(_ key: String, as _: Value.Type = Value.self) throws -> Value {
        let converted: Value? =
            switch try member(key) {
            case .integer(let value): Value(exactly: value)
            case .unsigned(let value): Value(exactly: value)
            default: nil
            }
        guard let converted else { throw ShapeError(path: key, expected: "an integer that fits \(Value.self)") }
        return converted
    }

    func array(_ key: String) throws -> [JSONValue] {
        guard case .array(let values) = try member(key) else { throw ShapeError(path: key, expected: "an array") }
        return values
    }

    func strings(_ key: String) throws -> [String] {
        try array(key).map { value in
            guard case .string(let text) = value else { throw ShapeError(path: key, expected: "strings") }
            return text
        }
    }

    /// Reads and parses a JSON file.
    static func load(_ url: URL) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
    }
}
