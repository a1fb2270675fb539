import DockSockets
import DockSystem
import Foundation
import TestSupport
import Testing

/// The units in `systemd/` pass `systemd-analyze verify`, and the service's exposure is at most 2.0.
@Suite(.onTheProcessThreads) struct SystemdUnitTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func analyze(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["systemd-analyze"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theUnitsVerify() throws {
        // verify checks that ExecStart exists, so point a copy at the dockd this build made.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try String(contentsOf: Self.repository.appendingPathComponent("systemd/dockd.service"), encoding: .utf8)
            .replacingOccurrences(
                of: "ExecStart=/usr/local/sbin/dockd",
                with: "ExecStart=\(try ChildProcess.executable("dockd").path)")
        try service.write(to: directory.appendingPathComponent("dockd.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: Self.repository.appendingPathComponent("systemd/dockd.socket"),
            to: directory.appendingPathComponent("dockd.socket"))
        // --man=no: the pages the units name (man:dockd(8)...) are installed with them, not here;
        // scripts/check-package verifies the installed units with their pages.
        let result = try analyze([
            "verify", "--man=no", directory.appendingPathComponent("dockd.service").path,
            directory.appendingPathComponent("dockd.socket").path,
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("Unknown"), "\(result.output)")
    }

    @Test func theServiceKeepsTheSystemSocket() throws {
        // dockd runs as user dockd, whose own default would be a per-user socket: the unit names
        // the system's, the one dockd.socket listens on.
        let service = try String(contentsOf: Self.repository.appendingPathComponent("systemd/dockd.service"), encoding: .utf8)
        let socket = try String(contentsOf: Self.repository.appendingPathComponent("systemd/dockd.socket"), encoding: .utf8)
        let lines = service.split(separator: "\n")
        #expect(
            lines.contains("ExecStart=/usr/local/sbin/dockd --socket \(ControlSocketPath.system)"),
            "\(lines.filter { $0.hasPrefix("Exec") })")
        #expect(lines.contains("User=dockd"))
        #expect(socket.split(separator: "\n").contains("ListenStream=\(ControlSocketPath.system)"))
    }

    @Test func theServiceIsHardened() throws {
        let result = try analyze(["security", "--offline=true", Self.repository.appendingPathComponent("systemd/dockd.service").path])
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(score <= 2.0, "\(line)")
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("docs/daemon.md"), encoding: .utf8)
        #expect(readme.contains("exposure level \(score)"), "docs/daemon.md shows the score the units get (\(score))")
    }
}
