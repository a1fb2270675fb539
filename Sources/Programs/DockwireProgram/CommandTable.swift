import DockOptions

/// dockwire's command line, declared once: the parser and the help read it.
enum CommandTable {
    static let help = Option("--help", help: "show the help, or a command's (dockwire COMMAND --help)", aliases: ["-h"])
    static let version = Option("--version", help: "print dockwire's version")
    static let raw = Option(
        "--raw",
        help: """
            the input is raw bytes as captured from the line (default: hex text, where whitespace, ':' and '-' \
            between digit pairs are ignored and '#' starts a comment)
            """)

    static let program = ProgramSpec(
        name: "dockwire",
        globalOptions: [help, version],
        commands: [
            CommandSpec(
                "example", summary: "print the specification's example session: each frame in hex and decoded",
                description: """
                    Prints the example session of Protocol/dock-serial.md (hello, info, velocity, ack, telemetry, \
                    event): for each frame its direction, its bytes in hex and its decoded fields.
                    """),
            CommandSpec(
                "decode", summary: "decode frames from hex text or raw bytes, one line per frame or error", arguments: "[FILE]",
                options: [raw], usage: "decode [--raw] [FILE]",
                description: """
                    Decodes dock frames from FILE, or from standard input when FILE is absent or "-", and prints one \
                    line per frame ("#SEQ message fields") or per damaged frame ("error: ...").
                    """),
        ],
        commonOptions: [help])

}
