/// Payload layouts of version 1: every field little-endian, in the order of the specification's
/// tables. Encoding assumes a message whose fields passed `Message.firstInvalidField`.

extension Message {
    /// Payload lengths of the fixed-size messages; info is the only variable-length one.
    static func payloadCount(of type: MessageType) -> Int? {
        switch type {
        case .hello: 2
        case .heartbeat, .stop: 0
        case .setVelocity: 10
        case .moveTo: 13
        case .setIndicator: 4
        case .info: nil
        case .ack: 11
        case .nack: 6
        case .telemetry: 26
        case .event: 11
        case .fault: 11
        }
    }

    /// Fixed part of the info payload, before its three text fields.
    static let infoFixedCount = 37

    /// Appends the payload of this message to `writer`.
    func writePayload(to writer: inout ByteWriter) {
        switch self {
        case .hello(let hello):
            writer.write(hello.minimumVersion)
            writer.write(hello.maximumVersion)
        case .heartbeat, .stop:
            break
        case .setVelocity(let command):
            writer.write(command.yawRate.microradiansPerSecond)
            writer.write(command.pitchRate.microradiansPerSecond)
            writer.write(UInt16(command.timeToLive.wholeMilliseconds ?? 0))
        case .moveTo(let move):
            writer.write(move.yaw.microradians)
            writer.write(move.pitch.microradians)
            switch move.pace {
            case .duration(let duration):
                writer.write(UInt8(0))
                writer.write(duration.wholeMilliseconds ?? 0)
            case .maximumSpeed(let speed):
                writer.write(UInt8(1))
                writer.write(UInt32(bitPattern: speed.microradiansPerSecond))
            }
        case .setIndicator(let indicator):
            writer.write(indicator.pattern.rawValue)
            writer.write(indicator.red)
            writer.write(indicator.green)
            writer.write(indicator.blue)
        case .info(let info):
            writer.write(info.protocolVersion)
            writer.write(info.features.rawValue)
            writer.write(info.telemetryRateHertz)
            writer.write(UInt16(info.failsafeTimeout.wholeMilliseconds ?? 0))
            for axis in [info.yaw, info.pitch] {
                writer.write(axis.minimum.microradians)
                writer.write(axis.maximum.microradians)
                writer.write(UInt32(bitPattern: axis.maximumSpeed.microradiansPerSecond))
                writer.write(axis.maximumAcceleration.microradiansPerSecondSquared)
            }
            writer.writeText(info.model)
            writer.writeText(info.firmwareVersion)
            writer.writeText(info.serialNumber)
        case .ack(let ack):
            writer.write(ack.sequence)
            writer.write(ack.acknowledgedType.rawValue)
            writer.write(ack.accessoryTime.microseconds)
        case .nack(let refusal):
            writer.write(refusal.sequence)
            writer.write(refusal.refusedTypeCode)
            writer.write(refusal.reason.rawValue)
            writer.write(refusal.detail)
        case .telemetry(let telemetry):
            writer.write(telemetry.accessoryTime.microseconds)
            writer.write(telemetry.yaw.microradians)
            writer.write(telemetry.pitch.microradians)
            writer.write(telemetry.yawRate.microradiansPerSecond)
            writer.write(telemetry.pitchRate.microradiansPerSecond)
            writer.write(telemetry.flags.rawValue)
        case .event(let event):
            writer.write(event.accessoryTime.microseconds)
            let (kind, identifier, value) = event.kind.wireFields
            writer.write(kind)
            writer.write(identifier)
            writer.write(value)
        case .fault(let fault):
            writer.write(fault.accessoryTime.microseconds)
            writer.write(fault.code.rawValue)
            writer.write(fault.axis?.rawValue ?? 0)
            writer.write(UInt8(fault.isActive ? 1 : 0))
        }
    }

    /// Decodes and validates the payload of a frame whose checksum was good.
    static func decode(
        type: MessageType, sequence: UInt16, payload: ArraySlice<UInt8>
    ) throws(FrameError) -> Message {
        func outOfRange(_ field: String) -> FrameError {
            .valueOutOfRange(type: type, sequence: sequence, field: field)
        }
        let wrongLength = FrameError.wrongPayloadLength(
            type: type, sequence: sequence, byteCount: payload.count)
        if let expected = payloadCount(of: type), expected != payload.count { throw wrongLength }

        // Lengths are checked above (and for info below), so the fixed reads cannot run short.
        var reader = ByteReader(payload)
        func u8() -> UInt8 { reader.read()! }
        func u16() -> UInt16 { reader.read()! }
        func u32() -> UInt32 { reader.read()! }
        func i32() -> Int32 { reader.read()! }
        func u64() -> UInt64 { reader.read()! }
        func bool(_ field: String) throws(FrameError) -> Bool {
            switch u8() {
            case 0: return false
            case 1: return true
            default: throw outOfRange(field)
            }
        }

        let message: Message
        switch type {
        case .hello:
            message = .hello(Hello(minimumVersion: u8(), maximumVersion: u8()))
        case .heartbeat:
            message = .heartbeat
        case .stop:
            message = .stop
        case .setVelocity:
            message = .setVelocity(
                VelocityCommand(
                    yawRate: AngularRate(microradiansPerSecond: i32()),
                    pitchRate: AngularRate(microradiansPerSecond: i32()),
                    timeToLive: .milliseconds(u16())))
        case .moveTo:
            let yaw = Angle(microradians: i32())
            let pitch = Angle(microradians: i32())
            let paceKind = u8()
            let paceValue = u32()
            let pace: OrientationMove.Pace
            switch paceKind {
            case 0:
                pace = .duration(.milliseconds(paceValue))
            case 1:
                guard let speed = Int32(exactly: paceValue) else { throw outOfRange("max_speed_urad_s") }
                pace = .maximumSpeed(AngularRate(microradiansPerSecond: speed))
            default:
                throw outOfRange("pace")
            }
            message = .moveTo(OrientationMove(yaw: yaw, pitch: pitch, pace: pace))
        case .setIndicator:
            guard let pattern = IndicatorState.Pattern(rawValue: u8()) else {
                throw outOfRange("pattern")
            }
            message = .setIndicator(
                IndicatorState(pattern: pattern, red: u8(), green: u8(), blue: u8()))
        case .info:
            guard payload.count >= infoFixedCount else { throw wrongLength }
            let version = u8()
            let features = AccessoryFeatures(rawValue: u8())
            let telemetryRate = u8()
            let failsafe = Duration.milliseconds(u16())
            var axes: [AxisLimits] = []
            for name in ["yaw", "pitch"] {
                let minimum = Angle(microradians: i32())
                let maximum = Angle(microradians: i32())
                guard let speed = Int32(exactly: u32()) else { throw outOfRange("\(name).max_speed_urad_s") }
                axes.append(
                    AxisLimits(
                        minimum: minimum, maximum: maximum,
                        maximumSpeed: AngularRate(microradiansPerSecond: speed),
                        maximumAcceleration: AngularAcceleration(microradiansPerSecondSquared: u32())))
            }
            var texts: [String] = []
            for name in ["model", "firmware", "serial"] {
                guard let bytes = reader.readTextBytes() else { throw wrongLength }
                guard bytes.count <= WireLimits.maximumTextCount,
                    let text = String(validating: bytes, as: UTF8.self)
                else { throw outOfRange(name) }
                texts.append(text)
            }
            guard reader.remainingCount == 0 else { throw wrongLength }
            message = .info(
                AccessoryInfo(
                    protocolVersion: version, features: features, telemetryRateHertz: telemetryRate,
                    failsafeTimeout: failsafe, yaw: axes[0], pitch: axes[1],
                    model: texts[0], firmwareVersion: texts[1], serialNumber: texts[2]))
        case .ack:
            let acknowledged = u16()
            guard let acknowledgedType = MessageType(rawValue: u8()) else { throw outOfRange("acked_type") }
            message = .ack(
                Acknowledgement(
                    sequence: acknowledged, acknowledgedType: acknowledgedType,
                    accessoryTime: AccessoryTimestamp(microseconds: u64())))
        case .nack:
            let refused = u16()
            let refusedType = u8()
            guard let reason = Refusal.Reason(rawValue: u8()) else { throw outOfRange("reason") }
            message = .nack(
                Refusal(sequence: refused, refusedTypeCode: refusedType, reason: reason, detail: u16()))
        case .telemetry:
            message = .telemetry(
                Telemetry(
                    accessoryTime: AccessoryTimestamp(microseconds: u64()),
                    yaw: Angle(microradians: i32()), pitch: Angle(microradians: i32()),
                    yawRate: AngularRate(microradiansPerSecond: i32()),
                    pitchRate: AngularRate(microradiansPerSecond: i32()),
                    flags: TelemetryFlags(rawValue: u16())))
        case .event:
            let time = AccessoryTimestamp(microseconds: u64())
            let kind = try AccessoryEvent.Kind.decode(
                kind: u8(), identifier: u8(), value: reader.read()!, outOfRange: outOfRange)
            message = .event(AccessoryEvent(accessoryTime: time, kind: kind))
        case .fault:
            let time = AccessoryTimestamp(microseconds: u64())
            guard let code = FaultReport.Code(rawValue: u8()) else { throw outOfRange("code") }
            let axisCode = u8()
            let axis = Axis(rawValue: axisCode)
            guard axis != nil || axisCode == 0 else { throw outOfRange("axis") }
            message = .fault(
                FaultReport(accessoryTime: time, code: code, axis: axis, isActive: try bool("active")))
        }
        if let field = message.firstInvalidField { throw outOfRange(field) }
        return message
    }
}

extension AccessoryEvent.Kind {
    /// The kind byte, identifier byte and value byte of the event payload.
    var wireFields: (kind: UInt8, identifier: UInt8, value: Int8) {
        func pressed(_ isPressed: Bool) -> Int8 { isPressed ? 1 : 0 }
        switch self {
        case .dockChanged(let isDocked): return (1, 0, pressed(isDocked))
        case .trackingButton(let isPressed): return (2, 0, pressed(isPressed))
        case .shutterButton(let isPressed): return (3, 0, pressed(isPressed))
        case .flipButton(let isPressed): return (4, 0, pressed(isPressed))
        case .zoom(let steps): return (5, 0, steps)
        case .customButton(let identifier, let isPressed): return (6, identifier, pressed(isPressed))
        }
    }

    /// Decodes the three event bytes, throwing `outOfRange(field)` for a bad one.
    static func decode(
        kind: UInt8, identifier: UInt8, value: Int8, outOfRange: (String) -> FrameError
    ) throws(FrameError) -> Self {
        if kind != 6 && identifier != 0 { throw outOfRange("id") }
        func pressed(_ field: String) throws(FrameError) -> Bool {
            guard value == 0 || value == 1 else { throw outOfRange(field) }
            return value == 1
        }
        switch kind {
        case 1: return .dockChanged(isDocked: try pressed("docked"))
        case 2: return .trackingButton(isPressed: try pressed("pressed"))
        case 3: return .shutterButton(isPressed: try pressed("pressed"))
        case 4: return .flipButton(isPressed: try pressed("pressed"))
        case 5: return .zoom(steps: value)
        case 6: return .customButton(identifier: identifier, isPressed: try pressed("pressed"))
        default: throw outOfRange("event")
        }
    }
}
