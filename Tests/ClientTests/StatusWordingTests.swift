import Foundation
import Glibc
import TestSupport
import Testing

/// `dockctl status` says only what is true: what the dock can do (no zoom it cannot drive),
/// tracking as one state, no negative zero, and with tracking on and nothing sending boxes,
/// that none arrive and where they come from.
@Suite(.serialized, .onTheProcessThreads) struct TrueStatusTests {
    static func status(_ socket: String) throws -> String {
        let child = try ChildProcess("dockctl", ["status"], environment: ["DOCKD_SOCKET": socket])
        try child.finishInput("")
        return try child.finish().output
    }

    @Test func theSimulatedDocksStatusIsTrue() throws {
        let (dockd, socket) = try ClientProcessTests.startDaemon()
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        // The simulated camera sees the built-in scene's person within a few frames.
        var text = ""
        let deadline = ContinuousClock.now + .seconds(20)
        repeat { text = try Self.status(socket) } while !text.contains("watching subject") && ContinuousClock.now < deadline
        let lines = text.split(separator: "\n").map(String.init)
        let can = try #require(lines.first { $0.hasPrefix("can:") })
        #expect(!can.contains("zoom"), "the simulated dock's zoom control is a button it reports, not a zoom dockd drives: \(can)")
        #expect(can.contains("buttons"))
        #expect(lines.contains { $0.hasPrefix("cannot:") && $0.contains("zoom") })
        #expect(lines.contains("tracking:   off, watching subject 1 (in frame); dockctl track on follows them"), "\(text)")
        #expect(!lines.contains { $0.hasPrefix("tracker:") }, "one tracking state, not two lines that disagree")
        #expect(!text.contains("-0.0"), "no negative zero: \(text)")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }

    @Test func trackingWithNothingSendingBoxesSaysSo() throws {
        let socket =
            "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/blind-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let dockd = try ChildProcess(
            "dockd",
            ["--config", "", "--simulator", "--simulator-camera=false", "--tracking", "--socket", socket, "--wake-on-attach=false"])
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil, "\(dockd.errorLines)")
        let text = try Self.status(socket)
        #expect(
            text.contains(
                "tracking:   on, but no observations have arrived: boxes come from dockd-vision, an app's Track, or docksim --camera"),
            "\(text)")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
