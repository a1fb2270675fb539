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
    func run(mode: FramingMode, region: NormalizedRect = .fullImage, camera: CameraInformation = camera,
             rate: Double = 0.2, seconds: Double = 6) -> (box: NormalizedRect, largestStep: Double, angleError: Double) {
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
            let command = controller.command(subject: subject, subjectRates: (rate, 0), gimbalYawRadians: gimbalYaw,
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
        #expect(result.largestStep <= 4.0 / 30 + 1e-9, "acceleration limited")
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
        #expect(abs(box.y - FramingController.Configuration().headroom) < Self.verticalTolerance,
                "the top of the subject sits below the top")
        #expect(abs(box.center.x - 0.5) < 0.02)
    }

    @Test func mirroredImagesAreFramedAsTheUserSeesThem() {
        let mirrored = CameraInformation(horizontalFieldOfViewRadians: Self.camera.horizontalFieldOfViewRadians,
                                         aspectRatio: Self.camera.aspectRatio, isMirrored: true)
        #expect(abs(run(mode: .left, camera: mirrored).box.center.x - 1.0 / 3) < 0.02)
    }

    @Test func nonFiniteSubjectsCommandNothing() {
        var controller = FramingController()
        let command = controller.command(subject: AngularBox(yawRadians: .nan, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.1),
                                         subjectRates: (0, 0), gimbalYawRadians: 0, gimbalPitchRadians: 0,
                                         target: .center, camera: Self.camera, seconds: 1.0 / 30)
        #expect(command.yawRadiansPerSecond == 0 && command.pitchRadiansPerSecond == 0)
    }
}
