import DockOptions

/// dockbench's options, declared once: its parser and the option list of its help read them.
enum BenchOptions {
    static let json = Option("--json", help: "print one JSON object instead of the tables")
    static let calls = Option("--calls", .wholeNumber(1...1_000_000), placeholder: "N", help: "GetStatus round trips to time",
                              defaultText: "5000")
    static let tracker = Option("--tracker", help: "measure the tracker's and the pipeline's cost only")
    static let load = Option("--load", help: "run the load test instead")
    static let seconds = Option("--seconds", .wholeNumber(1...86_400), placeholder: "S", help: "how long the load test runs",
                                defaultText: "60")
    static let help = Option("--help", help: "show this help", aliases: ["-h"])
    static let version = Option("--version", help: "print dockbench's version")

    static let all = [json, calls, tracker, load, seconds, help, version]

    /// Parses the arguments after the program name.
    /// - Throws: `OptionError` naming the option at fault, or the word no option takes.
    static func parse(_ arguments: [String]) throws(OptionError) -> ParsedOptions {
        let parsed = try OptionParser.parse(arguments, options: all)
        if let word = parsed.words.first { throw OptionError("unexpected '\(word)'") }
        return parsed
    }
}
