/// The `EE` byte of a VISCA error reply `y0 6z EE FF`. Any byte can arrive; the six the manuals
/// define have names.
public struct VISCAErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The byte on the wire.
    public var rawValue: UInt8

    /// Wraps a byte from the wire.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `01`: the message was longer than the camera takes.
    public static let messageLength = VISCAErrorCode(rawValue: 0x01)
    /// `02`: a command the camera does not support, or one with illegal parameters.
    public static let syntax = VISCAErrorCode(rawValue: 0x02)
    /// `03`: both command sockets are busy; reported on socket 0 (`y0 60 03 FF`).
    public static let bufferFull = VISCAErrorCode(rawValue: 0x03)
    /// `04`: the command in the socket was cancelled (its Completion will not come).
    public static let cancelled = VISCAErrorCode(rawValue: 0x04)
    /// `05`: a cancel named a socket with nothing running in it.
    public static let noSocket = VISCAErrorCode(rawValue: 0x05)
    /// `41`: the command cannot be carried out in the camera's current mode.
    public static let notExecutable = VISCAErrorCode(rawValue: 0x41)

    /// Every code with a name, in the order of the manuals.
    public static let named: [VISCAErrorCode] = [.messageLength, .syntax, .bufferFull, .cancelled, .noSocket, .notExecutable]

    /// The code's name in `Protocol/visca.md` and the vectors (`unknown_xx` for an undefined byte).
    public var name: String {
        switch rawValue {
        case 0x01: "message_length"
        case 0x02: "syntax"
        case 0x03: "buffer_full"
        case 0x04: "cancelled"
        case 0x05: "no_socket"
        case 0x41: "not_executable"
        default: "unknown_\(hex(rawValue))"
        }
    }

    /// The code whose `name` is `name`, for the named codes and `unknown_xx`.
    public init?(name: String) {
        if let code = Self.named.first(where: { $0.name == name }) {
            self = code
        } else if name.hasPrefix("unknown_"), let byte = UInt8(name.dropFirst("unknown_".count), radix: 16) {
            self.init(rawValue: byte)
        } else {
            return nil
        }
    }

    public var description: String { name }
}
