import DockPolicy
import DockProtocol
import DockSimulator
import Testing

/// `Protocol/dock-serial.md` §5.2 for the whole host, in virtual time: between two frames to the
/// dock there is never more than a quarter of its failsafe timeout, idle and while `wake` plays
/// (velocity frames every tick, then the settling move, then idle again). HeartbeatTimingTests
/// runs the same against the real daemon on a pseudo-terminal, where the machine's load decides
/// the gaps a reader sees, so there it only checks that the heartbeats come.
@Suite struct HeartbeatScheduleTests {
    @Test(arguments: [(100, false), (200, false), (200, true), (500, false), (500, true), (10_000, false)])
    func theLongestGapBetweenHostFramesIsUnderAQuarterOfTheFailsafe(milliseconds: Int, wakes: Bool) {
        var configuration = AccessoryConfiguration()
        configuration.failsafeTimeout = .milliseconds(milliseconds)
        var settings = HostBench.quietSettings
        settings.wakesOnAttach = wakes
        var bench = HostBench(settings: settings, configuration: configuration)
        bench.attach()
        // Several heartbeats at the longest timeout (one every 2.5 s at most at 10 s), and all of wake.
        bench.run(for: milliseconds >= 10_000 ? .seconds(12) : .seconds(4))
        let written = bench.peer.written
        guard let first = written.firstIndex(where: { $0.frame.message == .heartbeat }) else {
            Issue.record("no heartbeat was sent")
            return
        }
        var longest = Duration.zero
        for (earlier, later) in zip(written[first...], written[first...].dropFirst()) {
            longest = max(longest, later.time - earlier.time)
        }
        #expect(longest <= .milliseconds(milliseconds) / 4, "failsafe \(milliseconds) ms: longest gap \(longest)")
        #expect(!bench.firmware.isFailsafeStopped, "the failsafe never fired")
        if wakes {
            #expect(written.contains { $0.frame.message.type == .setVelocity }, "wake played with velocity frames")
        }
    }
}
