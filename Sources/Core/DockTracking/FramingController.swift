public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// Turns where the primary subject is into how the dock should turn: the framing mode and the
/// region of interest choose the point of the image where the subject should sit; the angle between
/// there and where it is, outside a dead band, drives a proportional term; the subject's own
/// angular rate is fed forward; speed and acceleration limits keep the motion smooth.
///
/// It acts on the filter's estimate *and its confidence* (`SubjectUncertainty`), so that detector
/// noise does not move the dock while the subject's own motion does. Each axis either holds or
/// follows:
/// - **Holding**, nothing is commanded (the dock brakes to a standstill) until the subject has
///   left the dead band: the angle the dock should turn to, *averaged* over
///   `stillSmoothingSeconds` (first order, in the dock's frame — the dock's own motion is no
///   noise), is further than b from where it points, or the estimate itself is further than
///   3 b + k σ.
///   The dead band is sized from the estimate's uncertainty and the tolerance:
///   b = min(max(`deadBandRadians`, k f σ), `maximumDeadBandRadians`) with σ the estimate's
///   standard deviation on that axis, f σ that of its average (f = `averagedDeviationFactor`)
///   and k = `deadBandDeviations` (4) — an error the average cannot tell from noise is no reason
///   to move; the cap is the framing tolerance kept, so
///   however unsure the estimate the subject is not left further off than that. The average is
///   what lets a still subject's detector noise (a few hundredths of a radian on each box of a
///   noisy detector) pass without moving the dock.
/// - **Following**, the proportional term on the estimate plus the subject's rate v fed forward
///   with the weight clamp((|v|/σv − 1.5) / 1.5, 0, 1) — none below 1.5 standard deviations of
///   the rate's estimate, all of it from 3 — aimed at the average while the subject shows no
///   motion (no rate fed forward, the estimate within b of its average), else at the estimate;
///   until the average is within `settleFraction` × b (b/4) of the target, no rate is worth
///   feeding forward, and the subject shows no motion or the estimate too is within b/4: then the
///   axis holds again. (Hysteresis: aiming closer than that is chasing noise. The estimate too,
///   because a subject who turns back has an average near the dock.)
/// - **Hysteresis on direction.** An axis that last moved one way is not turned the other way
///   for less than `reversalRadiansPerSecond` (the correction a dead band's error asks for): it
///   holds still instead, so a dock settling on a still subject does not reverse back and forth.
/// - **Late evidence.** When the subject's newest box is old (a late detector, or a slow one
///   between its frames: the age, from the box's capture, is the `evidenceAgeSeconds` of
///   `command`), the estimate is that box extrapolated over the age, and a start, stop or turn
///   within it shows only once a box after it arrives, as a jump of the estimate. Two rules make
///   up for it, both growing with the age from `lateEvidenceSeconds` (none) to twice that (all):
///   - the aim stays `extrapolationHedge` × age × rate behind the extrapolation (at most
///     `maximumHedgeRadians`): a walker who walks on is a little behind the target, one who
///     stopped within the age is less far past it;
///   - an error beyond `catchUpRadians` (by default the widest dead band: never a still
///     subject's noise) is closed with `catchUpGain` more, up to the rate from which the dock can
///     still stop on the target at `catchUpBrakingShare` of its acceleration (√(2 s a |e|)), so
///     that a dock slow to turn (a PTZ camera at 3 rad/s²) does not overshoot. (It closes any
///     such error while the evidence is late, one a change of framing mode or region of interest
///     makes too.)
/// - **Speed, acceleration and dead band per axis** (`limits`): the framing speed's
///   (`speed`, a profile and its numbers: `FramingSpeed`), or without one the configuration's on
///   both axes, narrowed to what the accessory advertises (`accessorySpeedRadiansPerSecond`,
///   `accessoryAccelerationRadiansPerSecondSquared`: its motion limits as the host applies them)
///   where that is less: the commanded rate is never above the speed, nor changes faster than the
///   acceleration; the catch-up plans its stop with that acceleration. An acceleration the
///   accessory does not advertise itself (`isAccessoryAccelerationAdvertised` false: a VISCA or
///   UVC camera, a Pelco-D head, for which dockd assumes 3 or 4 rad/s²) only plans the catch-up's
///   stop: such a camera takes a speed and ramps to it on its own, and narrowing the ramp to the
///   guess was tried and not kept (it added our lag to the camera's: every VISCA and UVC scenario
///   lost up to 0.6 points in tolerance, one UVC unplug-replug 12 points; BENCHMARKS.md,
///   session 15).
public struct FramingController: Sendable {
    /// Tuning.
    public struct Configuration: Hashable, Sendable {
        /// The least dead band, radians: an error below it never starts a correction, so the dock
        /// does not hunt.
        public var deadBandRadians = 0.02
        /// Once correcting, the controller carries on until the averaged error is below this share
        /// of the dead band (hysteresis: the subject ends up near the target, not at the band's
        /// edge).
        public var settleFraction = 0.25
        /// Proportional gain, 1/s.
        public var gain = 2.5
        /// Highest commanded rate on either axis, rad/s.
        public var maximumSpeedRadiansPerSecond = 1.5
        /// Highest change of the commanded rate, rad/s² (the accessory then moves as its own
        /// hardware can: the example dock advertises 12 and 8 rad/s², the VISCA and UVC sessions
        /// 3). 12: from rest to a walker's 0.4 rad/s in 33 ms. 4 left the dock a
        /// frame or two behind every start, stop and turn that a late detector reports late
        /// already; on the slow-detector grid (`DetectorDelayGridTests`) 8 raised every cell
        /// (10 fps / 300 ms 78.5 → 81.0 %), and 12, with the rules for late evidence, more
        /// (BENCHMARKS.md, session 15).
        public var maximumAccelerationRadiansPerSecondSquared = 12.0
        /// Headroom of `automatic` framing: the top of a body sits this far below the image's top
        /// (as a fraction of the image's height), when the body fits.
        public var headroom = 0.12
        /// The dead band in standard deviations of the averaged estimate's direction.
        public var deadBandDeviations = 4.0
        /// The standard deviation of the estimate's `stillSmoothingSeconds` average, as a share of
        /// the filter's standard deviation: its errors decorrelate within a few frames, so the
        /// one-second average is far steadier. Measured on `still-noisy` (30 fps, 5 % noise): the
        /// filter said σ = 0.025 / 0.039 rad (yaw / pitch), its estimate varied by 0.014 / 0.029,
        /// the average by 0.003 / 0.008 — 0.12 and 0.2 of σ; 0.25 keeps a margin.
        public var averagedDeviationFactor = 0.25
        /// The widest the dead band grows with the estimate's uncertainty, radians: the framing
        /// tolerance kept (0.04 rad is about 0.03 of the image across a 70° field of view).
        public var maximumDeadBandRadians = 0.04
        /// The least commanded rate (rad/s) that turns an axis against its last direction of
        /// motion; smaller reversals hold still instead.
        public var reversalRadiansPerSecond = 0.05
        /// Time constant of the average of the angle to turn to, by which the controller judges
        /// whether a still subject has moved, seconds.
        public var stillSmoothingSeconds = 1.0
        /// The age of the newest box (seconds since its capture) from which the rules for late
        /// evidence start; they apply fully from twice it. A detector at 30 fps with up to 50 ms
        /// of delay reaches at most about 0.12 s (the delay, a frame, a tick), a sixth of the
        /// rules; one at 5 fps gets them between its frames even without delay.
        public var lateEvidenceSeconds = 0.1
        /// How far the aim stays behind the estimate's extrapolation: this share of the
        /// extrapolation (age × rate). On the slow-detector grid's 10 fps / 300 ms walk, over
        /// ten seeds not the test's own: 0 86.9 %, 0.1 88.6 %, 0.2 90.0 %, 0.3 90.1 %.
        public var extrapolationHedge = 0.2
        /// The most the aim stays behind, radians.
        public var maximumHedgeRadians = 0.1
        /// The error (radians) beyond which late evidence is caught up with faster: by default
        /// `maximumDeadBandRadians` (a separate setting), so never a still subject's noise.
        public var catchUpRadians = 0.04
        /// The gain added on the error beyond `catchUpRadians`, 1/s.
        public var catchUpGain = 12.0
        /// The share of the acceleration the catch-up plans to stop with (√(2 s a |e|) bounds it):
        /// the rest is margin for a dock that answers late.
        public var catchUpBrakingShare = 0.5

        public init() {}
    }

    /// The settings.
    public let configuration: Configuration
    /// The accessory's accelerations (its motion limits as the host applies them; nil: unknown):
    /// the catch-up plans to stop with no more, and, when the accessory advertises them
    /// (`isAccessoryAccelerationAdvertised`), the commanded rate changes no faster.
    public var accessoryAccelerationRadiansPerSecondSquared: (yaw: Double, pitch: Double)?
    /// Whether `accessoryAccelerationRadiansPerSecondSquared` is the accessory's own word (a
    /// dock's hello), not dockd's guess for one that reports none (a VISCA or UVC camera, a
    /// Pelco-D head, which ramp to a speed on their own): only then does it narrow the ramp.
    public var isAccessoryAccelerationAdvertised = true
    /// The accessory's highest speeds (its motion limits as the host applies them; nil: unknown):
    /// the commanded rate is never above them.
    public var accessorySpeedRadiansPerSecond: (yaw: Double, pitch: Double)?
    /// The framing speed (profile and numbers per axis); nil: the configuration's
    /// `maximumSpeedRadiansPerSecond`, `maximumAccelerationRadiansPerSecondSquared` and
    /// `deadBandRadians` on both axes.
    public var speed: FramingSpeed?
    private var lastYawRate = 0.0
    private var lastPitchRate = 0.0
    private var isCorrectingYaw = false
    private var isCorrectingPitch = false
    /// The sign of each axis's last moving command (0: none yet).
    private var yawDirection = 0.0
    private var pitchDirection = 0.0
    /// Each axis's average wanted angle and how many commands it has averaged (nil: start
    /// afresh).
    private var yawAverage: (angle: Double, count: Int)?
    private var pitchAverage: (angle: Double, count: Int)?

    /// Creates a controller at rest.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The point of the delivered image where the subject's box centre should sit.
    public func target(for subject: NormalizedRect, mode: FramingMode, regionOfInterest: NormalizedRect) -> NormalizedPoint {
        let point = mode.placement(ofHeight: subject.height / max(regionOfInterest.height, 1e-6), headroom: configuration.headroom)
        return NormalizedPoint(
            x: regionOfInterest.x + point.x * regionOfInterest.width, y: regionOfInterest.y + point.y * regionOfInterest.height)
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

    /// The accelerations the catch-up plans to stop with, rad/s² (before
    /// `catchUpBrakingShare`): each axis's limit (`limits`), or the accessory's where it has
    /// one that is less, advertised or not.
    public var brakingAccelerationsRadiansPerSecondSquared: (yaw: Double, pitch: Double) {
        let limits = limits
        let own = (limits.yaw.maximumAccelerationRadiansPerSecondSquared, limits.pitch.maximumAccelerationRadiansPerSecondSquared)
        guard let accessory = accessoryAccelerationRadiansPerSecondSquared else { return own }
        func limit(_ most: Double, _ advertised: Double) -> Double { advertised.isFinite && advertised > 0 ? min(most, advertised) : most }
        return (limit(own.0, accessory.yaw), limit(own.1, accessory.pitch))
    }

    /// How much of the rules for late evidence apply to a newest box `age` seconds old: 0 up to
    /// `lateEvidenceSeconds`, 1 from twice it.
    public func lateness(evidenceAgeSeconds age: Double) -> Double {
        let from = configuration.lateEvidenceSeconds
        guard age.isFinite, age > from else { return 0 }
        return from > 0 ? min((age - from) / from, 1) : 1
    }

    /// How far behind the estimate's extrapolation the aim stays on one axis, radians (signed
    /// as the rate), for a subject turning at `rate` seen in a newest box `age` seconds old.
    public func hedgeRadians(rate: Double, evidenceAgeSeconds age: Double) -> Double {
        let share = lateness(evidenceAgeSeconds: age)
        guard share > 0, rate.isFinite else { return 0 }
        let most = configuration.maximumHedgeRadians
        return min(max(share * configuration.extrapolationHedge * age * rate, -most), most)
    }

    /// The rates to command now, `seconds` after the last command, for a subject estimated with
    /// `uncertainty` (`.certain`: as if known exactly) from a newest box captured
    /// `evidenceAgeSeconds` ago (see the rules for late evidence).
    public mutating func command(
        subject: AngularBox, subjectRates: (yaw: Double, pitch: Double), gimbalYawRadians: Double, gimbalPitchRadians: Double,
        target: NormalizedPoint, camera: CameraInformation, seconds: Double, uncertainty: SubjectUncertainty = .certain,
        evidenceAgeSeconds age: Double = 0
    ) -> (yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double) {
        var aimed = subject
        aimed.yawRadians -= hedgeRadians(rate: subjectRates.yaw, evidenceAgeSeconds: age)
        aimed.pitchRadians -= hedgeRadians(rate: subjectRates.pitch, evidenceAgeSeconds: age)
        let wanted = gimbalAngles(placing: aimed, at: target, camera: camera)
        guard seconds.isFinite, subject.yawRadians.isFinite, subject.pitchRadians.isFinite else { return (0, 0) }
        let limits = limits, braking = brakingAccelerationsRadiansPerSecondSquared, late = lateness(evidenceAgeSeconds: age)
        lastYawRate = axis(
            wanted.yawRadians, gimbalYawRadians, subjectRates.yaw, lastYawRate, seconds, &isCorrectingYaw,
            &yawDirection, &yawAverage, deviation: uncertainty.yawRadians,
            rateDeviation: uncertainty.yawRadiansPerSecond, limits: limits.yaw, braking: braking.yaw, lateness: late)
        lastPitchRate = axis(
            wanted.pitchRadians, gimbalPitchRadians, subjectRates.pitch, lastPitchRate, seconds,
            &isCorrectingPitch, &pitchDirection, &pitchAverage, deviation: uncertainty.pitchRadians,
            rateDeviation: uncertainty.pitchRadiansPerSecond, limits: limits.pitch, braking: braking.pitch, lateness: late)
        return (lastYawRate, lastPitchRate)
    }

    /// The dead band on an axis whose estimate has standard deviation `deviation`, radians: k
    /// standard deviations of the estimate's average, within the least band (`least`, else the
    /// configuration's) and the widest (the configuration's, or the least where that is wider).
    public func deadBand(deviation: Double, least: Double? = nil) -> Double {
        let least = least ?? configuration.deadBandRadians
        let averaged = configuration.averagedDeviationFactor * max(deviation, 0)
        return min(max(least, configuration.deadBandDeviations * averaged), max(configuration.maximumDeadBandRadians, least))
    }

    /// The rates that close an angular error (radians, where the dock should turn), with the same
    /// dead band, gain and limits but nothing fed forward: going back to a rest pose.
    public mutating func command(towardsYawError yawError: Double, pitchError: Double, seconds: Double)
        -> (yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double)
    {
        guard seconds.isFinite, yawError.isFinite, pitchError.isFinite else { return (0, 0) }
        var unsmoothed: (angle: Double, count: Int)?
        let limits = limits
        lastYawRate = axis(
            yawError, 0, 0, lastYawRate, seconds, &isCorrectingYaw, &yawDirection, &unsmoothed, deviation: 0,
            rateDeviation: 0, limits: limits.yaw, braking: 0, lateness: 0)
        lastPitchRate = axis(
            pitchError, 0, 0, lastPitchRate, seconds, &isCorrectingPitch, &pitchDirection, &unsmoothed,
            deviation: 0, rateDeviation: 0, limits: limits.pitch, braking: 0, lateness: 0)
        return (lastYawRate, lastPitchRate)
    }

    /// The rates that turn the dock at `yawRadiansPerSecond` (pitch still), reached from the last
    /// command within the acceleration limit and capped at the speed limit: turning after a
    /// subject who walked out of the picture (`TrackingPipeline`).
    public mutating func turn(yawRadiansPerSecond rate: Double, seconds: Double) -> (
        yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double
    ) {
        let limits = limits, dt = seconds.isFinite ? max(seconds, 0) : 0
        let step = limits.yaw.maximumAccelerationRadiansPerSecondSquared * dt
        let pitchStep = limits.pitch.maximumAccelerationRadiansPerSecondSquared * dt
        let most = limits.yaw.maximumSpeedRadiansPerSecond
        let wanted = rate.isFinite ? min(most, max(-most, rate)) : 0
        lastYawRate = min(lastYawRate + step, max(lastYawRate - step, wanted))
        lastPitchRate = lastPitchRate > 0 ? max(0, lastPitchRate - pitchStep) : min(0, lastPitchRate + pitchStep)
        if lastYawRate != 0 { yawDirection = lastYawRate > 0 ? 1 : -1 }
        return (lastYawRate, lastPitchRate)
    }

    /// The rates that bring the dock to a standstill within the acceleration limit.
    public mutating func brake(seconds: Double) -> (yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double) {
        let limits = limits, dt = seconds.isFinite ? max(seconds, 0) : 0
        let step = limits.yaw.maximumAccelerationRadiansPerSecondSquared * dt
        let pitchStep = limits.pitch.maximumAccelerationRadiansPerSecondSquared * dt
        lastYawRate = lastYawRate > 0 ? max(0, lastYawRate - step) : min(0, lastYawRate + step)
        lastPitchRate = lastPitchRate > 0 ? max(0, lastPitchRate - pitchStep) : min(0, lastPitchRate + pitchStep)
        return (lastYawRate, lastPitchRate)
    }

    /// One axis: proportional once the error leaves the dead band and until it is well inside
    /// it again (faster beyond `catchUpRadians` as far as `lateness` says), plus the part of the
    /// feed-forward the rate's estimate supports, within the speed limit, held at zero rather
    /// than reversed for a small rate, changed from the last command by at most the acceleration
    /// limit (see the type's documentation); the catch-up plans to stop with `braking`.
    private func axis(
        _ rawWanted: Double, _ gimbal: Double, _ feedForward: Double, _ last: Double, _ seconds: Double,
        _ isCorrecting: inout Bool, _ direction: inout Double, _ smoothed: inout (angle: Double, count: Int)?,
        deviation: Double, rateDeviation: Double, limits: FramingSpeed.Axis, braking: Double, lateness: Double
    ) -> Double {
        // The angle the dock should turn to, averaged over `stillSmoothingSeconds` (in the dock's
        // frame, not as an error: the dock's own motion is no noise): what is left of the
        // detector's noise in the estimate averages out, a subject who really moved stays off.
        let count = (smoothed?.count ?? 0) + 1
        let alpha = count == 1 ? 1 : min(1, max(seconds, 0) / configuration.stillSmoothingSeconds)
        let previous = smoothed?.angle ?? rawWanted
        let average = previous + alpha * (rawWanted - previous)
        smoothed = (average, min(count, 1_000_000))
        let error = rawWanted - gimbal, averageError = average - gimbal
        let band = deadBand(deviation: deviation.isFinite ? deviation : .infinity, least: limits.deadBandRadians)
        // How much of the subject's rate to feed forward: as much as there is evidence of motion,
        // from the rate's own estimate (beyond 1.5 of its standard deviations, fully from 3), or
        // from the estimate running ahead of its average in the rate's direction (beyond a dead
        // band, fully from two: a walker at v keeps v × the averaging time ahead of it; the
        // filter's σv is too wide to see a slow walker, as it allows for a child's turns).
        var weight = 1.0
        if rateDeviation > 0 {
            let byRate = rateDeviation.isFinite ? min(max((abs(feedForward) / rateDeviation - 1.5) / 1.5, 0), 1) : 0
            let lead = (rawWanted - average) * (feedForward < 0 ? -1 : 1)
            let byLead = band > 0 ? min(max((lead - band) / band, 0), 1) : 1
            weight = max(byRate, byLead)
        }
        if isCorrecting {
            // Following: until the subject is where the dock points, by the estimate and by its
            // average, and has no rate worth feeding forward.
            let settle = band * configuration.settleFraction
            // (An average of less than `stillSmoothingSeconds` does not yet know where the subject
            // is: the dock settles on it once it does.)
            let isAverageMature = Double(count) * max(seconds, 1e-3) >= configuration.stillSmoothingSeconds
            if abs(error) < settle || abs(rawWanted - average) < band, abs(averageError) < settle, weight == 0, isAverageMature {
                isCorrecting = false
            }
        } else if abs(averageError) > band || abs(error) > 3 * band + configuration.deadBandDeviations * deviation {
            // Holding: until the average leaves the dead band (or the estimate is far outside it,
            // beyond its own noise: a fast subject, whom the average would follow late).
            isCorrecting = true
        }
        // Following a subject that shows no motion — no rate worth feeding forward, and the
        // estimate within a dead band of its average — aims at the average: it is where a still
        // subject is, and aiming at the estimate chases its noise.
        let isStill = weight == 0 && abs(rawWanted - average) < band
        let aimedError = isStill ? averageError : error
        var correction = configuration.gain * aimedError
        let beyond = abs(aimedError) - configuration.catchUpRadians
        if lateness > 0, beyond > 0 {
            // Late evidence just told of a start, stop or turn: close the error as fast as the
            // dock can still stop on the target.
            let stoppable = (2 * configuration.catchUpBrakingShare * braking * abs(aimedError)).squareRoot()
            let extra = min(configuration.catchUpGain * beyond, max(0, stoppable - abs(correction)))
            correction += (aimedError < 0 ? -1 : 1) * lateness * extra
        }
        correction = isCorrecting ? correction + weight * feedForward : 0
        let limit = limits.maximumSpeedRadiansPerSecond
        var desired = min(max(correction, -limit), limit)
        if desired * direction < 0, abs(desired) < configuration.reversalRadiansPerSecond { desired = 0 }
        let step = limits.maximumAccelerationRadiansPerSecondSquared * max(seconds, 0)
        let commanded = min(max(desired, last - step), last + step)
        if commanded != 0 { direction = commanded > 0 ? 1 : -1 }
        return commanded
    }

    /// Forgets the last command (the dock stopped, or another controller moved it).
    public mutating func reset() {
        lastYawRate = 0
        lastPitchRate = 0
        isCorrectingYaw = false
        isCorrectingPitch = false
        yawDirection = 0
        pitchDirection = 0
        yawAverage = nil
        pitchAverage = nil
    }
}

/// How well a subject's place and rates are known: standard deviations of the filter's estimate.
public struct SubjectUncertainty: Hashable, Sendable {
    /// Of the direction, radians.
    public var yawRadians: Double
    /// Of the direction, radians.
    public var pitchRadians: Double
    /// Of the rates, rad/s.
    public var yawRadiansPerSecond: Double
    /// Of the rates, rad/s.
    public var pitchRadiansPerSecond: Double

    /// Creates an uncertainty.
    public init(yawRadians: Double, pitchRadians: Double, yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double) {
        self.yawRadians = yawRadians
        self.pitchRadians = pitchRadians
        self.yawRadiansPerSecond = yawRadiansPerSecond
        self.pitchRadiansPerSecond = pitchRadiansPerSecond
    }

    /// A subject known exactly: the fixed dead band, the whole rate fed forward.
    public static let certain = SubjectUncertainty(yawRadians: 0, pitchRadians: 0, yawRadiansPerSecond: 0, pitchRadiansPerSecond: 0)

    /// The uncertainty of a filter's estimate.
    public init(_ filter: SubjectFilter) {
        let p = filter.covariance
        self.init(
            yawRadians: max(p[0], 0).squareRoot(), pitchRadians: max(p[7], 0).squareRoot(),
            yawRadiansPerSecond: max(p[14], 0).squareRoot(), pitchRadiansPerSecond: max(p[21], 0).squareRoot())
    }
}
