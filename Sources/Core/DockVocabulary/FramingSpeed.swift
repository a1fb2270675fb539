/// How fast and how readily the tracker turns the dock, axis by axis: the framing controller's
/// highest speed, its acceleration limit and its dead band (the least error that starts a
/// correction). A named profile gives all six numbers; any of them may be given apart, overriding
/// the profile's. Whatever they say, the controller asks no more speed or acceleration of an axis
/// than the accessory advertises for it.
public struct FramingSpeed: Hashable, Sendable {
    /// A named set of numbers.
    public enum Profile: String, CaseIterable, Hashable, Sendable {
        /// A lecture or a talk: slow, gentle starts and stops, a wide dead band (a presenter who
        /// shifts their weight is not followed).
        case smooth
        /// The default: the framing controller's numbers before profiles existed.
        case normal
        /// Sport, a child, a dancer: quick, with the same dead band as `normal`.
        case fast
    }

    /// One axis's numbers.
    public struct Axis: Hashable, Sendable {
        /// The highest commanded rate, rad/s.
        public var maximumSpeedRadiansPerSecond: Double
        /// The most the commanded rate changes in a second, rad/s².
        public var maximumAccelerationRadiansPerSecondSquared: Double
        /// The least dead band, radians: an error below it never starts a correction (the
        /// controller widens it with the estimate's uncertainty).
        public var deadBandRadians: Double

        /// Creates an axis's numbers.
        public init(maximumSpeedRadiansPerSecond: Double, maximumAccelerationRadiansPerSecondSquared: Double, deadBandRadians: Double) {
            self.maximumSpeedRadiansPerSecond = maximumSpeedRadiansPerSecond
            self.maximumAccelerationRadiansPerSecondSquared = maximumAccelerationRadiansPerSecondSquared
            self.deadBandRadians = deadBandRadians
        }
    }

    /// The profile the numbers start from.
    public var profile: Profile
    /// The pan axis's numbers.
    public var yaw: Axis
    /// The tilt axis's numbers.
    public var pitch: Axis

    /// Creates a speed from its numbers.
    public init(profile: Profile, yaw: Axis, pitch: Axis) {
        self.profile = profile
        self.yaw = yaw
        self.pitch = pitch
    }

    /// A profile's own numbers.
    public init(_ profile: Profile) {
        switch profile {
        case .smooth:
            // 0.6 rad/s still follows a walker at 2 m (about 0.5 rad/s); 1.5 rad/s² reaches it
            // in 0.4 s; 0.06 rad is a presenter's sway at 3 m.
            self.init(
                profile: profile,
                yaw: Axis(maximumSpeedRadiansPerSecond: 0.6, maximumAccelerationRadiansPerSecondSquared: 1.5, deadBandRadians: 0.06),
                pitch: Axis(maximumSpeedRadiansPerSecond: 0.4, maximumAccelerationRadiansPerSecondSquared: 1, deadBandRadians: 0.06))
        case .normal:
            // `FramingController.Configuration`'s defaults, which BENCHMARKS.md measured.
            let axis = Axis(maximumSpeedRadiansPerSecond: 1.5, maximumAccelerationRadiansPerSecondSquared: 12, deadBandRadians: 0.02)
            self.init(profile: profile, yaw: axis, pitch: axis)
        case .fast:
            self.init(
                profile: profile,
                yaw: Axis(maximumSpeedRadiansPerSecond: 3, maximumAccelerationRadiansPerSecondSquared: 24, deadBandRadians: 0.02),
                pitch: Axis(maximumSpeedRadiansPerSecond: 2, maximumAccelerationRadiansPerSecondSquared: 16, deadBandRadians: 0.02))
        }
    }

    /// The default: `normal`.
    public static let `default` = FramingSpeed(.normal)

    /// The widest dead band a setting may ask for, radians (about 29°: wider, the subject leaves
    /// the picture before the dock moves).
    public static let widestDeadBandRadians = 0.5

    /// This speed changed by `change`: its profile's numbers when it names one (else these), then
    /// each number it gives. Nothing changes unless all of it is valid.
    ///
    /// - Throws: `FramingSpeedError` naming the first parameter that is wrong.
    public func changed(by change: FramingSpeedChange) throws(FramingSpeedError) -> FramingSpeed {
        var result = self
        if let name = change.profile {
            guard let profile = Profile(rawValue: name) else { throw .unknownProfile(name) }
            result = FramingSpeed(profile)
        }
        func check(_ value: Double?, _ parameter: FramingSpeedParameter) throws(FramingSpeedError) -> Double? {
            guard let value else { return nil }
            guard value.isFinite else { throw .notFinite(parameter) }
            switch parameter {
            case .yawDeadBand, .pitchDeadBand:
                guard value >= 0, value <= Self.widestDeadBandRadians else { throw .outOfRange(parameter, value) }
            default:
                guard value > 0 else { throw .outOfRange(parameter, value) }
            }
            return value
        }
        let yawSpeed = try check(change.yawMaximumSpeed, .yawMaximumSpeed)
        let yawAcceleration = try check(change.yawAcceleration, .yawAcceleration)
        let yawDeadBand = try check(change.yawDeadBand, .yawDeadBand)
        let pitchSpeed = try check(change.pitchMaximumSpeed, .pitchMaximumSpeed)
        let pitchAcceleration = try check(change.pitchAcceleration, .pitchAcceleration)
        let pitchDeadBand = try check(change.pitchDeadBand, .pitchDeadBand)
        if let yawSpeed { result.yaw.maximumSpeedRadiansPerSecond = yawSpeed }
        if let yawAcceleration { result.yaw.maximumAccelerationRadiansPerSecondSquared = yawAcceleration }
        if let yawDeadBand { result.yaw.deadBandRadians = yawDeadBand }
        if let pitchSpeed { result.pitch.maximumSpeedRadiansPerSecond = pitchSpeed }
        if let pitchAcceleration { result.pitch.maximumAccelerationRadiansPerSecondSquared = pitchAcceleration }
        if let pitchDeadBand { result.pitch.deadBandRadians = pitchDeadBand }
        return result
    }
}

/// A change of the framing speed: a profile's name, and numbers overriding it (nil: as they are,
/// or the named profile's).
public struct FramingSpeedChange: Hashable, Sendable {
    /// `smooth`, `normal` or `fast`.
    public var profile: String?
    /// Radians per second.
    public var yawMaximumSpeed: Double?
    /// Radians per second squared.
    public var yawAcceleration: Double?
    /// Radians.
    public var yawDeadBand: Double?
    /// Radians per second.
    public var pitchMaximumSpeed: Double?
    /// Radians per second squared.
    public var pitchAcceleration: Double?
    /// Radians.
    public var pitchDeadBand: Double?

    /// Creates a change.
    public init(
        profile: String? = nil, yawMaximumSpeed: Double? = nil, yawAcceleration: Double? = nil, yawDeadBand: Double? = nil,
        pitchMaximumSpeed: Double? = nil, pitchAcceleration: Double? = nil, pitchDeadBand: Double? = nil
    ) {
        self.profile = profile
        self.yawMaximumSpeed = yawMaximumSpeed
        self.yawAcceleration = yawAcceleration
        self.yawDeadBand = yawDeadBand
        self.pitchMaximumSpeed = pitchMaximumSpeed
        self.pitchAcceleration = pitchAcceleration
        self.pitchDeadBand = pitchDeadBand
    }
}

/// A number of the framing speed, as the API names it.
public enum FramingSpeedParameter: String, CaseIterable, Hashable, Sendable {
    /// `yaw_max_speed`.
    case yawMaximumSpeed = "yaw_max_speed"
    /// `yaw_acceleration`.
    case yawAcceleration = "yaw_acceleration"
    /// `yaw_dead_band`.
    case yawDeadBand = "yaw_dead_band"
    /// `pitch_max_speed`.
    case pitchMaximumSpeed = "pitch_max_speed"
    /// `pitch_acceleration`.
    case pitchAcceleration = "pitch_acceleration"
    /// `pitch_dead_band`.
    case pitchDeadBand = "pitch_dead_band"
}

/// A framing speed refused.
public enum FramingSpeedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not `smooth`, `normal` or `fast`.
    case unknownProfile(String)
    /// A number that is not finite.
    case notFinite(FramingSpeedParameter)
    /// A speed or acceleration not above zero, or a dead band outside 0 ... 0.5 rad.
    case outOfRange(FramingSpeedParameter, Double)

    /// The API parameter that is wrong.
    public var parameter: String {
        switch self {
        case .unknownProfile: "profile"
        case .notFinite(let parameter), .outOfRange(let parameter, _): parameter.rawValue
        }
    }

    /// What is wrong.
    public var description: String {
        switch self {
        case .unknownProfile(let name):
            "expected one of \(FramingSpeed.Profile.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'"
        case .notFinite: "must be finite"
        case .outOfRange(let parameter, let value):
            switch parameter {
            case .yawDeadBand, .pitchDeadBand: "must be within 0...\(FramingSpeed.widestDeadBandRadians) rad, got \(value)"
            default: "must be above 0, got \(value)"
            }
        }
    }
}

extension Dock {
    /// The framing speed in force, and as the tracker applies it once the dock's own limits
    /// narrow it.
    public struct FramingSpeedState: Hashable, Sendable {
        /// The profile and numbers in force.
        public var speed: FramingSpeed
        /// What the tracker applies: `speed` narrowed to the dock's speed and acceleration (nil:
        /// no dock attached yet).
        public var applied: FramingSpeed?

        /// Creates a state.
        public init(speed: FramingSpeed, applied: FramingSpeed?) {
            self.speed = speed
            self.applied = applied
        }
    }
}
