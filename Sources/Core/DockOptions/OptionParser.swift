import DockNumbers

/// Reads a command line against declared options: `--name value`, `--name=value`, flags, and
/// plain words; `--` ends the options. A declared option's name is never taken as another's value
/// (`--pty --quiet` is `--pty` without its path). Every value is checked against its declaration here, so
/// what `ParsedOptions` hands out is valid.
public enum OptionParser {
    /// `name=value` cut at its first "=" scalar: the name, and the value when there is an "=".
    /// Not at a Character: `=` and a combining mark after it are one Character, which a
    /// Character search does not find (`--out=\u{359}x` was an unknown option).
    public static func splitAtEquals(_ argument: String) -> (name: String, value: String?) {
        let scalars = argument.unicodeScalars
        guard let equals = scalars.firstIndex(of: "=") else { return (argument, nil) }
        return (String(Substring(scalars[..<equals])), String(Substring(scalars[scalars.index(after: equals)...])))
    }

    /// Parses `arguments` (after the command's name) against `options`.
    /// - Throws: `OptionError` naming an unknown option, a missing value or one out of its range.
    public static func parse(_ arguments: some Collection<String>, options: [Option]) throws(OptionError) -> ParsedOptions {
        var byName: [String: Option] = [:]
        for option in options {
            for name in [option.name] + option.aliases { byName[name] = option }
        }
        var parsed = ParsedOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                parsed.words += rest
                break
            }
            guard isOption(argument) else {
                parsed.words.append(argument)
                continue
            }
            let (name, inline) = Self.splitAtEquals(argument)
            guard let option = byName[name] else { throw OptionError("unknown option '\(name)'") }
            guard option.takesValue else {
                if inline != nil { throw OptionError("\(option.name) takes no value") }
                parsed.record(option, "")
                continue
            }
            // The next argument is the value, unless it is one of the declared options (a value forgotten).
            guard let text = inline ?? rest.first.flatMap({ byName[$0] == nil ? $0 : nil }) else {
                throw OptionError("\(option.name) needs \(describe(option.value))")
            }
            if inline == nil { rest = rest.dropFirst() }
            try check(text, for: option)
            parsed.record(option, text)
        }
        return parsed
    }

    /// Whether a word is an option's name rather than a value: it starts with a dash and is not
    /// a negative number (`-0.5` is a word).
    public static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        return Double(word) == nil
    }

    /// Checks one value against its declaration.
    /// - Throws: `OptionError` naming the option, what it needs and what it got.
    public static func check(_ text: String, for option: Option) throws(OptionError) {
        switch option.value {
        case .flag, .text, .file:
            return
        case .number(let range):
            guard let value = Double(text), value.isFinite else { throw OptionError("\(option.name) needs a finite number, got '\(text)'") }
            guard range.contains(value) else { throw OptionError("\(option.name) needs a number \(range), got '\(text)'") }
        case .wholeNumber(let range):
            guard let value = Int(text), range.contains(value) else {
                throw OptionError("\(option.name) needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
        case .choice(let words):
            guard words.contains(text) else {
                throw OptionError("\(option.name) needs one of \(words.joined(separator: ", ")), got '\(text)'")
            }
        }
    }

    /// What a value must be, for an error: `a number`, `one of face, body, object`.
    static func describe(_ value: Option.Value) -> String {
        switch value {
        case .flag: "nothing"
        case .number: "a number"
        case .wholeNumber: "a whole number"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        case .file: "a path"
        case .text: "a value"
        }
    }
}
