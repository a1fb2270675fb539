import Foundation
import VISCAProtocol

/// Access to `Protocol/vectors/visca/` and the translation of its JSON into codec values.
enum VISCAVectors {
    /// The directory, found from this file's path.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol/vectors/visca")

    /// The repository's `Protocol/visca` directory (the camera profiles).
    static let profileDirectory = directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("visca")

    /// Every vector file; one not listed here fails a test.
    static let knownFiles = ["commands.json", "replies.json", "ip-messages.json", "malformed.json", "streams.json"]

    /// Why a vector does not have the shape its file promises.
    struct ShapeError: Error, CustomStringConvertible {
        var description: String
    }

    /// One JSON object of a vector file.
    struct Object: CustomStringConvertible {
        let members: [String: Any]

        init(_ value: Any?, _ context: String) throws {
            guard let members = value as? [String: Any] else { throw ShapeError(description: "\(context): not an object") }
            self.members = members
        }

        var description: String { "\(members)" }

        func has(_ key: String) -> Bool { members[key] != nil && !(members[key] is NSNull) }

        func string(_ key: String) throws -> String {
            guard let value = members[key] as? String else { throw ShapeError(description: "\(key): not a string in \(self)") }
            return value
        }

        func integer<Value: FixedWidthInteger>(_ key: String, as _: Value.Type = Value.self) throws -> Value {
            guard let number = members[key] as? NSNumber, let value = Value(exactly: number.int64Value),
                number.doubleValue == Double(number.int64Value)
            else { throw ShapeError(description: "\(key): not an integer that fits \(Value.self) in \(self)") }
            return value
        }

        func object(_ key: String) throws -> Object { try Object(members[key], key) }

        func objects(_ key: String) throws -> [Object] {
            guard let values = members[key] as? [Any] else { throw ShapeError(description: "\(key): not an array in \(self)") }
            return try values.map { try Object($0, key) }
        }

        func bytes(_ key: String) throws -> [UInt8] { try VISCAVectors.bytes(hex: string(key)) }
    }

    /// Reads a vector file's top-level object.
    static func load(_ name: String) throws -> Object {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return try Object(try JSONSerialization.jsonObject(with: data), name)
    }

    /// Parses the vectors' hex: pairs of digits separated by spaces ("" is no bytes).
    static func bytes(hex: String) throws -> [UInt8] {
        try hex.split(separator: " ").map { pair in
            guard pair.count == 2, let byte = UInt8(pair, radix: 16) else { throw ShapeError(description: "hex pair '\(pair)'") }
            return byte
        }
    }

    /// The command a vector's `command` object describes.
    static func command(_ json: Object) throws -> VISCACommand {
        func direction<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws -> T where T.RawValue == UInt8 {
            let name = try json.string(key)
            guard let value = T.allCases.first(where: { "\($0)" == name }) else {
                throw ShapeError(description: "\(key): no direction \(name)")
            }
            return value
        }
        switch try json.string("type") {
        case "address_set": return .addressSet
        case "interface_clear": return .interfaceClear
        case "cancel": return .cancel(socket: try json.integer("socket"))
        case "pan_tilt_drive":
            return .panTiltDrive(
                panSpeed: try json.integer("pan_speed"), tiltSpeed: try json.integer("tilt_speed"),
                pan: try direction("pan", PanDirection.self), tilt: try direction("tilt", TiltDirection.self))
        case "absolute_position":
            return .absolutePosition(
                panSpeed: try json.integer("pan_speed"), tiltSpeed: try json.integer("tilt_speed"),
                pan: try json.integer("pan"), tilt: try json.integer("tilt"))
        case "relative_position":
            return .relativePosition(
                panSpeed: try json.integer("pan_speed"), tiltSpeed: try json.integer("tilt_speed"),
                pan: try json.integer("pan"), tilt: try json.integer("tilt"))
        case "home": return .home
        case "reset": return .reset
        case "zoom_stop": return .zoomStop
        case "zoom_tele": return .zoomTele(speed: try json.integer("speed"))
        case "zoom_wide": return .zoomWide(speed: try json.integer("speed"))
        case "zoom_direct": return .zoomDirect(position: try json.integer("position"))
        case "memory_reset": return .memoryReset(number: try json.integer("number"))
        case "memory_set": return .memorySet(number: try json.integer("number"))
        case "memory_recall": return .memoryRecall(number: try json.integer("number"))
        case "version_inquiry": return .versionInquiry
        case "pan_tilt_position_inquiry": return .panTiltPositionInquiry
        case "zoom_position_inquiry": return .zoomPositionInquiry
        case "pan_tilt_max_speed_inquiry": return .panTiltMaxSpeedInquiry
        case let other: throw ShapeError(description: "no command type \(other)")
        }
    }

    /// The reply a vector's `reply` object describes.
    static func reply(_ json: Object) throws -> VISCAReply {
        switch try json.string("type") {
        case "ack": return .ack(socket: try json.integer("socket"))
        case "completion": return .completion(socket: try json.integer("socket"))
        case "inquiry_reply": return .inquiryReply(data: try json.bytes("data_hex"))
        case "error":
            let name = try json.string("code")
            guard let code = VISCAErrorCode(name: name) else { throw ShapeError(description: "no error code \(name)") }
            return .error(socket: try json.integer("socket"), code: code)
        case "address_set": return .addressSet(next: try json.integer("next"))
        case "network_change": return .networkChange
        case let other: throw ShapeError(description: "no reply type \(other)")
        }
    }
}
