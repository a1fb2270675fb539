/// A message from a camera to the host. `y` in the byte patterns is the camera's address + 8, so
/// camera 1 answers with `90`.
public enum VISCAReply: Hashable, Sendable {
    /// `y0 4z FF`: the command was accepted into socket z (1 or 2).
    case ack(socket: UInt8)
    /// `y0 5z FF`: the command in socket z has been carried out; `y0 50 FF` also answers IF_Clear.
    case completion(socket: UInt8)
    /// `y0 50 <data...> FF`: an inquiry's answer (data non-empty; read it with `VISCAVersion`,
    /// `VISCAPanTiltPosition`, `VISCAZoomPosition` or `VISCAPanTiltMaxSpeed`).
    case inquiryReply(data: [UInt8])
    /// `y0 6z EE FF`: the command in socket z (0 for one that never got a socket) failed.
    case error(socket: UInt8, code: VISCAErrorCode)
    /// `88 30 0w FF`: the answer to address set; w is the last camera's address + 1.
    case addressSet(next: UInt8)
    /// `y0 38 FF`: a camera was added to or removed from the chain (sent at power-on); the host
    /// must set the addresses again.
    case networkChange

    /// The reply's name in `Protocol/visca.md` and the vectors.
    public var name: String {
        switch self {
        case .ack: "ack"
        case .completion: "completion"
        case .inquiryReply: "inquiry_reply"
        case .error: "error"
        case .addressSet: "address_set"
        case .networkChange: "network_change"
        }
    }

    /// The bytes on the wire from the camera at `address` (1...7): the header is `y0` with
    /// y = address + 8 (ignored for `addressSet`, which is always `88`).
    ///
    /// - Precondition: `address` is 1...7; a socket and `next` fit a nibble; inquiry data is
    ///   non-empty and holds no 0xFF.
    public func encode(address: UInt8) -> [UInt8] {
        if case .addressSet(let next) = self {
            precondition(next <= 0x0F, "VISCA address set reply \(next) does not fit a nibble")
            return [0x88, 0x30, next, 0xFF]
        }
        precondition((1...7).contains(address), "VISCA camera address \(address) is outside 1...7")
        let header = (address + 8) << 4
        switch self {
        case .addressSet:
            preconditionFailure("address set is encoded above")
        case .ack(let socket):
            return [header, 0x40 | Self.socket(socket), 0xFF]
        case .completion(let socket):
            return [header, 0x50 | Self.socket(socket), 0xFF]
        case .inquiryReply(let data):
            precondition(!data.isEmpty && !data.contains(0xFF), "VISCA inquiry data \(data) is empty or holds 0xFF")
            return [header, 0x50] + data + [0xFF]
        case .error(let socket, let code):
            precondition(code.rawValue != 0xFF, "VISCA error code 0xFF would end the packet")
            return [header, 0x60 | Self.socket(socket), code.rawValue, 0xFF]
        case .networkChange:
            return [header, 0x38, 0xFF]
        }
    }

    private static func socket(_ socket: UInt8) -> UInt8 {
        precondition(socket <= 0x0F, "VISCA socket \(socket) does not fit a nibble")
        return socket
    }

    /// Host side: parses one packet (header ... FF).
    ///
    /// - Returns: the address of the camera that sent it (1...7, or 8 for the broadcast address
    ///   set reply) and the reply.
    /// - Throws: a named `VISCAError`: bad framing as for commands, `.badHeader` for a first byte
    ///   that is not `y0` (y 9...F) or `88`, `.unknownReply`, `.wrongLength`, `.badNibble` for an
    ///   address set reply over 0x0F.
    public static func decode(_ packet: [UInt8]) throws(VISCAError) -> (address: UInt8, reply: VISCAReply) {
        try checkFraming(packet)
        let header = packet[0]
        let reader = PacketReader(packet)
        if header == 0x88 {
            guard reader.byte(1) == 0x30, let next = reader.byte(2) else { throw .unknownReply(bytes: packet) }
            try reader.expect("address_set", count: 4)
            guard next <= 0x0F else { throw .badNibble(message: "address_set", index: 2, byte: next) }
            return (8, .addressSet(next: next))
        }
        guard header & 0x0F == 0, header >= 0x90 else { throw .badHeader(header) }
        let address = (header >> 4) - 8
        let kind = packet[1]
        let socket = kind & 0x0F
        switch kind >> 4 {
        case 0x4:
            try reader.expect("ack", count: 3)
            return (address, .ack(socket: socket))
        case 0x5:
            if packet.count == 3 { return (address, .completion(socket: socket)) }
            guard socket == 0 else { throw .wrongLength(message: "completion", expected: 3, actual: packet.count) }
            return (address, .inquiryReply(data: Array(packet[2..<packet.count - 1])))
        case 0x6:
            try reader.expect("error", count: 4)
            return (address, .error(socket: socket, code: VISCAErrorCode(rawValue: packet[2])))
        case 0x3 where kind == 0x38:
            try reader.expect("network_change", count: 3)
            return (address, .networkChange)
        default:
            throw .unknownReply(bytes: packet)
        }
    }
}
