import DockLinks
import DockLogLevel
import DockPolicy
import Testing

/// The policy is the only scheduler: it says when it wants to be woken (`nextWake`), and what a
/// wake-up is — a heartbeat between ticks, a control tick, or a late loop skipping what it missed.
@Suite struct SchedulingTests {
    @Test func thePolicySaysWhenToWakeItAndWhatEachWakeUpIs() {
        var bench = HostBench()
        bench.attach()
        let host = bench.host
        #expect(host.nextTickAt > bench.now && host.nextTickAt <= bench.now + MotionController.tickInterval)
        let deadline = host.session.nextDeadline
        #expect(host.nextWake == min(host.nextTickAt, deadline ?? host.nextTickAt), "the earlier of the tick and the link's deadline")

        // A wake-up before the tick is the link's deadline: no control tick runs.
        var early = host
        let ticks = early.tickCount
        _ = early.woke(now: early.nextTickAt - .milliseconds(1))
        #expect(early.tickCount == ticks)
        #expect(early.nextTickAt == host.nextTickAt, "the tick still waits")

        // On time: one tick, and the next one interval later.
        var onTime = host
        _ = onTime.woke(now: host.nextTickAt)
        #expect(onTime.tickCount == ticks + 1)
        #expect(onTime.nextTickAt == host.nextTickAt + MotionController.tickInterval)
        #expect(onTime.loopStatistics.missedTicks == 0)

        // 0.6 s late: the ticks it missed are counted and skipped, not run back to back, and said.
        var late = host
        let lateBy = Duration.milliseconds(600)
        let actions = late.woke(now: host.nextTickAt + lateBy)
        #expect(late.tickCount == ticks + 1)
        #expect(late.nextTickAt == host.nextTickAt + lateBy + MotionController.tickInterval)
        #expect(late.loopStatistics.missedTicks == Int(lateBy / MotionController.tickInterval))
        #expect(actions.contains { if case .log(.warning, let text) = $0 { text.contains("skipping missed ticks") } else { false } })
        #expect(late.nextWake <= late.nextTickAt)
    }
}
