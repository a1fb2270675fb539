import DockSockets
import DockSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// dockd as systemd sees it: notifications on a datagram socket, journald priority prefixes, help
/// and exit statuses.
@Suite(.serialized, .onTheProcessThreads) struct ServiceTests {
    /// A datagram socket bound at a temporary path, as systemd's notification socket is.
    final class NotifySocket {
        let path: String
        let descriptor: Int32

        init() throws {
            path = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw SystemError("bind", path) }
        }

        /// The next datagram, or nil after `timeoutSeconds`.
        func receive(timeoutSeconds: Double = 60) -> String? {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(timeoutSeconds * 1000)) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
        }

        deinit {
            close(descriptor)
            unlink(path)
        }
    }

    @Test func readyStatusWatchdogAndStoppingReachTheServiceManager() throws {
        let notify = try NotifySocket()
        let dockd = try ChildProcess(
            "dockd", ["--config", "", "--socket", "", "--simulator"],
            environment: [
                "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000",
                "JOURNAL_STREAM": "8:1234",
            ])
        let ready = try #require(notify.receive())
        #expect(ready.hasPrefix("READY=1\nSTATUS="))
        // Keep-alives, each with the status: the dock ready once it has attached (a loaded
        // machine may send a keep-alive or two before that).
        var keepAlives: [String] = []
        while let keepAlive = notify.receive() {
            keepAlives.append(keepAlive)
            if keepAlive.hasPrefix("WATCHDOG=1\nSTATUS=DK-1 Demo SIM-0001 ready, docked") { break }
        }
        #expect(keepAlives.last?.hasPrefix("WATCHDOG=1\nSTATUS=DK-1 Demo SIM-0001 ready, docked") == true, "\(keepAlives)")
        #expect(keepAlives.allSatisfy { $0.hasPrefix("WATCHDOG=1\nSTATUS=") }, "\(keepAlives)")
        dockd.signal(SIGTERM)
        var stopping = false
        while let message = notify.receive() {
            if message == "STOPPING=1" {
                stopping = true
                break
            }
        }
        #expect(stopping)
        let result = try dockd.finish()
        #expect(result.status == 0)
        #expect(result.error.contains("<5>attached DK-1 Demo"), "journald priority prefixes: \(result.error.prefix(200))")
        #expect(result.error.contains("<5>motors stopped"))
    }

    @Test func helpUsageAndBadSettingsExitAsDocumented() throws {
        let help = try ChildProcess.run("dockd", ["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--list-devices"))
        let usage = try ChildProcess.run("dockd", ["--config", "", "--socket", "", "--frobnicate"])
        #expect(usage.status == 64)
        #expect(usage.error.hasPrefix("dockd: unknown argument '--frobnicate'\nusage: dockd"))
        let bad = try ChildProcess.run("dockd", ["--config", "", "--socket", "", "--baud", "-3"])
        #expect(bad.status == 78)
        #expect(bad.error == "dockd: --baud: baud: must be from 1200 to 4000000, got -3\n")
    }

    @Test func listDevicesPrintsWhatUdevSees() throws {
        let result = try ChildProcess.run("dockd", ["--config", "", "--socket", "", "--list-devices"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("looking for USB 1209:d0c0\n"))
        let listed = result.output.split(separator: "\n").dropFirst()
        #expect(!listed.isEmpty, "either devices or the statement that there are none")
    }

    @Test func theSimulatorCanBeRunWithAScenario() throws {
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/dock-faults.json").path
        let dockd = try ChildProcess("dockd", ["--config", "", "--socket", "", "--simulator", "--scenario", scenario])
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        #expect(
            dockd.waitForErrorLine(containing: "button: trackingButton(isPressed: true)") != nil,
            "the scenario presses the tracking button at 1 s")
        #expect(dockd.waitForErrorLine(containing: "control: nobody -> system tracker") != nil, "which turns tracking on")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
