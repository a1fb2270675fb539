import Foundation
import Glibc
import TestSupport
import Testing

/// dockd as a process: a socket it cannot serve ends it with a clear message and exit status 1.
@Suite(.serialized, .onTheProcessThreads) struct ControlSocketProcessTests {
    func temporaryPath(_ name: String) -> String {
        "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Runs dockd on the simulator with `socket`; returns its exit status and standard error.
    func runDaemon(socket: String) throws -> (status: Int32, error: String) {
        let dockd = try ChildProcess("dockd", ["--config", "", "--simulator", "--socket", socket])
        if dockd.waitForErrorLine(containing: "dockd started") != nil {
            dockd.signal(SIGTERM)  // it ran on: the failure this test looks for did not happen
        }
        let result = try dockd.finish()
        return (result.status, (dockd.errorLines + [result.error]).joined(separator: "\n"))
    }

    @Test func aSocketThatCannotBeServedEndsDockdWithWhatToDo() throws {
        let file = temporaryPath("dockd-not-a-socket")
        try "x".write(toFile: file, atomically: false, encoding: .utf8)
        defer { unlink(file) }
        let advice = "; use --socket PATH for another socket, or --socket \"\" for no API"

        let occupied = try runDaemon(socket: file)
        #expect(occupied.status == 1)
        #expect(
            occupied.error.contains(
                "cannot serve the control API on \(file): bind \(file) (exists and is not a socket): File exists"
                    + advice), "\(occupied.error)")
        #expect(!occupied.error.contains("dockd started"), "it ends before it runs")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "x", "the file is left alone")

        let underAFile = try runDaemon(socket: file + "/dockd.sock")
        #expect(underAFile.status == 1)
        #expect(
            underAFile.error.contains("cannot serve the control API on \(file)/dockd.sock: ")
                && underAFile.error.contains("Not a directory" + advice), "\(underAFile.error)")

        // A socket another dockd serves is not taken from it; the first keeps serving.
        let socket = temporaryPath("dockd-busy") + ".sock"
        let first = try ChildProcess("dockd", ["--config", "", "--simulator", "--socket", socket, "--wake-on-attach=false"])
        #expect(first.waitForErrorLine(containing: "control API on \(socket)") != nil)
        let second = try runDaemon(socket: socket)
        #expect(second.status == 1)
        #expect(
            second.error.contains("cannot serve the control API on \(socket): another dockd is already serving it" + advice),
            "\(second.error)")
        let client = try VarlinkTestClient(path: socket)
        #expect(try client.call("io.dockd.Dock.GetStatus")?["parameters"] != nil, "the first dockd still answers")
        first.signal(SIGTERM)
        #expect(try first.finish().status == 0)
        #expect(access(socket, F_OK) != 0, "the socket file is gone after a clean stop")

        // The per-user fallback's directory in /tmp is made private, and refused when it is not.
        let directory = "/tmp/dockd-\(geteuid())"
        if access(directory, F_OK) != 0 {  // never touch a real user's
            defer { rmdir(directory) }
            let fallback = directory + "/dockd.sock"
            let own = try ChildProcess("dockd", ["--config", "", "--simulator", "--socket", fallback, "--wake-on-attach=false"])
            #expect(own.waitForErrorLine(containing: "control API on \(fallback)") != nil)
            var status = stat()
            #expect(lstat(directory, &status) == 0 && status.st_mode & 0o7777 == 0o700 && status.st_uid == geteuid())
            own.signal(SIGTERM)
            #expect(try own.finish().status == 0)
            chmod(directory, 0o755)
            let shared = try runDaemon(socket: fallback)
            #expect(shared.status == 1)
            #expect(
                shared.error.contains(
                    "cannot serve the control API on \(fallback): \(directory) is not a private "
                        + "directory of user \(geteuid()) (owner \(geteuid()), mode 755); remove it" + advice),
                "\(shared.error)")
        }

        // And --socket "" still runs without an API.
        let none = try ChildProcess("dockd", ["--config", "", "--simulator", "--socket", ""])
        #expect(none.waitForErrorLine(containing: "no control API (--socket \"\")") != nil)
        #expect(none.waitForErrorLine(containing: "dockd started") != nil)
        none.signal(SIGTERM)
        #expect(try none.finish().status == 0)
    }
}
