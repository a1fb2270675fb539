import Foundation
import Glibc
import TestSupport
import Testing

/// dockd as a process: SIGHUP reloads the settings through the start-up parser, and keeps them
/// when the new ones are refused or their file has gone.
@Suite(.serialized, .onTheProcessThreads) struct ReloadProcessTests {
    func temporaryPath(_ name: String) -> String {
        "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// `tracking` once the status shows `expected` (the status may be refreshed at the control
    /// loop's next tick), or what it still shows after 60 s.
    func tracking(settlingTo expected: Bool, _ client: VarlinkTestClient) throws -> Bool? {
        let (status, seen) = try client.dockStatus { $0["tracking"] as? Bool == expected }
        return (status ?? seen.last)?["tracking"] as? Bool
    }

    /// Whether `tracking` shows `expected` in every status of the control loop's next fifteen
    /// ticks: they come after the refusal's log line was read, so a setting the refused file had
    /// applied after all would show in them.
    func tracking(staying expected: Bool, _ client: VarlinkTestClient) throws -> Bool {
        let statuses = try client.dockStatuses(throughTicks: 15)
        return !statuses.isEmpty && statuses.allSatisfy { $0["tracking"] as? Bool == expected }
    }

    @Test func sighupAppliesAGoodFileAndKeepsTheSettingsWhenTheFileIsBadOrGone() throws {
        let file = temporaryPath("dockd-reload") + ".conf"
        let socket = temporaryPath("dockd-reload") + ".sock"
        try "tracking = false\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let dockd = try ChildProcess("dockd", ["--config", file, "--simulator", "--socket", socket, "--wake-on-attach=false"])
        #expect(dockd.waitForErrorLine(containing: "dockd started on simulator with \(file)") != nil)
        let client = try VarlinkTestClient(path: socket)
        #expect(try tracking(settlingTo: false, client) == false)

        // A changed setting is applied.
        try "# changed\ntracking = true\n".write(toFile: file, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        #expect(dockd.waitForErrorLine(containing: "configuration reloaded from \(file)") != nil, "\(dockd.errorLines)")
        #expect(try tracking(settlingTo: true, client) == true)

        // A bad value: the same error as at start, with file and line, and nothing of the file applied.
        try "tracking = false\nbaud = fast\n".write(toFile: file, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        let refused = dockd.waitForErrorLine(containing: "configuration not reloaded")
        #expect(
            refused?.hasSuffix("configuration not reloaded: \(file):2: baud: must be a whole number, got 'fast'") == true,
            "\(refused ?? "no line")")
        #expect(try tracking(staying: true, client), "the settings in force are kept")

        // The file is gone: refused and logged with its path, not taken for the defaults.
        unlink(file)
        dockd.signal(SIGHUP)
        let gone = dockd.waitForErrorLine(containing: "configuration not reloaded")
        #expect(
            gone?.hasSuffix("configuration not reloaded: cannot read configuration file '\(file)'") == true,
            "\(gone ?? "no line")")
        #expect(try tracking(staying: true, client), "the settings in force are kept")

        // Back again: applied.
        try "tracking = false\n".write(toFile: file, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        #expect(dockd.waitForErrorLine(containing: "configuration reloaded from \(file)") != nil)
        #expect(try tracking(settlingTo: false, client) == false)

        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
