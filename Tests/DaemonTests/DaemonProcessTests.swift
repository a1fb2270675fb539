import Foundation
import Glibc
import TestSupport
import Testing

/// `dockd` as a process against `docksim` on a real pseudo-terminal, through the serial transport.
@Suite(.serialized, .onTheProcessThreads) struct DaemonProcessTests {
    func temporaryPath(_ name: String) -> String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        return "\(directory)/\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// A docksim trace line: its time and text.
    struct TraceLine {
        var seconds: Double
        var text: String

        init?(_ line: String) {
            guard let start = line.range(of: "t="), let end = line[start.upperBound...].firstIndex(of: " "),
                let seconds = Double(line[start.upperBound..<end])
            else { return nil }
            self.seconds = seconds
            text = String(line[end...])
        }

        /// The dock's own time in a frame from it, from "t+N µs", seconds.
        var accessorySeconds: Double? {
            guard let range = text.range(of: " t+") else { return nil }
            return Double(text[range.upperBound...].prefix { $0.isNumber }).map { $0 / 1e6 }
        }

        /// The dock's pitch when a host frame arrived, from "(yaw Y pitch P)".
        var pitch: Double? {
            guard let range = text.range(of: "pitch ", options: .backwards) else { return nil }
            return Double(text[range.upperBound...].prefix { $0 != ")" })
        }
    }

    /// Reads docksim's trace until `done` holds for a line, for at most `seconds`; returns the
    /// lines read. (Heartbeats keep the trace going, so without its own deadline a line that
    /// never comes would hold the test for ever.)
    func readTrace(
        _ docksim: ChildProcess, seconds: Double = 60, until done: (TraceLine) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [TraceLine] {
        var lines: [TraceLine] = []
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let raw = docksim.waitForErrorLine(containing: "t=", timeoutSeconds: min(left, 20)) else {
                Issue.record(
                    "the trace ended or \(seconds) s passed without the line wanted; last lines: \(docksim.errorLines.suffix(8))",
                    sourceLocation: sourceLocation)
                return lines
            }
            guard let line = TraceLine(raw) else { continue }
            lines.append(line)
            if done(line) { break }
        }
        return lines
    }

    func startDaemon(link: String) throws -> ChildProcess {
        let dockd = try ChildProcess("dockd", ["--config", "", "--socket", "", "--device", link, "--log-level", "debug"])
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil, "dockd attaches the dock")
        return dockd
    }

    @Test func dockdDrivesTheSimulatedDockStopsOnTermAndTheFailsafeCoversKill() throws {
        let link = temporaryPath("dock-e2e")
        let docksim = try ChildProcess("docksim", ["--pty", link, "--trace"])
        #expect(docksim.waitForErrorLine(containing: "dock on") != nil)

        // Attach: the handshake, then wake plays with velocity commands that move the dock.
        let first = try startDaemon(link: link)
        let waking = readTrace(docksim) { $0.text.contains("set_velocity") && ($0.pitch ?? 0) < -0.1 }
        #expect(waking.contains { $0.text.contains("<- #0 hello") })
        #expect(waking.contains { $0.text.contains("-> #0 info") })
        #expect(waking.last.flatMap(\.pitch).map { $0 < -0.1 } == true, "wake dips the simulated pitch axis")

        // SIGTERM: the motors are told to stop before dockd exits.
        first.signal(SIGTERM)
        let terminated = try first.finish()
        #expect(terminated.status == 0)
        #expect(terminated.error.contains("motors stopped"))
        let afterTerm = readTrace(docksim) { $0.text.contains("<-") && $0.text.contains(" stop ") }
        #expect(afterTerm.last?.text.contains(" stop ") == true, "the last word from dockd was stop")
        // Stopped mid-dip, the motors take a moment to come to rest: the next dockd's wake is
        // seen as "motors moving" only once docksim has said "still" (a dockd that attached
        // sooner played its whole wake with the trace saying nothing, and the test waited).
        if !afterTerm.contains(where: { $0.text.contains("motors still") }) {
            _ = readTrace(docksim) { $0.text.contains("motors still") }
        }

        // A new dockd re-attaches; kill -9 during wake leaves the dock to its failsafe.
        let second = try startDaemon(link: link)
        let beforeKill = readTrace(docksim) { $0.text.contains("motors moving") }
        second.signal(SIGKILL)
        _ = try second.finish()
        let afterKill = beforeKill + readTrace(docksim) { $0.text.contains("failsafe_stop axis=none raised") }
        let lastHostFrame = try #require(afterKill.last { $0.text.contains("<-") })
        let failsafe = try #require(afterKill.last)
        // Timed by the dock's own clock, which the fault carries (its firmware steps each
        // millisecond of simulated time): the trace's t= is when docksim's loop got round to the
        // line, later by however long a loaded machine kept it waiting. The dock's clock started
        // with docksim's, so the two count from the same zero.
        let raisedAt = try #require(failsafe.accessorySeconds, "the fault's own time: \(failsafe.text)")
        let silence = raisedAt - lastHostFrame.seconds
        #expect(silence >= 0.5 - 0.001 && silence <= 0.503, "failsafe \(silence) s after the last frame (timeout 0.5 s)")
        // And the motors come to rest (how soon after the failsafe is FirmwareTests', in virtual time).
        if !afterKill.contains(where: { $0.text.contains("motors still") && $0.seconds >= lastHostFrame.seconds }) {
            _ = readTrace(docksim) { $0.text.contains("motors still") }
        }

        // And a restarted dockd takes the dock back.
        let third = try startDaemon(link: link)
        third.signal(SIGTERM)
        #expect(try third.finish().status == 0)

        docksim.signal(SIGTERM)
        #expect(try docksim.finish().status == 0)
    }

    @Test func malformedBytesNeverCrashTheDaemonAndAreCounted() throws {
        // A pty that speaks garbage first, then a real dock: dockd counts and carries on.
        let link = temporaryPath("dock-noise")
        let docksim = try ChildProcess("docksim", ["--pty", link, "--trace", "--scenario", scenarioPath("line-noise.json")])
        #expect(docksim.waitForErrorLine(containing: "dock on") != nil)
        let dockd = try ChildProcess("dockd", ["--config", "", "--socket", "", "--device", link, "--log-level", "debug"])
        #expect(dockd.waitForErrorLine(containing: "attached") != nil)
        // Line noise (bit-error rate 1e-3) runs from 2 s to 10 s of the scenario's time.
        _ = readTrace(docksim) { $0.seconds >= 6 }
        dockd.signal(SIGTERM)
        let result = try dockd.finish()
        #expect(result.status == 0)
        #expect(!result.error.contains("disconnected"), "noise is not a disconnect")
        let summary = try #require(result.error.split(separator: "\n").last { $0.contains("bad frames") })
        let count = summary.split(separator: "bad frames ").last.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect((count ?? 0) > 0, "damaged frames are counted: \(summary)")
        docksim.signal(SIGTERM)
        _ = try docksim.finish()
    }

    func scenarioPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/\(name)").path
    }
}
