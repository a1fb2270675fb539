import Testing

@testable import DockLinks

/// The control loop's punctuality figures.
@Suite struct LoopStatisticsTests {
    @Test func percentilesCoverTheWindowAndMissedTicksAreCounted() {
        var statistics = LoopStatistics(capacity: 100)
        #expect(statistics.summary() == (.zero, .zero, .zero))
        let interval = Duration.milliseconds(33)
        for index in 0..<300 {
            // 1 ms late mostly; every 50th tick 10 ms late; one tick 70 ms late (two intervals missed).
            let late: Duration = index == 250 ? .milliseconds(70) : index % 50 == 0 ? .milliseconds(10) : .milliseconds(1)
            statistics.record(late: late, interval: interval)
        }
        let summary = statistics.summary()
        #expect(summary.p50 == .milliseconds(1))
        #expect(summary.p99 == .milliseconds(10), "the window holds the last 100 ticks: two 10 ms ticks and the 70 ms one")
        #expect(summary.maximum == .milliseconds(70))
        #expect(statistics.tickCount == 300 && statistics.missedTicks == 2)
        statistics.record(late: .milliseconds(-5), interval: interval)
        #expect(statistics.tickCount == 301, "an early tick counts as on time")
    }
}
