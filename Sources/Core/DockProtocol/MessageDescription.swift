/// One-line human-readable forms of messages, in SI units, for logs and tools.

extension Frame: CustomStringConvertible {
    public var description: String { "#\(sequence) \(message)" }
}

extension Message: CustomStringConvertible {
    public var description: String {
        switch self {
        case .hello(let hello):
            return "hello versions=\(hello.minimumVersion)...\(hello.maximumVersion)"
        case .heartbeat:
            return "heartbeat"
        case .setVelocity(let command):
            return "set_velocity yaw_rate=\(command.yawRate) pitch_rate=\(command.pitchRate)"
                + " ttl=\(milliseconds(command.timeToLive))"
        case .moveTo(let move):
            let pace =
                switch move.pace {
                case .duration(let duration): "duration=\(milliseconds(duration))"
                case .maximumSpeed(let speed): "max_speed=\(speed)"
                }
            return "move_to yaw=\(move.yaw) pitch=\(move.pitch) \(pace)"
        case .stop:
            return "stop"
        case .setIndicator(let indicator):
            return "set_indicator \(indicator.pattern.name) rgb=\(indicator.red),\(indicator.green),\(indicator.blue)"
        case .info(let info):
            let features = AccessoryFeatures.named.filter { info.features.contains($0.feature) }
                .map(\.name).joined(separator: ",")
            return "info version=\(info.protocolVersion) model=\"\(info.model)\""
                + " firmware=\"\(info.firmwareVersion)\" serial=\"\(info.serialNumber)\""
                + " telemetry=\(info.telemetryRateHertz) Hz failsafe=\(milliseconds(info.failsafeTimeout))"
                + " yaw=[\(info.yaw.minimum), \(info.yaw.maximum)] max \(info.yaw.maximumSpeed)"
                + " pitch=[\(info.pitch.minimum), \(info.pitch.maximum)] max \(info.pitch.maximumSpeed)"
                + " features=\(features.isEmpty ? "none" : features)"
        case .ack(let ack):
            return "ack #\(ack.sequence) \(ack.acknowledgedType) at \(ack.accessoryTime)"
        case .nack(let refusal):
            let type =
                MessageType(rawValue: refusal.refusedTypeCode)?.name
                ?? "type 0x\(hex8(refusal.refusedTypeCode))"
            return "nack #\(refusal.sequence) \(type) \(refusal.reason.name) detail=\(refusal.detail)"
        case .telemetry(let telemetry):
            let flags = TelemetryFlags.named.filter { telemetry.flags.contains($0.flag) }
                .map(\.name).joined(separator: ",")
            return "telemetry \(telemetry.accessoryTime) yaw=\(telemetry.yaw) pitch=\(telemetry.pitch)"
                + " yaw_rate=\(telemetry.yawRate) pitch_rate=\(telemetry.pitchRate)"
                + " flags=\(flags.isEmpty ? "none" : flags)"
        case .event(let event):
            let what =
                switch event.kind {
                case .dockChanged(let isDocked): isDocked ? "docked" : "undocked"
                case .trackingButton(let isPressed): "tracking_button \(isPressed ? "pressed" : "released")"
                case .shutterButton(let isPressed): "shutter_button \(isPressed ? "pressed" : "released")"
                case .flipButton(let isPressed): "flip_button \(isPressed ? "pressed" : "released")"
                case .zoom(let steps): "zoom steps=\(steps)"
                case .customButton(let identifier, let isPressed):
                    "custom_button \(identifier) \(isPressed ? "pressed" : "released")"
                }
            return "event \(event.accessoryTime) \(what)"
        case .fault(let fault):
            return "fault \(fault.accessoryTime) \(fault.code.name) axis=\(fault.axis?.name ?? "none")"
                + " \(fault.isActive ? "raised" : "cleared")"
        }
    }
}

private func milliseconds(_ duration: Duration) -> String {
    "\(duration.wholeMilliseconds.map(String.init) ?? "?") ms"
}
