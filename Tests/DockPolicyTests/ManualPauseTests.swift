import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockTracking
import DockVocabulary
import Foundation
import Testing

/// A manual move while system tracking is on, in virtual time on the simulated dock: the tracker
/// leaves the dock where the client put it for `manualMovePause` after the move, then frames again
/// starting from rest — its first command no bigger than one tick of the framing controller's
/// acceleration, not the rate it would have built up while it waited.
@Suite struct ManualPauseTests {
    static func settings(pause: Duration, tracking: Bool = true) -> HostSettings {
        var settings = HostBench.quietSettings
        settings.isTrackingEnabled = tracking
        settings.manualMovePause = pause
        settings.lostBehaviour = LostBehaviour(after: .seconds(3600), action: .hold)
        return settings
    }

    /// A person walking slowly to the right (0.3 rad right of home at the start, 0.03 rad/s), as
    /// the camera on the dock sees them now: one frame. The tracker turns after them.
    static func frame(_ bench: HostBench) -> ObservationBatch {
        let fieldOfView = 1.1
        let yaw = 0.3 + 0.03 * Double(bench.now.components.seconds) + 0.03 * Double(bench.now.components.attoseconds) / 1e18
        let x = 0.5 + tan(yaw - bench.yaw) / (2 * tan(fieldOfView / 2))
        return ObservationBatch(
            observations: [Observation(kind: .body, box: NormalizedRect(x: x - 0.06, y: 0.3, width: 0.12, height: 0.4), confidence: 0.9)],
            camera: CameraInformation(horizontalFieldOfViewRadians: fieldOfView, aspectRatio: 16.0 / 9), captureTime: bench.now)
    }

    /// Frames at 30 a second for `duration`.
    static func follow(_ bench: inout HostBench, for duration: Duration) {
        let end = bench.now + duration
        while bench.now < end {
            bench.host.observationsArrived(frame(bench))
            bench.run(for: .milliseconds(33))
        }
    }

    /// The velocities written from `time` on that turn the dock (yaw rate not zero), with when.
    static func turns(_ bench: HostBench, since time: Duration) -> [(time: Duration, yaw: Double)] {
        bench.peer.written.compactMap { entry in
            guard entry.time >= time, case .setVelocity(let command) = entry.frame.message,
                command.yawRate.microradiansPerSecond != 0
            else { return nil }
            return (entry.time, Double(command.yawRate.microradiansPerSecond) / 1e6)
        }
    }

    /// When the client's motion ended, as watchers heard it.
    static func motionEnd(_ bench: HostBench) -> Duration? {
        bench.events.last { if case .motionEnded(owner: 1, _) = $0.event { true } else { false } }?.time
    }

    @Test func aManualMovePausesTrackingForTheSetTimeThenTheTrackerStartsFromRest() throws {
        var bench = HostBench(settings: Self.settings(pause: .seconds(3)))
        bench.attach()
        Self.follow(&bench, for: .seconds(2))
        #expect(!Self.turns(bench, since: .zero).isEmpty, "the tracker follows before the move")

        let moved = bench.now
        bench.request(
            .motion(
                .velocity(yawRadiansPerSecond: -0.3, pitchRadiansPerSecond: 0, duration: .milliseconds(500)), takeOver: false,
                waitsForEnd: false),
            from: 1)
        Self.follow(&bench, for: .seconds(2))
        #expect(bench.host.status(now: bench.now, device: "d").tracker == .paused, "the status says the tracker waits")
        Self.follow(&bench, for: .seconds(4))
        #expect(bench.host.status(now: bench.now, device: "d").tracker == .following)
        let ended = try #require(Self.motionEnd(bench), "the move ended: \(bench.events.map(\.event))")
        #expect(ended - moved >= .milliseconds(500) && ended - moved < .milliseconds(700))
        let resumed = Self.turns(bench, since: ended + .milliseconds(50))
        let first = try #require(resumed.first, "the tracker turns again: \(bench.logs.suffix(5))")
        #expect(
            first.time - ended >= .seconds(3) && first.time - ended < .milliseconds(3200),
            "the tracker waited 3 s after the move's end: \(first.time - ended)")
        // From rest: at most one tick of the controller's acceleration (12 rad/s², 30 Hz), not the
        // rate it would have reached while it waited.
        #expect(abs(first.yaw) <= 12.0 / 30 + 0.02, "the first command after the pause: \(first.yaw) rad/s")
        #expect(resumed.count > 5, "and it goes on following")
        #expect(bench.logs.filter { $0 == "tracking resumes after a manual move" }.count == 1)
    }

    @Test func withNoPauseTheTrackerTakesOverAsTheMoveEnds() throws {
        var bench = HostBench(settings: Self.settings(pause: .zero))
        bench.attach()
        Self.follow(&bench, for: .seconds(2))
        bench.request(
            .motion(
                .velocity(yawRadiansPerSecond: -0.3, pitchRadiansPerSecond: 0, duration: .milliseconds(500)), takeOver: false,
                waitsForEnd: false),
            from: 1)
        Self.follow(&bench, for: .seconds(2))
        let ended = try #require(Self.motionEnd(bench))
        let first = try #require(Self.turns(bench, since: ended + .milliseconds(1)).first)
        #expect(first.time - ended < .milliseconds(200), "at once: \(first.time - ended)")
    }

    /// An orientation move counts from its end, however long it took; an animation does not pause
    /// tracking at all; turning tracking on starts it at once.
    @Test func theRuleCountsFromTheMovesEndLeavesAnimationsAloneAndYieldsToTrackingTurnedOn() throws {
        var bench = HostBench(settings: Self.settings(pause: .seconds(2)))
        bench.attach()
        Self.follow(&bench, for: .seconds(1))
        bench.request(
            .motion(
                .orientation(yawRadians: -0.1, pitchRadians: 0, isRelative: false, pace: .duration(.seconds(3))), takeOver: false,
                waitsForEnd: false),
            from: 1)
        Self.follow(&bench, for: .seconds(7))
        let ended = try #require(Self.motionEnd(bench))
        let first = try #require(Self.turns(bench, since: ended + .milliseconds(50)).first)
        #expect(first.time - ended >= .seconds(2) && first.time - ended < .milliseconds(2200), "\(first.time - ended)")

        var animated = HostBench(settings: Self.settings(pause: .seconds(3)))
        animated.attach()
        Self.follow(&animated, for: .seconds(1))
        animated.request(.motion(.animate(.yes), takeOver: false, waitsForEnd: false), from: 1)
        Self.follow(&animated, for: .seconds(4))
        let nodded = try #require(Self.motionEnd(animated))
        let after = try #require(Self.turns(animated, since: nodded + .milliseconds(1)).first)
        #expect(after.time - nodded < .milliseconds(200), "an animation pauses nothing: \(after.time - nodded)")

        var off = HostBench(settings: Self.settings(pause: .seconds(3), tracking: false))
        off.attach()
        off.request(
            .motion(.orientation(yawRadians: 0.3, pitchRadians: 0, isRelative: false, pace: .fastest), takeOver: false, waitsForEnd: false),
            from: 1)
        Self.follow(&off, for: .seconds(1))
        let on = off.now
        off.request(.setSystemTracking(true), from: 2)
        Self.follow(&off, for: .seconds(1))
        let started = try #require(Self.turns(off, since: on).first)
        #expect(started.time - on < .milliseconds(200), "tracking turned on starts at once: \(started.time - on)")
    }
}
