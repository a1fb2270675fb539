import Foundation
import Glibc
import TestSupport
import Testing

/// The framing speed through dockd as a process on the simulated dock: `dockctl speed` sets and
/// shows it as a user would, GetStatus says it, a bad number is refused by name and changes
/// nothing. Each wait is on an event with a deadline.
@Suite(.serialized, .onTheProcessThreads) struct FramingSpeedProcessTests {
    static func speed(_ client: VarlinkTestClient) throws -> [String: Any]? {
        let status = PresetProcessTests.parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any]
        return status?["speed"] as? [String: Any]
    }

    @Test func dockctlSpeedSetsItAndTheStatusSaysItAndABadNumberChangesNothing() throws {
        let socket = PresetProcessTests.temporaryPath("dockd-speed") + ".sock"
        let dockd = try PresetProcessTests.startDaemon(socket: socket, stateDirectory: "")
        let client = try VarlinkTestClient(path: socket)
        #expect(try Self.speed(client)?["profile"] as? String == "normal", "the default")
        let environment = ["DOCKD_SOCKET": socket]
        let set = try ChildProcess("dockctl", ["speed", "smooth", "--yaw-max-speed", "0.8"], environment: environment)
        try set.finishInput("")
        let answer = try set.finish()
        #expect(
            answer.status == 0
                && answer.output
                    == "smooth: yaw 0.8 rad/s, 1.5 rad/s², dead band 0.06 rad; pitch 0.4 rad/s, 1.0 rad/s², dead band 0.06 rad\n",
            "\(answer)")
        let speed = try Self.speed(client)
        #expect(speed?["profile"] as? String == "smooth")
        #expect((speed?["yaw"] as? [String: Any])?["max_speed"] as? Double == 0.8)
        // A negative acceleration with a profile: refused by name, neither applied.
        let refused = try ChildProcess("dockctl", ["speed", "fast", "--pitch-accel", "-1"], environment: environment)
        try refused.finishInput("")
        let failed = try refused.finish()
        #expect(failed.status != 0 && failed.error.contains("pitch_acceleration"), "\(failed)")
        #expect(try Self.speed(client)?["profile"] as? String == "smooth", "nothing half-applied")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
