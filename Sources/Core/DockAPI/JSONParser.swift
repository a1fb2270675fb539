public import DockJSON

/// The API's JSON reader: dockd's one reader (`DockJSON`'s `JSONReader`) with the API's reading of
/// its numbers — whole numbers that fit in 64 bits are integers, however they are written (12,
/// 12.0, 1.2e1), the rest doubles, as Foundation's decoder made them — and of its objects (a key
/// given twice: the last one counts, as in Foundation's). A number that does not fit in a double
/// (1e999, valid JSON) is an error, or, for a Varlink call, an infinity that the parameter check
/// then refuses by name (`InvalidParameter`, its path). Also errors: invalid UTF-8, unescaped
/// control characters, lone surrogates, trailing text, and nesting deeper than 128.
struct JSONParser {
    /// Why the text is not JSON, and where.
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "malformed JSON at byte \(offset): \(reason)" }
    }

    /// Parses one JSON text. `keepsOverflow`: a number beyond a double's range becomes an
    /// infinity of its sign instead of an error, for a reader that names the field it is in.
    static func parse(_ bytes: [UInt8], keepsOverflow: Bool = false) throws(Malformed) -> JSONValue {
        var options = JSONReader.Options()
        options.overflowIsInfinity = keepsOverflow
        do {
            return JSONValue(try JSONReader.parse(bytes, options: options))
        } catch {
            throw Malformed(offset: error.offset, reason: error.message)
        }
    }
}

extension JSONValue {
    /// The API's value of a node read by `JSONReader`.
    init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value, _): self = node.wholeNumber.map(JSONValue.integer) ?? .number(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(JSONValue.init))
        case .object(let members):
            var object: [String: JSONValue] = Dictionary(minimumCapacity: members.count)
            for member in members { object[member.key] = JSONValue(member.node) }
            self = .object(object)
        }
    }
}

extension JSONValue {
    /// Parses JSON text given as bytes, as the API reads it.
    public static func parse(bytes: [UInt8]) throws -> JSONValue {
        try JSONParser.parse(bytes)
    }
}
