public import DockNumbers

/// One option of a command, declared once: its name, what value it takes, and its help. The
/// parser, the help text and the shell completions are all read from these declarations.
public struct Option: Hashable, Sendable {
    /// What follows the option's name on the command line.
    public enum Value: Hashable, Sendable {
        /// Nothing: the option is a switch.
        case flag
        /// A finite number within the range.
        case number(NumberRange)
        /// A whole number within the range.
        case wholeNumber(ClosedRange<Int>)
        /// One of these words (an enum's `allCases`, most often).
        case choice([String])
        /// A path to a file (completed as file names).
        case file
        /// Any text, checked by whoever reads it.
        case text
    }

    /// The name with its dashes, `--yaw`.
    public var name: String
    /// Other spellings the parser accepts (`-h`); help and completions show only `name`.
    public var aliases: [String]
    public var value: Value
    /// The word that stands for the value in help, `R`, `PATH`; empty for a flag.
    public var placeholder: String
    /// What the option does, one line.
    public var help: String
    /// The value used when the option is not given, as help shows it; nil when there is none to show.
    public var defaultText: String?

    /// Declares an option.
    /// - Parameters:
    ///   - name: the name with its dashes.
    ///   - value: what follows it.
    ///   - placeholder: the word for the value in help (`R`); defaults to the choices or `FILE`.
    ///   - help: one line on what it does.
    ///   - defaultText: the default as help shows it.
    ///   - aliases: other spellings.
    public init(
        _ name: String, _ value: Value = .flag, placeholder: String? = nil, help: String, defaultText: String? = nil,
        aliases: [String] = []
    ) {
        precondition(name.hasPrefix("--") && name.count > 2, "an option's name starts with --: \(name)")
        self.name = name
        self.value = value
        switch value {
        case .flag: self.placeholder = ""
        case .choice(let words): self.placeholder = placeholder ?? words.joined(separator: "|")
        case .file: self.placeholder = placeholder ?? "FILE"
        case .number, .wholeNumber, .text: self.placeholder = placeholder ?? "VALUE"
        }
        self.help = help
        self.defaultText = defaultText
        self.aliases = aliases
    }

    /// Whether a value follows the option's name.
    public var takesValue: Bool { value != .flag }

    /// The option as a usage line shows it: `--yaw R`, `--relative`.
    public var usage: String { takesValue ? "\(name) \(placeholder)" : name }
}
