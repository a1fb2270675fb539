import DockLinks
import DockPolicy
import DockTracking
import DockVocabulary
import Testing

/// SetFramingSpeed and the status's speed on the example dock, which advertises 12 and 8
/// rad/s² (its hello's limits): a change is all applied or none of it, and what the tracker
/// applies is narrowed to the dock's.
@Suite struct FramingSpeedPolicyTests {
    static func bench() -> HostBench {
        var settings = HostBench.quietSettings
        settings.isTrackingEnabled = true
        var bench = HostBench(settings: settings)
        bench.attach()
        bench.run(for: .milliseconds(100))
        return bench
    }

    @Test func theDefaultIsNormalAndTheStatusSaysWhatIsApplied() throws {
        let bench = Self.bench()
        let state = try #require(bench.host.status(now: bench.now, device: "").framingSpeed)
        #expect(state.speed == FramingSpeed(.normal))
        #expect(bench.host.pipeline.framingSpeed == FramingSpeed(.normal))
        let applied = try #require(state.applied)
        let limits = try #require(bench.host.limits)
        #expect(applied.yaw.maximumAccelerationRadiansPerSecondSquared == min(12, limits.yawAccelerationRadiansPerSecondSquared))
        #expect(applied.pitch.maximumAccelerationRadiansPerSecondSquared == min(12, limits.pitchAccelerationRadiansPerSecondSquared))
        #expect(applied.pitch.maximumAccelerationRadiansPerSecondSquared == 8, "the example dock's pitch: 8 rad/s²")
    }

    @Test func aProfileWithNumbersIsAppliedWhole() throws {
        var bench = Self.bench()
        let token = bench.request(.setFramingSpeed(FramingSpeedChange(profile: "fast", pitchDeadBand: 0.03)), from: 1)
        guard case .framingSpeed(let state)? = bench.replies[token] else {
            Issue.record("answered \(String(describing: bench.replies[token]))")
            return
        }
        var expected = FramingSpeed(.fast)
        expected.pitch.deadBandRadians = 0.03
        #expect(state.speed == expected)
        #expect(bench.host.pipeline.framingSpeed == expected)
        let applied = try #require(state.applied)
        #expect(applied.yaw.maximumAccelerationRadiansPerSecondSquared == 12, "fast's 24 narrowed to the dock's 12")
        #expect(applied.pitch.maximumAccelerationRadiansPerSecondSquared == 8, "fast's 16 narrowed to the dock's 8")
        #expect(bench.host.status(now: bench.now, device: "").framingSpeed == state)
        #expect(bench.logs.contains { $0.contains("framing speed: fast") })
        // No field: only the answer.
        let asked = bench.request(.setFramingSpeed(FramingSpeedChange()), from: 2)
        #expect(bench.replies[asked] == .framingSpeed(state))
    }

    @Test(arguments: [
        (FramingSpeedChange(profile: "lecture"), "profile"),
        (FramingSpeedChange(profile: "smooth", yawMaximumSpeed: -0.5), "yaw_max_speed"),
        (FramingSpeedChange(profile: "smooth", pitchAcceleration: .infinity), "pitch_acceleration"),
        (FramingSpeedChange(yawDeadBand: .nan), "yaw_dead_band"),
    ])
    func badInputIsRefusedByNameAndNothingIsHalfApplied(change: FramingSpeedChange, parameter: String) throws {
        var bench = Self.bench()
        let before = bench.host.status(now: bench.now, device: "").framingSpeed
        let token = bench.request(.setFramingSpeed(change), from: 1)
        guard case .failure(.invalidParameter(let named, let reason))? = bench.replies[token] else {
            Issue.record("answered \(String(describing: bench.replies[token]))")
            return
        }
        #expect(named == parameter, "\(reason)")
        #expect(bench.host.pipeline.framingSpeed == FramingSpeed(.normal), "the profile given with it not applied either")
        #expect(bench.host.settings.framingSpeed == FramingSpeed(.normal))
        #expect(bench.host.status(now: bench.now, device: "").framingSpeed == before)
    }
}
