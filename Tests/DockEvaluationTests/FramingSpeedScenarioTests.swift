import DockSimulator
import DockTracking
import DockVocabulary
import Foundation
import TestSupport
import Testing

@testable import DockEvaluation

/// The framing speed's profiles in closed loop with the simulated dock (it advertises 12 and 8
/// rad/s² and its own speeds), camera and detector, in virtual time with the scenarios' fixed
/// seeds: each keeps to its numbers and the dock's, `smooth` holds a still subject and follows a
/// walker more gently than `normal`.
@Suite(.onTheComputingThread) struct FramingSpeedScenarioTests {
    struct Peaks {
        var speed = (yaw: 0.0, pitch: 0.0)
        var acceleration = (yaw: 0.0, pitch: 0.0)
        /// Control ticks with a rate other than zero on either axis.
        var moving = 0
    }

    static func peaks(_ commands: [(time: Duration, yaw: Double, pitch: Double)], from start: Duration = .zero) -> Peaks {
        var peaks = Peaks()
        var last: (time: Duration, yaw: Double, pitch: Double)?
        for command in commands where command.time >= start {
            peaks.speed = (max(peaks.speed.yaw, abs(command.yaw)), max(peaks.speed.pitch, abs(command.pitch)))
            if command.yaw != 0 || command.pitch != 0 { peaks.moving += 1 }
            if let last {
                let seconds = (command.time - last.time) / .seconds(1)
                peaks.acceleration = (
                    max(peaks.acceleration.yaw, abs(command.yaw - last.yaw) / seconds),
                    max(peaks.acceleration.pitch, abs(command.pitch - last.pitch) / seconds)
                )
            }
            last = command
        }
        return peaks
    }

    /// Runs `scenario` with the tracker at `profile`; the result and the limits the controller
    /// applied (the profile's narrowed to the dock's).
    static func run(_ scenario: Scenario, _ profile: FramingSpeed.Profile) -> (ClosedLoop.Result, FramingSpeed.Axis, FramingSpeed.Axis) {
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        pipeline.framingSpeed = FramingSpeed(profile)
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
        let result = loop.run()
        let limits = loop.pipeline!.framingLimits
        return (result, limits.yaw, limits.pitch)
    }

    @Test(arguments: FramingSpeed.Profile.allCases)
    func aWalkerIsFollowedWithinTheProfilesAndTheDocksLimits(profile: FramingSpeed.Profile) throws {
        let scenario = try TrackingScenarioTests.walker(speed: 0.8, seconds: 8)
        let (result, yaw, pitch) = Self.run(scenario, profile)
        let own = FramingSpeed(profile)
        // The dock's own limits narrow the profile's where they are less (fast's 24 rad/s² to 12).
        #expect(yaw.maximumAccelerationRadiansPerSecondSquared == min(own.yaw.maximumAccelerationRadiansPerSecondSquared, 12))
        #expect(pitch.maximumAccelerationRadiansPerSecondSquared == min(own.pitch.maximumAccelerationRadiansPerSecondSquared, 8))
        let peaks = Self.peaks(result.trackerCommands)
        #expect(result.trackerCommands.count > 200)
        #expect(peaks.speed.yaw <= yaw.maximumSpeedRadiansPerSecond + 1e-9)
        #expect(peaks.speed.pitch <= pitch.maximumSpeedRadiansPerSecond + 1e-9)
        #expect(peaks.acceleration.yaw <= yaw.maximumAccelerationRadiansPerSecondSquared * 1.001)
        #expect(peaks.acceleration.pitch <= pitch.maximumAccelerationRadiansPerSecondSquared * 1.001)
        let share = result.inToleranceShare(from: .seconds(2))
        print(
            "framing speed \(profile), walker 0.8 m/s at 3 m: peak yaw \(peaks.speed.yaw) rad/s, \(peaks.acceleration.yaw) rad/s², "
                + "pitch \(peaks.speed.pitch) rad/s, \(peaks.acceleration.pitch) rad/s²; in tolerance from 2 s \(share)")
        #expect(share >= 0.9, "\(profile) frames the walker \(share) of the time")
    }

    @Test func smoothFollowsAWalkerWithLessAccelerationThanNormal() throws {
        let scenario = try TrackingScenarioTests.walker(speed: 0.8, seconds: 8)
        let smooth = Self.peaks(Self.run(scenario, .smooth).0.trackerCommands)
        let normal = Self.peaks(Self.run(scenario, .normal).0.trackerCommands)
        #expect(smooth.acceleration.yaw < normal.acceleration.yaw)
        #expect(smooth.acceleration.pitch <= normal.acceleration.pitch)
    }

    @Test func smoothHoldsAStillSubjectInsideItsDeadBandWithNoMotion() throws {
        // A seated person 0.039 rad off the dock's rest pose, seen by a noisy detector: normal's
        // dead band (0.02 to 0.04) turns to them, smooth's (0.06) leaves the dock where it is.
        let scenario = try loadScenario("still-noisy")
        let (smooth, _, _) = Self.run(scenario, .smooth)
        let (normal, _, _) = Self.run(scenario, .normal)
        let still = Self.peaks(smooth.trackerCommands), moved = Self.peaks(normal.trackerCommands)
        print("framing speed, still-noisy: smooth moved on \(still.moving) ticks, normal on \(moved.moving)")
        #expect(smooth.trackerCommands.count > 600)
        #expect(still.moving == 0)
        #expect(moved.moving > 0, "normal turns to the subject")
        #expect(smooth.inToleranceShare(from: .seconds(2)) >= 0.95)
    }
}
