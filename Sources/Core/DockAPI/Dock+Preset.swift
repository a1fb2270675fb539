public import DockJSON
import DockNumbers
public import DockVocabulary

extension Preset {
    /// Reads a `Preset`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            name: try r.string("name"), yawRadians: try r.number("yaw"), pitchRadians: try r.number("pitch"),
            zoomFraction: try r.optionalNumber("zoom"))
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(name), "yaw": .number(yawRadians), "pitch": .number(pitchRadians),
        ]
        if let zoomFraction { members["zoom"] = .number(zoomFraction) }
        return .object(members)
    }
}

extension LostBehaviour.Action {
    /// The names of `LostBehaviour.action` on the wire.
    static let wireNames = ["hold", "home", "pose", "preset", "zoom_out"]

    /// The action's fields on the wire: `action`, and `yaw` and `pitch` for a pose, `preset` for
    /// a preset.
    var members: [String: JSONValue] {
        switch self {
        case .hold: ["action": .string("hold")]
        case .home: ["action": .string("home")]
        case .zoomOut: ["action": .string("zoom_out")]
        case .pose(let yaw, let pitch): ["action": .string("pose"), "yaw": .number(yaw), "pitch": .number(pitch)]
        case .preset(let name): ["action": .string("preset"), "preset": .string(name)]
        }
    }

    /// Reads an action from `action` and the fields that go with it (absent `action`: nil),
    /// refusing a field that does not go with it, a pose beyond ±4π and a name no preset may have.
    static func reading(_ r: JSONFields) throws(JSONFieldError) -> LostBehaviour.Action? {
        let choices: [(name: String, value: String)] = wireNames.map { ($0, $0) }
        let name = try r.optionalChoice("action", choices)
        let fields: [String] =
            switch name {
            case "pose": ["yaw", "pitch"]
            case "preset": ["preset"]
            default: []
            }
        for field in ["yaw", "pitch", "preset"] where !fields.contains(field) && r.value(field) != nil {
            throw JSONFieldError.field(field, "goes only with action \(field == "preset" ? "preset" : "pose")")
        }
        switch name {
        case nil: return nil
        case "hold": return .hold
        case "home": return .home
        case "zoom_out": return .zoomOut
        case "pose":
            let yaw = try r.number("yaw"), pitch = try r.number("pitch")
            for (field, value) in [("yaw", yaw), ("pitch", pitch)] where abs(value) > PresetStore.largestAngle {
                throw JSONFieldError.field(field, "must be within ±4π radians")
            }
            return .pose(yawRadians: yaw, pitchRadians: pitch)
        default:
            let preset = try r.string("preset")
            do {
                try PresetStore.checkName(preset)
            } catch {
                throw JSONFieldError.field("preset", error.reason)
            }
            return .preset(name: preset)
        }
    }
}

extension PresetError {
    /// What is wrong with a name, without the name (the parameter names it).
    var reason: String {
        if case .invalidName(_, let reason) = self { reason } else { description }
    }
}

extension LostBehaviour {
    /// Reads a `LostBehaviour`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        let seconds = try r.number("after")
        guard seconds >= 0, let after = Duration.fromSeconds(seconds) else {
            throw JSONFieldError.field("after", "must be 0 or more seconds")
        }
        guard let action = try Action.reading(r) else { throw JSONFieldError(path: "action", line: nil, problem: .missing) }
        self.init(after: after, action: action)
    }

    /// The JSON form.
    public var json: JSONValue {
        var members = action.members
        members["after"] = .number(after.secondsValue)
        return .object(members)
    }
}
