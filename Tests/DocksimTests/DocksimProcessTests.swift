import DockProtocol
import DockSimulator
import DockSockets
import DockSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// `docksim` as a process, serving the dock on a real pseudo-terminal, driven through the codec.
@Suite(.serialized, .onTheProcessThreads) struct DocksimProcessTests {
    static let scenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    /// A host on the far end of the pty: sends frames and reads them until a condition holds.
    struct LineHost {
        let port: FileDescriptor
        var decoder = FrameDecoder()
        var sequence: UInt16 = 0

        init(path: String) throws {
            let descriptor = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { throw SystemError("open", path) }
            port = FileDescriptor(rawValue: descriptor)
            try port.makeRaw()
            try port.setNonBlocking()
        }

        mutating func send(_ message: Message) throws {
            try port.write(try FrameEncoder.encode(Frame(sequence: sequence, message: message)))
            sequence &+= 1
        }

        /// Reads frames until `done` returns true for one, or `limit` frames have come, or the
        /// line has been idle for 30 s (the dock sends telemetry all the while: only a dock gone
        /// quiet gets there); returns every frame read.
        mutating func read(limit: Int = 10_000, until done: (Frame) -> Bool) throws -> [Frame] {
            var frames: [Frame] = []
            while frames.count < limit {
                guard try !Poll.waitForReading([port], timeout: .seconds(30)).isEmpty else { return frames }
                guard case .bytes(let bytes) = try port.read() else { return frames }
                for case .success(let frame) in decoder.decode(bytes) {
                    frames.append(frame)
                    if done(frame) { return frames }
                }
            }
            return frames
        }
    }

    func temporaryPath(_ name: String) -> String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        return "\(directory)/\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test func answersHelloOverThePtyAndStopsAtTheFailsafe() throws {
        let link = temporaryPath("dock-test")
        let report = temporaryPath("dock-report") + ".json"
        let docksim = try ChildProcess(
            "docksim",
            [
                "--pty", link, "--scenario", Self.scenarios.appendingPathComponent("walk-across.json").path,
                "--report", report,
            ])
        let announced = try #require(docksim.waitForErrorLine(containing: "dock on"))
        #expect(announced.contains(link))
        var destination = [CChar](repeating: 0, count: 256)
        #expect(readlink(link, &destination, 255) > 0, "the link exists")

        var host = try LineHost(path: link)
        try host.send(.hello(Hello(minimumVersion: 1, maximumVersion: 1)))
        let info = try host.read(limit: 10) { if case .info = $0.message { true } else { false } }.last
        let expected = AccessoryConfiguration().info(version: 1)!
        #expect(info?.message == .info(expected))

        // Turn, keeping the link alive for a while, then fall silent.
        try host.send(
            .setVelocity(
                VelocityCommand(
                    yawRate: AngularRate(radiansPerSecond: 1)!, pitchRate: .zero,
                    timeToLive: .seconds(5))))
        var lastAcknowledged = AccessoryTimestamp(microseconds: 0)
        var moving = false
        for _ in 0..<5 {
            let frames = try host.read { if case .ack = $0.message { true } else { false } }
            if case .ack(let ack)? = frames.last?.message { lastAcknowledged = ack.accessoryTime }
            let telemetry = try host.read(limit: 5) { _ in false }  // about 100 ms of telemetry
            moving = moving || (frames + telemetry).contains { $0.telemetry.map { $0.yawRate.radiansPerSecond > 0.9 } ?? false }
            try host.send(.heartbeat)
        }
        let lastAnswer = try host.read { if case .ack = $0.message { true } else { false } }
        if case .ack(let ack)? = lastAnswer.last?.message { lastAcknowledged = ack.accessoryTime }
        #expect(moving, "the velocity turned the simulated yaw axis")

        let untilFailsafe = try host.read { $0.fault?.code == .failsafeStop }
        let failsafe = try #require(untilFailsafe.last?.fault)
        #expect(failsafe.isActive)
        let silence = failsafe.accessoryTime.microseconds - lastAcknowledged.microseconds
        // The dock's own clock: the failsafe fires 500 ms after the last frame (plus the loop's
        // step), and the motor is still once braking from 1 rad/s is over.
        #expect(silence >= 500_000 && silence <= 510_000, "failsafe after \(silence) µs of silence")
        let untilStill = try host.read { $0.telemetry.map { abs($0.yawRate.microradiansPerSecond) < 1000 } ?? false }
        let still = try #require(untilStill.last?.telemetry)
        #expect(still.accessoryTime.microseconds - lastAcknowledged.microseconds <= 750_000)
        #expect(still.flags.contains(.failsafeStopped))

        docksim.signal(SIGTERM)
        let result = try docksim.finish()
        #expect(result.status == 0)
        #expect(result.error.contains("stopped by signal 15"))
        #expect(access(link, F_OK) != 0, "the link is removed at exit")
        let reportText = try String(contentsOfFile: report, encoding: .utf8)
        let reportJSON = try #require(try JSONSerialization.jsonObject(with: Data(reportText.utf8)) as? [String: Any])
        #expect(reportJSON["scenario"] as? String == "walk-across")
        #expect((reportJSON["dock_frames"] as? [String: Any])?["good"] as? Int ?? 0 >= 7)
        host.port.close()
        unlink(report)
    }

    @Test func aBadScenarioFileIsRefusedWithItsFieldAndLine() throws {
        let scenario = temporaryPath("bad-scenario") + ".json"
        try """
        {
          "duration_s": 10,
          "faults": [{"at_s": 1, "kind": "meteor", "duration_s": 1}]
        }
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let link = temporaryPath("dock-test")
        let result = try ChildProcess.run("docksim", ["--pty", link, "--scenario", scenario])
        #expect(result.status == 65)
        #expect(result.error.hasPrefix("docksim: \(scenario): line 3: faults[0].kind: unknown value \"meteor\""))
        #expect(access(link, F_OK) != 0, "no link is made for a bad scenario")
        unlink(scenario)

        let missing = try ChildProcess.run("docksim", ["--pty", link, "--scenario", "/nonexistent.json"])
        #expect(missing.status == 65)
        #expect(missing.error == "docksim: cannot read scenario '/nonexistent.json'\n")
    }

    @Test func usageErrorsAndHelp() throws {
        // A path of this run's own: a usage error must not make the link (a fixed /tmp/x failed
        // wherever something else had made one).
        let pty = FileManager.default.temporaryDirectory.appendingPathComponent("docksim-usage-\(getpid())").path
        let noPty = try ChildProcess.run("docksim", ["--scenario", "x.json"])
        #expect(noPty.status == 64)
        #expect(
            noPty.error.hasPrefix("docksim: --pty PATH (or, for a VISCA camera, --udp or --tcp) is required\nusage: docksim (--pty PATH"))
        let badSeed = try ChildProcess.run("docksim", ["--pty", pty, "--seed", "minus one"])
        #expect(badSeed.status == 64)
        #expect(badSeed.error.hasPrefix("docksim: --seed needs a whole number, got 'minus one'"))
        let badCamera = try ChildProcess.run("docksim", ["--pty", pty, "--camera", "bogus"])
        #expect(badCamera.status == 64)
        #expect(
            badCamera.error.hasPrefix(
                "docksim: --camera needs unix:SOCKET, the path of dockd's control socket "
                    + "(e.g. unix:/run/dockd/dockd.sock), got 'bogus'\nusage: docksim (--pty PATH"))
        let network = try ChildProcess.run("docksim", ["--udp", "127.0.0.1:52381"])
        #expect(network.status == 64)
        #expect(network.error.hasPrefix("docksim: --udp, --udp-raw and --tcp serve a VISCA camera: add --protocol visca"))
        let unknownProfile = try ChildProcess.run("docksim", ["--protocol", "visca", "--profile", "nope", "--pty", pty])
        #expect(unknownProfile.status == 64)
        #expect(unknownProfile.error.hasPrefix("docksim: --profile: no profile 'nope' (there are generic, "))
        let two = try ChildProcess.run("docksim", ["--protocol", "visca", "--pty", pty, "--udp", "127.0.0.1:1"])
        #expect(two.error.hasPrefix("docksim: give one of --pty, --udp, --udp-raw, --tcp and --v4l2"))
        #expect(access(pty, F_OK) != 0, "no pty is made on a usage error")
        let help = try ChildProcess.run("docksim", ["--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("docksim: a simulated dock on a pseudo-terminal"))
        for option in [
            "--pty", "--protocol", "--profile", "--udp", "--udp-raw", "--tcp", "--scenario", "--report", "--plot",
            "--camera unix:SOCKET", "--seed", "--trace", "--quiet", "--help", "--v4l2", "--model",
        ] {
            #expect(help.output.contains(option), "--help documents \(option)")
        }
    }

    @Test func anExistingFileAtThePtyPathIsNotReplaced() throws {
        let path = temporaryPath("not-a-link")
        try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run("docksim", ["--pty", path])
        #expect(result.status == 1)
        #expect(result.error.contains("exists and is not a symbolic link"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        unlink(path)
    }
}

extension Frame {
    var telemetry: Telemetry? { if case .telemetry(let value) = message { value } else { nil } }
    var fault: FaultReport? { if case .fault(let value) = message { value } else { nil } }
}
