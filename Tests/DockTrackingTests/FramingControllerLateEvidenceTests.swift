import DockVocabulary
import Testing

@testable import DockTracking

/// The framing controller's rules for late evidence (a slow or late detector): the aim kept a
/// little behind the extrapolation, and a jump the late boxes reveal caught up with as fast as
/// the dock can still stop.
@Suite struct FramingControllerLateEvidenceTests {
    static let camera = SubjectFilterTests.camera
    static let dt = 1.0 / 30

    @Test func theRulesGrowWithTheAgeOfTheNewestBox() {
        let controller = FramingController()
        let from = controller.configuration.lateEvidenceSeconds
        #expect(controller.lateness(evidenceAgeSeconds: 0) == 0)
        #expect(controller.lateness(evidenceAgeSeconds: from) == 0, "a prompt detector: none")
        #expect(abs(controller.lateness(evidenceAgeSeconds: 1.5 * from) - 0.5) < 1e-12)
        #expect(controller.lateness(evidenceAgeSeconds: 2 * from) == 1)
        #expect(controller.lateness(evidenceAgeSeconds: 10) == 1)
        #expect(controller.lateness(evidenceAgeSeconds: .nan) == 0)
        #expect(controller.lateness(evidenceAgeSeconds: .infinity) == 0)
    }

    @Test func theAimStaysBehindTheExtrapolationByAShareOfIt() {
        let controller = FramingController()
        let share = controller.configuration.extrapolationHedge
        // A walker at 0.4 rad/s seen by a detector 350 ms late: the aim stays share × 0.14 rad
        // behind, on the side the walker comes from.
        #expect(abs(controller.hedgeRadians(rate: 0.4, evidenceAgeSeconds: 0.35) - share * 0.35 * 0.4) < 1e-12)
        #expect(abs(controller.hedgeRadians(rate: -0.4, evidenceAgeSeconds: 0.35) + share * 0.35 * 0.4) < 1e-12)
        #expect(controller.hedgeRadians(rate: 0.4, evidenceAgeSeconds: 0.05) == 0, "a prompt detector: no hedge")
        #expect(controller.hedgeRadians(rate: 100, evidenceAgeSeconds: 0.5) == controller.configuration.maximumHedgeRadians)
        #expect(controller.hedgeRadians(rate: .nan, evidenceAgeSeconds: 0.5) == 0)
    }

    @Test func aWalkerSeenLateIsFollowedALittleBehindOnEitherAxis() {
        // A subject moving at 0.4 rad/s across (yaw) or 0.2 rad/s up (pitch), followed by an
        // ideal dock for 4 s: with fresh boxes the dock points at them (within the least dead
        // band); with boxes 350 ms late it keeps the hedge further behind, on the side they come
        // from.
        func lag(age: Double, yawRate: Double, pitchRate: Double) -> (yaw: Double, pitch: Double) {
            var controller = FramingController()
            var gimbal = (yaw: 0.0, pitch: 0.0), subject = (yaw: 0.0, pitch: 0.0), t = 0.0
            while t < 4 {
                t += Self.dt
                subject = (0.2 + yawRate * t, -0.2 + pitchRate * t)
                let command = controller.command(
                    subject: AngularBox(yawRadians: subject.yaw, pitchRadians: subject.pitch, widthRadians: 0.1, heightRadians: 0.3),
                    subjectRates: (yawRate, pitchRate), gimbalYawRadians: gimbal.yaw, gimbalPitchRadians: gimbal.pitch,
                    target: .center, camera: Self.camera, seconds: Self.dt, evidenceAgeSeconds: age)
                gimbal.yaw += command.yawRadiansPerSecond * Self.dt
                gimbal.pitch += command.pitchRadiansPerSecond * Self.dt
            }
            let wanted = controller.gimbalAngles(
                placing: AngularBox(yawRadians: subject.yaw, pitchRadians: subject.pitch, widthRadians: 0.1, heightRadians: 0.3),
                at: .center, camera: Self.camera)
            return (wanted.yawRadians - gimbal.yaw, wanted.pitchRadians - gimbal.pitch)
        }
        let controller = FramingController(), band = controller.configuration.deadBandRadians
        // (The dock here turns after the subject moved: a step's rate × 1/30 rad ahead at any age.)
        let across = (fresh: lag(age: 0, yawRate: 0.4, pitchRate: 0), late: lag(age: 0.35, yawRate: 0.4, pitchRate: 0))
        let yawHedge = controller.hedgeRadians(rate: 0.4, evidenceAgeSeconds: 0.35)
        #expect(abs(across.fresh.yaw) <= band)
        #expect(
            abs(across.late.yaw - across.fresh.yaw - yawHedge) < 0.002, "\(across.late.yaw - across.fresh.yaw) rad, the hedge \(yawHedge)")
        let up = (fresh: lag(age: 0, yawRate: 0, pitchRate: 0.2), late: lag(age: 0.35, yawRate: 0, pitchRate: 0.2))
        let pitchHedge = controller.hedgeRadians(rate: 0.2, evidenceAgeSeconds: 0.35)
        #expect(pitchHedge > 0)
        #expect(abs(up.fresh.pitch) <= band)
        #expect(abs(up.late.pitch - up.fresh.pitch - pitchHedge) < 0.002, "\(up.late.pitch - up.fresh.pitch) rad, the hedge \(pitchHedge)")
    }

    @Test func anAgeThatIsNotANumberIsNoAge() {
        func commands(age: Double) -> [Double] {
            var controller = FramingController()
            return (0..<20).map { _ in
                controller.command(
                    subject: AngularBox(yawRadians: 0.3, pitchRadians: 0.1, widthRadians: 0.1, heightRadians: 0.3),
                    subjectRates: (0.4, 0.1), gimbalYawRadians: 0, gimbalPitchRadians: 0, target: .center,
                    camera: Self.camera, seconds: Self.dt, evidenceAgeSeconds: age
                ).yawRadiansPerSecond
            }
        }
        let fresh = commands(age: 0)
        let isFinite = fresh.allSatisfy { $0.isFinite }
        #expect(isFinite)
        #expect(commands(age: .nan) == fresh)
        #expect(commands(age: .infinity) == fresh)
        #expect(commands(age: -1) == fresh)
    }

    /// A subject found 0.15 rad from where the dock points (a late box told of a stop), the dock
    /// turning at what it is commanded, within `dockAcceleration`: the time until it is within
    /// 0.02 rad, the furthest it overshoots, and its fastest rate.
    func catchUp(age: Double, advertised: Double?, dockAcceleration: Double) -> (seconds: Double, overshoot: Double, fastest: Double) {
        var controller = FramingController()
        if let advertised { controller.accessoryAccelerationRadiansPerSecondSquared = (advertised, advertised) }
        var gimbal = 0.0, rate = 0.0, t = 0.0, settled: Double?, overshoot = 0.0, fastest = 0.0
        while t < 3 {
            let command = controller.command(
                subject: AngularBox(yawRadians: 0.15, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.3),
                subjectRates: (0, 0), gimbalYawRadians: gimbal, gimbalPitchRadians: 0, target: .center,
                camera: Self.camera, seconds: Self.dt, evidenceAgeSeconds: age)
            let step = dockAcceleration * Self.dt
            rate = min(max(command.yawRadiansPerSecond, rate - step), rate + step)
            gimbal += rate * Self.dt
            t += Self.dt
            fastest = max(fastest, abs(rate))
            overshoot = max(overshoot, gimbal - 0.15)
            if settled == nil, abs(0.15 - gimbal) < 0.02 { settled = t }
        }
        return (settled ?? .infinity, overshoot, fastest)
    }

    @Test func aJumpRevealedLateIsCaughtUpWithSoonerAndNotOvershot() {
        let fresh = catchUp(age: 0, advertised: nil, dockAcceleration: 12)
        let late = catchUp(age: 0.35, advertised: nil, dockAcceleration: 12)
        #expect(late.seconds < 0.7 * fresh.seconds, "late \(late.seconds) s, fresh \(fresh.seconds) s")
        #expect(late.overshoot <= 0.005, "\(late.overshoot) rad past the subject")
        #expect(fresh.overshoot <= 0.005)
        // The catch-up's rate is one the dock can stop from at half its acceleration.
        let configuration = FramingController.Configuration()
        let stoppable = (2 * configuration.catchUpBrakingShare * 12 * 0.15).squareRoot()
        #expect(late.fastest <= stoppable + 1e-9)
        #expect(late.fastest > configuration.gain * 0.15 * 1.5, "faster than the proportional term alone")
    }

    @Test func aPTZCameraSlowToTurnIsCaughtUpWithAtWhatItAdvertises() {
        // A camera that turns at 3 rad/s² and says so: the catch-up plans its stop at that, and
        // the camera does not overshoot; not told, the controller plans at its own 12 and the
        // camera, which cannot follow, overshoots further.
        let told = catchUp(age: 0.35, advertised: 3, dockAcceleration: 3)
        let untold = catchUp(age: 0.35, advertised: nil, dockAcceleration: 3)
        #expect(told.overshoot <= 0.01, "\(told.overshoot) rad past the subject")
        #expect(untold.overshoot > told.overshoot)
        let stoppable = (2 * FramingController.Configuration().catchUpBrakingShare * 3 * 0.15).squareRoot()
        #expect(told.fastest <= stoppable + 1e-9)
    }

    @Test func theCatchUpPlansWithTheLesserOfTheAccessorysAndItsOwnAcceleration() {
        var controller = FramingController()
        let own = controller.configuration.maximumAccelerationRadiansPerSecondSquared
        #expect(controller.brakingAccelerationsRadiansPerSecondSquared == (own, own))
        controller.accessoryAccelerationRadiansPerSecondSquared = (3, 8)
        #expect(controller.brakingAccelerationsRadiansPerSecondSquared == (3, min(8, own)))
        controller.accessoryAccelerationRadiansPerSecondSquared = (1000, 0)
        #expect(controller.brakingAccelerationsRadiansPerSecondSquared == (own, own), "more than its own, or none: its own")
        controller.accessoryAccelerationRadiansPerSecondSquared = (.nan, -1)
        #expect(controller.brakingAccelerationsRadiansPerSecondSquared == (own, own))
    }
}
