/// Why a run of bytes between two delimiters did not yield a message. The decoder reports the
/// error and carries on with the next frame.
public enum FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// More than `WireLimits.maximumEncodedCount` bytes arrived without a delimiter; they are
    /// dropped up to the next delimiter.
    case oversize
    /// The frame is cut short: its stuffing runs past the delimiter, or its body is shorter than
    /// a header and a checksum.
    case truncated(byteCount: Int)
    /// The CRC-32C does not match the body: the bytes were damaged on the line.
    case checksumMismatch(computed: UInt32, received: UInt32)
    /// The checksum is good but the type byte names no message of this protocol version.
    case unknownType(code: UInt8, sequence: UInt16)
    /// The payload is not as long as the message type requires.
    case wrongPayloadLength(type: MessageType, sequence: UInt16, byteCount: Int)
    /// A field holds a value outside its range; `field` is its name in the specification.
    case valueOutOfRange(type: MessageType, sequence: UInt16, field: String)

    /// The error's name in the specification and the test vectors.
    public var name: String {
        switch self {
        case .oversize: "oversize"
        case .truncated: "truncated"
        case .checksumMismatch: "checksum_mismatch"
        case .unknownType: "unknown_type"
        case .wrongPayloadLength: "wrong_payload_length"
        case .valueOutOfRange: "value_out_of_range"
        }
    }

    /// The sequence number of the damaged frame, when its checksum was good enough to trust it.
    public var sequence: UInt16? {
        switch self {
        case .oversize, .truncated, .checksumMismatch: nil
        case .unknownType(_, let sequence), .wrongPayloadLength(_, let sequence, _),
            .valueOutOfRange(_, let sequence, _):
            sequence
        }
    }

    /// The type byte of the damaged frame, when its checksum was good enough to trust it.
    public var typeCode: UInt8? {
        switch self {
        case .oversize, .truncated, .checksumMismatch: nil
        case .unknownType(let code, _): code
        case .wrongPayloadLength(let type, _, _), .valueOutOfRange(let type, _, _): type.rawValue
        }
    }

    public var description: String {
        switch self {
        case .oversize:
            "frame longer than \(WireLimits.maximumEncodedCount) bytes, dropped up to the next delimiter"
        case .truncated(let byteCount):
            "frame cut short (\(byteCount) bytes)"
        case .checksumMismatch(let computed, let received):
            "CRC-32C mismatch: computed \(hex32(computed)), frame says \(hex32(received))"
        case .unknownType(let code, let sequence):
            "unknown message type 0x\(hex8(code)) (sequence \(sequence))"
        case .wrongPayloadLength(let type, let sequence, let byteCount):
            "\(type) payload of \(byteCount) bytes has the wrong length (sequence \(sequence))"
        case .valueOutOfRange(let type, let sequence, let field):
            "\(type) field \(field) is out of range (sequence \(sequence))"
        }
    }
}

/// A message that cannot be encoded because a field is outside its range.
public struct InvalidFieldError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message type.
    public var type: MessageType
    /// The field's name in the specification.
    public var field: String

    /// Creates the error for `field` of a message of `type`.
    public init(type: MessageType, field: String) {
        self.type = type
        self.field = field
    }

    public var description: String { "\(type) field \(field) is out of range" }
}

func hex8(_ value: UInt8) -> String {
    let digits = String(value, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
}

func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
