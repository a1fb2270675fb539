/// A streaming decoder of dock frames: bytes in any chunking go in, frames and named errors come
/// out in order.
///
/// Every 0x00 on the line ends a run; each non-empty run is one frame attempt. A damaged or
/// foreign run yields one `FrameError` and the decoder carries on with the next run, so garbage
/// never costs more than the frame it overlaps. Memory is bounded: at most
/// `WireLimits.maximumEncodedCount` bytes are held; a longer run yields `.oversize` once and is
/// dropped up to its delimiter.
public struct FrameDecoder: Sendable {
    private enum State: Sendable {
        /// Gathering the bytes of a run.
        case collecting
        /// The run went past the maximum; dropping bytes until the next delimiter.
        case discardingOversize
    }

    private var state = State.collecting
    private var run: [UInt8] = []
    private var body: [UInt8] = []

    /// Creates a decoder that has seen no bytes.
    public init() {
        run.reserveCapacity(WireLimits.maximumEncodedCount)
        body.reserveCapacity(WireLimits.maximumEncodedCount)
    }

    /// The number of bytes held for the frame in progress.
    public var bufferedCount: Int { run.count }

    /// Feeds one byte.
    ///
    /// - Returns: a frame or an error when `byte` completes a run, nil when more bytes are needed.
    public mutating func decode(_ byte: UInt8) -> Result<Frame, FrameError>? {
        switch state {
        case .collecting:
            if byte == WireLimits.delimiter {
                guard !run.isEmpty else { return nil }
                defer { run.removeAll(keepingCapacity: true) }
                return decodeRun()
            }
            guard run.count < WireLimits.maximumEncodedCount else {
                run.removeAll(keepingCapacity: true)
                state = .discardingOversize
                return .failure(.oversize)
            }
            run.append(byte)
            return nil
        case .discardingOversize:
            if byte == WireLimits.delimiter { state = .collecting }
            return nil
        }
    }

    /// Feeds bytes, calling `handle` for each frame or error they complete, in order. Inlinable,
    /// as `CRC32C.update` is: specialised in the caller for its own kind of sequence.
    @inlinable
    public mutating func decode(
        _ bytes: some Sequence<UInt8>, _ handle: (Result<Frame, FrameError>) -> Void
    ) {
        for byte in bytes {
            if let result = decode(byte) { handle(result) }
        }
    }

    /// Feeds bytes and returns every frame or error they complete, in order.
    @inlinable
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Result<Frame, FrameError>] {
        var results: [Result<Frame, FrameError>] = []
        decode(bytes) { results.append($0) }
        return results
    }

    private mutating func decodeRun() -> Result<Frame, FrameError> {
        body.removeAll(keepingCapacity: true)
        do {
            try COBS.decode(run, into: &body)
        } catch {
            return .failure(.truncated(byteCount: run.count))
        }
        let minimumCount = WireLimits.headerCount + WireLimits.checksumCount
        guard body.count >= minimumCount else { return .failure(.truncated(byteCount: body.count)) }

        let checksumStart = body.count - WireLimits.checksumCount
        var trailer = ByteReader(body[checksumStart...])
        let received: UInt32 = trailer.read()!
        let computed = CRC32C.checksum(body[..<checksumStart])
        guard computed == received else {
            return .failure(.checksumMismatch(computed: computed, received: received))
        }

        var header = ByteReader(body[..<WireLimits.headerCount])
        let typeCode: UInt8 = header.read()!
        let sequence: UInt16 = header.read()!
        guard let type = MessageType(rawValue: typeCode) else {
            return .failure(.unknownType(code: typeCode, sequence: sequence))
        }
        do {
            let message = try Message.decode(
                type: type, sequence: sequence,
                payload: body[WireLimits.headerCount..<checksumStart])
            return .success(Frame(sequence: sequence, message: message))
        } catch {
            return .failure(error)
        }
    }
}
