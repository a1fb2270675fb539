import DockVocabulary
import Foundation
import Testing

@testable import DockTracking

/// The zoom half of the framing as transcripts: a subject as the controller sees it, stepped at
/// 30 Hz in virtual time, the zoom taking each command at once.
@Suite struct ShotSizeControllerTests {
    /// 70° across, 16:9: the simulator's camera at its widest.
    static let widest = CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9)
    static let tick = Duration.milliseconds(33)

    /// A body `heightRadians` tall straight ahead, moving at `rate`, with `deviation` of
    /// uncertainty on its direction.
    static func body(
        heightRadians: Double, yaw: Double = 0, rate: Double = 0, deviation: Double = 0.002, coasting: Bool = false,
        age: Double = 0.05
    ) -> ShotSizeController.Subject {
        ShotSizeController.Subject(
            box: AngularBox(yawRadians: yaw, pitchRadians: 0, widthRadians: heightRadians / 4, heightRadians: heightRadians),
            yawRadiansPerSecond: rate, pitchRadiansPerSecond: 0,
            uncertainty: SubjectUncertainty(
                yawRadians: deviation, pitchRadians: deviation, yawRadiansPerSecond: 0.05, pitchRadiansPerSecond: 0.05),
            isCoasting: coasting, evidenceAgeSeconds: age)
    }

    /// Steps `controller` from `start` for `ticks` ticks with `subject`, the zoom at what it was told;
    /// returns the magnifications commanded.
    static func run(
        _ controller: inout ShotSizeController, shot: ShotSize = .full, subject: ShotSizeController.Subject,
        from magnification: Double = 1, start: Duration = .zero, ticks: Int
    ) -> [Double] {
        var zoom = magnification, commands: [Double] = []
        for index in 0..<ticks {
            let now = start + tick * index
            let command = controller.step(
                shot: shot, subject: subject, optics: ZoomOptics(magnification: zoom, maximumMagnification: 4), widest: widest,
                gimbalYawRadians: 0, gimbalPitchRadians: 0, panSpeedRadiansPerSecond: 1.5, now: now)
            if let command {
                commands.append(command)
                zoom = command
            }
        }
        return commands
    }

    @Test func aFarSubjectIsZoomedInOnSlowlyUntilItHasItsShare() throws {
        // 0.2 of the picture's height at 1×: a full shot (0.8) wants 4×.
        var controller = ShotSizeController()
        let height = 2 * atan(0.2 * tan(Self.widest.verticalFieldOfViewRadians / 2))
        let commands = Self.run(&controller, subject: Self.body(heightRadians: height), ticks: 300)
        let steps = zip(commands, commands.dropFirst()).map { log($1 / $0) }
        #expect(steps.allSatisfy { $0 <= controller.configuration.zoomInRate * 0.0331 + 1e-9 }, "the rate limit")
        let last = try #require(commands.last)
        #expect(abs(last / 4 - 1) <= 0.04, "at its share within the settling band: \(last)")
        #expect(controller.reversals == 0)
    }

    @Test func aSizeWithinTheBandIsHeld() {
        // The shot's size already 6 % off: inside ±10 %, nothing moves.
        var controller = ShotSizeController()
        let height = 2 * atan(0.8 / 2 / 1.06 * tan(Self.widest.verticalFieldOfViewRadians / 2))
        let commands = Self.run(&controller, subject: Self.body(heightRadians: height), from: 2, ticks: 90)
        #expect(commands.allSatisfy { $0 == 2 }, "\(commands.prefix(5))")
        #expect(controller.reason == .holding)
    }

    @Test func aCoastingSubjectIsNotZoomedInOnButMayBeZoomedOutFrom() {
        let far = 2 * atan(0.2 * tan(Self.widest.verticalFieldOfViewRadians / 2))
        var controller = ShotSizeController()
        let coasting = Self.run(&controller, subject: Self.body(heightRadians: far, coasting: true), ticks: 60)
        #expect(coasting.allSatisfy { $0 == 1 }, "no zoom in on a coasting track")
        var stale = ShotSizeController()
        let old = Self.run(&stale, subject: Self.body(heightRadians: far, age: 1), ticks: 60)
        #expect(old.allSatisfy { $0 == 1 }, "nor on one whose newest box is a second old")
        // Too large at 3×: zoomed out even though the track coasts.
        let near = 2 * atan(0.5 * tan(Self.widest.verticalFieldOfViewRadians / 2))
        var out = ShotSizeController()
        let wider = Self.run(&out, subject: Self.body(heightRadians: near, coasting: true), from: 3, ticks: 60)
        #expect((wider.last ?? 3) < 2, "\(wider.last ?? 3)")
    }

    @Test func aSubjectFasterThanThePanIsZoomedOutFromWhateverTheSize() throws {
        // Held at 3× by its size, then running at 2 rad/s (the pan does 1.5): out at once, at the
        // zoom-out rate, to where the run fits.
        let height = 2 * atan(0.8 / 3 * tan(Self.widest.verticalFieldOfViewRadians / 2))
        var controller = ShotSizeController()
        let held = Self.run(&controller, subject: Self.body(heightRadians: height), from: 3, ticks: 30)
        #expect(held.allSatisfy { abs($0 - 3) < 1e-9 })
        let running = Self.run(
            &controller, subject: Self.body(heightRadians: height, rate: 2), from: 3, start: Self.tick * 30, ticks: 30)
        let first = try #require(running.first)
        #expect(first < 3, "the first tick of the run zooms out")
        #expect(zip(running, running.dropFirst()).allSatisfy { $1 <= $0 }, "and only out")
        #expect((running.last ?? 3) < 1.5, "\(running.last ?? 3)")
        #expect(controller.reversals == 0, "out after holding is no reversal")
    }

    @Test func aGrowingUncertaintyZoomsOut() {
        let height = 2 * atan(0.8 / 3 * tan(Self.widest.verticalFieldOfViewRadians / 2))
        var controller = ShotSizeController()
        _ = Self.run(&controller, subject: Self.body(heightRadians: height), from: 3, ticks: 30)
        // σ of 0.1 rad (a track that coasted a while): 3 σ is more than a 3× picture's half-width
        // (0.23 rad) allows beside the body.
        let unsure = Self.run(
            &controller, subject: Self.body(heightRadians: height, deviation: 0.1), from: 3, start: Self.tick * 30, ticks: 30)
        #expect(controller.reason == .keepInPicture || controller.reason == .holding)
        #expect((unsure.last ?? 3) < 2.5, "\(unsure.last ?? 3)")
    }

    @Test func noZoomInBeginsSoonAfterAZoomOut() {
        let height = 2 * atan(0.8 / 3 * tan(Self.widest.verticalFieldOfViewRadians / 2))
        var controller = ShotSizeController()
        let out = Self.run(&controller, subject: Self.body(heightRadians: height, rate: 2), from: 3, ticks: 15)
        let low = out.last ?? 3
        // The run stops: the size asks for 3× again, but not within the hold.
        let still = Self.run(&controller, subject: Self.body(heightRadians: height), from: low, start: Self.tick * 15, ticks: 50)
        #expect(still.allSatisfy { $0 <= low + 1e-9 }, "held for \(controller.configuration.reversalHoldSeconds) s")
        let later = Self.run(&controller, subject: Self.body(heightRadians: height), from: low, start: Self.tick * 80, ticks: 30)
        #expect((later.last ?? low) > low, "then in again")
    }

    @Test func offOrNoSubjectLeavesTheZoomAlone() {
        var controller = ShotSizeController()
        let optics = ZoomOptics(magnification: 2, maximumMagnification: 4)
        #expect(
            controller.step(
                shot: .off, subject: Self.body(heightRadians: 0.2), optics: optics, widest: Self.widest, gimbalYawRadians: 0,
                gimbalPitchRadians: 0, panSpeedRadiansPerSecond: 1.5, now: .zero) == nil)
        #expect(
            controller.step(
                shot: .full, subject: nil, optics: optics, widest: Self.widest, gimbalYawRadians: 0, gimbalPitchRadians: 0,
                panSpeedRadiansPerSecond: 1.5, now: .zero) == nil)
    }

    @Test func theFaceShotsAreAboutTheFaceAndAFullShotWithoutABodyIsEightFaces() {
        let controller = ShotSizeController()
        let body = AngularBox(yawRadians: 0.1, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.8)
        let face = AngularBox(yawRadians: 0.1, pitchRadians: 0.33, widthRadians: 0.04, heightRadians: 0.1)
        var subject = FusedSubject(
            track: SubjectTracker.Track(
                identifier: 1, kind: .body, filter: SubjectFilter(first: body), phase: .confirmed, hits: 5, lastSeen: .zero,
                lastFused: .zero, born: .zero))
        subject.faceBox = face
        #expect(controller.framedBox(.head, subject: subject) == face)
        #expect(controller.framedBox(.full, subject: subject) == body)
        subject.faceBox = nil
        let estimated = controller.framedBox(.half, subject: subject)
        #expect(abs(estimated.heightRadians - 0.1) < 1e-9 && abs(estimated.pitchRadians - 0.35) < 1e-9, "\(estimated)")
    }

    @Test func aGroupShotFramesTheSelectedSubjectsJointBox() {
        let controller = ShotSizeController()
        func subject(_ identifier: Int, yaw: Double) -> FusedSubject {
            FusedSubject(
                track: SubjectTracker.Track(
                    identifier: identifier, kind: .body,
                    filter: SubjectFilter(first: AngularBox(yawRadians: yaw, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.4)),
                    phase: .confirmed, hits: 5, lastSeen: .zero, lastFused: .zero, born: .zero))
        }
        let joint = controller.framedBox(.group, subject: subject(1, yaw: -0.2), members: [subject(1, yaw: -0.2), subject(2, yaw: 0.3)])
        #expect(abs(joint.yawRadians - 0.05) < 1e-9 && abs(joint.widthRadians - 0.6) < 1e-9, "\(joint)")
        #expect(abs(joint.heightRadians - 0.4) < 1e-9)
        let alone = controller.framedBox(.group, subject: subject(1, yaw: -0.2))
        #expect(abs(alone.yawRadians + 0.2) < 1e-9 && abs(alone.widthRadians - 0.1) < 1e-9, "alone: itself")
    }

    @Test func shotSizesAreReadAsSettingsAndTheAPISpellsThemAndBadOnesAreNamed() throws {
        #expect(try ShotSize(setting: "head") == .head)
        #expect(try ShotSize(setting: "0.4") == .fraction(0.4))
        #expect(try ShotSize(setting: "group").setting == "group")
        #expect(throws: ShotSizeError.unknown("waist")) { try ShotSize(setting: "waist") }
        #expect(throws: ShotSizeError.shareOutOfRange(1.5)) { try ShotSize(setting: "1.5") }
        #expect(throws: ShotSizeError.shareOutOfRange(0.01)) { try ShotSize(setting: "0.01") }
        #expect(throws: ShotSizeError.unknown("nan")) { try ShotSize(setting: "nan") }
        #expect(throws: ShotSizeError.missingShare) { try ShotSize(name: "fraction", fraction: nil) }
        #expect(throws: ShotSizeError.shareWithName("head")) { try ShotSize(name: "head", fraction: 0.3) }
        #expect(ShotSizeError.missingShare.field == "fraction")
        #expect(ShotSizeError.shareWithName("head").field == "shot")
    }
}
