/// Why bytes did not make a VISCA packet, a datagram, a speed table or a profile. Each case has a
/// `name` (the one the golden vectors in `Protocol/vectors/visca/` use) and a message that says
/// what was wrong.
public enum VISCAError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A packet of fewer than 3 bytes: VISCA needs a header, at least one body byte and 0xFF.
    case tooShort(byteCount: Int)
    /// More than 16 bytes without a terminator; the stream decoder drops them up to the next 0xFF.
    case tooLong(byteCount: Int)
    /// The packet's last byte is not the terminator 0xFF.
    case missingTerminator
    /// An 0xFF before the packet's last byte (a packet holds exactly one, at its end).
    case earlyTerminator(index: Int)
    /// Bytes that came where a header byte (bit 7 set) was due; the stream decoder drops them up
    /// to the next header byte or 0xFF.
    case noHeader(byteCount: Int)
    /// A first byte this side does not accept: a camera takes 0x81–0x87 (0x88 only for a
    /// broadcast address set or IF_Clear); a host takes 0x90–0xF0 and 0x88.
    case badHeader(UInt8)
    /// A well-framed command that names nothing this codec knows (the camera answers syntax error).
    case unknownCommand(bytes: [UInt8])
    /// A well-framed reply that is none of ACK, Completion, inquiry data, error, address set or
    /// network change.
    case unknownReply(bytes: [UInt8])
    /// A known command or reply with the wrong number of bytes for it.
    case wrongLength(message: String, expected: Int, actual: Int)
    /// A byte that carries one nibble (`0p`) has bits set in its upper half.
    case badNibble(message: String, index: Int, byte: UInt8)
    /// A parameter byte outside the values its command defines (a direction that is not 1, 2 or 3).
    case badParameter(message: String, field: String, byte: UInt8)
    /// A VISCA over IP datagram shorter than its 8-byte header.
    case datagramTooShort(byteCount: Int)
    /// A VISCA over IP payload type that Sony's specification does not define.
    case unknownPayloadType(UInt16)
    /// The header's payload length is not the number of bytes that follow it.
    case payloadLengthMismatch(declared: Int, actual: Int)
    /// A payload of 0 or more than 16 bytes (Sony allows 1 to 16).
    case payloadLengthOutOfRange(Int)
    /// A speed table that is empty, does not start at step 1, or is not strictly increasing.
    case invalidSpeedTable(reason: String)
    /// A camera profile with a missing, mistyped or out-of-range field; `field` is its JSON path,
    /// `line` the line of the file it is on.
    case invalidProfile(field: String, line: Int, reason: String)

    /// The error's name in `Protocol/visca.md` and the vectors.
    public var name: String {
        switch self {
        case .tooShort: "too_short"
        case .tooLong: "too_long"
        case .missingTerminator: "missing_terminator"
        case .earlyTerminator: "early_terminator"
        case .noHeader: "no_header"
        case .badHeader: "bad_header"
        case .unknownCommand: "unknown_command"
        case .unknownReply: "unknown_reply"
        case .wrongLength: "wrong_length"
        case .badNibble: "bad_nibble"
        case .badParameter: "bad_parameter"
        case .datagramTooShort: "datagram_too_short"
        case .unknownPayloadType: "unknown_payload_type"
        case .payloadLengthMismatch: "payload_length_mismatch"
        case .payloadLengthOutOfRange: "payload_length_out_of_range"
        case .invalidSpeedTable: "invalid_speed_table"
        case .invalidProfile: "invalid_profile"
        }
    }

    public var description: String {
        switch self {
        case .tooShort(let count):
            "VISCA packet of \(count) bytes is too short (a header, a body and 0xFF make at least 3)"
        case .tooLong(let count):
            "VISCA packet longer than 16 bytes (\(count) without 0xFF), dropped up to the next 0xFF"
        case .missingTerminator:
            "VISCA packet does not end in 0xFF"
        case .earlyTerminator(let index):
            "VISCA packet has 0xFF at byte \(index), before its end"
        case .noHeader(let count):
            "\(count) bytes without a VISCA header byte (bit 7 set), dropped"
        case .badHeader(let byte):
            "VISCA header 0x\(hex(byte)) is not one this side accepts (commands 0x81-0x87, replies 0x90-0xF0, broadcast 0x88)"
        case .unknownCommand(let bytes):
            "unknown VISCA command \(hex(bytes))"
        case .unknownReply(let bytes):
            "unknown VISCA reply \(hex(bytes))"
        case .wrongLength(let message, let expected, let actual):
            "VISCA \(message) must be \(expected) bytes, got \(actual)"
        case .badNibble(let message, let index, let byte):
            "VISCA \(message) byte \(index) is 0x\(hex(byte)), but it carries one nibble (0x00-0x0F)"
        case .badParameter(let message, let field, let byte):
            "VISCA \(message) field \(field) has no meaning for 0x\(hex(byte))"
        case .datagramTooShort(let count):
            "VISCA over IP datagram of \(count) bytes is shorter than its 8-byte header"
        case .unknownPayloadType(let type):
            "VISCA over IP payload type 0x\(hex(UInt8(type >> 8)))\(hex(UInt8(type & 0xFF))) is not defined"
        case .payloadLengthMismatch(let declared, let actual):
            "VISCA over IP header says \(declared) payload bytes, the datagram holds \(actual)"
        case .payloadLengthOutOfRange(let count):
            "VISCA over IP payload of \(count) bytes (1 to 16 are allowed)"
        case .invalidSpeedTable(let reason):
            "invalid speed table: \(reason)"
        case .invalidProfile(let field, let line, let reason):
            "camera profile field \(field) (line \(line)): \(reason)"
        }
    }
}

/// Two lower-case hex digits.
func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
}

/// Bytes as the vectors write them: hex pairs separated by spaces.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map(hex).joined(separator: " ")
}
