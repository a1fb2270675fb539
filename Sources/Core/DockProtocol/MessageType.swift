/// The first byte of every frame body: which message the payload holds. Host-to-accessory types
/// are 0x01–0x7F, accessory-to-host types 0x81–0xFF.
public enum MessageType: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Host → accessory: opens a session and offers protocol versions.
    case hello = 0x01
    /// Host → accessory: keeps the link alive when there is nothing else to say.
    case heartbeat = 0x02
    /// Host → accessory: turn both axes at given rates for a time-to-live.
    case setVelocity = 0x03
    /// Host → accessory: move to an absolute orientation.
    case moveTo = 0x04
    /// Host → accessory: decelerate both axes to a standstill.
    case stop = 0x05
    /// Host → accessory: set the indicator light.
    case setIndicator = 0x06
    /// Accessory → host: identity, capabilities and limits; the answer to hello.
    case info = 0x81
    /// Accessory → host: a host command was accepted.
    case ack = 0x82
    /// Accessory → host: a host command was refused, with the reason.
    case nack = 0x83
    /// Accessory → host: periodic pose, rates and status.
    case telemetry = 0x84
    /// Accessory → host: dock state changed or a button was used.
    case event = 0x85
    /// Accessory → host: a fault was raised or cleared.
    case fault = 0x86

    /// Who sends this message.
    public var direction: Direction { rawValue < 0x80 ? .hostToAccessory : .accessoryToHost }

    /// The message's name in `Protocol/dock-serial.md` and in the test vectors.
    public var name: String {
        switch self {
        case .hello: "hello"
        case .heartbeat: "heartbeat"
        case .setVelocity: "set_velocity"
        case .moveTo: "move_to"
        case .stop: "stop"
        case .setIndicator: "set_indicator"
        case .info: "info"
        case .ack: "ack"
        case .nack: "nack"
        case .telemetry: "telemetry"
        case .event: "event"
        case .fault: "fault"
        }
    }

    /// The message type with the given specification name.
    public init?(name: String) {
        guard let type = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = type
    }

    public var description: String { name }

    /// The two ends of the link.
    public enum Direction: Hashable, Sendable {
        /// Sent by the host (dockd) to the accessory.
        case hostToAccessory
        /// Sent by the accessory to the host.
        case accessoryToHost
    }
}
