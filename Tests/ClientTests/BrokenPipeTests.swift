import DockAPI
import DockCore
import DockHost
import DockProtocol
import Foundation
import Glibc
import Testing
import TestSupport

/// A client whose dockd stops reading mid-call gets an error, not a death by `SIGPIPE`: every
/// send of DockClient uses `MSG_NOSIGNAL`, so an app need not ignore the signal. The app here is
/// dockctl, which keeps `SIGPIPE` at its default (checked in `/proc` while it is connected), and
/// the dockd a stand-in on a socket of the test's own that answers the first call and stops
/// reading before the second.
@Suite struct BrokenPipeTests {
    /// Whether `SIGPIPE` is ignored by process `pid` (`SigIgn` in `/proc/PID/status`).
    static func ignoresSIGPIPE(_ pid: Int32) throws -> Bool {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") })
        let mask = try #require(UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16))
        return mask & (1 << (UInt64(SIGPIPE) - 1)) != 0
    }

    @Test(.timeLimit(.minutes(1)))
    func aClientWithSIGPIPEAtItsDefaultSurvivesDockdGoingAwayMidCall() throws {
        let path = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/pipe-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer {
            close(listener)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 1) == 0)

        // limits with one end given reads the status first (to keep the other end), then sets them.
        let child = try ChildProcess("dockctl", ["limits", "--yaw-min", "-0.5"], environment: ["DOCKD_SOCKET": path])
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 20_000) == 1, "dockctl connects")
        let connection = accept(listener, nil, nil)
        #expect(connection >= 0)
        defer { close(connection) }
        var call: [UInt8] = []
        var byte: UInt8 = 0
        while read(connection, &byte, 1) == 1, byte != 0 { call.append(byte) }
        #expect(try VarlinkCall.parse(call).method == DockMethod.getStatus.qualifiedName)
        #expect(try !Self.ignoresSIGPIPE(child.process.processIdentifier), "dockctl keeps SIGPIPE's default")

        // Stop reading, then answer: dockctl's next call is written to a socket nobody reads.
        #expect(shutdown(connection, Int32(SHUT_RD)) == 0)
        var status = HostPolicy().status(now: .zero, device: "stand-in")
        status.limits = MotionLimits(info: ExampleSession.info)
        let reply = VarlinkReply.success(["status": DockEncoding.json(status)]).bytes
        #expect(reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) } == reply.count)

        #expect(child.waitForErrorLine(containing: "dockd closed the connection") != nil)
        let run = try child.finish()
        #expect(child.process.terminationReason == .exit, "not killed by a signal (SIGPIPE is 13)")
        #expect(run.status == 1)
    }
}
