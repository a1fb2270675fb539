import DockAPI
import DockVocabulary
import Foundation
import Glibc
import TestSupport
import Testing

/// A client whose dockd stops reading mid-call gets an error, not a death by `SIGPIPE`: every
/// send of DockClient uses `MSG_NOSIGNAL`, so an app need not ignore the signal. The app here is
/// dockctl, which keeps `SIGPIPE` at its default (checked in `/proc` while it is connected), and
/// the dockd a stand-in on a socket of the test's own that answers the first call and stops
/// reading before the second.
@Suite(.onAThreadOfItsOwn) struct BrokenPipeTests {
    /// Whether `SIGPIPE` is ignored by process `pid` (`SigIgn` in `/proc/PID/status`).
    static func ignoresSIGPIPE(_ pid: Int32) throws -> Bool {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") })
        let mask = try #require(UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16))
        return mask & (1 << (UInt64(SIGPIPE) - 1)) != 0
    }

    @Test(.timeLimit(.minutes(5)))
    func aClientWithSIGPIPEAtItsDefaultSurvivesDockdGoingAwayMidCall() async throws {
        let dockd = StandInDockd()
        // limits with one end given reads the status first (to keep the other end), then sets them.
        let child = try ChildProcess("dockctl", ["limits", "--yaw-min", "-0.5"], environment: ["DOCKD_SOCKET": dockd.path])
        await dockd.accept()
        #expect(try await dockd.receive().method == DockMethod.getStatus.qualifiedName)
        #expect(try !Self.ignoresSIGPIPE(child.process.processIdentifier), "dockctl keeps SIGPIPE's default")

        // Stop reading, then answer: dockctl's next call is written to a socket nobody reads.
        #expect(shutdown(dockd.connection, Int32(SHUT_RD)) == 0)
        var status = ConnectionRoutingTests.status
        status.limits = Dock.Limits(
            yawRadians: -2.96706...2.96706, pitchRadians: -0.523599...1.047198, yawSpeedRadiansPerSecond: 3.141593,
            pitchSpeedRadiansPerSecond: 1.570796)
        dockd.send(.success(["status": status.json]))

        #expect(child.waitForErrorLine(containing: "dockd closed the connection") != nil)
        let run = try child.finish()
        #expect(child.process.terminationReason == .exit, "not killed by a signal (SIGPIPE is 13)")
        #expect(run.status == 1)
    }
}
