public import DockProtocol

/// Everything that makes one simulated dock different from another.
public struct AccessoryConfiguration: Hashable, Sendable {
    /// Model name reported in `info`.
    public var model: String
    /// Firmware version reported in `info`.
    public var firmwareVersion: String
    /// Serial number reported in `info`.
    public var serialNumber: String
    /// Buttons, sensors and lights present.
    public var features: AccessoryFeatures
    /// Telemetry frames per second (1–200).
    public var telemetryRateHertz: Int
    /// Host silence after which the motors stop.
    public var failsafeTimeout: Duration
    /// The protocol versions the firmware speaks.
    public var supportedVersions: ClosedRange<UInt8>
    /// The yaw axis.
    public var yaw: AxisParameters
    /// The pitch axis.
    public var pitch: AxisParameters
    /// Whether a camera is mounted when the simulation starts.
    public var isDocked: Bool

    /// Creates a configuration.
    public init(
        model: String = "DK-1 Demo", firmwareVersion: String = "1.0.0", serialNumber: String = "SIM-0001",
        features: AccessoryFeatures = [
            .trackingButton, .shutterButton, .flipButton, .zoomControl,
            .colorIndicator, .dockSensor,
        ],
        telemetryRateHertz: Int = 50, failsafeTimeout: Duration = .milliseconds(500),
        supportedVersions: ClosedRange<UInt8> = 1...1,
        yaw: AxisParameters = .defaultYaw, pitch: AxisParameters = .defaultPitch, isDocked: Bool = true
    ) {
        self.model = model
        self.firmwareVersion = firmwareVersion
        self.serialNumber = serialNumber
        self.features = features
        self.telemetryRateHertz = telemetryRateHertz
        self.failsafeTimeout = failsafeTimeout
        self.supportedVersions = supportedVersions
        self.yaw = yaw
        self.pitch = pitch
        self.isDocked = isDocked
    }

    /// The `info` message this dock answers `hello` with, for a chosen version; nil when a value
    /// cannot be represented on the wire. Text longer than a text field holds is cut to fit, as the
    /// specification tells a sender to (`WireLimits.fieldText`).
    public func info(version: UInt8) -> AccessoryInfo? {
        func limits(_ axis: AxisParameters) -> AxisLimits? {
            guard let minimum = Angle(radians: axis.minimumRadians),
                let maximum = Angle(radians: axis.maximumRadians),
                let speed = AngularRate(radiansPerSecond: axis.maximumSpeedRadiansPerSecond),
                let acceleration = UInt32(exactly: (axis.maximumAccelerationRadiansPerSecondSquared * 1e6).rounded())
            else { return nil }
            return AxisLimits(
                minimum: minimum, maximum: maximum, maximumSpeed: speed,
                maximumAcceleration: AngularAcceleration(microradiansPerSecondSquared: acceleration))
        }
        guard let yawLimits = limits(yaw), let pitchLimits = limits(pitch),
            let rate = UInt8(exactly: telemetryRateHertz)
        else { return nil }
        let info = AccessoryInfo(
            protocolVersion: version, features: features, telemetryRateHertz: rate,
            failsafeTimeout: failsafeTimeout, yaw: yawLimits, pitch: pitchLimits,
            model: WireLimits.fieldText(model), firmwareVersion: WireLimits.fieldText(firmwareVersion),
            serialNumber: WireLimits.fieldText(serialNumber))
        return Message.info(info).firstInvalidField == nil ? info : nil
    }
}
