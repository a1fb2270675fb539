/// The worked example of `Protocol/dock-serial.md`: hello, info, velocity, its acknowledgement,
/// telemetry and a button event, in the order they cross the line. The specification prints these
/// frames in hex, and `Protocol/vectors/example-session.json` holds the same bytes. The telemetry
/// is what an ideal dock measures 10 ms after the velocity command, accelerating at its maximum.
public enum ExampleSession {
    /// One step of the example.
    public struct Step: Hashable, Sendable {
        /// Who sends the frame.
        public var direction: MessageType.Direction
        /// The frame.
        public var frame: Frame
    }

    /// The accessory of the example: the simulator's default dock.
    public static let info = AccessoryInfo(
        protocolVersion: 1,
        features: [.trackingButton, .shutterButton, .flipButton, .zoomControl, .colorIndicator, .dockSensor],
        telemetryRateHertz: 50, failsafeTimeout: .milliseconds(500),
        yaw: AxisLimits(
            minimum: Angle(microradians: -2_967_060), maximum: Angle(microradians: 2_967_060),
            maximumSpeed: AngularRate(microradiansPerSecond: 3_141_593),
            maximumAcceleration: AngularAcceleration(microradiansPerSecondSquared: 12_000_000)),
        pitch: AxisLimits(
            minimum: Angle(microradians: -523_599), maximum: Angle(microradians: 1_047_198),
            maximumSpeed: AngularRate(microradiansPerSecond: 1_570_796),
            maximumAcceleration: AngularAcceleration(microradiansPerSecondSquared: 8_000_000)),
        model: "DK-1 Demo", firmwareVersion: "1.0.0", serialNumber: "SIM-0001")

    /// The steps, in order.
    public static let steps: [Step] = [
        Step(
            direction: .hostToAccessory,
            frame: Frame(sequence: 0, message: .hello(Hello(minimumVersion: 1, maximumVersion: 1)))),
        Step(direction: .accessoryToHost, frame: Frame(sequence: 0, message: .info(info))),
        Step(
            direction: .hostToAccessory,
            frame: Frame(
                sequence: 1,
                message: .setVelocity(
                    VelocityCommand(
                        yawRate: AngularRate(microradiansPerSecond: 500_000),
                        pitchRate: AngularRate(microradiansPerSecond: -100_000),
                        timeToLive: .milliseconds(500))))),
        Step(
            direction: .accessoryToHost,
            frame: Frame(
                sequence: 1,
                message: .ack(
                    Acknowledgement(
                        sequence: 1, acknowledgedType: .setVelocity,
                        accessoryTime: AccessoryTimestamp(microseconds: 1_250_000))))),
        Step(
            direction: .accessoryToHost,
            frame: Frame(
                sequence: 2,
                message: .telemetry(
                    Telemetry(
                        accessoryTime: AccessoryTimestamp(microseconds: 1_260_000),
                        yaw: Angle(microradians: 600), pitch: Angle(microradians: -400),
                        yawRate: AngularRate(microradiansPerSecond: 120_000),
                        pitchRate: AngularRate(microradiansPerSecond: -80_000),
                        flags: [.yawMoving, .pitchMoving, .docked])))),
        Step(
            direction: .accessoryToHost,
            frame: Frame(
                sequence: 3,
                message: .event(
                    AccessoryEvent(
                        accessoryTime: AccessoryTimestamp(microseconds: 1_270_000),
                        kind: .trackingButton(isPressed: true))))),
    ]
}
