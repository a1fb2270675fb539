/// dockd's one JSON reader (RFC 8259), for the API's requests and for every file it reads —
/// scenarios, VISCA profiles, UVC camera models, footage manifests. One pass over the bytes into
/// the one value tree, `JSONValue`: a number that is whole and fits in 64 bits is an integer,
/// however it is written (`12`, `12.0`, `1.2e1`, as Foundation's decoder reads it), any other a
/// double; in an object a key given twice keeps its last value (unless refused). For a file,
/// `document` also keeps where each value stood (its line, a number's text, the members' order),
/// for the field reader's errors. Refused, by a `JSONSyntaxError` with line and byte offset:
/// invalid UTF-8, unescaped control characters, lone surrogates, a number with a leading zero,
/// trailing text, and nesting deeper than `maximumDepth`. What the options allow is all that
/// differs between its users.
public enum JSONReader {
    /// What a reader accepts beyond RFC 8259's grammar, and what it refuses within it.
    public struct Options: Hashable, Sendable {
        /// A number beyond a double's range (`1e999`, valid JSON) becomes an infinity of its sign,
        /// for a reader that names the field it is in when it refuses it; otherwise it is a syntax
        /// error.
        public var overflowIsInfinity = false
        /// `NaN`, `Infinity` and `-Infinity` are read as numbers (not JSON), so that a file's
        /// schema can refuse them by the field's name.
        public var readsNonFiniteLiterals = false
        /// A key given twice in one object is refused; otherwise the members keep both.
        public var refusesDuplicateKeys = false
        /// Objects and arrays nested deeper than this are refused.
        public var maximumDepth = 128

        /// RFC 8259, numbers beyond a double refused, duplicate keys kept.
        public init() {}

        /// For a file a person writes: non-finite numbers read (to be refused by field), and a key
        /// given twice refused.
        public static var file: Options {
            var options = Options()
            options.overflowIsInfinity = true
            options.readsNonFiniteLiterals = true
            options.refusesDuplicateKeys = true
            return options
        }
    }

    /// Reads one JSON text's value.
    public static func parse(_ bytes: [UInt8], options: Options = Options()) throws(JSONSyntaxError) -> JSONValue {
        try read(bytes, options: options, keepsPlaces: false).0
    }

    /// Reads one JSON text's value.
    public static func parse(_ text: String, options: Options = Options()) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), options: options)
    }

    /// Reads one JSON text with where each of its values stood, as a file's reader needs it.
    public static func document(_ bytes: [UInt8], options: Options = .file) throws(JSONSyntaxError) -> JSONDocument {
        let (value, place) = try read(bytes, options: options, keepsPlaces: true)
        return JSONDocument(value: value, place: place ?? JSONPlace(line: 1))
    }

    /// Reads one JSON text with where each of its values stood, as a file's reader needs it.
    public static func document(_ text: String, options: Options = .file) throws(JSONSyntaxError) -> JSONDocument {
        try document(Array(text.utf8), options: options)
    }

    private static func read(_ bytes: [UInt8], options: Options, keepsPlaces: Bool) throws(JSONSyntaxError) -> (JSONValue, JSONPlace?) {
        var scanner = Scanner(bytes: bytes, options: options, keepsPlaces: keepsPlaces)
        scanner.skipWhitespace()
        let read = try scanner.value()
        scanner.skipWhitespace()
        guard scanner.index == scanner.bytes.count else { throw scanner.error("unexpected text after the JSON value") }
        return read
    }
}

/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The byte offset of the problem from the start of the text.
    public var offset: Int
    /// What is wrong.
    public var message: String

    /// An error.
    public init(line: Int, offset: Int, message: String) {
        self.line = line
        self.offset = offset
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

private struct Scanner {
    let bytes: [UInt8]
    let options: JSONReader.Options
    /// Whether each value's place is kept (a document), or only the values (the API).
    let keepsPlaces: Bool
    var index = 0
    var line = 1
    var depth = 0

    init(bytes: [UInt8], options: JSONReader.Options, keepsPlaces: Bool) {
        self.bytes = bytes
        self.options = options
        self.keepsPlaces = keepsPlaces
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(line: line, offset: offset ?? index, message: message)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: line += 1
            case 0x20, 0x09, 0x0D: break
            default: return
            }
            index += 1
        }
    }

    mutating func expect(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of the text, expected '\(literal)'") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("expected '\(literal)'")
        }
        index += count
    }

    /// The next value, and its place when places are kept.
    mutating func value() throws(JSONSyntaxError) -> (JSONValue, JSONPlace?) {
        let startLine = line
        guard let byte = current else { throw error("unexpected end of the text") }
        let value: JSONValue
        var text: String?
        switch byte {
        case UInt8(ascii: "{"): return try object(line: startLine)
        case UInt8(ascii: "["): return try array(line: startLine)
        case UInt8(ascii: "\""): value = .string(try string())
        case UInt8(ascii: "t"):
            try expect("true")
            value = .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            value = .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            value = .null
        case UInt8(ascii: "N") where options.readsNonFiniteLiterals:
            try expect("NaN")
            (value, text) = (.number(.nan), "NaN")
        case UInt8(ascii: "I") where options.readsNonFiniteLiterals:
            try expect("Infinity")
            (value, text) = (.number(.infinity), "Infinity")
        case UInt8(ascii: "-") where options.readsNonFiniteLiterals && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "I"):
            try expect("-Infinity")
            (value, text) = (.number(-.infinity), "-Infinity")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): (value, text) = try number()
        case 0x21...0x7E: throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        default: throw error("unexpected byte 0x\(String(byte, radix: 16, uppercase: true))")
        }
        return (value, keepsPlaces ? JSONPlace(line: startLine, text: text) : nil)
    }

    mutating func nest() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= options.maximumDepth else { throw error("nested more than \(options.maximumDepth) levels deep") }
        index += 1
    }

    /// An object; a key given twice keeps its last value, unless the options refuse it.
    mutating func object(line startLine: Int) throws(JSONSyntaxError) -> (JSONValue, JSONPlace?) {
        try nest()
        var members: [String: JSONValue] = [:]
        var places: [(key: String, place: JSONPlace)] = []
        func done() -> (JSONValue, JSONPlace?) {
            (.object(members), keepsPlaces ? JSONPlace(line: startLine, members: places) : nil)
        }
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return done()
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let keyOffset = index
            let key = try string()
            if options.refusesDuplicateKeys, members[key] != nil {
                throw error("key \"\(key)\" appears twice", at: keyOffset)
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            let (value, place) = try value()
            members[key] = value
            if let place { places.append((key, place)) }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return done()
            default: throw error("expected ',' or '}' after the value of \"\(key)\"")
            }
        }
    }

    mutating func array(line startLine: Int) throws(JSONSyntaxError) -> (JSONValue, JSONPlace?) {
        try nest()
        var elements: [JSONValue] = []
        var places: [JSONPlace] = []
        func done() -> (JSONValue, JSONPlace?) {
            (.array(elements), keepsPlaces ? JSONPlace(line: startLine, elements: places) : nil)
        }
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return done()
        }
        while true {
            skipWhitespace()
            let (value, place) = try value()
            elements.append(value)
            if let place { places.append(place) }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return done()
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1  // the opening quote
        let start = index
        // The common case: no escapes.
        var isASCII = true
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
            if bytes[index] >= 0x80 { isASCII = false }
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let text: String
            if isASCII {
                // ASCII is valid UTF-8 as it stands. `String(validating:)` over a slice was
                // generic and unspecialised here (a metadata look-up for every string): 20 % of
                // a client's CPU reading a status.
                text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<index]), as: UTF8.self) }
            } else {
                guard let valid = String(validating: bytes[start..<index], as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string", at: start)
                }
                text = valid
            }
            index += 1
            return text
        }
        var utf8 = Array(bytes[start..<index])
        while true {
            guard let byte = current else { throw error("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else { throw error("invalid UTF-8 in a string", at: start) }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { throw error("unfinished escape in a string") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a lone surrogate \\u\(String(code, radix: 16, uppercase: true)) in a string")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw error("a lone surrogate \\u\(String(code, radix: 16, uppercase: true)) in a string")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("a lone surrogate \\u\(String(code, radix: 16, uppercase: true)) in a string")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    throw error("unknown escape in a string")
                }
            case 0x00..<0x20:
                throw error(byte == 0x0A ? "a string runs past the end of the line" : "control character in a string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("\\u must be followed by four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("\\u must be followed by four hex digits")
            }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    /// A number, with its text: an integer when it is whole and fits in 64 bits, however written
    /// (a whole number written without a fraction or an exponent is read exactly, even where a
    /// double could not hold it); otherwise a double.
    mutating func number() throws(JSONSyntaxError) -> (JSONValue, String) {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { throw error("a number needs digits") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw error("a number must not start with 0", at: integerStart)
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
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let exact = Int64(text)
        {
            return (.integer(exact), text)
        }
        guard let number = Double(text) else { throw error("\(text) is not a number", at: start) }
        guard number.isFinite || options.overflowIsInfinity else { throw error("\(text) is beyond the range of a double", at: start) }
        if number == number.rounded(), abs(number) < 9.2e18, let whole = Int64(exactly: number) { return (.integer(whole), text) }
        return (.number(number), text)
    }
}
