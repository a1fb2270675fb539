/// The numbered fields of each message, in the order of the specification's tables. An accessory
/// puts a field's number in the `detail` of an `out_of_range` refusal.
extension MessageType {
    /// The field names of this message, first field first.
    public var fieldNames: [String] {
        switch self {
        case .hello: ["min_version", "max_version"]
        case .heartbeat, .stop: []
        case .setVelocity: ["yaw_rate_urad_s", "pitch_rate_urad_s", "ttl_ms"]
        case .moveTo: ["yaw_urad", "pitch_urad", "pace", "duration_ms|max_speed_urad_s"]
        case .setIndicator: ["pattern", "red", "green", "blue"]
        case .info:
            [
                "protocol_version", "features", "telemetry_rate_hz", "failsafe_timeout_ms",
                "yaw.min_urad", "yaw.max_urad", "yaw.max_speed_urad_s", "yaw.max_accel_urad_s2",
                "pitch.min_urad", "pitch.max_urad", "pitch.max_speed_urad_s", "pitch.max_accel_urad_s2",
                "model", "firmware", "serial",
            ]
        case .ack: ["acked_seq", "acked_type", "time_us"]
        case .nack: ["refused_seq", "refused_type", "reason", "detail"]
        case .telemetry: ["time_us", "yaw_urad", "pitch_urad", "yaw_rate_urad_s", "pitch_rate_urad_s", "flags"]
        case .event: ["time_us", "event", "id", "value"]
        case .fault: ["time_us", "code", "axis", "active"]
        }
    }

    /// The 1-based number of the field called `name` (alternatives of one field, such as
    /// `duration_ms` and `max_speed_urad_s`, share a number; the names of an event's value —
    /// `docked`, `pressed`, `steps` — are field 4), or 0 when there is no such field.
    public func fieldNumber(of name: String) -> UInt16 {
        if self == .event, ["docked", "pressed", "steps"].contains(name) { return 4 }
        for (index, names) in fieldNames.enumerated()
        where names.split(separator: "|").contains(where: { $0 == name }) {
            return UInt16(index + 1)
        }
        return 0
    }

    /// The payload length of this message type, or nil for `info`, whose length varies.
    public var fixedPayloadCount: Int? { Message.payloadCount(of: self) }
}
