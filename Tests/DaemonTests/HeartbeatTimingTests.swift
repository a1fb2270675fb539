import DockProtocol
import DockSimulator
import DockSystem
import Foundation
import Glibc
import SimulatedSerialDock
import TestSupport
import Testing

/// `Protocol/dock-serial.md` §5.2: the host never leaves more than a quarter of the dock's failsafe
/// timeout between two frames; a dock whose timeout is shorter than dockd can keep alive is
/// refused with a log line, not run unsafely. Measured on a pseudo-terminal, against the real
/// daemon, idle (no motion: heartbeats only).
@Suite struct HeartbeatTimingTests {
    /// Idle at 200 ms, 500 ms and the protocol's 10 s ceiling; and at 200 ms while the loop also
    /// plays `wake` (velocity frames every tick, then the settling move, then idle again). dockd's
    /// 100 ms floor leaves a quarter of 25 ms, too little for this test's own reader thread to
    /// time on a 2-core machine running the whole suite: it is measured, not asserted here
    /// (BENCHMARKS.md).
    @Test(.timeLimit(.minutes(1)), arguments: [(200, false), (200, true), (500, false), (10_000, false)])
    func theLongestGapBetweenHostFramesIsUnderAQuarterOfTheFailsafe(milliseconds: Int, wakes: Bool) throws {
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
        // Long enough for several heartbeats at the longest timeout (one every 1.7 s at 10 s).
        usleep(milliseconds >= 10_000 ? 6_000_000 : 2_000_000)
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
        dock.stop()
        let frames = dock.frames
        let first = try #require(frames.firstIndex { $0.frame.message == .heartbeat }, "heartbeats were sent")
        var longest = Duration.zero
        for (earlier, later) in zip(frames[first...], frames[first...].dropFirst()) {
            longest = max(longest, later.time - earlier.time)
        }
        print(
            "heartbeat: failsafe \(milliseconds) ms\(wakes ? " with wake" : ""), \(frames.count) host frames, longest gap "
                + "\(Double(longest.components.attoseconds) / 1e15 + Double(longest.components.seconds) * 1000) ms")
        #expect(longest <= .milliseconds(milliseconds) / 4, "failsafe \(milliseconds) ms: longest gap \(longest)")
        #expect(!dock.isFailsafeStopped, "the failsafe never fired")
    }

    @Test(.timeLimit(.minutes(1)))
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
        usleep(300_000)
        dockd.signal(SIGTERM)
        let result = try dockd.finish()
        #expect(result.status == 0)
        #expect(!result.error.contains("attached"), "never attached")
        dock.stop()
        #expect(!dock.frames.contains { [.setVelocity, .moveTo].contains($0.frame.message.type) }, "nothing but the handshake")
    }
}
