import DockNumbers
import DockOptions

/// dockbench's options, declared once: its parser and the option list of its help read them.
enum BenchOptions {
    static let json = Option("--json", help: "print one JSON object instead of the tables")
    static let calls = Option(
        "--calls", .wholeNumber(1...1_000_000), placeholder: "N", help: "GetStatus round trips to time",
        defaultText: "5000")
    static let tracker = Option("--tracker", help: "measure the tracker's and the pipeline's cost only")
    static let load = Option("--load", help: "run the load test instead")
    static let simulator = Option("--simulator", help: "measure dockd --simulator's CPU only, idle and tracking its scene")
    static let accessories = Option(
        "--accessories", .wholeNumber(1...64), placeholder: "N",
        help: "measure one dockd serving N simulated accessories, each tracking its scene")
    static let seconds = Option(
        "--seconds", .wholeNumber(1...86_400), placeholder: "S",
        help: "how long the load test runs (default: 60), each phase of --simulator (default: 15), or --accessories (default: 30)")
    static let soak = Option(
        "--soak", .number(.above(0, atMost: 10_080)), placeholder: "MINUTES",
        help: "run the soak for MINUTES (a decimal: 0.2 is 12 s)")
    static let soakOutput = Option(
        "--soak-output", .text, placeholder: "PREFIX", help: "where the soak writes PREFIX.json and PREFIX.svg",
        defaultText: "soak")
    static let soakSample = Option(
        "--soak-sample", .number(.above(0, atMost: 3600)), placeholder: "SECONDS",
        help: "how often the soak samples dockd", defaultText: "10")
    static let soakPlot = Option("--soak-plot", .text, placeholder: "PREFIX", help: "draw PREFIX.svg again from PREFIX.json")
    static let soakHolder = Option(
        "--soak-holder", .text, placeholder: "SOCKET",
        help: "(the soak's own child) hold control of dockd at SOCKET until killed")
    static let help = Option("--help", help: "show this help", aliases: ["-h"])
    static let version = Option("--version", help: "print dockbench's version")

    static let all = [
        json, calls, tracker, load, simulator, accessories, seconds, soak, soakOutput, soakSample, soakPlot, soakHolder, help, version,
    ]

    /// Parses the arguments after the program name.
    /// - Throws: `OptionError` naming the option at fault, or the word no option takes.
    static func parse(_ arguments: [String]) throws(OptionError) -> ParsedOptions {
        let parsed = try OptionParser.parse(arguments, options: all)
        if let word = parsed.words.first { throw OptionError("unexpected '\(word)'") }
        return parsed
    }
}
