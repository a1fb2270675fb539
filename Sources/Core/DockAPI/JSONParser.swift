public import DockJSON

/// The API's JSON reader: dockd's one reader (`DockJSON`'s `JSONReader`), which reads numbers as
/// Foundation's decoder did — whole numbers that fit in 64 bits are integers, however they are
/// written (12, 12.0, 1.2e1), the rest doubles — and objects as Foundation's (a key given twice:
/// the last one counts). A number that does not fit in a double (1e999, valid JSON) is an error,
/// or, for a Varlink call, an infinity that the parameter check then refuses by name
/// (`InvalidParameter`, its path). Also errors: invalid UTF-8, unescaped control characters, lone
/// surrogates, trailing text, and nesting deeper than 128.
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
            return try JSONReader.parse(bytes, options: options)
        } catch {
            throw Malformed(offset: error.offset, reason: error.message)
        }
    }
}

extension JSONValue {
    /// Parses JSON text given as bytes, as the API reads it.
    public static func parse(bytes: [UInt8]) throws -> JSONValue {
        try JSONParser.parse(bytes)
    }
}
