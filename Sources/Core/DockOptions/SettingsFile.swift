/// A settings file in dockd.conf's style — `key = value` lines, `#` comments, blank lines — read
/// against declared options: each key is an option's name without its dashes, and its value is
/// checked as the option's would be on the command line. A program whose every setting is an
/// `Option` reads its file with this and its flags with `OptionParser`, so every key is also a flag.
public enum SettingsFile {
    /// One setting as the file gave it.
    public struct Line: Hashable, Sendable {
        /// The key, an option's name without `--`.
        public var key: String
        /// The value, spaces at either end trimmed.
        public var value: String
        /// The line's number, from 1.
        public var number: Int
    }

    /// Reads `text` into `key = value` lines, checking each against `options`.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - path: The file's name, for errors (`PATH:LINE: ...`).
    ///   - options: The declared options; a flag's value is `true` or `false` (also yes/no, on/off, 1/0).
    /// - Returns: The options as if given on the command line, in the file's order, each value
    ///   joined to its option (`--face-model=PATH`) so that a value which looks like an option's
    ///   name stays a value (a flag set false is left out, a flag set true given without a value).
    /// - Throws: `OptionError` naming the file and line: a line without `=`, an unknown key, a bad value.
    public static func arguments(fromText text: String, path: String, options: [Option]) throws(OptionError) -> [String] {
        var arguments: [String] = []
        for line in try lines(text, path: path) {
            let location = "\(path):\(line.number)"
            guard let option = options.first(where: { $0.name == "--" + line.key }) else {
                throw OptionError("\(location): unknown setting '\(line.key)'")
            }
            if option.takesValue {
                do {
                    try OptionParser.check(line.value, for: option)
                } catch {
                    throw OptionError("\(location): \(error.message)")
                }
                arguments.append("\(option.name)=\(line.value)")
            } else {
                switch line.value {
                case "true", "yes", "on", "1": arguments.append(option.name)
                case "false", "no", "off", "0": continue
                default: throw OptionError("\(location): \(line.key) must be true or false, got '\(line.value)'")
                }
            }
        }
        return arguments
    }

    /// The `key = value` lines of `text`, comments and blank lines skipped.
    /// - Throws: `OptionError` for a line that has no `=` or no key.
    public static func lines(_ text: String, path: String) throws(OptionError) -> [Line] {
        var result: [Line] = []
        // Lines end at every LF scalar (a CRLF is one Character), and a comment starts at the
        // first "#" scalar, as in dockd.conf.
        for (index, scalars) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = trimmed(Substring(scalars.prefix { $0 != "#" }))
            guard !line.isEmpty else { continue }
            let lineScalars = line.unicodeScalars
            guard let equals = lineScalars.firstIndex(of: "=") else {
                throw OptionError("\(path):\(index + 1): expected 'key = value', got '\(line)'")
            }
            let key = trimmed(Substring(lineScalars[..<equals]))
            guard !key.isEmpty else { throw OptionError("\(path):\(index + 1): a setting needs a key before '='") }
            let value = trimmed(Substring(lineScalars[lineScalars.index(after: equals)...]))
            result.append(Line(key: key, value: value, number: index + 1))
        }
        return result
    }

    /// Without the spaces, tabs and CRs at either end, scalar by scalar.
    static func trimmed(_ text: Substring) -> String {
        func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\r" }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// The settings file's text for these options, every one commented out at its default: what a
    /// package installs for the user to edit.
    ///
    /// - Parameters:
    ///   - header: Comment lines to open the file with (without `#`).
    ///   - options: The settings, in order.
    public static func template(header: [String], options: [Option]) -> String {
        var lines = header.map { $0.isEmpty ? "#" : "# " + $0 }
        for option in options {
            lines.append("")
            lines.append(HelpText.wrap(option.help, width: 96).split(separator: "\n").map { "# " + $0 }.joined(separator: "\n"))
            let key = String(option.name.dropFirst(2))
            let value = option.takesValue ? (option.defaultText ?? "") : (option.defaultText ?? "false")
            lines.append("#\(key) =" + (value.isEmpty ? "" : " " + value))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
