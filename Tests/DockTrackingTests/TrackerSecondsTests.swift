import Testing

@testable import DockTracking

/// `Duration.trackerSeconds` splits the 128-bit attoseconds itself, for speed; it must give what
/// `components` gives, to the bit, whatever the sign, for every duration whose seconds fit in 64
/// bits (beyond them both trap).
@Suite struct TrackerSecondsTests {
    /// The reading it replaced.
    static func byComponents(_ duration: Duration) -> Double {
        let components = duration.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    @Test func everyDurationReadsAsItsComponentsDo() {
        var durations: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(-1), .milliseconds(33), .milliseconds(-33), .seconds(1), .seconds(-1),
            Duration(secondsComponent: 0, attosecondsComponent: 1), Duration(secondsComponent: 0, attosecondsComponent: -1),
            Duration(secondsComponent: 5, attosecondsComponent: 999_999_999_999_999_999),
            Duration(secondsComponent: -5, attosecondsComponent: -999_999_999_999_999_999),
            .seconds(Int64.max / 2), .seconds(Int64.min / 2), .nanoseconds(Int64.max), .nanoseconds(Int64.min),
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
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
            #expect(duration.trackerSeconds.bitPattern == Self.byComponents(duration).bitPattern, "\(duration)")
        }
    }
}
