import DockVersion
import Foundation
import Glibc
import TestSupport
import Testing

/// One version, `DockVersion.number`, everywhere it shows: every program's `--version`, dockd's
/// `GetInfo` and its log line at start (scripts/package takes the package's from `dockd --version`).
@Suite(.onTheProcessThreads) struct VersionTests {
    @Test func itIsThreeNumbers() {
        let parts = DockVersion.number.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(DockVersion.number)")
    }

    @Test(arguments: ["dockd", "dockctl", "docksim", "dockwire", "dockbench"])
    func everyProgramPrintsIt(program: String) throws {
        let run = try ChildProcess.run(program, ["--version"])
        #expect(run.status == 0)
        #expect(run.output == "\(program) \(DockVersion.number)\n")
        #expect(run.error.isEmpty)
    }

    /// The package installs dockd's binary once and links the other three to it: started by
    /// another program's name, it is that program, word for word.
    @Test(arguments: [
        ("dockctl", ["--version"]), ("dockctl", ["--help"]), ("dockctl", ["--completions", "fish"]), ("dockctl", ["nonsense"]),
        ("docksim", ["--version"]), ("docksim", ["--help"]), ("dockwire", ["--version"]), ("dockwire", ["--help"]),
        ("dockwire", ["example"]),
    ])
    func dockdsBinaryByAnotherNameIsThatProgram(program: String, arguments: [String]) throws {
        let directory =
            "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-names-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = URL(fileURLWithPath: "\(directory)/\(program)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try ChildProcess.executable("dockd"))
        let environment = ProcessInfo.processInfo.environment
        let linked = try ChildProcess(program: link, arguments, exactEnvironment: environment).finish()
        let own = try ChildProcess(program: try ChildProcess.executable(program), arguments, exactEnvironment: environment).finish()
        #expect(linked.status == own.status, "\(arguments)")
        #expect(linked.output == own.output, "\(arguments)")
        #expect(linked.error == own.error, "\(arguments)")
        #expect(!own.output.isEmpty || !own.error.isEmpty)
        if arguments == ["--version"] { #expect(linked.output == "\(program) \(DockVersion.number)\n") }
    }

    @Test func dockdShowsItInGetInfoAndAtStart() throws {
        let socket = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-version-\(getpid()).sock"
        let dockd = try ChildProcess(
            "dockd",
            [
                "--config", "", "--simulator", "--socket", socket, "--wake-on-attach=false",
                "--simulator-camera=false",
            ])
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        #expect(dockd.waitForErrorLine(containing: "dockd started on simulator; version \(DockVersion.number)") != nil)
        let client = try VarlinkTestClient(path: socket)
        let reply = try client.call("org.varlink.service.GetInfo")
        let info = reply?["parameters"] as? [String: Any]
        #expect(info?["version"] as? String == DockVersion.number)
        #expect(info?["product"] as? String == "dockd")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
