/// The ranges of `Protocol/dock-serial.md`, checked on every message that is encoded or decoded.

extension Message {
    /// The specification name of the first field outside its range, or nil when every field is
    /// valid.
    public var firstInvalidField: String? {
        switch self {
        case .hello(let hello):
            if hello.minimumVersion < 1 { return "min_version" }
            if hello.maximumVersion < hello.minimumVersion { return "max_version" }
        case .heartbeat, .stop, .setIndicator, .nack:
            break
        case .setVelocity(let command):
            if !isValidRate(command.yawRate) { return "yaw_rate_urad_s" }
            if !isValidRate(command.pitchRate) { return "pitch_rate_urad_s" }
            if !isWithin(command.timeToLive, WireLimits.velocityTimeToLiveMilliseconds) {
                return "ttl_ms"
            }
        case .moveTo(let move):
            if !isValidAngle(move.yaw) { return "yaw_urad" }
            if !isValidAngle(move.pitch) { return "pitch_urad" }
            switch move.pace {
            case .duration(let duration):
                if !isWithin(duration, WireLimits.moveDurationMilliseconds) { return "duration_ms" }
            case .maximumSpeed(let speed):
                if !isValidSpeed(speed) { return "max_speed_urad_s" }
            }
        case .info(let info):
            return info.firstInvalidField
        case .ack(let ack):
            if ack.acknowledgedType.direction != .hostToAccessory { return "acked_type" }
        case .telemetry(let telemetry):
            if !isValidAngle(telemetry.yaw) { return "yaw_urad" }
            if !isValidAngle(telemetry.pitch) { return "pitch_urad" }
            if !isValidRate(telemetry.yawRate) { return "yaw_rate_urad_s" }
            if !isValidRate(telemetry.pitchRate) { return "pitch_rate_urad_s" }
            if !TelemetryFlags.defined.isSuperset(of: telemetry.flags) { return "flags" }
        case .event(let event):
            if case .zoom(let steps) = event.kind, steps == 0 { return "steps" }
            if case .customButton(let identifier, _) = event.kind, identifier == 0 { return "id" }
        case .fault:
            break
        }
        return nil
    }
}

extension AccessoryInfo {
    fileprivate var firstInvalidField: String? {
        if protocolVersion < 1 { return "protocol_version" }
        if features.rawValue & ~AccessoryFeatures.allDefined.rawValue != 0 { return "features" }
        if !WireLimits.telemetryRateHertz.contains(telemetryRateHertz) { return "telemetry_rate_hz" }
        if !isWithin(failsafeTimeout, WireLimits.failsafeTimeoutMilliseconds) {
            return "failsafe_timeout_ms"
        }
        for (name, axis) in [("yaw", yaw), ("pitch", pitch)] {
            if let field = axis.firstInvalidField { return "\(name).\(field)" }
        }
        for (name, text) in [("model", model), ("firmware", firmwareVersion), ("serial", serialNumber)]
        where text.utf8.count > WireLimits.maximumTextCount {
            return name
        }
        return nil
    }
}

extension AxisLimits {
    fileprivate var firstInvalidField: String? {
        if !isValidAngle(minimum) || minimum.microradians > 0 { return "min_urad" }
        if !isValidAngle(maximum) || maximum.microradians < 0 { return "max_urad" }
        if !isValidSpeed(maximumSpeed) { return "max_speed_urad_s" }
        if maximumAcceleration.microradiansPerSecondSquared == 0
            || maximumAcceleration.microradiansPerSecondSquared
                > WireLimits.maximumAccelerationMicroradiansPerSecondSquared
        {
            return "max_accel_urad_s2"
        }
        return nil
    }
}

extension AccessoryFeatures {
    /// Every bit that version 1 defines.
    static let allDefined = AccessoryFeatures(rawValue: 0x3F)
}

private func isValidAngle(_ angle: Angle) -> Bool {
    angle.microradians.magnitude <= WireLimits.angleMagnitudeMicroradians.magnitude
}

private func isValidRate(_ rate: AngularRate) -> Bool {
    rate.microradiansPerSecond.magnitude
        <= WireLimits.rateMagnitudeMicroradiansPerSecond.magnitude
}

private func isValidSpeed(_ speed: AngularRate) -> Bool {
    speed.microradiansPerSecond > 0 && isValidRate(speed)
}

private func isWithin(_ duration: Duration, _ range: ClosedRange<UInt32>) -> Bool {
    guard let milliseconds = duration.wholeMilliseconds else { return false }
    return range.contains(milliseconds)
}
