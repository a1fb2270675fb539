import DockLinks
import DockPolicy
import DockTracking
import Testing

/// The host hands the accessory's accelerations, axis by axis, to the tracker at every tick: its
/// framing controller's catch-up plans to stop with no more (`FramingController`).
@Suite struct TrackerAccelerationTests {
    @Test func theTrackerIsToldEachAxissAccelerationOfTheDock() throws {
        var settings = HostBench.quietSettings
        settings.isTrackingEnabled = true
        var bench = HostBench(settings: settings)
        #expect(bench.host.pipeline.accessoryAccelerationRadiansPerSecondSquared == nil, "nothing before the dock is known")
        bench.attach()
        bench.run(for: .milliseconds(100))
        let limits = try #require(bench.host.limits)
        #expect(
            limits.yawAccelerationRadiansPerSecondSquared != limits.pitchAccelerationRadiansPerSecondSquared, "the example dock: 12 and 8")
        let told = try #require(bench.host.pipeline.accessoryAccelerationRadiansPerSecondSquared)
        #expect(told.yaw == limits.yawAccelerationRadiansPerSecondSquared)
        #expect(told.pitch == limits.pitchAccelerationRadiansPerSecondSquared)
    }
}
