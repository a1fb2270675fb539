import Foundation
import Glibc
import TestSupport
import Testing

/// `accept` out of descriptors (`EMFILE`): dockd pauses accepting instead of spinning on a
/// listener that stays readable, and serves again once descriptors are free.
@Suite(.onTheProcessThreads) struct AcceptBackoffTests {
    /// The CPU time (user + system, seconds) the process has used, from /proc/PID/stat.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (Double(fields[11]) ?? 0) / ticks + (Double(fields[12]) ?? 0) / ticks
    }

    @Test func outOfDescriptorsAcceptBacksOffAndRecovers() throws {
        let socket = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-emfile-\(getpid()).sock"
        // 24 descriptors: dockd's own (standard streams, epoll, timerfd, signalfd, the listener)
        // leave room for about 16 clients.
        let dockd = try ChildProcess(
            program: URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "ulimit -n 24 && exec \"$0\" \"$@\"", try ChildProcess.executable("dockd").path,
                "--config", "", "--simulator", "--simulator-camera=false", "--wake-on-attach=false",
                "--socket", socket,
            ],
            exactEnvironment: ProcessInfo.processInfo.environment)
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        var crowd: [VarlinkTestClient] = []
        for _ in 0..<30 { crowd.append(try VarlinkTestClient(path: socket)) }
        let line = dockd.waitForErrorLine(containing: "not accepting")
        #expect(line?.contains("accept") == true, "\(line ?? "no line")")
        // With the backlog still full of connections it cannot take, a spinning accept would
        // use the whole core; paused, it sleeps most of the time.
        let pid = dockd.process.processIdentifier
        let before = Self.cpuSeconds(pid)
        usleep(1_000_000)
        let used = Self.cpuSeconds(pid) - before
        try #require(used < 0.2, "dockd used \(used) s of CPU in 1 s while out of descriptors")
        crowd.removeAll()
        var answered = false
        for _ in 0..<50 where !answered {
            let client = try VarlinkTestClient(path: socket)
            answered = (try? client.call("io.dockd.Dock.GetStatus"))?["parameters"] != nil
        }
        #expect(answered, "served again once descriptors are free")
        #expect(dockd.waitForErrorLine(containing: "accepting connections again") != nil)
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
