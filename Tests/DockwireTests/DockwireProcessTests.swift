import DockProtocol
import Foundation
import TestSupport
import Testing

/// Runs the built `dockwire` binary, as a user would.
@Suite(.onTheProcessThreads) struct DockwireProcessTests {
    static func dockwire(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, error: String) {
        try ChildProcess.run("dockwire", arguments, input: input)
    }

    @Test func theExampleDecodesBackToItsFrames() throws {
        let example = try Self.dockwire(["example"])
        #expect(example.status == 0)
        let hexLines = example.output.split(separator: "\n").filter { $0.hasPrefix("    ") }
        #expect(hexLines.count == ExampleSession.steps.count)

        let decoded = try Self.dockwire(["decode"], input: hexLines.joined(separator: "\n"))
        #expect(decoded.status == 0)
        #expect(decoded.output == ExampleSession.steps.map { "\($0.frame)\n" }.joined())
    }

    @Test func damagedInputIsReportedByName() throws {
        let run = try Self.dockwire(["decode"], input: "00 12 34 00 # a cut frame\n00 02 01")
        #expect(run.status == 0)
        #expect(run.output == "error: truncated: frame cut short (2 bytes)\nincomplete: 2 bytes after the last delimiter\n")
    }

    @Test func failuresAndUsageErrorsExitAsDocumented() throws {
        let usage = try Self.dockwire(["frobnicate"])
        #expect(usage.status == 64)
        #expect(usage.error.hasPrefix("dockwire: unknown command 'frobnicate'\nusage:"))

        let missing = try Self.dockwire(["decode", "/nonexistent/capture.hex"])
        #expect(missing.status == 1)
        #expect(missing.error == "dockwire: cannot read '/nonexistent/capture.hex'\n")

        let badHex = try Self.dockwire(["decode"], input: "00 zz")
        #expect(badHex.status == 1)
        #expect(badHex.error == "dockwire: standard input: line 1: 'z' is not a hex digit\n")
    }
}
