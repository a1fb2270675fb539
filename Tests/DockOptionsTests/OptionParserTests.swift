import DockNumbers
import DockOptions
import Testing

@Suite struct OptionParserTests {
    static let yaw = Option("--yaw", .number(NumberRange(-2...2)), placeholder: "R", help: "yaw rate")
    static let count = Option("--count", .wholeNumber(1...9), placeholder: "N", help: "how many")
    static let kind = Option("--kind", .choice(["face", "body"]), help: "what")
    static let output = Option("--out", .file, help: "where")
    static let quiet = Option("--quiet", help: "say less", aliases: ["-q"])
    static let all = [yaw, count, kind, output, quiet]

    @Test func everySpellingOfAValue() throws {
        let parsed = try OptionParser.parse(["--yaw", "0.5", "--count=3", "--kind", "body", "-q", "--out=a=b"], options: Self.all)
        #expect(parsed.number(Self.yaw) == 0.5)
        #expect(parsed.wholeNumber(Self.count) == 3)
        #expect(parsed.text(Self.kind) == "body")
        #expect(parsed.flag(Self.quiet))
        #expect(parsed.text(Self.output) == "a=b", "only the first = splits")
        // `=` and a combining mark after it are one Character; the value is split off all the same.
        let combining = try OptionParser.parse(["--out=\u{359}b"], options: Self.all)
        #expect(combining.text(Self.output) == "\u{359}b")
        let twice = try OptionParser.parse(["--kind", "face", "--kind=body"], options: Self.all)
        #expect(twice.text(Self.kind) == "body" && twice.texts(Self.kind) == ["face", "body"], "the last wins; all are kept")
        #expect(parsed.words.isEmpty)
        let none = try OptionParser.parse([], options: Self.all)
        #expect(none.number(Self.yaw) == nil && !none.flag(Self.quiet))
    }

    @Test func wordsNegativeNumbersAndTheEndOfOptions() throws {
        let parsed = try OptionParser.parse(["a", "-0.5", "--yaw", "-1", "b", "--", "--quiet", "-x"], options: Self.all)
        #expect(parsed.words == ["a", "-0.5", "b", "--quiet", "-x"])
        #expect(parsed.number(Self.yaw) == -1, "a negative number is a value, not an option")
        #expect(!parsed.flag(Self.quiet), "after -- nothing is an option")
    }

    @Test func eachRefusalNamesTheOption() {
        let cases: [([String], String)] = [
            (["--pitch", "1"], "unknown option '--pitch'"),
            (["-x"], "unknown option '-x'"),
            (["--yaw"], "--yaw needs a number"),
            (["--yaw", "nan"], "--yaw needs a finite number, got 'nan'"),
            (["--yaw", "2.5"], "--yaw needs a number from -2 to 2, got '2.5'"),
            (["--count", "1.5"], "--count needs a whole number from 1 to 9, got '1.5'"),
            (["--count", "10"], "--count needs a whole number from 1 to 9, got '10'"),
            (["--kind", "car"], "--kind needs one of face, body, got 'car'"),
            (["--kind"], "--kind needs one of face, body"),
            (["--quiet=yes"], "--quiet takes no value"),
            (["--out", "--quiet"], "--out needs a path"),
        ]
        for (arguments, message) in cases {
            #expect(throws: OptionError(message), "\(arguments)") { try OptionParser.parse(arguments, options: Self.all) }
        }
    }

    @Test func rangesSayWhatTheyHold() {
        #expect(NumberRange(0...1).description == "from 0 to 1")
        #expect(NumberRange.above(0, atMost: 1e6).description == "above 0, at most 1e6")
        #expect(NumberRange.from(0, below: 1).description == "from 0, below 1")
        #expect(NumberRange(0.01...1000).description == "from 0.01 to 1000")
        let open = NumberRange(lowerBound: 0, upperBound: 1, excludesLowerBound: true, excludesUpperBound: true)
        #expect(!open.contains(0.0) && open.contains(0.5) && !open.contains(1.0))
        #expect(NumberRange(0...1).contains(0.0) && NumberRange(0...1).contains(1.0))
        #expect(!NumberRange.finite.contains(Double.nan) && !NumberRange.finite.contains(Double.infinity))
        #expect(NumberRange.finite.contains(-1e300))
    }

    @Test func helpShowsRangesChoicesAndDefaults() {
        let gate = Option("--gate", .number(.above(0, atMost: 1e6)), placeholder: "X", help: "the gate", defaultText: "30")
        let kind = Option("--kind", .choice(["face", "body"]), placeholder: "K", help: "what", defaultText: "body")
        #expect(
            HelpText.optionList([gate, kind, Self.quiet]) == """
                  --gate X     the gate (above 0, at most 1e6; default: 30)
                  --kind K     what (face, body; default: body)
                  --quiet, -q  say less
                """)
        #expect(HelpText.wrap("aa bb cc dd", width: 5) == "aa bb\ncc dd")
    }
}

@Suite struct CompletionScriptTests {
    static let program = ProgramSpec(
        name: "tool",
        globalOptions: [Option("--socket", .file, placeholder: "PATH", help: "the socket")],
        commands: [
            CommandSpec(
                "go", summary: "go somewhere", arguments: "up|down", words: ["up", "down"],
                options: [Option("--kind", .choice(["a", "b"]), help: "kind's [x]: y"), Option("--fast", help: "fast")],
                description: "Goes.")
        ],
        commonOptions: [Option("--help", help: "help")])

    @Test func eachShellGetsEveryCommandOptionAndWord() {
        let bash = Completions.script(for: Self.program, shell: .bash)
        #expect(bash.contains("            options='--kind --fast --help'\n            words='up down'\n"))
        #expect(bash.contains("--kind) COMPREPLY=($(compgen -W 'a b' -- \"$cur\")); return ;;"))
        #expect(bash.contains("--socket) files=true ;;"))
        #expect(bash.hasSuffix("complete -F _tool tool\n"))
        let zsh = Completions.script(for: Self.program, shell: .zsh)
        #expect(zsh.hasPrefix("#compdef tool\n"))
        #expect(zsh.contains("'--kind[kind'\\''s \\[x\\]\\: y]:a|b:(a b)' \\"), "quoted for _arguments")
        #expect(zsh.contains("'1:go:(up down)'"))
        let fish = Completions.script(for: Self.program, shell: .fish)
        #expect(fish.contains("complete -c tool -n '__fish_seen_subcommand_from go' -l kind -x -a 'a b' -d 'kind\\'s [x]: y'"))
        #expect(fish.contains("complete -c tool -n '__fish_use_subcommand' -l socket -r -F -d 'the socket'"))
    }
}
