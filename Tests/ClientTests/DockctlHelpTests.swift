import DockNumbers
import DockOptions
import DockTracking
import Testing

@testable import DockctlProgram

/// dockctl's help against its parser: every option the help shows parses, and every option the
/// parser accepts is in the help. Both come from one table (CommandTable), and these tests are
/// what would catch a second path — an option parsed but not shown, or shown but refused.
@Suite struct DockctlHelpTests {
    /// Arguments that make each command complete, so only the option under test can fail it.
    static let bases: [String: [[String]]] = [
        "velocity": [["--yaw", "0"]], "orient": [["--yaw", "0", "--pitch", "0"]], "animate": [["yes"]], "track": [["on"]],
        "framing": [["center"]], "roi": [["0", "0", "1", "1"], []], "select": [[], ["0.5", "0.5"]], "zoom": [["0.5"]],
        "shot": [["half"]],
        "replay": [["--mot", "d", "--out", "r", "--size", "2x2"]], "preset": [["recall", "stage"]],
    ]
    /// Values tried after an option that takes one, until one parses.
    static let samples = ["0.5", "1", "1.5", "2x2", "body", "bash", "file", "hold"]

    /// The options a help text shows in its usage line and option list (`--name`, with whether a
    /// value follows it).
    static func shown(_ help: String) -> [String: Bool] {
        var shown: [String: Bool] = [:]
        let lines = help.split(separator: "\n")
        for line in lines where line.hasPrefix("  -") {
            // `  -h, --help   text` or `  --yaw R   text`: names up to the one without a comma,
            // then a value's placeholder if one follows before the gap.
            var words = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: false)[...]
            var names: [String] = []
            while let word = words.popFirst() {
                names.append(String(word.hasSuffix(",") ? word.dropLast() : word))
                if !word.hasSuffix(",") { break }
            }
            let takesValue = words.first.map { !$0.isEmpty } ?? false
            for name in names { shown[name] = takesValue }
        }
        return shown
    }

    static func help(_ arguments: [String]) throws -> String {
        guard case .help(let text) = try Invocation.parse(arguments, environment: [:]).action else {
            Issue.record("\(arguments) gives no help")
            return ""
        }
        return text
    }

    /// Whether `dockctl COMMAND ... OPTION [VALUE]` parses for some base and sample value.
    static func parses(_ command: String?, _ option: String, takesValue: Bool) -> Bool {
        let values = takesValue ? samples.map { [$0] } : [[]]
        for base in command.map({ bases[$0] ?? [[]] }) ?? [[]] {
            for value in values {
                let arguments = command.map { [$0] + base + [option] + value } ?? [option] + value + ["status"]
                if (try? Invocation.parse(arguments, environment: [:])) != nil { return true }
            }
        }
        return false
    }

    @Test func everyOptionTheHelpShowsParses() throws {
        let global = Self.shown(try Self.help(["--help"]))
        #expect(global.keys.sorted() == ["--accessory", "--completions", "--help", "--json", "--socket", "--version", "-h"])
        for (option, takesValue) in global { #expect(Self.parses(nil, option, takesValue: takesValue), "dockctl \(option)") }
        for command in CommandTable.program.commands.map(\.name) {
            let shown = Self.shown(try Self.help([command, "--help"]))
            for (option, takesValue) in shown {
                #expect(Self.parses(command, option, takesValue: takesValue), "dockctl \(command) \(option)")
            }
        }
    }

    @Test func everyOptionTheParserAcceptsIsInTheHelp() throws {
        // Every name any command or the table knows, and a few it does not: each one a command
        // accepts must be in that command's help.
        let program = CommandTable.program
        var names = Set(program.globalOptions.flatMap { [$0.name] + $0.aliases })
        for command in program.commands { names.formUnion(command.options.flatMap { [$0.name] + $0.aliases }) }
        names.formUnion(["--fast", "--verbose", "--yaw-rate", "--force"])
        #expect(names.count > 60)
        // What every command takes (--json, -h, --help) the general help shows once.
        let general = Self.shown(try Self.help(["--help"])).filter { ["--json", "-h", "--help"].contains($0.key) }
        for command in program.commands.map(\.name) {
            let help = try Self.help([command, "--help"])
            let shown = Self.shown(help).merging(general) { own, _ in own }
            for name in names {
                let accepted = Self.parses(command, name, takesValue: true) || Self.parses(command, name, takesValue: false)
                if accepted { #expect(shown[name] != nil, "dockctl \(command) accepts \(name), which its help does not show") }
            }
            #expect(help.hasPrefix("usage: dockctl \(command)"))
        }
    }

    @Test func anOptionNotInTheTableIsAUsageErrorNamingIt() {
        #expect(throws: Invocation.UsageError(message: "unknown option '--yaw-rate'", command: "velocity")) {
            try Invocation.parse(["velocity", "--yaw-rate", "1"], environment: [:])
        }
        #expect(throws: Invocation.UsageError(message: "unknown option '--verbose'")) {
            try Invocation.parse(["--verbose", "status"], environment: [:])
        }
        #expect(throws: Invocation.UsageError(message: "--yaw needs a number", command: "velocity")) {
            try Invocation.parse(["velocity", "--yaw"], environment: [:])
        }
    }

    @Test func theGeneralHelpListsEveryCommandOfTheTableInOrder() throws {
        let help = try Self.help(["--help"])
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let commandsAt = try #require(lines.firstIndex(of: "commands:")), optionsAt = try #require(lines.firstIndex(of: "options:"))
        let listed = lines[commandsAt..<optionsAt].filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLowercase == true }
            .map { String($0.dropFirst(2).prefix { $0.isLetter }) }
        #expect(
            listed == [
                "status", "watch", "velocity", "orient", "stop", "animate", "track", "limits", "list", "framing", "roi",
                "select", "zoom", "shot", "preset", "lost", "speed", "replay",
            ])
    }

    @Test func theWordsACommandTakesAreItsEnumsCases() throws {
        #expect(try Self.help(["animate", "--help"]).hasPrefix("usage: dockctl animate yes|no|wake|kapow "))
        #expect(try Self.help(["framing", "--help"]).hasPrefix("usage: dockctl framing automatic|center|left|right"))
        #expect(throws: Invocation.UsageError(message: "'spin' is not one of yes, no, wake, kapow", command: "animate")) {
            try Invocation.parse(["animate", "spin"], environment: [:])
        }
        let kind = try #require(Self.help(["replay", "--help"]).split(separator: "\n").first { $0.hasPrefix("  --kind ") })
        #expect(kind.contains("(face, body, object; default: body)"))
    }
}

/// `replay`'s tracker options and `SubjectTracker.Configuration.isValid` share one table of
/// ranges: at each bound and just outside it, the option and the configuration agree.
@Suite struct TrackerRangeTests {
    /// Values at and just outside each end of an option's range, with whether the range holds them.
    static func probes(_ option: Option) -> [(value: Double, text: String, isInside: Bool)] {
        switch option.value {
        case .number(let range):
            let below = range.lowerBound - 0.001, above = range.upperBound + 0.001
            return [
                (range.lowerBound, NumberRange.text(range.lowerBound), !range.excludesLowerBound), (below, String(below), false),
                (range.upperBound, NumberRange.text(range.upperBound), !range.excludesUpperBound), (above, String(above), false),
            ]
        case .wholeNumber(let range):
            return [
                (Double(range.lowerBound), String(range.lowerBound), true),
                (Double(range.lowerBound - 1), String(range.lowerBound - 1), false),
                (Double(range.upperBound), String(range.upperBound), true),
                (Double(range.upperBound + 1), String(range.upperBound + 1), false),
            ]
        case .flag, .choice, .file, .text:
            Issue.record("\(option.name) is not a number")
            return []
        }
    }

    @Test func eachBoundIsAcceptedAndJustOutsideRefusedByTheOptionAndByIsValid() throws {
        #expect(TrackerOption.all.count == 34)
        for tracker in TrackerOption.all {
            for probe in Self.probes(tracker.option) {
                // The least confidence may not be above the confident threshold: move the other out of the way.
                var companion: [String] = []
                var configuration = SubjectTracker.Configuration()
                if tracker.option.name == "--min-confidence" {
                    companion = ["--confident", "1"]
                    configuration.confidentThreshold = 1
                }
                if tracker.option.name == "--confident" {
                    companion = ["--min-confidence", "0"]
                    configuration.minimumConfidence = 0
                }
                tracker.apply(&configuration, probe.value)
                #expect(configuration.isValid == probe.isInside, "isValid with \(tracker.option.name) \(probe.text)")
                let arguments = ["replay", "--mot", "d", "--out", "r", "--size", "2x2", tracker.option.name, probe.text] + companion
                let parsed = Result { try Invocation.parse(arguments, environment: [:]) }
                #expect(((try? parsed.get()) != nil) == probe.isInside, "\(tracker.option.name) \(probe.text): \(parsed)")
                if case .success(let invocation) = parsed, case .replay(_, _, let settings, _) = invocation.action {
                    #expect(settings.tracker == configuration, "\(tracker.option.name) \(probe.text) sets what apply sets")
                }
            }
        }
    }
}
