import Foundation
import Glibc
import TestSupport
import Testing

/// dockd's loop asks the kernel for a short time slice (`LoopScheduling`): seen from outside, in
/// `/proc/PID/sched` of the running daemon, as an unprivileged user would run it too.
@Suite(.onTheProcessThreads) struct LoopSchedulingTests {
    /// The `se.slice` line of a thread's `/proc/…/sched`, nanoseconds; nil where the kernel does
    /// not show one (before EEVDF, 6.6).
    static func slice(ofThread path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path + "/sched", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("se.slice") {
            return line.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        return nil
    }

    /// Whether this kernel keeps a thread's own slice: 6.12 and later report `sched_runtime` of a
    /// fair thread; before that it is accepted and ignored (then dockd says so, and keeps the
    /// kernel's).
    static var kernelHasCustomSlices: Bool {
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let numbers = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2 else { return false }
        return (numbers[0], numbers[1]) >= (6, 12)
    }

    @Test func theLoopThreadRunsWithAShortSlice() throws {
        let socket = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/slice-\(getpid()).sock"
        let dockd = try ChildProcess("dockd", ["--simulator", "--config", "", "--socket", socket, "--log-level", "debug"])
        defer {
            dockd.signal(SIGTERM)
            _ = try? dockd.finish()
        }
        let started = try #require(dockd.waitForErrorLine(containing: "dockd started"))
        #expect(started.contains("simulator"))
        let pid = dockd.process.processIdentifier
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        #expect(threads == ["\(pid)"], "one thread, the loop's: \(threads)")
        if Self.kernelHasCustomSlices {
            #expect(dockd.errorLines.contains { $0.contains("event loop: scheduler time slice 100 µs") }, "\(dockd.errorLines)")
            #expect(Self.slice(ofThread: "/proc/\(pid)/task/\(pid)") == 100_000)
        } else {
            #expect(dockd.errorLines.contains { $0.contains("event loop: the kernel keeps its own time slice") }, "\(dockd.errorLines)")
        }
    }
}
