/// Hex text as firmware authors and logic analysers write it.
enum Hex {
    /// Why hex text could not be read.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    /// Parses pairs of hex digits; whitespace, ':' and '-' between pairs are ignored and '#'
    /// starts a comment that runs to the end of the line.
    static func parse(_ text: String) throws(ParseError) -> [UInt8] {
        var bytes: [UInt8] = []
        var pendingHighNibble: UInt8?
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            for character in line.prefix(while: { $0 != "#" }) {
                if let nibble = character.hexDigitValue.map(UInt8.init) {
                    if let high = pendingHighNibble {
                        bytes.append(high << 4 | nibble)
                        pendingHighNibble = nil
                    } else {
                        pendingHighNibble = nibble
                    }
                } else if character.isWhitespace || character == ":" || character == "-" {
                    guard pendingHighNibble == nil else {
                        throw ParseError(line: lineNumber, message: "a lone hex digit before '\(character)'")
                    }
                } else {
                    throw ParseError(line: lineNumber, message: "'\(character)' is not a hex digit")
                }
            }
            if pendingHighNibble != nil {
                throw ParseError(line: lineNumber, message: "odd number of hex digits")
            }
        }
        return bytes
    }

    /// Formats bytes as space-separated pairs of lower-case digits.
    static func format(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
