import DockOptions

/// What `dockwire` was asked to do, parsed from its arguments without side effects.
enum Command: Equatable {
    /// Print the help text of `topic` (nil: the general help).
    case help(topic: String?)
    /// Print the version.
    case version
    /// Print the specification's worked example, encoded and decoded.
    case example
    /// Decode frames from a file (nil: standard input), as hex text or raw bytes.
    case decode(path: String?, isRaw: Bool)

    /// A usage error: wrong arguments. The tool prints it with the usage and exits 64.
    struct UsageError: Error, Equatable {
        var message: String
    }

    static let usage = """
        usage: dockwire example
               dockwire decode [--raw] [FILE]
               dockwire --help | dockwire COMMAND --help | dockwire --version
        """

    static let generalHelp = """
        dockwire: encode and decode frames of the dock serial protocol (Protocol/dock-serial.md).

        \(usage)

        commands:
        \(HelpText.rows(CommandTable.program.commands.map { ($0.name, $0.summary) }, column: 14))

        Exit status: 0 on success, 1 when the input cannot be read, 64 on a usage error.
        """

    /// Parses the arguments that follow the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let verb = arguments.first else { throw UsageError(message: "no command given") }
        let rest = Array(arguments.dropFirst())
        if verb == "help" || OptionParser.isOption(verb) {
            let parsed: ParsedOptions
            do throws(OptionError) {
                parsed = try OptionParser.parse(verb == "help" ? ["--help"] + rest : arguments, options: CommandTable.program.globalOptions)
            } catch {
                throw UsageError(message: error.message)
            }
            if parsed.flag(CommandTable.help) {
                guard parsed.words.count <= 1 else { throw UsageError(message: "help takes at most one command") }
                return .help(topic: parsed.words.first)
            }
            guard parsed.words.isEmpty else { throw UsageError(message: "--version takes no arguments") }
            return .version
        }
        guard let spec = CommandTable.program.command(verb) else { throw UsageError(message: "unknown command '\(verb)'") }
        let parsed: ParsedOptions
        do throws(OptionError) {
            parsed = try OptionParser.parse(rest, options: spec.options + CommandTable.program.commonOptions)
        } catch {
            throw UsageError(message: "\(error.message) for \(verb)")
        }
        if parsed.flag(CommandTable.help) { return .help(topic: verb) }
        switch verb {
        case "example":
            guard parsed.words.isEmpty else { throw UsageError(message: "example takes no arguments, got '\(parsed.words[0])'") }
            return .example
        default:
            guard parsed.words.count <= 1 else { throw UsageError(message: "decode takes one file") }
            let path = parsed.words.first
            return .decode(path: path == "-" ? nil : path, isRaw: parsed.flag(CommandTable.raw))
        }
    }

    /// The help text for a topic, or nil when there is no such command.
    static func helpText(topic: String?) -> String? {
        guard let topic else { return generalHelp }
        return CommandTable.program.command(topic).map { HelpText.command($0, program: "dockwire") }
    }
}
