#if canImport(Glibc)
import Glibc
#endif

/// Turns where the primary subject is into how the dock should turn: the framing mode and the
/// region of interest choose the point of the image where the subject should sit; the angle between
/// there and where it is, outside a dead band, drives a proportional term; the subject's own
/// angular rate is fed forward; speed and acceleration limits keep the motion smooth.
public struct FramingController: Sendable {
    /// Tuning.
    public struct Configuration: Hashable, Sendable {
        /// Error (radians) below which the controller does not start correcting and only follows
        /// the subject's motion, so the dock does not hunt.
        public var deadBandRadians = 0.02
        /// Once correcting, the controller carries on until the error is below this share of the
        /// dead band (hysteresis: the subject ends up near the target, not at the band's edge).
        public var settleFraction = 0.25
        /// Proportional gain, 1/s.
        public var gain = 2.5
        /// Highest commanded rate on either axis, rad/s.
        public var maximumSpeedRadiansPerSecond = 1.5
        /// Highest change of the commanded rate, rad/s².
        public var maximumAccelerationRadiansPerSecondSquared = 4.0
        /// Headroom of `automatic` framing: the top of a body sits this far below the image's top
        /// (as a fraction of the image's height), when the body fits.
        public var headroom = 0.12

        public init() {}
    }

    /// The settings.
    public let configuration: Configuration
    private var lastYawRate = 0.0
    private var lastPitchRate = 0.0
    private var isCorrectingYaw = false
    private var isCorrectingPitch = false

    /// Creates a controller at rest.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The point of the delivered image where the subject's box centre should sit.
    public func target(for subject: NormalizedRect, mode: FramingMode, regionOfInterest: NormalizedRect) -> NormalizedPoint {
        var x = 0.5, y = 0.5
        switch mode {
        case .center: break
        case .left: x = 1.0 / 3
        case .right: x = 2.0 / 3
        case .automatic:
            let height = subject.height / max(regionOfInterest.height, 1e-6)
            if height < 1 - configuration.headroom { y = configuration.headroom + height / 2 }
        }
        return NormalizedPoint(x: regionOfInterest.x + x * regionOfInterest.width, y: regionOfInterest.y + y * regionOfInterest.height)
    }

    /// The gimbal angles that would put `subject` (an angular box in the dock's frame) at `point`
    /// of the image.
    public func gimbalAngles(placing subject: AngularBox, at point: NormalizedPoint, camera: CameraInformation)
        -> (yawRadians: Double, pitchRadians: Double)
    {
        let aligned = camera.dockAlignedPoint(fromDelivered: point)
        let ray = camera.cameraRay(throughDockAligned: aligned)
        return (subject.yawRadians - atan(ray.right), subject.pitchRadians - atan(ray.up))
    }

    /// The rates to command now, `seconds` after the last command.
    public mutating func command(
        subject: AngularBox, subjectRates: (yaw: Double, pitch: Double), gimbalYawRadians: Double, gimbalPitchRadians: Double,
        target: NormalizedPoint, camera: CameraInformation, seconds: Double
    ) -> (yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double) {
        let wanted = gimbalAngles(placing: subject, at: target, camera: camera)
        guard seconds.isFinite, subject.yawRadians.isFinite, subject.pitchRadians.isFinite else { return (0, 0) }
        lastYawRate = axis(wanted.yawRadians - gimbalYawRadians, subjectRates.yaw, lastYawRate, seconds, &isCorrectingYaw)
        lastPitchRate = axis(wanted.pitchRadians - gimbalPitchRadians, subjectRates.pitch, lastPitchRate, seconds,
                             &isCorrectingPitch)
        return (lastYawRate, lastPitchRate)
    }

    /// The rates that close an angular error (radians, where the dock should turn), with the same
    /// dead band, gain and limits but nothing fed forward: going back to a rest pose.
    public mutating func command(towardsYawError yawError: Double, pitchError: Double, seconds: Double)
        -> (yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double)
    {
        guard seconds.isFinite, yawError.isFinite, pitchError.isFinite else { return (0, 0) }
        lastYawRate = axis(yawError, 0, lastYawRate, seconds, &isCorrectingYaw)
        lastPitchRate = axis(pitchError, 0, lastPitchRate, seconds, &isCorrectingPitch)
        return (lastYawRate, lastPitchRate)
    }

    /// The rates that bring the dock to a standstill within the acceleration limit.
    public mutating func brake(seconds: Double) -> (yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double) {
        let step = configuration.maximumAccelerationRadiansPerSecondSquared * (seconds.isFinite ? max(seconds, 0) : 0)
        lastYawRate = lastYawRate > 0 ? max(0, lastYawRate - step) : min(0, lastYawRate + step)
        lastPitchRate = lastPitchRate > 0 ? max(0, lastPitchRate - step) : min(0, lastPitchRate + step)
        return (lastYawRate, lastPitchRate)
    }

    /// One axis: proportional once the error leaves the dead band and until it is well inside
    /// it again, plus feed-forward, within the speed limit, changed from the last command by at
    /// most the acceleration limit.
    private func axis(_ error: Double, _ feedForward: Double, _ last: Double, _ seconds: Double,
                      _ isCorrecting: inout Bool) -> Double {
        if abs(error) > configuration.deadBandRadians {
            isCorrecting = true
        } else if abs(error) < configuration.deadBandRadians * configuration.settleFraction {
            isCorrecting = false
        }
        let correction = isCorrecting ? configuration.gain * error : 0
        let limit = configuration.maximumSpeedRadiansPerSecond
        let desired = min(max(feedForward + correction, -limit), limit)
        let step = configuration.maximumAccelerationRadiansPerSecondSquared * max(seconds, 0)
        return min(max(desired, last - step), last + step)
    }

    /// Forgets the last command (the dock stopped, or another controller moved it).
    public mutating func reset() {
        lastYawRate = 0
        lastPitchRate = 0
        isCorrectingYaw = false
        isCorrectingPitch = false
    }
}
