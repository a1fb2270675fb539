import DockAPI
import DockVocabulary

/// One rule for every number the dock's limits bound: a rate beyond its highest speed, an
/// orientation past its range, a speed above its fastest is clamped to the limit in force (as
/// dockd does for an orientation out of range) and the answer says so, naming the limit — never
/// refused for some and clamped for others. dockctl reads the limits from dockd's status first;
/// with no dock attached it sends the numbers as given (dockd answers NotReady).
struct LimitCheck {
    /// An axis, as the notes name it.
    enum Axis: String {
        case yaw, pitch
    }

    /// What was clamped, each with the limit it was clamped to (`yaw rate 3.142 rad/s`).
    private(set) var notes: [String] = []

    /// A rate on `axis` within ±`limit`.
    mutating func rate(_ value: Double, axis: Axis, limit: Double) -> Double {
        guard abs(value) > limit else { return value }
        notes.append("\(axis.rawValue) rate to \(Presentation.round3(value < 0 ? -limit : limit)) rad/s, the dock's highest speed")
        return value < 0 ? -limit : limit
    }

    /// An angle on `axis` within `range`.
    mutating func angle(_ value: Double, axis: Axis, range: ClosedRange<Double>) -> Double {
        guard !range.contains(value) else { return value }
        let kept = min(max(value, range.lowerBound), range.upperBound)
        notes.append("\(axis.rawValue) to \(Presentation.degrees(kept)), the end of the dock's \(axis.rawValue) range")
        return kept
    }

    /// A speed no higher than `limit`.
    mutating func speed(_ value: Double, limit: Double) -> Double {
        guard value > limit else { return value }
        notes.append("speed to \(Presentation.round3(limit)) rad/s, the dock's highest speed")
        return limit
    }

    /// What dockd kept of narrowed limits that asked for more than the dock's own (dockd never
    /// widens them): each end given that was not kept, named with the end in force.
    mutating func narrowed(
        yaw: (low: Double?, high: Double?), pitch: (low: Double?, high: Double?), maximumSpeed: Double?, kept: Dock.Limits
    ) {
        func end(_ option: String, _ asked: Double?, _ kept: Double, _ axis: Axis) {
            guard let asked, abs(asked - kept) > 1e-6 else { return }
            notes.append("\(option) to \(Presentation.degrees(kept)), the end of the dock's \(axis.rawValue) range")
        }
        end("--yaw-min", yaw.low, kept.yawRadians.lowerBound, .yaw)
        end("--yaw-max", yaw.high, kept.yawRadians.upperBound, .yaw)
        end("--pitch-min", pitch.low, kept.pitchRadians.lowerBound, .pitch)
        end("--pitch-max", pitch.high, kept.pitchRadians.upperBound, .pitch)
        if let maximumSpeed, min(kept.yawSpeedRadiansPerSecond, kept.pitchSpeedRadiansPerSecond) < maximumSpeed - 1e-6 {
            notes.append(
                "--max-speed to \(Presentation.round3(kept.yawSpeedRadiansPerSecond)) / "
                    + "\(Presentation.round3(kept.pitchSpeedRadiansPerSecond)) rad/s (yaw / pitch), the dock's highest speeds")
        }
    }

    /// The fields dockd itself reports clamped (a relative orientation past the range), each named
    /// with its limit from `limits`.
    mutating func reported(_ fields: [String], limits: Dock.Limits?) {
        for field in fields {
            guard let limits else {
                notes.append(field)
                continue
            }
            switch field {
            case MotionParameter.yaw.wireName:
                notes.append(
                    "yaw (the dock's range: \(Presentation.degrees(limits.yawRadians.lowerBound)) to \(Presentation.degrees(limits.yawRadians.upperBound)))"
                )
            case MotionParameter.pitch.wireName:
                notes.append(
                    "pitch (the dock's range: \(Presentation.degrees(limits.pitchRadians.lowerBound)) to "
                        + "\(Presentation.degrees(limits.pitchRadians.upperBound)))")
            case MotionParameter.speed.wireName:
                notes.append(
                    "speed to \(Presentation.round3(max(limits.yawSpeedRadiansPerSecond, limits.pitchSpeedRadiansPerSecond))) rad/s, "
                        + "the dock's highest speed")
            default:
                notes.append(field)
            }
        }
    }
}
