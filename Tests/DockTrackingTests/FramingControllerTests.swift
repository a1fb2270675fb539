import DockVocabulary
import Foundation
import Testing

@testable import DockTracking

/// The framing controller in a closed loop with an ideal gimbal (it turns at the commanded rate).
@Suite struct FramingControllerTests {
    static let camera = SubjectFilterTests.camera
    /// The dead band in image units: 0.02 rad across the horizontal (about 1.2 rad) and the
    /// vertical (about 0.75 rad) fields of view, plus a little.
    static let horizontalTolerance = 0.02, verticalTolerance = 0.035

    /// Runs `seconds` at 30 Hz with a subject moving at `rate`; returns the subject's box in the
    /// last frame and the largest change between successive commands.
    func run(
        mode: FramingMode, region: NormalizedRect = .fullImage, camera: CameraInformation = camera,
        rate: Double = 0.2, seconds: Double = 6
    ) -> (box: NormalizedRect, largestStep: Double, angleError: Double) {
        var controller = FramingController()
        var gimbalYaw = 0.0, gimbalPitch = 0.0
        var last = (0.0, 0.0)
        var largestStep = 0.0
        let dt = 1.0 / 30
        var box = NormalizedRect.fullImage
        var angleError = 0.0
        var t = 0.0
        while t < seconds {
            t += dt
            let subject = AngularBox(yawRadians: 0.3 + rate * t, pitchRadians: 0.1, widthRadians: 0.1, heightRadians: 0.25)
            box = subject.project(camera: camera, gimbalYawRadians: gimbalYaw, gimbalPitchRadians: gimbalPitch)!
            let target = controller.target(for: box, mode: mode, regionOfInterest: region)
            let command = controller.command(
                subject: subject, subjectRates: (rate, 0), gimbalYawRadians: gimbalYaw,
                gimbalPitchRadians: gimbalPitch, target: target, camera: camera, seconds: dt)
            largestStep = max(largestStep, abs(command.0 - last.0), abs(command.1 - last.1))
            last = command
            gimbalYaw += command.0 * dt
            gimbalPitch += command.1 * dt
            let wanted = controller.gimbalAngles(placing: subject, at: target, camera: camera)
            angleError = max(abs(wanted.yawRadians - gimbalYaw), abs(wanted.pitchRadians - gimbalPitch))
        }
        return (box, largestStep, angleError)
    }

    @Test func aWalkerIsCentredAndStaysWithinTheDeadBand() {
        let result = run(mode: .center)
        #expect(abs(result.box.center.x - 0.5) < Self.horizontalTolerance)
        #expect(abs(result.box.center.y - 0.5) < Self.verticalTolerance)
        #expect(result.angleError <= FramingController.Configuration().deadBandRadians + 0.005)
        let limit = FramingController.Configuration().maximumAccelerationRadiansPerSecondSquared
        #expect(result.largestStep <= limit / 30 + 1e-9, "acceleration limited")
    }

    @Test func leftAndRightPutTheSubjectOnTheThirds() {
        #expect(abs(run(mode: .left).box.center.x - 1.0 / 3) < 0.02)
        #expect(abs(run(mode: .right).box.center.x - 2.0 / 3) < 0.02)
    }

    @Test func theRegionOfInterestMovesTheTarget() {
        let region = NormalizedRect(x: 0.5, y: 0.2, width: 0.5, height: 0.6)
        let result = run(mode: .center, region: region)
        #expect(abs(result.box.center.x - 0.75) < Self.horizontalTolerance)
        #expect(abs(result.box.center.y - 0.5) < Self.verticalTolerance)
    }

    @Test func automaticLeavesHeadroom() {
        let box = run(mode: .automatic).box
        #expect(
            abs(box.y - FramingController.Configuration().headroom) < Self.verticalTolerance,
            "the top of the subject sits below the top")
        #expect(abs(box.center.x - 0.5) < 0.02)
    }

    @Test func mirroredImagesAreFramedAsTheUserSeesThem() {
        let mirrored = CameraInformation(
            horizontalFieldOfViewRadians: Self.camera.horizontalFieldOfViewRadians,
            aspectRatio: Self.camera.aspectRatio, isMirrored: true)
        #expect(abs(run(mode: .left, camera: mirrored).box.center.x - 1.0 / 3) < 0.02)
    }

    @Test func nonFiniteSubjectsCommandNothing() {
        var controller = FramingController()
        let command = controller.command(
            subject: AngularBox(yawRadians: .nan, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.1),
            subjectRates: (0, 0), gimbalYawRadians: 0, gimbalPitchRadians: 0,
            target: .center, camera: Self.camera, seconds: 1.0 / 30)
        #expect(command.yawRadiansPerSecond == 0 && command.pitchRadiansPerSecond == 0)
    }

    /// A still subject at `yaw` seen through an estimate with seeded noise of `deviation` rad on
    /// each axis (and a rate of that noise over 0.1 s), commanded for `seconds` with an ideal
    /// gimbal; returns the commands.
    func still(yaw: Double, deviation: Double, seconds: Double = 20, seed: UInt64 = 7) -> [(Double, Double)] {
        var controller = FramingController()
        var random = SplitMix(seed)
        var gimbal = (0.0, 0.0)
        var commands: [(Double, Double)] = []
        let dt = 1.0 / 30
        let uncertainty = SubjectUncertainty(
            yawRadians: deviation, pitchRadians: deviation, yawRadiansPerSecond: deviation * 10,
            pitchRadiansPerSecond: deviation * 10)
        for _ in 0..<Int(seconds * 30) {
            let noise = (random.gaussian() * deviation, random.gaussian() * deviation)
            let subject = AngularBox(yawRadians: yaw + noise.0, pitchRadians: noise.1, widthRadians: 0.15, heightRadians: 0.5)
            let rates = (random.gaussian() * deviation * 10, random.gaussian() * deviation * 10)
            let command = controller.command(
                subject: subject, subjectRates: rates, gimbalYawRadians: gimbal.0,
                gimbalPitchRadians: gimbal.1, target: .center, camera: Self.camera, seconds: dt,
                uncertainty: uncertainty)
            commands.append(command)
            gimbal.0 += command.0 * dt
            gimbal.1 += command.1 * dt
        }
        return commands
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func aStillSubjectSeenThroughNoiseGetsAStillDock(seed: UInt64) {
        // 0.03 rad of noise on each estimate, the subject 0.1 rad to the right: the dock turns to
        // them once, then never moves again.
        let commands = still(yaw: 0.1, deviation: 0.03, seed: seed)
        let moving = commands.enumerated().filter { $0.element.0 != 0 || $0.element.1 != 0 }.map(\.offset)
        #expect(!moving.isEmpty, "seed \(seed): it turns to the subject")
        #expect((moving.last ?? 0) < 5 * 30, "seed \(seed): and is still after 5 s; last move at tick \(moving.last ?? -1)")
        let turned = commands.reduce(0) { $0 + $1.0 / 30 }
        #expect(abs(turned - 0.1) < 0.03, "seed \(seed): it ends on the subject: turned \(turned) rad")
        // Taken as exact, the same noise moves it all the time.
        var naive = FramingController()
        var random = SplitMix(seed)
        var yaw = 0.0, moves = 0
        for _ in 0..<600 {
            let subject = AngularBox(yawRadians: 0.1 + random.gaussian() * 0.03, pitchRadians: 0, widthRadians: 0.15, heightRadians: 0.5)
            let command = naive.command(
                subject: subject, subjectRates: (random.gaussian() * 0.3, 0), gimbalYawRadians: yaw,
                gimbalPitchRadians: 0, target: .center, camera: Self.camera, seconds: 1.0 / 30)
            yaw += command.0 / 30
            if command.0 != 0 { moves += 1 }
        }
        #expect(moves > 300, "seed \(seed): an exact-estimate controller moved in \(moves) of 600 ticks")
    }

    @Test func theDeadBandGrowsWithTheEstimatesUncertaintyUpToTheTolerance() {
        let controller = FramingController()
        let configuration = controller.configuration
        #expect(controller.deadBand(deviation: 0) == configuration.deadBandRadians)
        let wide = controller.deadBand(deviation: 0.03)
        #expect(abs(wide - configuration.deadBandDeviations * configuration.averagedDeviationFactor * 0.03) < 1e-12)
        #expect(wide > configuration.deadBandRadians)
        #expect(controller.deadBand(deviation: 1) == configuration.maximumDeadBandRadians)
    }

    @Test func aSmallReversalHoldsStillInstead() {
        var controller = FramingController()
        // Turning right after a subject 0.2 rad to the right...
        var last = (0.0, 0.0)
        for _ in 0..<10 {
            last = controller.command(
                subject: AngularBox(yawRadians: 0.2, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.3),
                subjectRates: (0, 0), gimbalYawRadians: 0, gimbalPitchRadians: 0, target: .center,
                camera: Self.camera, seconds: 1.0 / 30)
        }
        #expect(last.0 > 0)
        // ...then the subject is found 0.015 rad to the left while still correcting: a reversal
        // for less than the reversal rate is not made; the dock brakes to zero and stays.
        for _ in 0..<30 {
            last = controller.command(
                subject: AngularBox(yawRadians: -0.015, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.3),
                subjectRates: (0, 0), gimbalYawRadians: 0, gimbalPitchRadians: 0, target: .center,
                camera: Self.camera, seconds: 1.0 / 30)
            #expect(last.0 >= 0, "never turned left")
        }
        #expect(last.0 == 0)
    }
}

/// A seeded Gaussian source for the controller tests (SplitMix64, Box–Muller).
struct SplitMix {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func gaussian() -> Double {
        let u = (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992, v = Double(next() >> 11) / 9_007_199_254_740_992
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
