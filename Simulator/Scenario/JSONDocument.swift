/// A small JSON reader that remembers the line of every value, so that a scenario file's errors
/// can name the field and the line. RFC 8259 (no comments, no trailing commas), except that it
/// reads `NaN`, `Infinity`, `-Infinity` and numbers too large for a `Double` as non-finite
/// numbers, so that the schema, which knows the field, can refuse them by name.
public struct JSONNode: Sendable {
    /// A JSON value.
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double, text: String)
        case string(String)
        case array([JSONNode])
        /// Members in file order (duplicate keys are refused when parsing).
        case object([(key: String, node: JSONNode)])
    }

    /// The value.
    public var value: Value
    /// The 1-based line where the value starts.
    public var line: Int

    /// What kind of value this is, for error messages.
    public var kindName: String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why a JSON text could not be read.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// What is wrong.
    public var message: String

    public var description: String { "line \(line): \(message)" }
}

/// Parses a whole JSON text.
public func parseJSON(_ text: String) throws(JSONSyntaxError) -> JSONNode {
    var parser = JSONParser(bytes: Array(text.utf8))
    parser.skipWhitespace()
    let node = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
    return node
}

private struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    static let maximumDepth = 64

    func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(line: line, message: message) }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            if byte == 0x0A { line += 1 }
            index += 1
        }
    }

    mutating func expect(_ literal: String) throws(JSONSyntaxError) {
        for byte in literal.utf8 {
            guard current == byte else { throw error("expected '\(literal)'") }
            index += 1
        }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
        let startLine = line
        guard let byte = current else { throw error("unexpected end of the file") }
        let value: JSONNode.Value
        switch byte {
        case UInt8(ascii: "{"): value = try parseObject(depth: depth)
        case UInt8(ascii: "["): value = try parseArray(depth: depth)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); value = .bool(true)
        case UInt8(ascii: "f"): try expect("false"); value = .bool(false)
        case UInt8(ascii: "n"): try expect("null"); value = .null
        case UInt8(ascii: "N"): try expect("NaN"); value = .number(.nan, text: "NaN")
        case UInt8(ascii: "I"): try expect("Infinity"); value = .number(.infinity, text: "Infinity")
        case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "I"):
            try expect("-Infinity")
            value = .number(-.infinity, text: "-Infinity")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try parseNumber()
        default:
            throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
        return JSONNode(value: value, line: startLine)
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        index += 1
        var members: [(key: String, node: JSONNode)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try parseString()
            guard !members.contains(where: { $0.key == key }) else { throw error("key \"\(key)\" appears twice") }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}' after the value of \"\(key)\"")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll()
        }
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard let escape = current else { throw error("unfinished escape in a string") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                    else { throw error("\\u must be followed by four hex digits") }
                    index += 4
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default:
                    throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            case 0x00..<0x20:
                throw error(byte == 0x0A ? "a string runs past the end of the line" : "control character in a string")
            default:
                utf8.append(byte)
            }
        }
        throw error("a string is not closed")
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNode.Value {
        let start = index
        func digits() -> Int {
            let first = index
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { throw error("a number needs digits") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw error("a number must not start with 0")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text) else { throw error("\(text) is not a number") }
        return .number(number, text: text)
    }
}
