#if canImport(Glibc)
    import Glibc
#endif

/// One axis of a move by duration as the simulated firmware plans it (`Protocol/dock-serial.md`
/// §5.4): a trapezoid of rate — from the rate the axis had, to a cruising rate, and braking to rest
/// at the target — smoothed over a few of the motor's time constants, so that the motor, whose rate
/// lags its command, can follow it without overshoot and come to rest at the target on time.
///
/// The trapezoid accelerates at three quarters of the axis's acceleration and cruises at no more
/// than 95 % of its top speed, leaving the rest for the lead that makes up for the lag and for the
/// feedback that corrects what the lead misses. Smoothing the trapezoid's rate with a moving average
/// of width `smoothingSeconds` keeps its rate and acceleration the same at both ends, lengthens it
/// by that width, and bounds the rate of change of the acceleration, so that commanding
/// `rate + responseTime × acceleration` (the inverse of a first-order lag) stays within the axis's
/// acceleration.
public struct MoveProfile: Hashable, Sendable {
    /// Which way the target lies from where the axis started: +1 or −1.
    public let direction: Double
    /// How far the trapezoid goes, radians (≥ 0): the distance to the target, less half the
    /// smoothing width at the initial rate — the moving average of a rate u that was kept before
    /// the start lies u·width/2 behind the axis when it begins.
    public let distance: Double
    /// The axis's rate towards the target when the move began, rad/s (negative when turning away).
    public let initialRate: Double
    /// The trapezoid's cruising rate, rad/s (≥ 0).
    public let cruiseRate: Double
    /// The trapezoid's acceleration, rad/s².
    public let acceleration: Double
    /// The width of the moving average, seconds.
    public let smoothingSeconds: Double
    /// When the smoothed profile comes to rest at the target, seconds after the move began.
    public let durationSeconds: Double

    /// The share of the axis's acceleration and top speed a planned move uses.
    static let accelerationShare = 0.75
    static let speedShare = 0.95

    /// The acceleration and top speed a planned move of this axis uses.
    static func limits(of parameters: AxisParameters) -> (acceleration: Double, speed: Double) {
        (
            parameters.maximumAccelerationRadiansPerSecondSquared * accelerationShare,
            parameters.maximumSpeedRadiansPerSecond * speedShare
        )
    }

    /// The smoothing width for an axis: three of its motor's time constants.
    static func smoothing(of parameters: AxisParameters) -> Double { 3 * parameters.responseTimeSeconds }

    /// The shortest smoothed move from `position` at `rate` to `target`, seconds; nil when the axis
    /// cannot stop before the target at all (already heading there too fast).
    static func shortestSeconds(from position: Double, rate: Double, to target: Double, parameters: AxisParameters) -> Double? {
        let (a, v) = limits(of: parameters)
        let (d, u) = trapezoidStart(position: position, rate: rate, target: target, parameters: parameters)
        if d < 0 || (u > 0 && u * u > 2 * a * d) { return nil }
        let trapezoid: Double
        if 2 * a * d >= 2 * v * v - u * u {
            trapezoid = (2 * v - u) / a + (d - (2 * v * v - u * u) / (2 * a)) / v
        } else {
            trapezoid = (2 * (a * d + u * u / 2).squareRoot() - u) / a
        }
        return max(0, trapezoid) + smoothing(of: parameters)
    }

    /// Plans the axis's part of a move that ends at `target` `seconds` from now (no shorter than
    /// `shortestSeconds`); nil when it cannot be planned (see `shortestSeconds`).
    static func plan(from position: Double, rate: Double, to target: Double, seconds: Double, parameters: AxisParameters) -> MoveProfile? {
        guard let shortest = shortestSeconds(from: position, rate: rate, to: target, parameters: parameters) else { return nil }
        let (a, v) = limits(of: parameters)
        let (d, u) = trapezoidStart(position: position, rate: rate, target: target, parameters: parameters)
        let width = smoothing(of: parameters)
        let t = max(seconds, shortest) - width
        var cruise: Double
        if seconds <= shortest {
            // As fast as it can: to the top speed, or to the peak of a triangle.
            cruise = 2 * a * d >= 2 * v * v - u * u ? v : (a * d + u * u / 2).squareRoot()
        } else {
            // Cruising at c ≥ u: c² − (a·t + u)·c + a·d + u²/2 = 0, the smaller root; slowing to c < u:
            // c = (a·d − u²/2)/(a·t − u).
            let b = a * t + u, c = a * d + u * u / 2
            let discriminant = b * b - 4 * c
            cruise = discriminant >= 0 ? 2 * c / (b + discriminant.squareRoot()) : v
            if cruise < u { cruise = a * t - u > 0 ? max(0, (a * d - u * u / 2) / (a * t - u)) : v }
            cruise = min(cruise, v)
        }
        return MoveProfile(
            direction: target >= position ? 1 : -1, distance: d, initialRate: u, cruiseRate: cruise,
            acceleration: a, smoothingSeconds: width, durationSeconds: t + width)
    }

    /// The trapezoid's distance and initial rate towards the target (see `distance`).
    private static func trapezoidStart(position: Double, rate: Double, target: Double, parameters: AxisParameters)
        -> (distance: Double, toward: Double)
    {
        let (d, u) = relative(position: position, rate: rate, target: target)
        return (d - u * smoothing(of: parameters) / 2, u)
    }

    /// How far an axis is from a target and its rate towards it (at the target, any rate turns away).
    private static func relative(position: Double, rate: Double, target: Double) -> (distance: Double, toward: Double) {
        let error = target - position
        if error > 0 { return (error, rate) }
        if error < 0 { return (-error, -rate) }
        return (0, -abs(rate))
    }

    /// The trapezoid's distance covered and rate, towards the target, `t` seconds after the start
    /// (before it, as if the axis had kept its initial rate).
    func trapezoid(at t: Double) -> (position: Double, rate: Double) {
        let u = initialRate, c = cruiseRate, a = acceleration
        if t <= 0 { return (u * t, u) }
        let first = abs(c - u) / a
        let firstDistance = (c + u) / 2 * first
        let braking = c / a
        let cruising = c > 0 ? max(0, (distance - firstDistance - c * braking / 2) / c) : 0
        if t < first {
            let signed = c >= u ? a : -a
            return (u * t + signed * t * t / 2, u + signed * t)
        }
        if t < first + cruising { return (firstDistance + c * (t - first), c) }
        let s = t - first - cruising
        // Braking is anchored at the target, so the profile ends there whatever rounding did.
        if s < braking { return (distance - (c - a * s) * (c - a * s) / (2 * a), c - a * s) }
        return (distance, 0)
    }

    /// The smoothed profile's rate and acceleration towards the target, `t` seconds after the start.
    public func smoothed(at t: Double) -> (rate: Double, acceleration: Double) {
        let now = trapezoid(at: t), before = trapezoid(at: t - smoothingSeconds)
        return ((now.position - before.position) / smoothingSeconds, (now.rate - before.rate) / smoothingSeconds)
    }
}

/// A move by duration in progress: both axes' profiles, where each started, and where each is meant
/// to be by now (the smoothed profile's position, integrated step by step).
public struct MovePlan: Hashable, Sendable {
    /// One axis of the move.
    public struct Leg: Hashable, Sendable {
        /// Where the axis was when the move began, radians.
        public let origin: Double
        /// Where it is to come to rest, radians.
        public let target: Double
        /// Its planned profile.
        public let profile: MoveProfile
        /// How far along the profile it is meant to be now, radians towards the target.
        public internal(set) var reference = 0.0
    }

    /// The yaw axis's leg.
    public internal(set) var yaw: Leg
    /// The pitch axis's leg.
    public internal(set) var pitch: Leg
    /// Seconds since the move began.
    public internal(set) var elapsedSeconds = 0.0

    /// When both axes are meant to have come to rest, seconds after the move began.
    public var durationSeconds: Double { max(yaw.profile.durationSeconds, pitch.profile.durationSeconds) }

    /// Moves on by one step: the time, and each leg's reference by the mean of its profile's rates
    /// at both ends of the step.
    mutating func advance(seconds: Double) {
        let before = elapsedSeconds
        elapsedSeconds += seconds
        for keyPath in [\MovePlan.yaw, \MovePlan.pitch] {
            let profile = self[keyPath: keyPath].profile
            self[keyPath: keyPath].reference +=
                (profile.smoothed(at: before).rate + profile.smoothed(at: elapsedSeconds).rate) / 2 * seconds
        }
    }
}
