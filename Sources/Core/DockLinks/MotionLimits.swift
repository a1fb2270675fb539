public import DockProtocol
public import DockVocabulary

/// How far and how fast the dock may move, in SI units: the accessory's own limits, narrowed by
/// configuration or by a client, never widened.
public struct MotionLimits: Hashable, Sendable {
    /// Reachable yaw, radians.
    public var yawRadians: ClosedRange<Double>
    /// Reachable pitch, radians.
    public var pitchRadians: ClosedRange<Double>
    /// Highest yaw speed, rad/s.
    public var yawSpeedRadiansPerSecond: Double
    /// Highest pitch speed, rad/s.
    public var pitchSpeedRadiansPerSecond: Double
    /// Yaw acceleration, rad/s² (the accessory's; not narrowed).
    public var yawAccelerationRadiansPerSecondSquared: Double
    /// Pitch acceleration, rad/s².
    public var pitchAccelerationRadiansPerSecondSquared: Double

    /// The limits an accessory reports.
    public init(info: AccessoryInfo) {
        yawRadians = info.yaw.minimum.radians...info.yaw.maximum.radians
        pitchRadians = info.pitch.minimum.radians...info.pitch.maximum.radians
        yawSpeedRadiansPerSecond = info.yaw.maximumSpeed.radiansPerSecond
        pitchSpeedRadiansPerSecond = info.pitch.maximumSpeed.radiansPerSecond
        yawAccelerationRadiansPerSecondSquared = info.yaw.maximumAcceleration.radiansPerSecondSquared
        pitchAccelerationRadiansPerSecondSquared = info.pitch.maximumAcceleration.radiansPerSecondSquared
    }

    /// These limits narrowed by `request`: each given range is intersected with the current one
    /// and each given speed can only lower the current one.
    ///
    /// - Throws: `MotionError` when a value is not finite, a range is empty or does not overlap
    ///   the current one, or a speed is not positive.
    public func narrowed(by request: LimitRequest) throws(MotionError) -> MotionLimits {
        var result = self
        func narrow(_ current: ClosedRange<Double>, _ wanted: ClosedRange<Double>?, _ field: MotionParameter) throws(MotionError)
            -> ClosedRange<Double>
        {
            guard let wanted else { return current }
            guard wanted.lowerBound.isFinite, wanted.upperBound.isFinite else { throw .notFinite(field: field) }
            let low = max(current.lowerBound, wanted.lowerBound), high = min(current.upperBound, wanted.upperBound)
            guard low <= high else { throw .outOfRange(field: field, allowed: current) }
            return low...high
        }
        func speed(_ current: Double, _ wanted: Double?, _ field: MotionParameter) throws(MotionError) -> Double {
            guard let wanted else { return current }
            guard wanted.isFinite else { throw .notFinite(field: field) }
            guard wanted > 0 else { throw .outOfRange(field: field, allowed: 0...current) }
            return min(current, wanted)
        }
        result.yawRadians = try narrow(yawRadians, request.yawRadians, .yawRange)
        result.pitchRadians = try narrow(pitchRadians, request.pitchRadians, .pitchRange)
        result.yawSpeedRadiansPerSecond = try speed(yawSpeedRadiansPerSecond, request.yawSpeedRadiansPerSecond, .yawMaximumSpeed)
        result.pitchSpeedRadiansPerSecond = try speed(
            pitchSpeedRadiansPerSecond, request.pitchSpeedRadiansPerSecond,
            .pitchMaximumSpeed)
        return result
    }
}
