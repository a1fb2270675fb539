/// Sony VISCA over IP (UDP 52381): 8-byte header — payload type (UInt16 BE), payload length (UInt16 BE), sequence number (UInt32 BE) — then the payload.
///
/// One datagram carries one message. The host numbers its messages, adding 1 each time and
/// wrapping to 0; the camera answers with the number of the message it answers. A resend keeps
/// its number: a camera that has already carried it out answers `ERROR 0F 01` (sequence number
/// abnormality) instead of doing it twice. `RESET` (control command `01`) sets the camera's
/// expected number back to 0 and is answered by a control reply `01`. (Sony SRG-300H technical
/// manual, pp. 31–32.)
public struct VISCAIPMessage: Hashable, Sendable {
    /// What the payload holds (bytes 0–1 of the header).
    public enum PayloadType: UInt16, Hashable, Sendable, CaseIterable {
        /// A VISCA command packet, host to camera.
        case command = 0x0100
        /// A VISCA inquiry packet, host to camera.
        case inquiry = 0x0110
        /// A VISCA reply (ACK, Completion, inquiry data or error), camera to host.
        case reply = 0x0111
        /// A VISCA device setting command (Sony's network settings), host to camera.
        case deviceSetting = 0x0120
        /// A control command: `RESET` (`01`) from the host, `ERROR` (`0F yy`) from the camera.
        case controlCommand = 0x0200
        /// A control reply: `ACK` (`01`) to a `RESET`; some cameras send `ERROR` with this type.
        case controlReply = 0x0201

        /// The type's name in the vectors.
        public var name: String {
            switch self {
            case .command: "command"
            case .inquiry: "inquiry"
            case .reply: "reply"
            case .deviceSetting: "device_setting"
            case .controlCommand: "control_command"
            case .controlReply: "control_reply"
            }
        }
    }

    /// The `yy` of a control `ERROR 0F yy`.
    public enum ControlError: UInt8, Hashable, Sendable, CaseIterable {
        /// `0F 01`: abnormality in the sequence number — the message was a resend of one already
        /// carried out (or its number was not the one expected).
        case sequenceNumber = 0x01
        /// `0F 02`: abnormality in the message (its payload type).
        case message = 0x02

        /// The error's name in the vectors.
        public var name: String {
            switch self {
            case .sequenceNumber: "sequence_number"
            case .message: "message"
            }
        }
    }

    /// What a control message says.
    public enum Control: Hashable, Sendable {
        /// `RESET` (`01` as a control command): sequence numbers start again from 0.
        case reset
        /// `ACK` (`01` as a control reply): the answer to `RESET`.
        case acknowledge
        /// `ERROR` (`0F yy`), as a control command (Sony) or a control reply (some others).
        case error(ControlError)
    }

    /// The smallest datagram: the header and one payload byte.
    public static let headerCount = 8
    /// The most payload bytes Sony allows (one VISCA packet).
    public static let maximumPayloadCount = 16

    /// What the payload holds.
    public var payloadType: PayloadType
    /// The message's number.
    public var sequence: UInt32
    /// The payload: a VISCA packet, or a control message's bytes.
    public var payload: [UInt8]

    /// Creates a message.
    public init(payloadType: PayloadType, sequence: UInt32, payload: [UInt8]) {
        self.payloadType = payloadType
        self.sequence = sequence
        self.payload = payload
    }

    /// The datagram: header, then payload.
    ///
    /// - Precondition: the payload has at most 65535 bytes (a receiver takes only 1 to 16).
    public func encode() -> [UInt8] {
        precondition(payload.count <= Int(UInt16.max), "VISCA over IP payload of \(payload.count) bytes")
        let type = payloadType.rawValue, length = UInt16(payload.count)
        return [
            UInt8(type >> 8), UInt8(type & 0xFF), UInt8(length >> 8), UInt8(length & 0xFF),
            UInt8(sequence >> 24), UInt8(sequence >> 16 & 0xFF), UInt8(sequence >> 8 & 0xFF), UInt8(sequence & 0xFF),
        ]
            + payload
    }

    /// Parses one datagram.
    ///
    /// - Throws: `.datagramTooShort` under 8 bytes, `.unknownPayloadType`,
    ///   `.payloadLengthMismatch` when the header's length is not what follows it,
    ///   `.payloadLengthOutOfRange` for an empty payload or one over 16 bytes. The payload itself
    ///   is not parsed (`VISCACommand.decode`, `VISCAReply.decode` or `control` do that).
    public static func decode(_ datagram: [UInt8]) throws(VISCAError) -> VISCAIPMessage {
        guard datagram.count >= headerCount else { throw .datagramTooShort(byteCount: datagram.count) }
        let typeCode = UInt16(datagram[0]) << 8 | UInt16(datagram[1])
        guard let type = PayloadType(rawValue: typeCode) else { throw .unknownPayloadType(typeCode) }
        let declared = Int(datagram[2]) << 8 | Int(datagram[3])
        let actual = datagram.count - headerCount
        guard declared == actual else { throw .payloadLengthMismatch(declared: declared, actual: actual) }
        guard (1...maximumPayloadCount).contains(actual) else { throw .payloadLengthOutOfRange(actual) }
        let sequence = datagram[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return VISCAIPMessage(payloadType: type, sequence: sequence, payload: Array(datagram[headerCount...]))
    }

    /// The host's `RESET`: a control command with payload `01`.
    public static func resetSequence(sequence: UInt32) -> VISCAIPMessage {
        VISCAIPMessage(payloadType: .controlCommand, sequence: sequence, payload: [0x01])
    }

    /// The camera's answer to `RESET`: a control reply with payload `01`.
    public static func resetAcknowledgement(sequence: UInt32) -> VISCAIPMessage {
        VISCAIPMessage(payloadType: .controlReply, sequence: sequence, payload: [0x01])
    }

    /// The camera's `ERROR 0F yy` about the message numbered `sequence`, as Sony sends it (a
    /// control command).
    public static func controlError(_ error: ControlError, sequence: UInt32) -> VISCAIPMessage {
        VISCAIPMessage(payloadType: .controlCommand, sequence: sequence, payload: [0x0F, error.rawValue])
    }

    /// A VISCA packet in a datagram: a command or inquiry from the host (by
    /// `VISCACommand.isInquiry`), typed `command` or `inquiry`.
    public static func command(_ command: VISCACommand, address: UInt8 = 1, sequence: UInt32) -> VISCAIPMessage {
        VISCAIPMessage(
            payloadType: command.isInquiry ? .inquiry : .command, sequence: sequence,
            payload: command.encode(address: address))
    }

    /// A camera's reply in a datagram, typed `reply`.
    public static func reply(_ reply: VISCAReply, address: UInt8 = 1, sequence: UInt32) -> VISCAIPMessage {
        VISCAIPMessage(payloadType: .reply, sequence: sequence, payload: reply.encode(address: address))
    }

    /// What a control message says: nil for a VISCA payload type or a control payload that is
    /// neither `01` nor `0F 01`/`0F 02`. `ERROR` is read from either control type.
    public var control: Control? {
        switch payloadType {
        case .command, .inquiry, .reply, .deviceSetting:
            return nil
        case .controlCommand, .controlReply:
            if payload == [0x01] { return payloadType == .controlCommand ? .reset : .acknowledge }
            if payload.count == 2, payload[0] == 0x0F, let error = ControlError(rawValue: payload[1]) {
                return .error(error)
            }
            return nil
        }
    }
}
