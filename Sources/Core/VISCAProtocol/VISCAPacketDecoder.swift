/// Serial/TCP byte stream → packets: bytes up to and including 0xFF; a packet longer than 16 bytes,
/// or bytes before a header byte (bit 7 set), are dropped as a named error and decoding
/// resynchronises at the next FF.
///
/// VISCA has no start delimiter and no checksum, only a header byte with bit 7 set and the
/// terminator 0xFF. So:
/// - where a packet is due, bytes without bit 7 are not one: they are dropped up to the next
///   header byte (which starts a packet) or 0xFF, and reported once as `.noHeader`;
/// - a packet whose 16th byte is not 0xFF is reported as `.tooLong` at that byte, and everything
///   up to and including the next 0xFF is dropped;
/// - inside a packet any byte but 0xFF is data (inquiry replies may hold bytes with bit 7 set).
///
/// The decoder only frames; `VISCACommand.decode` and `VISCAReply.decode` read the packets. At
/// most 16 bytes are held.
public struct VISCAPacketDecoder: Sendable {
    /// The longest packet VISCA allows, terminator included.
    public static let maximumPacketCount = 16

    private enum State: Sendable {
        /// Between packets: the next byte should be a header.
        case idle
        /// Dropping bytes that came without a header; `count` so far.
        case skipping(count: Int)
        /// Gathering a packet that began with a header byte.
        case collecting
        /// The packet went past 16 bytes; dropping bytes up to the next 0xFF.
        case discardingOversize
    }

    private var state = State.idle
    private var packet: [UInt8] = []

    /// Creates a decoder that has seen no bytes.
    public init() { packet.reserveCapacity(Self.maximumPacketCount) }

    /// The number of bytes held for the packet in progress.
    public var bufferedCount: Int { packet.count }

    /// Feeds one byte.
    ///
    /// - Returns: a packet (header through 0xFF) or a framing error when `byte` completes one,
    ///   nil when more bytes are needed.
    public mutating func decode(_ byte: UInt8) -> Result<[UInt8], VISCAError>? {
        switch state {
        case .idle:
            if byte == 0xFF { return .failure(.noHeader(byteCount: 1)) }
            if byte & 0x80 != 0 {
                startPacket(with: byte)
            } else {
                state = .skipping(count: 1)
            }
            return nil
        case .skipping(let count):
            if byte == 0xFF {
                state = .idle
                return .failure(.noHeader(byteCount: count + 1))
            }
            if byte & 0x80 != 0 {
                startPacket(with: byte)
                return .failure(.noHeader(byteCount: count))
            }
            state = .skipping(count: count + 1)
            return nil
        case .collecting:
            if byte == 0xFF {
                packet.append(byte)
                defer {
                    packet.removeAll(keepingCapacity: true)
                    state = .idle
                }
                return .success(packet)
            }
            guard packet.count < Self.maximumPacketCount - 1 else {
                packet.removeAll(keepingCapacity: true)
                state = .discardingOversize
                return .failure(.tooLong(byteCount: Self.maximumPacketCount))
            }
            packet.append(byte)
            return nil
        case .discardingOversize:
            if byte == 0xFF { state = .idle }
            return nil
        }
    }

    /// Feeds bytes and returns every packet or error they complete, in order.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Result<[UInt8], VISCAError>] {
        var results: [Result<[UInt8], VISCAError>] = []
        for byte in bytes {
            if let result = decode(byte) { results.append(result) }
        }
        return results
    }

    private mutating func startPacket(with header: UInt8) {
        packet.removeAll(keepingCapacity: true)
        packet.append(header)
        state = .collecting
    }
}
