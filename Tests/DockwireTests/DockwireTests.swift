import Foundation
import Testing

@testable import DockwireProgram

@Suite struct CommandTests {
    @Test func commandsParse() throws {
        #expect(try Command.parse(["example"]) == .example)
        #expect(try Command.parse(["decode"]) == .decode(path: nil, isRaw: false))
        #expect(try Command.parse(["decode", "-"]) == .decode(path: nil, isRaw: false))
        #expect(try Command.parse(["decode", "--raw", "cap.bin"]) == .decode(path: "cap.bin", isRaw: true))
        #expect(try Command.parse(["--help"]) == .help(topic: nil))
        #expect(try Command.parse(["help", "decode"]) == .help(topic: "decode"))
        #expect(try Command.parse(["decode", "x", "--help"]) == .help(topic: "decode"))
        #expect(try Command.parse(["example", "-h"]) == .help(topic: "example"))
        #expect(try Command.parse(["--version"]) == .version)
    }

    @Test func usageErrorsSayWhatIsWrong() {
        #expect(throws: Command.UsageError(message: "no command given")) { try Command.parse([]) }
        #expect(throws: Command.UsageError(message: "unknown command 'decoder'")) { try Command.parse(["decoder"]) }
        #expect(throws: Command.UsageError(message: "unknown option '--hex' for decode")) {
            try Command.parse(["decode", "--hex"])
        }
        #expect(throws: Command.UsageError(message: "decode takes one file")) { try Command.parse(["decode", "a", "b"]) }
        #expect(throws: Command.UsageError(message: "example takes no arguments, got 'x'")) {
            try Command.parse(["example", "x"])
        }
    }

    @Test func everyCommandHasHelp() {
        #expect(Command.helpText(topic: nil)?.hasPrefix("dockwire: encode and decode frames") == true)
        #expect(Command.helpText(topic: "decode")?.hasPrefix("usage: dockwire decode [--raw] [FILE]\n") == true)
        #expect(Command.helpText(topic: "example")?.hasPrefix("usage: dockwire example\n") == true)
        #expect(Command.helpText(topic: "nonsense") == nil)
    }

    @Test func hexTextAllowsSeparatorsAndComments() throws {
        #expect(try Hex.parse("00 0a:FF-10 # comment 11\n\t7f") == [0x00, 0x0A, 0xFF, 0x10, 0x7F])
        #expect(try Hex.parse("") == [])
        #expect(throws: Hex.ParseError(line: 2, message: "'g' is not a hex digit")) { try Hex.parse("00\n0g") }
        #expect(throws: Hex.ParseError(line: 1, message: "odd number of hex digits")) { try Hex.parse("001") }
        #expect(throws: Hex.ParseError(line: 1, message: "a lone hex digit before ' '")) { try Hex.parse("0 01") }
        #expect(Hex.format([0, 0x0A, 0xFF]) == "00 0a ff")
    }
}
