/// What the dock does when its subject is lost, and after how long: the first `after` it looks
/// where the subject went (holding still for a hidden subject, turning briefly after one who
/// walked out of the picture, then holding with the side they left by in view), then it carries
/// out `action`. Whatever it is doing, a subject found again is followed again.
///
/// The default is a camera operator's: hold on the place the subject left for a few seconds —
/// most people who step out come back the way they went, and the shot that shows their return
/// is the one that was on them — then go to the wide, safe shot (home), where whoever comes
/// next is in the picture. The same goes when the observations stop arriving: a detector that
/// died leaves a subject whose track coasts and ends, and the dock does what it does for any
/// lost subject.
public struct LostBehaviour: Hashable, Sendable {
    /// What the dock does once the subject has been lost for `after`.
    public enum Action: Hashable, Sendable {
        /// Stay where it is, looking where the subject was lost, until a subject is found.
        case hold
        /// Turn to the rest pose (the dock's home shot) and wait there.
        case home
        /// Turn to this pose and wait there.
        case pose(yawRadians: Double, pitchRadians: Double)
        /// Turn to the preset of this name (and its zoom, where it has one) and wait there; the
        /// name is looked up when the action begins, and a preset that does not exist then is
        /// refused by name and the dock holds.
        case preset(name: String)
        /// Zoom all the way out, holding where it is, and wait; an accessory that cannot zoom
        /// holds.
        case zoomOut
    }

    /// How long the dock looks where the subject was lost before `action`.
    public var after: Duration
    /// What it does then.
    public var action: Action

    /// Creates a behaviour.
    public init(after: Duration, action: Action) {
        self.after = after
        self.action = action
    }

    /// Hold on the place the subject left for 5 s, then go home (`docs/tracker.md`, "When the
    /// subject is lost", says why).
    public static let `default` = LostBehaviour(after: .seconds(5), action: .home)

    /// The longest `after` a setting may ask for.
    public static let longestAfter = Duration.seconds(3600)

    /// The pose `action` turns to, given the rest pose and the presets; nil when it turns
    /// nowhere (or to a preset `presets` does not hold).
    public func target(
        restYawRadians: Double, restPitchRadians: Double, presets: PresetStore = PresetStore()
    ) -> (yawRadians: Double, pitchRadians: Double)? {
        switch action {
        case .hold, .zoomOut: nil
        case .home: (restYawRadians, restPitchRadians)
        case .pose(let yaw, let pitch): (yaw, pitch)
        case .preset(let name): presets.preset(named: name).map { ($0.yawRadians, $0.pitchRadians) }
        }
    }
}

extension LostBehaviour.Action {
    /// Reads an action as a setting spells it: `hold`, `home`, `zoom-out`, `pose:YAW,PITCH`
    /// (degrees) or `preset:NAME` (a name `PresetStore.checkName` allows; the preset need not
    /// exist yet).
    ///
    /// - Throws: `LostBehaviourError` naming what is wrong.
    public init(setting text: String) throws(LostBehaviourError) {
        switch text {
        case "hold": self = .hold
        case "home": self = .home
        case "zoom-out": self = .zoomOut
        default:
            if text.hasPrefix("preset:") {
                let name = String(text.dropFirst("preset:".count))
                do {
                    try PresetStore.checkName(name)
                } catch {
                    throw .invalidPresetName(text, "\(error)")
                }
                self = .preset(name: name)
                return
            }
            guard text.hasPrefix("pose:") else { throw .unknownAction(text) }
            let numbers = text.dropFirst("pose:".count).split(separator: ",", omittingEmptySubsequences: false)
            guard numbers.count == 2, let yaw = Double(numbers[0]), let pitch = Double(numbers[1]) else {
                throw .malformedPose(text)
            }
            guard yaw.isFinite, pitch.isFinite, abs(yaw) <= 720, abs(pitch) <= 720 else { throw .poseOutOfRange(text) }
            self = .pose(yawRadians: yaw * .pi / 180, pitchRadians: pitch * .pi / 180)
        }
    }

    /// The action as a setting spells it (the inverse of `init(setting:)`).
    public var setting: String {
        switch self {
        case .hold: "hold"
        case .home: "home"
        case .zoomOut: "zoom-out"
        case .pose(let yaw, let pitch): "pose:\(Self.degrees(yaw)),\(Self.degrees(pitch))"
        case .preset(let name): "preset:\(name)"
        }
    }

    private static func degrees(_ radians: Double) -> String {
        let value = (radians * 180 / .pi * 1000).rounded() / 1000
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// A lost behaviour's action that a setting spells wrongly.
public enum LostBehaviourError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not one of `hold`, `home`, `zoom-out`, `pose:YAW,PITCH`, `preset:NAME`.
    case unknownAction(String)
    /// `preset:` followed by a name no preset may have: the setting, and what is wrong.
    case invalidPresetName(String, String)
    /// `pose:` not followed by two numbers, yaw and pitch in degrees, with a comma between.
    case malformedPose(String)
    /// A pose's angle beyond ±720° or not finite.
    case poseOutOfRange(String)

    /// What went wrong, and how to say it right.
    public var description: String {
        switch self {
        case .unknownAction(let text): "expected hold, home, zoom-out, pose:YAW,PITCH (degrees) or preset:NAME, got '\(text)'"
        case .invalidPresetName(let text, let reason): "in '\(text)': \(reason)"
        case .malformedPose(let text): "expected pose:YAW,PITCH with two numbers in degrees, got '\(text)'"
        case .poseOutOfRange(let text): "a pose's yaw and pitch must be within -720 to 720 degrees, got '\(text)'"
        }
    }
}
