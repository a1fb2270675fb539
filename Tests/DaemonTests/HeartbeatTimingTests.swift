import DockProtocol
import DockSimulator
import DockSystem
import Foundation
import Glibc
import SimulatedSerialDock
import TestSupport
import Testing

/// `Protocol/dock-serial.md` §5.2 against the real daemon on a pseudo-terminal: dockd keeps the
/// dock alive with heartbeats (idle, and while `wake` plays), and refuses a dock whose failsafe
/// timeout is shorter than it can keep alive, with a log line. How long the gaps between frames
/// may be is the schedule's, held in virtual time (`HeartbeatScheduleTests`): here the frames are
/// timed by this test's own reader thread, which a loaded machine delays by as much as 180 ms (the
/// gaps it saw against 50 when this test asserted them), so the gaps are not asserted here.
@Suite(.onTheProcessThreads) struct HeartbeatTimingTests {
    /// Waits until `dock` has received `count` host frames that `match`, or 20 s have passed.
    static func waitForFrames(_ dock: PseudoTerminalDock, count: Int, _ match: (Frame) -> Bool) -> Int {
        let deadline = MonotonicClock.now() + .seconds(20)
        var seen = 0
        repeat {
            seen = dock.frames.count { match($0.frame) }
            if seen >= count { return seen }
            usleep(10_000)
        } while MonotonicClock.now() < deadline
        return seen
    }

    @Test(arguments: [(200, false), (200, true), (10_000, false)])
    func dockdKeepsTheDockAliveWithHeartbeats(milliseconds: Int, wakes: Bool) throws {
        var configuration = AccessoryConfiguration()
        configuration.failsafeTimeout = .milliseconds(milliseconds)
        let dock = try PseudoTerminalDock(configuration: configuration, seed: 2)
        let dockd = try ChildProcess(
            "dockd",
            [
                "--config", "", "--device", dock.devicePath, "--socket", "",
                "--wake-on-attach=\(wakes)",
            ])
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        // Two heartbeats: at 10 s (the protocol's ceiling) they come every 2.5 s at most.
        #expect(Self.waitForFrames(dock, count: 2) { $0.message == .heartbeat } >= 2, "heartbeats: \(dockd.errorLines)")
        if wakes {
            #expect(Self.waitForFrames(dock, count: 1) { $0.message.type == .setVelocity } >= 1, "wake's velocity frames")
        }
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
        dock.stop()
    }

    @Test
    func aDockWithATooShortFailsafeIsRefusedWithALogLine() throws {
        var configuration = AccessoryConfiguration()
        configuration.failsafeTimeout = .milliseconds(50)
        let dock = try PseudoTerminalDock(configuration: configuration, seed: 2)
        let dockd = try ChildProcess(
            "dockd",
            [
                "--config", "", "--device", dock.devicePath, "--socket", "",
                "--wake-on-attach=false",
            ])
        let line = dockd.waitForErrorLine(containing: "failsafe timeout is 50 ms")
        #expect(line?.contains("refusing the dock") == true, "\(line ?? "no line")")
        // Refused: whatever dockd wrote to the dock up to its exit was the handshake alone.
        dockd.signal(SIGTERM)
        let result = try dockd.finish()
        #expect(result.status == 0)
        #expect(!result.error.contains("attached"), "never attached")
        dock.stop()
        #expect(!dock.frames.contains { [.setVelocity, .moveTo].contains($0.frame.message.type) }, "nothing but the handshake")
    }
}
