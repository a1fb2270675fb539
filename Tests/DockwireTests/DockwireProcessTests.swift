import DockProtocol
import Foundation
import Testing

/// Runs the built `dockwire` binary, as a user would.
@Suite struct DockwireProcessTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    static func dockwire(_ arguments: [String], input: String = "") throws -> Run {
        let directory = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [Bundle.main.bundleURL, directory].map { $0.appendingPathComponent("dockwire") }
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates[0].path])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                   error: String(decoding: error, as: UTF8.self))
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
