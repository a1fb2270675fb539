public import DockJSON
public import DockVocabulary

extension Dock.FramingSpeedState {
    /// Reads a `FramingSpeed` (with its `applied`).
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        let profile = try r.choice("profile", as: FramingSpeed.Profile.self)
        let speed = FramingSpeed(
            profile: profile, yaw: try FramingSpeed.Axis(reading: r.object("yaw")),
            pitch: try FramingSpeed.Axis(reading: r.object("pitch")))
        let applied = try r.optionalObject("applied").map { a throws(JSONFieldError) in
            FramingSpeed(
                profile: profile, yaw: try FramingSpeed.Axis(reading: a.object("yaw")),
                pitch: try FramingSpeed.Axis(reading: a.object("pitch")))
        }
        self.init(speed: speed, applied: applied)
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "profile": .string(speed.profile.rawValue), "yaw": speed.yaw.json, "pitch": speed.pitch.json,
        ]
        if let applied { members["applied"] = .object(["yaw": applied.yaw.json, "pitch": applied.pitch.json]) }
        return .object(members)
    }
}

extension FramingSpeed.Axis {
    /// Reads an `AxisSpeed`.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            maximumSpeedRadiansPerSecond: try r.number("max_speed"),
            maximumAccelerationRadiansPerSecondSquared: try r.number("acceleration"), deadBandRadians: try r.number("dead_band"))
    }

    /// The JSON form.
    var json: JSONValue {
        .object([
            "max_speed": .number(maximumSpeedRadiansPerSecond), "acceleration": .number(maximumAccelerationRadiansPerSecondSquared),
            "dead_band": .number(deadBandRadians),
        ])
    }
}

extension FramingSpeedChange {
    /// `SetFramingSpeed`'s parameters.
    var parameters: [String: JSONValue] {
        var parameters: [String: JSONValue] = [:]
        if let profile { parameters["profile"] = .string(profile) }
        let numbers: [(FramingSpeedParameter, Double?)] = [
            (.yawMaximumSpeed, yawMaximumSpeed), (.yawAcceleration, yawAcceleration), (.yawDeadBand, yawDeadBand),
            (.pitchMaximumSpeed, pitchMaximumSpeed), (.pitchAcceleration, pitchAcceleration), (.pitchDeadBand, pitchDeadBand),
        ]
        for case (let parameter, let value?) in numbers { parameters[parameter.rawValue] = .number(value) }
        return parameters
    }
}
