/// Physical quantities as they travel on the wire: whole numbers with a stated scale, so that no
/// NaN or infinity can be sent. Conversions to and from SI floating point live here and only here.

/// An angle: a signed whole number of microradians. Positive yaw pans right (clockwise seen from
/// above), positive pitch tilts up; zero is the accessory's home pose.
public struct Angle: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The angle in microradians, its wire representation.
    public var microradians: Int32

    /// Creates an angle from its wire value.
    public init(microradians: Int32) { self.microradians = microradians }

    /// Creates the nearest representable angle, or nil when `radians` is not finite or too large.
    public init?(radians: Double) {
        guard let value = roundedInt32(radians * 1e6) else { return nil }
        microradians = value
    }

    /// The angle in radians.
    public var radians: Double { Double(microradians) / 1e6 }

    public static func < (lhs: Angle, rhs: Angle) -> Bool { lhs.microradians < rhs.microradians }
    public var description: String { "\(radians) rad" }
}

/// An angular rate: a signed whole number of microradians per second.
public struct AngularRate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The rate in microradians per second, its wire representation.
    public var microradiansPerSecond: Int32

    /// Creates a rate from its wire value.
    public init(microradiansPerSecond: Int32) { self.microradiansPerSecond = microradiansPerSecond }

    /// Creates the nearest representable rate, or nil when `radiansPerSecond` is not finite or
    /// too large.
    public init?(radiansPerSecond: Double) {
        guard let value = roundedInt32(radiansPerSecond * 1e6) else { return nil }
        microradiansPerSecond = value
    }

    /// The rate in radians per second.
    public var radiansPerSecond: Double { Double(microradiansPerSecond) / 1e6 }

    /// No motion.
    public static let zero = AngularRate(microradiansPerSecond: 0)

    public static func < (lhs: AngularRate, rhs: AngularRate) -> Bool {
        lhs.microradiansPerSecond < rhs.microradiansPerSecond
    }
    public var description: String { "\(radiansPerSecond) rad/s" }
}

/// An angular acceleration magnitude: a whole number of microradians per second squared.
public struct AngularAcceleration: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The acceleration in microradians per second squared, its wire representation.
    public var microradiansPerSecondSquared: UInt32

    /// Creates an acceleration from its wire value.
    public init(microradiansPerSecondSquared: UInt32) {
        self.microradiansPerSecondSquared = microradiansPerSecondSquared
    }

    /// The acceleration in radians per second squared.
    public var radiansPerSecondSquared: Double { Double(microradiansPerSecondSquared) / 1e6 }

    public static func < (lhs: AngularAcceleration, rhs: AngularAcceleration) -> Bool {
        lhs.microradiansPerSecondSquared < rhs.microradiansPerSecondSquared
    }
    public var description: String { "\(radiansPerSecondSquared) rad/s²" }
}

/// A reading of the accessory's own monotonic clock, in microseconds since it started. The host
/// maps it to its own clock; it never goes backwards while the accessory stays powered.
public struct AccessoryTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the accessory started.
    public var microseconds: UInt64

    /// Creates a timestamp from its wire value.
    public init(microseconds: UInt64) { self.microseconds = microseconds }

    /// The time since the accessory started, as a `Duration`.
    public var sinceStart: Duration { .microseconds(microseconds) }

    public static func < (lhs: AccessoryTimestamp, rhs: AccessoryTimestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
    public var description: String { "t+\(microseconds) µs" }
}

extension Duration {
    /// The duration in whole milliseconds, rounded to the nearest, or nil when it is negative or
    /// does not fit in `UInt32`.
    public var wholeMilliseconds: UInt32? {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0, seconds < Int64(UInt32.max / 1000) + 1 else {
            return nil
        }
        let milliseconds = seconds * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
        return UInt32(exactly: milliseconds)
    }
}

/// `value` rounded to the nearest `Int32`, or nil when it is not finite or out of range.
func roundedInt32(_ value: Double) -> Int32? {
    guard value.isFinite else { return nil }
    let rounded = value.rounded()
    guard rounded >= Double(Int32.min), rounded <= Double(Int32.max) else { return nil }
    return Int32(rounded)
}
