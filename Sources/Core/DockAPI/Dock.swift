public import DockJSON
public import DockVocabulary

extension Dock.Accessory {
    /// Reads an `Accessory`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            identifier: try r.string("id"), device: try r.string("device"), model: try r.string("model"),
            firmwareVersion: try r.string("firmware"), protocolName: try r.string("protocol"),
            protocolVersion: try r.integer("protocol_version", as: Int.self),
            capabilities: try r.strings("capabilities"),
            lacks: try r.strings("lacks"))
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            "id": .string(identifier), "device": .string(device), "model": .string(model), "firmware": .string(firmwareVersion),
            "protocol": .string(protocolName), "protocol_version": .integer(Int64(protocolVersion)),
            "capabilities": .array(capabilities.map(JSONValue.string)), "lacks": .array(lacks.map(JSONValue.string)),
        ])
    }
}

extension Dock.AccessoryEntry {
    /// Reads an `AccessoryEntry`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            name: try r.string("name"), state: try r.choice("state", as: Dock.Status.State.self), device: try r.string("device"),
            accessory: try r.optionalObject("accessory").map { fields throws(JSONFieldError) in try Dock.Accessory(reading: fields) })
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["name": .string(name), "state": .string(state.rawValue), "device": .string(device)]
        if let accessory { members["accessory"] = accessory.json }
        return .object(members)
    }
}

extension Dock.Pose {
    /// Reads a `Pose`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            yawRadians: try r.number("yaw"), pitchRadians: try r.number("pitch"),
            yawRadiansPerSecond: try r.number("yaw_rate"), pitchRadiansPerSecond: try r.number("pitch_rate"),
            ageSeconds: try r.optionalNumber("age"))
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "yaw": .number(yawRadians), "pitch": .number(pitchRadians),
            "yaw_rate": .number(yawRadiansPerSecond), "pitch_rate": .number(pitchRadiansPerSecond),
        ]
        if let ageSeconds { members["age"] = .number(ageSeconds) }
        return .object(members)
    }
}

extension Dock.Limits {
    /// Reads a `Limits`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            yawRadians: try Self.range(r.object("yaw")), pitchRadians: try Self.range(r.object("pitch")),
            yawSpeedRadiansPerSecond: try r.number("yaw_max_speed"), pitchSpeedRadiansPerSecond: try r.number("pitch_max_speed"))
    }

    /// Reads a `Range` (`min` at most `max`).
    static func range(_ r: JSONFields) throws(JSONFieldError) -> ClosedRange<Double> {
        let low = try r.number("min"), high = try r.number("max")
        guard low <= high else { throw JSONFieldError.field(r.path, "min must not exceed max") }
        return low...high
    }

    /// A `Range`'s JSON form.
    static func json(_ range: ClosedRange<Double>) -> JSONValue {
        .object(["min": .number(range.lowerBound), "max": .number(range.upperBound)])
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            "yaw": Self.json(yawRadians), "pitch": Self.json(pitchRadians),
            "yaw_max_speed": .number(yawSpeedRadiansPerSecond), "pitch_max_speed": .number(pitchSpeedRadiansPerSecond),
        ])
    }
}

extension Dock.Counters {
    /// Reads a `Counters`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            badFrames: try r.integer("bad_frames", as: Int.self), reconnects: try r.integer("reconnects", as: Int.self),
            refusals: try r.integer("refusals", as: Int.self),
            observations: try r.integer("observations", as: Int.self), cameraFrames: try r.integer("camera_frames", as: Int.self))
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            "bad_frames": .integer(Int64(badFrames)), "reconnects": .integer(Int64(reconnects)),
            "refusals": .integer(Int64(refusals)), "observations": .integer(Int64(observations)),
            "camera_frames": .integer(Int64(cameraFrames)),
        ])
    }
}

extension Dock.Loop {
    /// Reads a `Loop`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            ticks: try r.integer("ticks", as: Int.self), missed: try r.integer("missed", as: Int.self),
            latenessP50Seconds: try r.number("late_p50"),
            latenessP99Seconds: try r.number("late_p99"), latenessMaximumSeconds: try r.number("late_max"))
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            "ticks": .integer(Int64(ticks)), "missed": .integer(Int64(missed)), "late_p50": .number(latenessP50Seconds),
            "late_p99": .number(latenessP99Seconds), "late_max": .number(latenessMaximumSeconds),
        ])
    }
}

extension Dock.Fault {
    /// Reads a `Fault`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        var axis: Dock.Axis?
        if let name = try r.optionalString("axis") {
            guard let named = Dock.Axis(rawValue: name) else {
                throw JSONFieldError.field(r.fieldPath("axis"), "must be one of yaw, pitch, got \"\(name)\"")
            }
            axis = named
        }
        self.init(code: try r.string("code"), axis: axis, isActive: try r.bool("active"))
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["code": .string(code), "active": .bool(isActive)]
        if let axis { members["axis"] = .string(axis.rawValue) }
        return .object(members)
    }
}

extension NormalizedRect {
    /// Reads a `Rect` (normalised 0...1, origin at the top left).
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(x: try r.number("x"), y: try r.number("y"), width: try r.number("width"), height: try r.number("height"))
    }

    /// The JSON form of a `Rect`.
    public var json: JSONValue {
        .object(["x": .number(x), "y": .number(y), "width": .number(width), "height": .number(height)])
    }
}

extension NormalizedPoint {
    /// The JSON form of a `Point`.
    public var json: JSONValue { .object(["x": .number(x), "y": .number(y)]) }
}

extension Dock.Controller {
    /// Reads a `Controller`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        let acquired = try r.bool("acquired")
        switch try r.choice("kind", as: Kind.self) {
        case .none: self = .none
        case .tracker: self = .systemTracker
        case .client: self = .client(try r.integer("client", as: ClientID.self), isExplicit: acquired)
        case .unattended: self = .unattended(formerClient: try r.integer("client", as: ClientID.self))
        }
    }

    /// The JSON form of a `Controller`.
    public var json: JSONValue {
        switch self {
        case .none, .systemTracker: .object(["kind": .string(kind.rawValue), "acquired": .bool(false)])
        case .client(let client, let isExplicit):
            .object(["kind": .string(kind.rawValue), "client": .integer(Int64(client)), "acquired": .bool(isExplicit)])
        case .unattended(let client):
            .object(["kind": .string(kind.rawValue), "client": .integer(Int64(client)), "acquired": .bool(false)])
        }
    }
}

extension SubjectSummary {
    /// Reads a `Subject`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        let box = try r.optionalObject("box").map(NormalizedRect.init(reading:))
        self.init(
            identifier: try r.integer("id", as: Int.self), kind: try r.choice("kind", as: SubjectKind.self), box: box,
            isPrimary: try r.bool("primary"), saliencyRank: try r.integer("saliency_rank", as: Int.self), isCoasting: try r.bool("coasting")
        )
    }

    /// The JSON form of a `Subject` (a box that is not finite is left out: behind the camera).
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": .integer(Int64(identifier)), "kind": .string(kind.rawValue), "primary": .bool(isPrimary),
            "saliency_rank": .integer(Int64(saliencyRank)), "coasting": .bool(isCoasting),
        ]
        if let box, box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite { members["box"] = box.json }
        return .object(members)
    }
}
