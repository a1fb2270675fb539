/// A program's command line, declared once: its global options and its commands, each with its
/// options and plain words. Help, parsing and completions are read from it.
public struct ProgramSpec: Hashable, Sendable {
    /// The program's name, `dockctl`.
    public var name: String
    /// Options taken before the command.
    public var globalOptions: [Option]
    public var commands: [CommandSpec]
    /// Options every command also takes (`--help`).
    public var commonOptions: [Option]

    public init(name: String, globalOptions: [Option], commands: [CommandSpec], commonOptions: [Option] = []) {
        self.name = name
        self.globalOptions = globalOptions
        self.commands = commands
        self.commonOptions = commonOptions
    }

    /// The command of this name, or nil.
    public func command(_ name: String) -> CommandSpec? { commands.first { $0.name == name } }
}

/// One command: its name, what it does, the plain words it takes, and its options.
public struct CommandSpec: Hashable, Sendable {
    public var name: String
    /// What it does, in the few words the general help and completions show.
    public var summary: String
    /// The plain arguments as the usage line shows them (`yes|no|wake|kapow`, `X Y W H`); empty: none.
    public var arguments: String
    /// The words a shell completes for its plain arguments (an enum's `allCases`); empty: none.
    public var words: [String]
    public var options: [Option]
    /// The usage after the program's name when the generated one would not say it (`roi X Y W H | roi --clear`).
    public var usageOverride: String?
    /// The paragraph its own help shows under the usage line.
    public var description: String

    public init(
        _ name: String, summary: String, arguments: String = "", words: [String] = [], options: [Option] = [],
        usage: String? = nil, description: String
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.words = words
        self.options = options
        self.usageOverride = usage
        self.description = description
    }

    /// The usage after the program's name: `velocity [--yaw R] [--pitch R]`.
    public var usage: String {
        if let usageOverride { return usageOverride }
        return ([name] + (arguments.isEmpty ? [] : [arguments]) + options.map { "[\($0.usage)]" }).joined(separator: " ")
    }
}
