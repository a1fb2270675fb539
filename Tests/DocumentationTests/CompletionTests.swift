import Foundation
import TestSupport
import Testing

/// dockctl's shell completions (completions/, written by scripts/make-completions from
/// `dockctl --completions SHELL`) against
/// `dockctl --help` and each `dockctl COMMAND --help`: bash and fish are asked what they would
/// complete, as a shell asks them; zsh's file must load and name the same options.
@Suite(.onTheProcessThreads) struct CompletionTests {
    struct Help {
        let commands: [String]
        let global: Set<String>
        /// Each command's options, as its own help names them, and `--help` and `--json`, which
        /// every command takes.
        let options: [String: Set<String>]
        /// The words a command takes, from its usage line (`animate yes|no|wake|kapow`).
        let words: [String: Set<String>]
    }

    static func help() throws -> Help {
        let general = try Repository.output(of: "dockctl", ["--help"]).split(separator: "\n", omittingEmptySubsequences: false)
        let commandsAt = try #require(general.firstIndex(of: "commands:"))
        let optionsAt = try #require(general.firstIndex(of: "options:"))
        let commands = general[commandsAt..<optionsAt].filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLowercase == true }
            .map { String($0.dropFirst(2).prefix { $0.isLetter }) }
        let global = options(in: general[optionsAt...].filter { $0.hasPrefix("  --") }.joined(separator: "\n"))
        var perCommand: [String: Set<String>] = [:]
        var words: [String: Set<String>] = [:]
        for command in commands {
            let text = try Repository.output(of: "dockctl", [command, "--help"])
            perCommand[command] = options(in: text).subtracting(ManualPageTests.dockctlGlobalOptions).union(["--help", "--json"])
            let usage = text.split(separator: "\n").first ?? ""
            let choices = usage.split(separator: " ").first { $0.contains("|") && $0.count > 1 && !$0.contains { "-[]".contains($0) } }
            words[command] = Set(choices.map { $0.split(separator: "|").map(String.init) } ?? [])
        }
        return Help(commands: commands, global: global, options: perCommand, words: words)
    }

    /// What bash's completion function offers for the words typed so far (the last one being
    /// completed).
    static func bash(_ words: [String]) throws -> Set<String> {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let script =
            "source completions/dockctl.bash; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _dockctl; "
            + "printf '%s\\n' \"${COMPREPLY[@]}\""
        let run = try Repository.run("bash", ["--norc", "-c", script], in: Repository.root)
        #expect(run.status == 0, "\(run.output)")
        return Set(run.output.split(separator: "\n").map(String.init))
    }

    /// What fish would complete for a command line.
    static func fish(_ line: String) throws -> Set<String> {
        let run = try Repository.run(
            "fish", ["--no-config", "-c", "source completions/dockctl.fish; complete -C '\(line)'"],
            in: Repository.root)
        #expect(run.status == 0, "\(run.output)")
        return Set(run.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) })
    }

    @Test func bashCompletesEveryCommandAndOption() throws {
        let help = try Self.help()
        #expect(try Self.bash(["dockctl", ""]) == Set(help.commands))
        #expect(try Self.bash(["dockctl", "--"]) == help.global)
        #expect(try Self.bash(["dockctl", "--socket", "/tmp/x", "--json", "st"]) == ["status", "stop"])
        for command in help.commands {
            #expect(try Self.bash(["dockctl", command, "--"]) == help.options[command], "dockctl \(command)")
            if let words = help.words[command], !words.isEmpty {
                #expect(try Self.bash(["dockctl", command, ""]) == words, "dockctl \(command)'s words")
            }
        }
        #expect(try Self.bash(["dockctl", "replay", "--kind", ""]) == ["face", "body", "object"])
        #expect(try Self.bash(["dockctl", "velocity", "--yaw", ""]) == [], "a number is not completed")
        #expect(try Self.bash(["dockctl", "replay", "--mot", "Package.sw"]) == ["Package.swift"], "file names where a file goes")
    }

    @Test func fishCompletesEveryCommandAndOption() throws {
        let help = try Self.help()
        #expect(try Self.fish("dockctl ") == Set(help.commands))
        #expect(try Self.fish("dockctl --") == help.global)
        for command in help.commands {
            #expect(try Self.fish("dockctl \(command) --") == help.options[command], "dockctl \(command)")
            if let words = help.words[command], !words.isEmpty {
                #expect(try Self.fish("dockctl \(command) ") == words, "dockctl \(command)'s words")
            }
        }
        #expect(try Self.fish("dockctl replay --kind ") == ["face", "body", "object"])
    }

    @Test func zshLoadsItAndNamesTheSameOptions() throws {
        let help = try Self.help()
        let load = try Repository.run(
            "zsh", ["-f", "-c", "fpath=($PWD/completions $fpath); autoload -Uz compinit; compinit -u -D; print -r -- $_comps[dockctl]"],
            in: Repository.root)
        #expect(load.output.split(separator: "\n").last == "_dockctl", "\(load.output)")
        #expect(try Repository.run("zsh", ["-n", "completions/_dockctl"], in: Repository.root).status == 0)

        // Each command's block of the file: `name)` up to `;;`, and the options it names.
        var blocks: [String: Set<String>] = [:]
        var current: String?
        for line in try Repository.text("completions/_dockctl").split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("                "), trimmed.hasSuffix(")"), !trimmed.contains(" "), !trimmed.contains("'") {
                current = String(trimmed.dropLast())
                blocks[current!] = []
            } else if trimmed == ";;" {
                current = nil
            } else if let current {
                blocks[current]?.formUnion(options(in: line))
            }
        }
        #expect(Set(blocks.keys) == Set(help.commands))
        for command in help.commands { #expect(blocks[command] == help.options[command], "dockctl \(command)") }
    }

    @Test func theCommittedFilesAreWhatDockctlPrints() throws {
        for (shell, file) in [("bash", "dockctl.bash"), ("zsh", "_dockctl"), ("fish", "dockctl.fish")] {
            let printed = try Repository.output(of: "dockctl", ["--completions", shell])
            #expect(printed == (try Repository.text("completions/" + file)), "completions/\(file): run scripts/make-completions")
        }
    }

    @Test func completionsForAShellNotKnownIsAUsageError() throws {
        let run = try ChildProcess.run("dockctl", ["--completions", "tcsh"])
        #expect(run.status == 64)
        #expect(run.error.hasPrefix("dockctl: --completions needs one of bash, zsh, fish, got 'tcsh'\n"))
    }
}
