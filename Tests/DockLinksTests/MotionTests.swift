import DockProtocol
import DockVocabulary
import Testing

@testable import DockLinks
@testable import DockSimulator

/// Motion through the session to the simulated dock, in virtual time.
@Suite struct MotionTests {
    @Test func aVelocityStopsAfterItsDefaultTimeToLive() throws {
        var bench = try MotionBench()
        try bench.request(.velocity(yawRadiansPerSecond: 0.8, pitchRadiansPerSecond: 0, duration: nil))
        bench.run(for: .milliseconds(450))
        #expect(abs(bench.bench.firmware.yaw.motorRadiansPerSecond - 0.8) < 0.01, "turning before the 0.5 s are up")
        bench.run(for: .milliseconds(250))
        #expect(bench.bench.firmware.isStill, "stopped within 200 ms after the time-to-live")
        #expect(bench.finishes.map(\.finish) == [.velocityExpired])
        #expect(abs(bench.yaw - 0.4) < 0.04)
    }

    @Test func aLongVelocityIsKeptUpByTheLoopAndStopsSoonIfTheLoopDies() throws {
        var bench = try MotionBench()
        try bench.request(.velocity(yawRadiansPerSecond: -0.5, pitchRadiansPerSecond: 0.2, duration: .seconds(3)))
        bench.run(for: .seconds(2))
        #expect(abs(bench.bench.firmware.yaw.motorRadiansPerSecond + 0.5) < 0.01, "still turning after 2 s")
        bench.isTicking = false  // the daemon hangs; heartbeats aside, nothing is re-sent
        bench.run(for: .milliseconds(400))
        #expect(bench.bench.firmware.isStill, "the dock's own time-to-live stopped it")
        #expect(!bench.bench.firmware.isFailsafeStopped, "without needing the failsafe")
    }

    @Test func orientationMovesArriveWithinTolerance() throws {
        var bench = try MotionBench()
        try bench.request(.orientation(yawRadians: 0.8, pitchRadians: 0.3, isRelative: false, pace: .duration(.milliseconds(1500))))
        bench.runUntilIdle()
        #expect(abs(bench.yaw - 0.8) < MotionController.arrivalTolerance)
        #expect(abs(bench.pitch - 0.3) < MotionController.arrivalTolerance)
        #expect(bench.finishes.map(\.finish) == [.orientationReached])

        try bench.request(.orientation(yawRadians: -0.2, pitchRadians: 0.1, isRelative: true, pace: .maximumSpeed(1)))
        bench.runUntilIdle()
        #expect(abs(bench.yaw - 0.6) < MotionController.arrivalTolerance)
        #expect(abs(bench.pitch - 0.4) < MotionController.arrivalTolerance)
    }

    @Test func targetsBeyondTheLimitsAreClampedAndSaidToBe() throws {
        var bench = try MotionBench(limits: LimitRequest(pitchRadians: -0.2...0.5))
        let result = try bench.request(.orientation(yawRadians: 4, pitchRadians: 0.9, isRelative: false, pace: .maximumSpeed(10)))
        #expect(Set(result.clampedFields) == [.yaw, .pitch, .speed])
        bench.runUntilIdle()
        #expect(abs(bench.yaw - 2.96706) < 0.004, "at the dock's yaw limit")
        #expect(abs(bench.pitch - 0.5) < 0.004, "at the narrowed pitch limit")
    }

    @Test func velocitiesSlowDownBeforeNarrowedLimits() throws {
        var bench = try MotionBench(limits: LimitRequest(yawRadians: -0.5...0.5))
        let result = try bench.request(.velocity(yawRadiansPerSecond: 5, pitchRadiansPerSecond: 0, duration: .seconds(3)))
        #expect(result.clampedFields == [.yaw], "faster than the dock turns")
        bench.run(for: .seconds(3))
        let furthest = bench.trace.map(\.yawRadians).max() ?? 0
        #expect(furthest <= 0.51 && furthest > 0.45, "reached the limit without passing it: \(furthest)")
    }

    @Test func limitsAreNarrowedNeverWidened() throws {
        let bench = try MotionBench()
        let wider = try bench.limits.narrowed(by: LimitRequest(yawRadians: -10...10, yawSpeedRadiansPerSecond: 50))
        #expect(wider == bench.limits)
        let narrower = try bench.limits.narrowed(by: LimitRequest(yawRadians: -1...3, pitchSpeedRadiansPerSecond: 0.5))
        #expect(narrower.yawRadians == -1...bench.limits.yawRadians.upperBound)
        #expect(narrower.pitchSpeedRadiansPerSecond == 0.5)
        #expect(throws: MotionError.notFinite(field: .yawRange)) {
            try bench.limits.narrowed(by: LimitRequest(yawRadians: -Double.infinity...0))
        }
        #expect(throws: MotionError.outOfRange(field: .pitchRange, allowed: bench.limits.pitchRadians)) {
            try bench.limits.narrowed(by: LimitRequest(pitchRadians: 2...3))
        }
    }

    @Test func badRequestsAreRefusedByNameAndChangeNothing() throws {
        var bench = try MotionBench()
        try bench.request(.velocity(yawRadiansPerSecond: 0.3, pitchRadiansPerSecond: 0, duration: .seconds(2)))
        let before = bench.motion.activity
        let written = bench.bench.framesWritten.count
        #expect(throws: MotionError.notFinite(field: .yaw)) {
            try bench.request(.velocity(yawRadiansPerSecond: .nan, pitchRadiansPerSecond: 0, duration: nil))
        }
        #expect(throws: MotionError.notFinite(field: .pitch)) {
            try bench.request(.orientation(yawRadians: 0, pitchRadians: .infinity, isRelative: false, pace: .maximumSpeed(1)))
        }
        #expect(throws: MotionError.outOfRange(field: .duration, allowed: 0...3600)) {
            try bench.request(.velocity(yawRadiansPerSecond: 0.1, pitchRadiansPerSecond: 0, duration: .seconds(-1)))
        }
        #expect(throws: MotionError.outOfRange(field: .pitch, allowed: -20...20)) {
            try bench.request(.velocity(yawRadiansPerSecond: 0, pitchRadiansPerSecond: 25, duration: nil))
        }
        #expect(bench.motion.activity == before)
        #expect(bench.bench.framesWritten.count == written)
    }

    @Test(arguments: AnimationKind.allCases)
    func eachAnimationStaysWithinLimitsAndEndsWhereItBegan(kind: AnimationKind) throws {
        var bench = try MotionBench(limits: LimitRequest(pitchRadians: -0.3...0.5))
        try bench.request(.orientation(yawRadians: 0.3, pitchRadians: 0.1, isRelative: false, pace: .duration(.seconds(1))))
        bench.runUntilIdle()
        let start = (bench.yaw, bench.pitch)
        bench.trace.removeAll()
        try bench.request(.animate(kind))
        bench.runUntilIdle()
        #expect(bench.finishes.last?.finish == .animationFinished(kind))
        let yaws = bench.trace.map(\.yawRadians), pitches = bench.trace.map(\.pitchRadians)
        #expect(yaws.allSatisfy { bench.limits.yawRadians.contains($0) })
        #expect(pitches.allSatisfy { (-0.3 - 1e-3)...(0.5 + 1e-3) ~= $0 }, "\(kind) within the narrowed pitch range")
        let excursion = max(yaws.map { abs($0 - start.0) }.max()!, pitches.map { abs($0 - start.1) }.max()!)
        #expect(excursion > 0.08, "\(kind) visibly moves: \(excursion) rad")
        #expect(abs(bench.yaw - start.0) < MotionController.arrivalTolerance, "\(kind) ends where it began")
        #expect(abs(bench.pitch - start.1) < MotionController.arrivalTolerance)
    }

    @Test func trajectoriesFollowTheirKeysClosely() throws {
        // The tracked trajectory stays near the nominal one: the dock really plays the animation.
        var bench = try MotionBench()
        try bench.request(.animate(.no))
        let startedAt = bench.now
        let trajectory = AnimationTrajectory(.no, limits: bench.limits)
        bench.runUntilIdle()
        let errors = bench.trace.filter { $0.time - startedAt < trajectory.duration }.map { sample in
            abs(sample.yawRadians - trajectory.offset(at: sample.time - startedAt).yawRadians)
        }
        #expect(errors.max()! < 0.08, "largest tracking error \(errors.max()!) rad")
    }

    @Test func anyMotionCommandCancelsAnAnimation() throws {
        var bench = try MotionBench()
        try bench.request(.animate(.wake))
        bench.run(for: .milliseconds(300))
        let result = try bench.request(.stop)
        #expect(result.cancelledAnimation == .wake)
        #expect(result.commands == [.stop])
        bench.run(for: .milliseconds(400))
        #expect(bench.bench.firmware.isStill)
        #expect(bench.motion.activity == .idle)
    }

    @Test func animationsSlowDownForSlowDocks() {
        let fast = AnimationTrajectory(.kapow, yawSpeedRadiansPerSecond: 3, pitchSpeedRadiansPerSecond: 6)
        let slow = AnimationTrajectory(.kapow, yawSpeedRadiansPerSecond: 3, pitchSpeedRadiansPerSecond: 1)
        #expect(fast.timeScale == 1)
        #expect(slow.timeScale > 2)
        for kind in AnimationKind.allCases {
            let trajectory = AnimationTrajectory(kind, yawSpeedRadiansPerSecond: 1, pitchSpeedRadiansPerSecond: 1)
            #expect(trajectory.offset(at: trajectory.duration) == .home, "\(kind) ends at its start")
            #expect(trajectory.offset(at: .zero) == .home)
        }
    }

    /// The log and `Watch`'s `motion_ended` line name a finish as they always have (the text once
    /// came from Swift's default description, when the animations' names were DockLinks' own).
    @Test func finishesAreNamedAsWatchHasAlwaysNamedThem() {
        #expect("\(MotionFinish.velocityExpired)" == "velocityExpired")
        #expect("\(MotionFinish.orientationReached)" == "orientationReached")
        #expect("\(MotionFinish.timedOut)" == "timedOut")
        #expect("\(MotionFinish.animationFinished(.yes))" == "animationFinished(DockLinks.AnimationKind.yes)")
        #expect("\(MotionFinish.animationFinished(.kapow))" == "animationFinished(DockLinks.AnimationKind.kapow)")
    }
}
