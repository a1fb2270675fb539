/// A narrowing of the limits asked for by configuration or a client; nil fields leave a limit as it is.
public struct LimitRequest: Hashable, Sendable {
    /// Yaw range, radians.
    public var yawRadians: ClosedRange<Double>?
    /// Pitch range, radians.
    public var pitchRadians: ClosedRange<Double>?
    /// Highest yaw speed, rad/s.
    public var yawSpeedRadiansPerSecond: Double?
    /// Highest pitch speed, rad/s.
    public var pitchSpeedRadiansPerSecond: Double?

    /// Creates a request.
    public init(
        yawRadians: ClosedRange<Double>? = nil, pitchRadians: ClosedRange<Double>? = nil,
        yawSpeedRadiansPerSecond: Double? = nil, pitchSpeedRadiansPerSecond: Double? = nil
    ) {
        self.yawRadians = yawRadians
        self.pitchRadians = pitchRadians
        self.yawSpeedRadiansPerSecond = yawSpeedRadiansPerSecond
        self.pitchSpeedRadiansPerSecond = pitchSpeedRadiansPerSecond
    }
}

/// A parameter of a motion or limits request, named by the API when it refuses or clamps one
/// (`wireName` spells each as the API does).
public enum MotionParameter: Hashable, Sendable, CaseIterable {
    /// A velocity's or an orientation's yaw.
    case yaw
    /// A velocity's or an orientation's pitch.
    case pitch
    /// How long a velocity holds, or how long an orientation move takes.
    case duration
    /// An orientation move's speed.
    case speed
    /// A limits request's yaw range.
    case yawRange
    /// A limits request's pitch range.
    case pitchRange
    /// A limits request's highest yaw speed.
    case yawMaximumSpeed
    /// A limits request's highest pitch speed.
    case pitchMaximumSpeed
}

/// Why a motion request was refused; `field` names the offending parameter.
public enum MotionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A number is NaN or infinite.
    case notFinite(field: MotionParameter)
    /// A number is outside what the request allows.
    case outOfRange(field: MotionParameter, allowed: ClosedRange<Double>)
    /// No accessory is ready to move.
    case notReady

    public var description: String {
        switch self {
        case .notFinite(let field): "\(field) must be a finite number"
        case .outOfRange(let field, let allowed): "\(field) must be within \(allowed.lowerBound)...\(allowed.upperBound)"
        case .notReady: "no accessory is ready"
        }
    }
}

extension MotionParameter {
    /// The parameter's name in `io.dockd.Dock` (`InvalidParameter`'s `parameter`, a motion
    /// result's `clamped`): the API's spelling, kept here with the rest of the wire. A limits
    /// request's ranges are `SetLimits`' `yaw` and `pitch`, and its one `max_speed` sets both
    /// axes' highest speeds.
    public var wireName: String {
        switch self {
        case .yaw: "yaw"
        case .pitch: "pitch"
        case .duration: "duration"
        case .speed: "speed"
        case .yawRange: "yaw"
        case .pitchRange: "pitch"
        case .yawMaximumSpeed, .pitchMaximumSpeed: "max_speed"
        }
    }
}
