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
          example   print the specification's example session: each frame in hex and decoded
          decode    decode frames from hex text or raw bytes, one line per frame or error

        Exit status: 0 on success, 1 when the input cannot be read, 64 on a usage error.
        """

    static let decodeHelp = """
        usage: dockwire decode [--raw] [FILE]

        Decodes dock frames from FILE, or from standard input when FILE is absent or "-", and
        prints one line per frame ("#SEQ message fields") or per damaged frame ("error: ...").

        options:
          --raw     the input is raw bytes as captured from the line (default: hex text, where
                    whitespace, ':' and '-' between digit pairs are ignored and '#' starts a comment)
          --help    show this help
        """

    static let exampleHelp = """
        usage: dockwire example

        Prints the example session of Protocol/dock-serial.md (hello, info, velocity, ack,
        telemetry, event): for each frame its direction, its bytes in hex and its decoded fields.
        """

    /// Parses the arguments that follow the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let verb = arguments.first else { throw UsageError(message: "no command given") }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "-h", "--help", "help":
            guard rest.count <= 1 else { throw UsageError(message: "help takes at most one command") }
            return .help(topic: rest.first)
        case "--version":
            guard rest.isEmpty else { throw UsageError(message: "--version takes no arguments") }
            return .version
        case "example":
            if rest.contains("--help") || rest.contains("-h") { return .help(topic: "example") }
            guard rest.isEmpty else {
                throw UsageError(message: "example takes no arguments, got '\(rest[0])'")
            }
            return .example
        case "decode":
            var isRaw = false
            var path: String?
            for argument in rest {
                switch argument {
                case "-h", "--help":
                    return .help(topic: "decode")
                case "--raw":
                    isRaw = true
                case "-":
                    guard path == nil else { throw UsageError(message: "decode takes one file") }
                    path = "-"
                case _ where argument.hasPrefix("-"):
                    throw UsageError(message: "unknown option '\(argument)' for decode")
                default:
                    guard path == nil else { throw UsageError(message: "decode takes one file") }
                    path = argument
                }
            }
            return .decode(path: path == "-" ? nil : path, isRaw: isRaw)
        default:
            throw UsageError(message: "unknown command '\(verb)'")
        }
    }

    /// The help text for a topic, or nil when there is no such command.
    static func helpText(topic: String?) -> String? {
        switch topic {
        case nil: generalHelp
        case "decode": decodeHelp
        case "example": exampleHelp
        default: nil
        }
    }
}
