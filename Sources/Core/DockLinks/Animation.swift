import DockNumbers
import DockProtocol
public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// The built-in animations as trajectories relative to the pose where they start. Each is a list
/// of key poses joined by cosine easing (zero speed at every key), so each starts and ends at rest
/// and ends exactly where it began.
extension AnimationKind {
    /// Key poses: (time in seconds, yaw offset, pitch offset), starting and ending at zero offset.
    var keys: [(seconds: Double, yawRadians: Double, pitchRadians: Double)] {
        switch self {
        case .yes:
            [(0, 0, 0), (0.25, 0, -0.14), (0.5, 0, 0.04), (0.75, 0, -0.14), (1.0, 0, 0.02), (1.3, 0, 0)]
        case .no:
            [(0, 0, 0), (0.3, 0.22, 0), (0.65, -0.22, 0), (1.0, 0.18, 0), (1.3, -0.1, 0), (1.6, 0, 0)]
        case .wake:
            [(0, 0, 0), (0.5, 0, -0.25), (1.2, 0.0, 0.1), (1.6, 0.15, 0.05), (2.0, -0.1, 0.05), (2.5, 0, 0)]
        case .kapow:
            [(0, 0, 0), (0.15, 0, 0.3), (0.4, 0, -0.12), (0.6, 0, 0.07), (0.8, 0, -0.04), (1.0, 0, 0.02), (1.2, 0, 0)]
        }
    }
}

/// An animation fitted to a dock: played slower when the dock cannot turn fast enough.
public struct AnimationTrajectory: Hashable, Sendable {
    /// Which animation.
    public let kind: AnimationKind
    /// How much slower than its nominal pace it plays (1 or more).
    public let timeScale: Double

    /// Fits `kind` to a dock: if the nominal trajectory's peak speed or acceleration on an axis
    /// exceeds 70 % of that axis's limit, time is stretched until it does not.
    public init(
        _ kind: AnimationKind, yawSpeedRadiansPerSecond: Double, pitchSpeedRadiansPerSecond: Double,
        yawAccelerationRadiansPerSecondSquared: Double = .infinity,
        pitchAccelerationRadiansPerSecondSquared: Double = .infinity
    ) {
        self.kind = kind
        var scale = 1.0
        let keys = kind.keys
        for (a, b) in zip(keys, keys.dropFirst()) {
            let span = b.seconds - a.seconds
            for (distance, speed, acceleration) in [
                (abs(b.yawRadians - a.yawRadians), yawSpeedRadiansPerSecond, yawAccelerationRadiansPerSecondSquared),
                (abs(b.pitchRadians - a.pitchRadians), pitchSpeedRadiansPerSecond, pitchAccelerationRadiansPerSecondSquared),
            ] {
                // Cosine easing over a segment peaks at π/2 times its mean speed, and its
                // acceleration at (distance / 2)(π / span)²; stretching time by s divides them by
                // s and s².
                let peakSpeed = distance / span * .pi / 2
                let peakAcceleration = distance / 2 * (.pi / span) * (.pi / span)
                scale = max(scale, peakSpeed / (0.7 * speed), (peakAcceleration / (0.7 * acceleration)).squareRoot())
            }
        }
        timeScale = scale
    }

    /// Fits `kind` to the given limits.
    public init(_ kind: AnimationKind, limits: MotionLimits) {
        self.init(
            kind, yawSpeedRadiansPerSecond: limits.yawSpeedRadiansPerSecond,
            pitchSpeedRadiansPerSecond: limits.pitchSpeedRadiansPerSecond,
            yawAccelerationRadiansPerSecondSquared: limits.yawAccelerationRadiansPerSecondSquared,
            pitchAccelerationRadiansPerSecondSquared: limits.pitchAccelerationRadiansPerSecondSquared)
    }

    /// How long it plays.
    public var duration: Duration { .fromSeconds((kind.keys.last?.seconds ?? 0) * timeScale) ?? .zero }

    /// The offset from the start pose, and its rate, `elapsed` into the animation.
    public func offset(at elapsed: Duration) -> Pose {
        let keys = kind.keys
        let t = elapsed.secondsValue / timeScale
        guard t > 0, elapsed < duration else { return .home }
        for (a, b) in zip(keys, keys.dropFirst()) where t <= b.seconds {
            let span = b.seconds - a.seconds
            let phase = (t - a.seconds) / span
            let ease = (1 - cos(.pi * phase)) / 2
            let easeRate = .pi / 2 * sin(.pi * phase) / (span * timeScale)
            return Pose(
                yawRadians: a.yawRadians + (b.yawRadians - a.yawRadians) * ease,
                pitchRadians: a.pitchRadians + (b.pitchRadians - a.pitchRadians) * ease,
                yawRadiansPerSecond: (b.yawRadians - a.yawRadians) * easeRate,
                pitchRadiansPerSecond: (b.pitchRadians - a.pitchRadians) * easeRate)
        }
        return .home
    }
}
