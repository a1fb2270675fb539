import DockDaemon
import Foundation
import Testing

/// The manual pages (docs/man/*.scd) against what the programs say of themselves: every option in
/// a program's `--help` is defined on its page and every option the page defines is in the help;
/// every setting of `dockd --help` is in dockd.conf(5) and in systemd/dockd.conf, at its default;
/// every method and error of the interface is in dockd-api(7); and every page builds.
@Suite struct ManualPageTests {
    /// dockctl's options that every command takes, listed once on the page under OPTIONS.
    static let dockctlGlobalOptions: Set<String> = ["--socket", "--accessory", "--json", "--help", "--version", "--completions"]

    /// dockd's settings as `dockd --help` lists them, with the defaults it shows (root's socket:
    /// the page and the file show the system's default, whoever runs the tests).
    static func dockdSettings(_ help: String) -> [String: String] {
        var settings: [String: String] = [:]
        let block = help.components(separatedBy: "settings (flag, meaning, [default]):").last ?? ""
        for line in block.split(separator: "\n") where line.hasPrefix("  --") {
            let name = String(line.dropFirst(4).prefix { !$0.isWhitespace })
            guard let open = line.lastIndex(of: "["), line.hasSuffix("]") else { continue }
            settings[name] = String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }
        settings["socket"] = "/run/dockd/dockd.sock"
        return settings
    }

    @Test func dockdsOptionsAreOnItsPage() throws {
        let help = try Repository.output(of: "dockd", ["--help"])
        let beforeSettings = help.components(separatedBy: "settings (flag, meaning, [default]):")[0]
        let helpOptions = options(in: beforeSettings.split(separator: "\n").filter { $0.hasPrefix("  --") }.joined(separator: "\n"))
        #expect(helpOptions.contains("--version"))
        let page = try ManualPage("dockd.8")
        #expect(ManualPage.definedOptions(page.section("OPTIONS")) == helpOptions)
        #expect(page.definedOptions == helpOptions, "dockd.8 defines no option beyond those (the settings are in dockd.conf.5)")
    }

    @Test func everySettingIsInDockdConfItsPageAtItsDefault() throws {
        let settings = Self.dockdSettings(try Repository.output(of: "dockd", ["--help"]))
        #expect(settings.count >= 20)
        let page = try ManualPage("dockd.conf.5")
        let keys = page.lines.filter { $0.hasPrefix("*") && $0.contains("* = ") }
            .map { String($0.dropFirst().prefix { $0 != "*" }) }
        #expect(Set(keys) == Set(settings.keys), "dockd.conf(5) defines exactly dockd's settings")
        #expect(keys.count == Set(keys).count, "each once")
        for (key, shown) in settings {
            guard let text = page.definition(of: key) else {
                Issue.record("dockd.conf(5) does not define \(key)")
                continue
            }
            let expected = "Default: " + shown
            let found = text.range(of: expected).map { text[$0.upperBound...].first.map { $0 == " " || $0 == "." } ?? true } ?? false
            #expect(found, "dockd.conf(5) gives \(key)'s default as \(shown): \(text)")
        }
    }

    @Test func theInstalledSettingsFileNamesEverySettingAtItsDefault() throws {
        let settings = Self.dockdSettings(try Repository.output(of: "dockd", ["--help"]))
        let file = try Repository.text("systemd/dockd.conf")
        var commented: [String: String] = [:]
        for line in file.split(separator: "\n") where line.hasPrefix("#") && !line.hasPrefix("# ") && line.contains("=") {
            let parts = line.dropFirst().split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            commented[parts[0].trimmingCharacters(in: .whitespaces)] = value.isEmpty ? "empty" : value
        }
        #expect(commented == settings)

        // Uncommented, the file sets exactly the defaults: nothing in it changes behaviour.
        let uncommented = file.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("#") && !$0.hasPrefix("# ") && $0.contains("=") ? $0.dropFirst() : $0 }.joined(separator: "\n")
        var configuration = Configuration()
        try configuration.apply(fileText: uncommented, path: "dockd.conf")
        #expect(configuration == Configuration())
    }

    @Test func dockctlsCommandsAndOptionsAreOnItsPage() throws {
        let help = try Repository.output(of: "dockctl", ["--help"])
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let commandsAt = try #require(lines.firstIndex(of: "commands:"))
        let optionsAt = try #require(lines.firstIndex(of: "options:"))
        let commands = lines[commandsAt..<optionsAt].filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLowercase == true }
            .map { String($0.dropFirst(2).prefix { $0.isLetter }) }
        #expect(commands.count == 18)
        let page = try ManualPage("dockctl.1")
        #expect(page.subsections(of: "COMMANDS") == commands, "the page has a section for each command, in the help's order")
        let global = options(in: lines[optionsAt...].filter { $0.hasPrefix("  --") }.joined(separator: "\n"))
        #expect(global == Self.dockctlGlobalOptions)
        #expect(ManualPage.definedOptions(page.section("OPTIONS")) == global)
        for command in commands {
            let commandHelp = try Repository.output(of: "dockctl", [command, "--help"])
            let expected = options(in: commandHelp).subtracting(Self.dockctlGlobalOptions)
            #expect(ManualPage.definedOptions(page.section(command, level: 2)) == expected, "dockctl \(command)")
        }
    }

    @Test func docksimsOptionsAreOnItsPage() throws {
        let help = try Repository.output(of: "docksim", ["--help"])
        #expect(try ManualPage("docksim.1").definedOptions == options(in: help))
    }

    @Test func dockwiresOptionsAreOnItsPage() throws {
        var help = try Repository.output(of: "dockwire", ["--help"])
        for command in ["decode", "example"] { help += try Repository.output(of: "dockwire", [command, "--help"]) }
        let page = try ManualPage("dockwire.1")
        #expect(page.definedOptions == options(in: help))
        #expect(page.subsections(of: "COMMANDS") == ["example", "decode"])
        // Each command's synopsis on the page is its usage line as the parser's table writes it.
        let synopsis = page.section("SYNOPSIS").map { String($0).replacing("*", with: "").replacing("_", with: "") }
        for command in ["decode", "example"] {
            let usage = try Repository.output(of: "dockwire", [command, "--help"]).split(separator: "\n").first ?? ""
            #expect(synopsis.contains(String(usage.dropFirst("usage: ".count))), "dockwire(1)'s synopsis of \(command): \(usage)")
        }
    }

    @Test func theAPIPageHasEveryMethodAndError() throws {
        let interface = try Repository.text("Protocol/io.dockd.Dock.varlink").split(separator: "\n")
        func declared(_ keyword: String) -> Set<String> {
            Set(interface.filter { $0.hasPrefix(keyword + " ") }.map { String($0.dropFirst(keyword.count + 1).prefix { $0.isLetter }) })
        }
        let page = try ManualPage("dockd-api.7")
        #expect(declared("method").count >= 16)
        #expect(Set(page.terms(in: "METHODS")) == declared("method"))
        #expect(Set(page.terms(in: "ERRORS")) == declared("error"))
    }

    @Test(arguments: ["dockd.8", "dockd.conf.5", "dockctl.1", "docksim.1", "dockwire.1", "dockd-api.7"])
    func thePageBuilds(name: String) throws {
        let built = try Repository.run("sh", ["-c", "scdoc < \"$1\"", "sh", "docs/man/\(name).scd"], in: Repository.root)
        #expect(built.status == 0, "\(built.output.prefix(300))")
        #expect(built.output.contains(".TH \"\(name.split(separator: ".").dropLast().joined(separator: "."))\""))
    }
}
