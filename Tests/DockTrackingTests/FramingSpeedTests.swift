import DockVocabulary
import Foundation
import Testing

@testable import DockTracking

/// The framing speed's profiles and numbers, and the controller keeping to them and to the
/// accessory's advertised limits, with an ideal gimbal (it turns at the commanded rate) in
/// virtual time.
@Suite struct FramingSpeedTests {
    static let camera = SubjectFilterTests.camera
    static let dt = 1.0 / 30

    @Test func normalIsTheControllersOwnDefaults() {
        #expect(FramingSpeed.default == FramingSpeed(.normal))
        #expect(FramingController.Configuration().framingSpeed == FramingSpeed(.normal))
        let controller = FramingController()
        #expect(controller.limits.yaw == FramingSpeed(.normal).yaw)
        #expect(controller.limits.pitch == FramingSpeed(.normal).pitch)
    }

    @Test func smoothIsSlowerAndWiderAndFastIsQuickerThanNormal() {
        let smooth = FramingSpeed(.smooth), normal = FramingSpeed(.normal), fast = FramingSpeed(.fast)
        for (s, n, f) in [(smooth.yaw, normal.yaw, fast.yaw), (smooth.pitch, normal.pitch, fast.pitch)] {
            #expect(s.maximumSpeedRadiansPerSecond < n.maximumSpeedRadiansPerSecond)
            #expect(s.maximumAccelerationRadiansPerSecondSquared < n.maximumAccelerationRadiansPerSecondSquared)
            #expect(s.deadBandRadians > n.deadBandRadians)
            #expect(f.maximumSpeedRadiansPerSecond > n.maximumSpeedRadiansPerSecond)
            #expect(f.maximumAccelerationRadiansPerSecondSquared > n.maximumAccelerationRadiansPerSecondSquared)
        }
    }

    @Test func numbersOverrideTheProfileTheyComeWith() throws {
        let changed = try FramingSpeed.default.changed(by: FramingSpeedChange(profile: "smooth", yawMaximumSpeed: 0.9, pitchDeadBand: 0))
        #expect(changed.profile == .smooth)
        #expect(changed.yaw.maximumSpeedRadiansPerSecond == 0.9)
        #expect(
            changed.yaw.maximumAccelerationRadiansPerSecondSquared == FramingSpeed(.smooth).yaw.maximumAccelerationRadiansPerSecondSquared)
        #expect(changed.pitch.deadBandRadians == 0)
        #expect(changed.pitch.maximumSpeedRadiansPerSecond == FramingSpeed(.smooth).pitch.maximumSpeedRadiansPerSecond)
        // Without a profile, the numbers change what is in force.
        let again = try changed.changed(by: FramingSpeedChange(pitchAcceleration: 2))
        #expect(again.profile == .smooth)
        #expect(again.yaw.maximumSpeedRadiansPerSecond == 0.9)
        #expect(again.pitch.maximumAccelerationRadiansPerSecondSquared == 2)
    }

    @Test(arguments: [
        (FramingSpeedChange(profile: "sport"), "profile"),
        (FramingSpeedChange(profile: "Smooth"), "profile"),
        (FramingSpeedChange(yawMaximumSpeed: -1), "yaw_max_speed"),
        (FramingSpeedChange(yawMaximumSpeed: 0), "yaw_max_speed"),
        (FramingSpeedChange(yawAcceleration: .infinity), "yaw_acceleration"),
        (FramingSpeedChange(yawDeadBand: -0.01), "yaw_dead_band"),
        (FramingSpeedChange(pitchMaximumSpeed: .nan), "pitch_max_speed"),
        (FramingSpeedChange(pitchAcceleration: -3), "pitch_acceleration"),
        (FramingSpeedChange(pitchDeadBand: 0.6), "pitch_dead_band"),
        (FramingSpeedChange(profile: "fast", yawMaximumSpeed: 2, pitchDeadBand: .nan), "pitch_dead_band"),
    ])
    func badInputIsRefusedNamingItsParameter(change: FramingSpeedChange, parameter: String) {
        #expect {
            _ = try FramingSpeed.default.changed(by: change)
        } throws: { error in
            (error as? FramingSpeedError)?.parameter == parameter
        }
    }

    /// A subject who walks, stops, turns back at a run and jumps (a late box), followed with
    /// `speed` on a dock advertising `accessory` speed and acceleration: the largest commanded rate
    /// and change of rate per second on each axis.
    func peaks(
        speed: FramingSpeed, accessorySpeed: (yaw: Double, pitch: Double)? = nil, accessoryAcceleration: (yaw: Double, pitch: Double)? = nil
    ) -> (speed: (yaw: Double, pitch: Double), acceleration: (yaw: Double, pitch: Double)) {
        var controller = FramingController()
        controller.speed = speed
        controller.accessorySpeedRadiansPerSecond = accessorySpeed
        controller.accessoryAccelerationRadiansPerSecondSquared = accessoryAcceleration
        var gimbal = (yaw: 0.0, pitch: 0.0), last = (yaw: 0.0, pitch: 0.0)
        var fastest = (yaw: 0.0, pitch: 0.0), sharpest = (yaw: 0.0, pitch: 0.0)
        var t = 0.0
        while t < 8 {
            t += Self.dt
            // 0.5 rad/s for 2 s, still for 1 s, back at 4 rad/s for 0.75 s, then a jump of 0.4 rad
            // up and across seen late.
            let yaw = t < 2 ? 0.5 * t : t < 3 ? 1 : t < 3.75 ? 1 - 4 * (t - 3) : t < 6 ? -2 : -1.6
            let pitch = t < 6 ? 0.1 * sin(t) : 0.4
            let rate = t < 2 ? 0.5 : t < 3 ? 0 : t < 3.75 ? -4 : 0
            let subject = AngularBox(yawRadians: yaw, pitchRadians: pitch, widthRadians: 0.1, heightRadians: 0.3)
            let command = controller.command(
                subject: subject, subjectRates: (rate, 0), gimbalYawRadians: gimbal.yaw, gimbalPitchRadians: gimbal.pitch,
                target: .center, camera: Self.camera, seconds: Self.dt, evidenceAgeSeconds: t >= 6 ? 0.3 : 0)
            fastest = (max(fastest.yaw, abs(command.yawRadiansPerSecond)), max(fastest.pitch, abs(command.pitchRadiansPerSecond)))
            sharpest = (
                max(sharpest.yaw, abs(command.yawRadiansPerSecond - last.yaw) / Self.dt),
                max(sharpest.pitch, abs(command.pitchRadiansPerSecond - last.pitch) / Self.dt)
            )
            last = (command.yawRadiansPerSecond, command.pitchRadiansPerSecond)
            gimbal.yaw += command.yawRadiansPerSecond * Self.dt
            gimbal.pitch += command.pitchRadiansPerSecond * Self.dt
        }
        return (fastest, sharpest)
    }

    @Test(arguments: FramingSpeed.Profile.allCases)
    func eachProfileKeepsToItsNumbers(profile: FramingSpeed.Profile) {
        let speed = FramingSpeed(profile)
        let result = peaks(speed: speed)
        #expect(result.speed.yaw <= speed.yaw.maximumSpeedRadiansPerSecond + 1e-9)
        #expect(result.speed.pitch <= speed.pitch.maximumSpeedRadiansPerSecond + 1e-9)
        #expect(result.acceleration.yaw <= speed.yaw.maximumAccelerationRadiansPerSecondSquared + 1e-6)
        #expect(result.acceleration.pitch <= speed.pitch.maximumAccelerationRadiansPerSecondSquared + 1e-6)
        // The subject asks for more than any profile gives: each limit is reached.
        #expect(result.speed.yaw > 0.99 * speed.yaw.maximumSpeedRadiansPerSecond)
        #expect(result.acceleration.yaw > 0.99 * speed.yaw.maximumAccelerationRadiansPerSecondSquared)
        print("framing speed \(profile): peak yaw \(result.speed.yaw) rad/s, \(result.acceleration.yaw) rad/s²")
    }

    @Test(arguments: FramingSpeed.Profile.allCases)
    func noProfileAsksMoreThanTheAccessoryAdvertises(profile: FramingSpeed.Profile) {
        // A PTZ camera's 3 rad/s² and slow pan, a slower tilt.
        let accessorySpeed = (yaw: 0.5, pitch: 0.3), accessoryAcceleration = (yaw: 3.0, pitch: 0.8)
        let result = peaks(speed: FramingSpeed(profile), accessorySpeed: accessorySpeed, accessoryAcceleration: accessoryAcceleration)
        let own = FramingSpeed(profile)
        #expect(result.speed.yaw <= min(own.yaw.maximumSpeedRadiansPerSecond, accessorySpeed.yaw) + 1e-9)
        #expect(result.speed.pitch <= min(own.pitch.maximumSpeedRadiansPerSecond, accessorySpeed.pitch) + 1e-9)
        #expect(result.acceleration.yaw <= min(own.yaw.maximumAccelerationRadiansPerSecondSquared, accessoryAcceleration.yaw) + 1e-6)
        #expect(
            result.acceleration.pitch <= min(own.pitch.maximumAccelerationRadiansPerSecondSquared, accessoryAcceleration.pitch) + 1e-6)
    }

    @Test func anAccessoryThatAdvertisesNothingUsableLeavesTheProfilesNumbers() {
        var controller = FramingController()
        controller.speed = FramingSpeed(.fast)
        controller.accessorySpeedRadiansPerSecond = (.nan, 0)
        controller.accessoryAccelerationRadiansPerSecondSquared = (-1, .infinity)
        #expect(controller.limits.yaw == FramingSpeed(.fast).yaw)
        #expect(controller.limits.pitch == FramingSpeed(.fast).pitch)
        controller.accessorySpeedRadiansPerSecond = (10, 1)
        controller.accessoryAccelerationRadiansPerSecondSquared = (100, 5)
        #expect(controller.limits.yaw == FramingSpeed(.fast).yaw, "an accessory faster than the profile: the profile's")
        #expect(controller.limits.pitch.maximumSpeedRadiansPerSecond == 1)
        #expect(controller.limits.pitch.maximumAccelerationRadiansPerSecondSquared == 5)
        #expect(controller.limits.pitch.deadBandRadians == FramingSpeed(.fast).pitch.deadBandRadians)
    }

    /// The yaw commands for a still subject `offset` radians off the target, seen exactly.
    func commands(speed: FramingSpeed, offset: Double) -> [Double] {
        var controller = FramingController()
        controller.speed = speed
        return (0..<90).map { _ in
            controller.command(
                subject: AngularBox(yawRadians: offset, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.3), subjectRates: (0, 0),
                gimbalYawRadians: 0, gimbalPitchRadians: 0, target: .center, camera: Self.camera, seconds: Self.dt
            ).yawRadiansPerSecond
        }
    }

    @Test func smoothHoldsStillInsideItsWiderDeadBandWhereNormalMoves() {
        let offset = 0.045  // outside normal's 0.02 (and its widest 0.04), inside smooth's 0.06
        #expect(commands(speed: FramingSpeed(.smooth), offset: offset).allSatisfy { $0 == 0 })
        #expect(commands(speed: FramingSpeed(.normal), offset: offset).contains { $0 > 0 })
        #expect(commands(speed: FramingSpeed(.smooth), offset: 0.07).contains { $0 > 0 }, "outside it, smooth moves too")
    }
}

/// An acceleration the accessory only has by dockd's guess (a VISCA or UVC camera reports none).
@Suite struct UnadvertisedAccelerationTests {
    @Test func aGuessedAccelerationPlansTheStopButDoesNotNarrowTheRamp() {
        var controller = FramingController()
        controller.speed = FramingSpeed(.normal)
        controller.accessoryAccelerationRadiansPerSecondSquared = (3, 3)
        controller.isAccessoryAccelerationAdvertised = false
        #expect(controller.limits.yaw.maximumAccelerationRadiansPerSecondSquared == 12, "the profile's stands")
        #expect(controller.brakingAccelerationsRadiansPerSecondSquared == (3, 3), "the stop is planned at the guess")
        controller.isAccessoryAccelerationAdvertised = true
        #expect(controller.limits.yaw.maximumAccelerationRadiansPerSecondSquared == 3, "advertised: the ramp keeps to it")
        #expect(controller.brakingAccelerationsRadiansPerSecondSquared == (3, 3))
    }
}
