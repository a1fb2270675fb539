import DockNumbers

/// Help text from declarations: option lists in aligned columns and a command's own help.
public enum HelpText {
    /// One line per option, `  --yaw R       yaw rate, rad/s (default: 0)` (`--help, -h` with its
    /// other spellings after it), the help aligned at
    /// the widest option (at most `column`; a wider one puts its help on the next line).
    public static func optionList(_ options: [Option], column: Int = 24) -> String {
        rows(
            options.map { option in
                (([option.usage] + option.aliases).joined(separator: ", "), option.help + notes(option))
            }, column: column)
    }

    /// What help adds after an option's own words: the values it takes when they are few or
    /// bounded, and its default: ` (from 0 to 1; default: 0.55)`, ` (face, body, object; default: body)`.
    static func notes(_ option: Option) -> String {
        var notes: [String] = []
        switch option.value {
        case .number(let range) where range != .finite: notes.append(range.description)
        case .wholeNumber(let range): notes.append("from \(range.lowerBound) to \(range.upperBound)")
        case .choice(let words) where option.placeholder != words.joined(separator: "|"): notes.append(words.joined(separator: ", "))
        case .flag, .number, .choice, .file, .text: break
        }
        if let value = option.defaultText { notes.append("default: " + value) }
        return notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
    }

    /// A paragraph cut into lines of at most `width` characters, at spaces.
    public static func wrap(_ text: String, width: Int = 100) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// Two columns, the second aligned and wrapped to fit 100 columns: `  name   text`.
    public static func rows(_ rows: [(String, String)], column: Int = 24) -> String {
        let width = min(rows.map(\.0.count).max() ?? 0, column - 4)
        let indent = String(repeating: " ", count: width + 4)
        return rows.map { left, right in
            let text = wrap(right, width: max(40, 100 - indent.count)).replacing("\n", with: "\n" + indent)
            let head = "  " + left
            if left.count > width { return head + "\n" + indent + text }
            return head + String(repeating: " ", count: width + 2 - left.count) + text
        }.joined(separator: "\n")
    }

    /// A command's help: its usage line, what it does, and its options.
    public static func command(_ command: CommandSpec, program: String) -> String {
        var text = "usage: \(program) \(command.usage)\n\n" + wrap(command.description)
        if !command.options.isEmpty { text += "\n\noptions:\n" + optionList(command.options) }
        return text
    }
}
