import DockNumbers
import Testing

/// `Duration.secondsValue` (every part's one reading of a duration's seconds) splits the 128-bit attoseconds itself, for speed; it must give what
/// `components` gives, to the bit, whatever the sign, for every duration whose seconds fit in 64
/// bits (beyond them both trap).
@Suite struct SecondsTests {
    @Test func everyDurationReadsAsItsComponentsDo() {
        var durations: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(-1), .microseconds(20_000), .seconds(-3),
            Duration(secondsComponent: 7, attosecondsComponent: 999_999_999_999_999_999),
            Duration(secondsComponent: -7, attosecondsComponent: -999_999_999_999_999_999),
            .seconds(Int64.max / 2), .seconds(Int64.min / 2), .nanoseconds(Int64.max), .nanoseconds(Int64.min),
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        for _ in 0..<2000 {
            durations.append(.nanoseconds(Int64(bitPattern: next()) >> Int64(next() % 40)))
            durations.append(
                Duration(
                    secondsComponent: Int64(bitPattern: next()) >> 40,
                    attosecondsComponent: Int64(bitPattern: next() % 1_000_000_000_000_000_000) * (next() % 2 == 0 ? 1 : -1)))
        }
        for duration in durations {
            let components = duration.components
            let expected = Double(components.seconds) + Double(components.attoseconds) / 1e18
            #expect(duration.secondsValue.bitPattern == expected.bitPattern, "\(duration)")
        }
    }

    /// `fromSeconds` rounds to the nearest nanosecond and refuses what is not a time dockd can
    /// hold; a duration read back through `secondsValue` is the seconds given, to the nanosecond.
    @Test func secondsMakeADurationToTheNearestNanosecond() {
        #expect(Duration.fromSeconds(0) == .zero)
        #expect(Duration.fromSeconds(1.5) == .milliseconds(1500))
        #expect(Duration.fromSeconds(-0.25) == .milliseconds(-250))
        #expect(Duration.fromSeconds(1e-10) == .zero)
        #expect(Duration.fromSeconds(6e-10) == .nanoseconds(1))
        #expect(Duration.fromSeconds(999_999_999.5) == .nanoseconds(999_999_999_500_000_000))
        for refused in [Double.nan, .infinity, -.infinity, 1e9, -1e9, 1e300] {
            #expect(Duration.fromSeconds(refused) == nil, "\(refused)")
        }
        for seconds in [0.001, 0.0333, 1.5, 12.345_678_9, 3600] {
            let duration = Duration.fromSeconds(seconds)!
            #expect(abs(duration.secondsValue - seconds) <= 5e-10, "\(seconds)")
        }
    }
}
