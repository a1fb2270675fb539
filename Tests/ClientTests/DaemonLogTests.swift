import Foundation
import Glibc
import TestSupport
import Testing

/// dockd's log at its default level says what a person wants to know happened — attached, played
/// wake, refused what and why, tracking on and off — and not each client's connection; events
/// and the log say it in words, never a Swift type's name (issue 45).
@Suite(.serialized, .onTheProcessThreads) struct DaemonLogTests {
    @Test func theDefaultLogTellsWhatHappenedInWords() throws {
        let socket = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/log-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let dockd = try ChildProcess("dockd", ["--config", "", "--simulator", "--socket", socket])
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        func dockctl(_ line: String) throws -> (status: Int32, output: String, error: String) {
            let child = try ChildProcess("dockctl", line.split(separator: " ").map(String.init), environment: ["DOCKD_SOCKET": socket])
            try child.finishInput("")
            return try child.finish()
        }
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil, "\(dockd.errorLines)")
        #expect(dockd.waitForErrorLine(containing: "playing wake") != nil, "\(dockd.errorLines)")

        // A watcher sees kapow's end in words.
        let watch = try ChildProcess("dockctl", ["watch"], environment: ["DOCKD_SOCKET": socket])
        defer { watch.signal(SIGKILL) }
        #expect(watch.waitForOutputLine() != nil, "watching")
        #expect(try dockctl("animate kapow --take-over").status == 0)
        var ended: String?
        while ended == nil, let line = watch.waitForOutputLine() {
            if line.contains("\"kind\":\"motion_ended\""), line.contains("kapow") { ended = line }
        }
        let event = try #require(ended, "kapow's motion_ended event")
        #expect(event.contains("kapow finished"), "\(event)")
        #expect(!event.contains("AnimationKind") && !event.contains("animationFinished"), "no Swift type in an event: \(event)")

        #expect(try dockctl("select --at 0.02 0.02").status == 1)
        #expect(dockd.waitForErrorLine(containing: "refused client ") != nil, "\(dockd.errorLines)")
        let refusal = dockd.errorLines.last ?? ""
        #expect(refusal.hasSuffix("'s subject at a point: no subject at that point"), "what was refused and why: \(refusal)")
        #expect(try dockctl("track on").status == 0)
        #expect(dockd.waitForErrorLine(containing: "tracking on (client ") != nil, "\(dockd.errorLines)")
        #expect(try dockctl("track off").status == 0)
        #expect(dockd.waitForErrorLine(containing: "tracking off (client ") != nil, "\(dockd.errorLines)")

        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
        let log = dockd.errorLines
        #expect(!log.contains { $0.contains(" connected") || $0.contains(" disconnected") }, "no line per client connection: \(log)")
        #expect(!log.contains { $0.contains("control: nobody -> client") }, "nor per command: \(log)")
        #expect(log.contains { $0.contains("control: nobody -> system tracker") }, "but the tracker taking over: \(log)")
        #expect(!log.contains { $0.contains("Dock") && $0.contains("Kind") }, "\(log)")
    }
}
