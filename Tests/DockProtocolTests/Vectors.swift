import DockProtocol
import Foundation

/// Access to `Protocol/vectors/`, and the translation of its language-neutral JSON into frames.
enum Vectors {
    /// The repository's `Protocol/vectors` directory, found from this file's path.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol/vectors")

    /// The repository's `Protocol` directory.
    static var protocolDirectory: URL { directory.deletingLastPathComponent() }

    /// Every vector file and the test suite that reads it; a file not listed here fails a test.
    static let knownFiles = [
        "crc32c.json", "cobs.json", "messages.json", "streams.json", "texts.json", "example-session.json",
        "transcripts.json",
    ]

    static func load(_ name: String) throws -> JSONValue {
        try JSONValue.load(directory.appendingPathComponent(name))
    }

    /// Parses the vectors' hex notation: pairs of digits separated by spaces.
    static func bytes(hex: String) throws -> [UInt8] {
        try hex.split(separator: " ").map { pair in
            guard pair.count == 2, let byte = UInt8(pair, radix: 16) else {
                throw JSONValue.ShapeError(path: "hex", expected: "pairs of hex digits, got '\(pair)'")
            }
            return byte
        }
    }

    /// Builds the frame a vector's `message` object describes.
    static func frame(_ json: JSONValue) throws -> Frame {
        let typeName = try json.string("type")
        guard let type = MessageType(name: typeName) else {
            throw JSONValue.ShapeError(path: "type", expected: "a message type, got \(typeName)")
        }
        let fields = try json.member("fields")
        return Frame(sequence: try json.integer("seq"), message: try message(type, fields))
    }

    private static func message(_ type: MessageType, _ f: JSONValue) throws -> Message {
        func angle(_ key: String, _ from: JSONValue? = nil) throws -> Angle {
            Angle(microradians: try (from ?? f).integer(key))
        }
        func rate(_ key: String, _ from: JSONValue? = nil) throws -> AngularRate {
            AngularRate(microradiansPerSecond: try (from ?? f).integer(key))
        }
        func milliseconds(_ key: String) throws -> Duration { .milliseconds(try f.integer(key, as: Int64.self)) }
        func time() throws -> AccessoryTimestamp { AccessoryTimestamp(microseconds: try f.integer("time_us")) }
        func named<T>(_ key: String, _ table: [(String, T)]) throws -> T {
            let name = try f.string(key)
            guard let value = table.first(where: { $0.0 == name })?.1 else {
                throw JSONValue.ShapeError(path: key, expected: "one of \(table.map(\.0)), got \(name)")
            }
            return value
        }
        func axis(_ key: String) throws -> AxisLimits {
            let a = try f.member(key)
            return AxisLimits(
                minimum: try angle("min_urad", a), maximum: try angle("max_urad", a),
                maximumSpeed: try rate("max_speed_urad_s", a),
                maximumAcceleration: AngularAcceleration(microradiansPerSecondSquared: try a.integer("max_accel_urad_s2")))
        }

        switch type {
        case .hello:
            return .hello(Hello(minimumVersion: try f.integer("min_version"), maximumVersion: try f.integer("max_version")))
        case .heartbeat:
            return .heartbeat
        case .stop:
            return .stop
        case .setVelocity:
            return .setVelocity(
                VelocityCommand(
                    yawRate: try rate("yaw_rate_urad_s"), pitchRate: try rate("pitch_rate_urad_s"),
                    timeToLive: try milliseconds("ttl_ms")))
        case .moveTo:
            let pace: OrientationMove.Pace =
                try f.string("pace") == "duration"
                ? .duration(try milliseconds("duration_ms")) : .maximumSpeed(try rate("max_speed_urad_s"))
            return .moveTo(OrientationMove(yaw: try angle("yaw_urad"), pitch: try angle("pitch_urad"), pace: pace))
        case .setIndicator:
            return .setIndicator(
                IndicatorState(
                    pattern: try named("pattern", IndicatorState.Pattern.allCases.map { ($0.name, $0) }),
                    red: try f.integer("red"), green: try f.integer("green"), blue: try f.integer("blue")))
        case .info:
            var features = AccessoryFeatures()
            for name in try f.strings("features") {
                guard let feature = AccessoryFeatures.named.first(where: { $0.name == name }) else {
                    throw JSONValue.ShapeError(path: "features", expected: "feature names, got \(name)")
                }
                features.insert(feature.feature)
            }
            return .info(
                AccessoryInfo(
                    protocolVersion: try f.integer("protocol_version"), features: features,
                    telemetryRateHertz: try f.integer("telemetry_rate_hz"),
                    failsafeTimeout: try milliseconds("failsafe_timeout_ms"),
                    yaw: try axis("yaw"), pitch: try axis("pitch"),
                    model: try f.string("model"), firmwareVersion: try f.string("firmware"),
                    serialNumber: try f.string("serial")))
        case .ack:
            return .ack(
                Acknowledgement(
                    sequence: try f.integer("acked_seq"),
                    acknowledgedType: try named("acked_type", MessageType.allCases.map { ($0.name, $0) }),
                    accessoryTime: try time()))
        case .nack:
            return .nack(
                Refusal(
                    sequence: try f.integer("refused_seq"), refusedTypeCode: try f.integer("refused_type"),
                    reason: try named("reason", Refusal.Reason.allCases.map { ($0.name, $0) }),
                    detail: try f.integer("detail")))
        case .telemetry:
            var flags = TelemetryFlags()
            for name in try f.strings("flags") {
                guard let flag = TelemetryFlags.named.first(where: { $0.name == name }) else {
                    throw JSONValue.ShapeError(path: "flags", expected: "flag names, got \(name)")
                }
                flags.insert(flag.flag)
            }
            return .telemetry(
                Telemetry(
                    accessoryTime: try time(), yaw: try angle("yaw_urad"), pitch: try angle("pitch_urad"),
                    yawRate: try rate("yaw_rate_urad_s"), pitchRate: try rate("pitch_rate_urad_s"), flags: flags))
        case .event:
            let kind: AccessoryEvent.Kind
            switch try f.string("event") {
            case "dock": kind = .dockChanged(isDocked: try f.bool("docked"))
            case "tracking_button": kind = .trackingButton(isPressed: try f.bool("pressed"))
            case "shutter_button": kind = .shutterButton(isPressed: try f.bool("pressed"))
            case "flip_button": kind = .flipButton(isPressed: try f.bool("pressed"))
            case "zoom": kind = .zoom(steps: try f.integer("steps"))
            case "custom_button": kind = .customButton(identifier: try f.integer("id"), isPressed: try f.bool("pressed"))
            case let other: throw JSONValue.ShapeError(path: "event", expected: "an event kind, got \(other)")
            }
            return .event(AccessoryEvent(accessoryTime: try time(), kind: kind))
        case .fault:
            let axisName = try f.string("axis")
            let axis = Axis.allCases.first { $0.name == axisName }
            guard axis != nil || axisName == "none" else {
                throw JSONValue.ShapeError(path: "axis", expected: "yaw, pitch or none, got \(axisName)")
            }
            return .fault(
                FaultReport(
                    accessoryTime: try time(),
                    code: try named("code", FaultReport.Code.allCases.map { ($0.name, $0) }),
                    axis: axis, isActive: try f.bool("active")))
        }
    }
}

/// A deterministic random source (SplitMix64), so every randomised test can be replayed from its
/// seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Array where Element == UInt8 {
    /// `count` random bytes from `generator`.
    static func random(count: Int, using generator: inout SeededGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
