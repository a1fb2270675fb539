public import DockJSON
public import DockLinks
public import DockPolicy
public import DockProtocol
public import DockVocabulary

extension Dock {
    /// An `Accessory`: a dock as dockd knows it.
    public struct Accessory: Hashable, Sendable {
        /// Its serial number (`id`).
        public var identifier: String
        /// The port it is on.
        public var device: String
        /// Its model name.
        public var model: String
        /// Its firmware version.
        public var firmwareVersion: String
        /// The protocol it speaks (`dock-serial`, `visca`, `uvc`).
        public var protocolName: String
        /// That protocol's version (0 where it has none).
        public var protocolVersion: Int
        /// What it can do, by name (`failsafe`, `telemetry_stream`...).
        public var capabilities: [String]
        /// What it cannot do, by the same names.
        public var lacks: [String]

        /// Creates an accessory.
        public init(
            identifier: String, device: String, model: String, firmwareVersion: String, protocolName: String,
            protocolVersion: Int, capabilities: [String], lacks: [String]
        ) {
            self.identifier = identifier
            self.device = device
            self.model = model
            self.firmwareVersion = firmwareVersion
            self.protocolName = protocolName
            self.protocolVersion = protocolVersion
            self.capabilities = capabilities
            self.lacks = lacks
        }

        /// The accessory `info` describes, with the device, protocol and capabilities of `status`.
        public init(_ info: AccessoryInfo, status: DockStatus) {
            self.init(
                identifier: info.serialNumber, device: status.device, model: info.model, firmwareVersion: info.firmwareVersion,
                protocolName: status.protocolName, protocolVersion: Int(info.protocolVersion),
                capabilities: status.capabilities.names,
                lacks: AccessoryCapabilities.named.filter { !status.capabilities.contains($0.capability) }.map(\.name))
        }

        /// Reads an `Accessory`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            self.init(
                identifier: try r.string("id"), device: try r.string("device"), model: try r.string("model"),
                firmwareVersion: try r.string("firmware"), protocolName: try r.string("protocol"),
                protocolVersion: try r.integer("protocol_version"), capabilities: try r.strings("capabilities"),
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

    /// A `Pose`: where the dock points and how fast it turns (dockd's signs: yaw > 0 right,
    /// pitch > 0 up).
    public struct Pose: Hashable, Sendable {
        /// Yaw, radians.
        public var yawRadians: Double
        /// Pitch, radians.
        public var pitchRadians: Double
        /// Yaw rate, rad/s.
        public var yawRadiansPerSecond: Double
        /// Pitch rate, rad/s.
        public var pitchRadiansPerSecond: Double
        /// How old the newest pose sample was, seconds (`age`), when dockd says.
        public var ageSeconds: Double?

        /// Creates a pose.
        public init(
            yawRadians: Double, pitchRadians: Double, yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double,
            ageSeconds: Double? = nil
        ) {
            self.yawRadians = yawRadians
            self.pitchRadians = pitchRadians
            self.yawRadiansPerSecond = yawRadiansPerSecond
            self.pitchRadiansPerSecond = pitchRadiansPerSecond
            self.ageSeconds = ageSeconds
        }

        /// Reads a `Pose`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            self.init(
                yawRadians: try r.double("yaw"), pitchRadians: try r.double("pitch"),
                yawRadiansPerSecond: try r.double("yaw_rate"), pitchRadiansPerSecond: try r.double("pitch_rate"),
                ageSeconds: try r.optionalDouble("age"))
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

    /// A `Limits`: how far and how fast the dock may move.
    public struct Limits: Hashable, Sendable {
        /// Reachable yaw, radians.
        public var yawRadians: ClosedRange<Double>
        /// Reachable pitch, radians.
        public var pitchRadians: ClosedRange<Double>
        /// Highest yaw speed, rad/s.
        public var yawSpeedRadiansPerSecond: Double
        /// Highest pitch speed, rad/s.
        public var pitchSpeedRadiansPerSecond: Double

        /// Creates limits.
        public init(
            yawRadians: ClosedRange<Double>, pitchRadians: ClosedRange<Double>, yawSpeedRadiansPerSecond: Double,
            pitchSpeedRadiansPerSecond: Double
        ) {
            self.yawRadians = yawRadians
            self.pitchRadians = pitchRadians
            self.yawSpeedRadiansPerSecond = yawSpeedRadiansPerSecond
            self.pitchSpeedRadiansPerSecond = pitchSpeedRadiansPerSecond
        }

        /// The part of `limits` clients see.
        public init(_ limits: MotionLimits) {
            self.init(
                yawRadians: limits.yawRadians, pitchRadians: limits.pitchRadians,
                yawSpeedRadiansPerSecond: limits.yawSpeedRadiansPerSecond, pitchSpeedRadiansPerSecond: limits.pitchSpeedRadiansPerSecond)
        }

        /// Reads a `Limits`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            self.init(
                yawRadians: try Self.range(r.object("yaw")), pitchRadians: try Self.range(r.object("pitch")),
                yawSpeedRadiansPerSecond: try r.double("yaw_max_speed"), pitchSpeedRadiansPerSecond: try r.double("pitch_max_speed"))
        }

        /// Reads a `Range` (`min` at most `max`).
        static func range(_ r: ReplyReader) throws(ReplyError) -> ClosedRange<Double> {
            let low = try r.double("min"), high = try r.double("max")
            guard low <= high else { throw ReplyError(path: r.path, reason: "min must not exceed max") }
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

    /// A `Counters`: what went wrong, and what came in, since dockd started.
    public struct Counters: Hashable, Sendable {
        /// Runs received on the serial line that were not good frames.
        public var badFrames: Int
        /// Times the link was lost.
        public var reconnects: Int
        /// Commands the dock refused.
        public var refusals: Int
        /// Observations accepted through `Track`.
        public var observations: Int
        /// Frames from the simulator's camera.
        public var cameraFrames: Int

        /// Creates counters.
        public init(badFrames: Int, reconnects: Int, refusals: Int, observations: Int, cameraFrames: Int) {
            self.badFrames = badFrames
            self.reconnects = reconnects
            self.refusals = refusals
            self.observations = observations
            self.cameraFrames = cameraFrames
        }

        /// Reads a `Counters`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            self.init(
                badFrames: try r.integer("bad_frames"), reconnects: try r.integer("reconnects"), refusals: try r.integer("refusals"),
                observations: try r.integer("observations"), cameraFrames: try r.integer("camera_frames"))
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

    /// A `Loop`: the 30 Hz control loop's punctuality.
    public struct Loop: Hashable, Sendable {
        /// Ticks since dockd started.
        public var ticks: Int
        /// Ticks missed (the loop fell a whole interval behind).
        public var missed: Int
        /// Median lateness, seconds.
        public var latenessP50Seconds: Double
        /// 99th percentile of lateness, seconds.
        public var latenessP99Seconds: Double
        /// Largest lateness, seconds.
        public var latenessMaximumSeconds: Double

        /// Creates the figures.
        public init(ticks: Int, missed: Int, latenessP50Seconds: Double, latenessP99Seconds: Double, latenessMaximumSeconds: Double) {
            self.ticks = ticks
            self.missed = missed
            self.latenessP50Seconds = latenessP50Seconds
            self.latenessP99Seconds = latenessP99Seconds
            self.latenessMaximumSeconds = latenessMaximumSeconds
        }

        /// Reads a `Loop`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            self.init(
                ticks: try r.integer("ticks"), missed: try r.integer("missed"), latenessP50Seconds: try r.double("late_p50"),
                latenessP99Seconds: try r.double("late_p99"), latenessMaximumSeconds: try r.double("late_max"))
        }

        /// The JSON form.
        public var json: JSONValue {
            .object([
                "ticks": .integer(Int64(ticks)), "missed": .integer(Int64(missed)), "late_p50": .number(latenessP50Seconds),
                "late_p99": .number(latenessP99Seconds), "late_max": .number(latenessMaximumSeconds),
            ])
        }
    }

    /// A `Fault` the dock reported.
    public struct Fault: Hashable, Sendable {
        /// Its code (`motor_stall`, `over_temperature`, `encoder_error`, `supply_voltage`,
        /// `failsafe_stop`; a later protocol may add more).
        public var code: String
        /// The axis it concerns, if one.
        public var axis: Axis?
        /// Whether it is raised (false: cleared).
        public var isActive: Bool

        /// Creates a fault.
        public init(code: String, axis: Axis?, isActive: Bool) {
            self.code = code
            self.axis = axis
            self.isActive = isActive
        }

        /// The fault `report` describes.
        public init(_ report: FaultReport) {
            self.init(code: report.code.name, axis: report.axis, isActive: report.isActive)
        }

        /// Reads a `Fault`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            var axis: Axis?
            if let name = try r.optionalString("axis") {
                guard let named = Axis.allCases.first(where: { $0.name == name }) else {
                    throw ReplyError(path: path + ".axis", reason: "must be one of yaw, pitch, got \"\(name)\"")
                }
                axis = named
            }
            self.init(code: try r.string("code"), axis: axis, isActive: try r.bool("active"))
        }

        /// The JSON form.
        public var json: JSONValue {
            var members: [String: JSONValue] = ["code": .string(code), "active": .bool(isActive)]
            if let axis { members["axis"] = .string(axis.name) }
            return .object(members)
        }
    }
}

extension NormalizedRect {
    /// Reads a `Rect` (normalised 0...1, origin at the top left).
    public init(json: JSONValue, path: String) throws(ReplyError) {
        let r = try ReplyReader(json, path: path)
        self.init(x: try r.double("x"), y: try r.double("y"), width: try r.double("width"), height: try r.double("height"))
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
    public init(json: JSONValue, path: String) throws(ReplyError) {
        let r = try ReplyReader(json, path: path)
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
    public init(json: JSONValue, path: String) throws(ReplyError) {
        let r = try ReplyReader(json, path: path)
        let box = try r.optionalDecoded("box", NormalizedRect.init(json:path:))
        self.init(
            identifier: try r.integer("id"), kind: try r.choice("kind", as: SubjectKind.self), box: box,
            isPrimary: try r.bool("primary"), saliencyRank: try r.integer("saliency_rank"), isCoasting: try r.bool("coasting"))
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
