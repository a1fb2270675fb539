/// Turns frames into bytes for the line: `00`, the COBS-stuffed body, `00`.
public enum FrameEncoder {
    /// Encodes a frame after checking every field against the specification.
    ///
    /// - Returns: the bytes to write, both delimiters included.
    /// - Throws: `InvalidFieldError` naming the first field outside its range.
    public static func encode(_ frame: Frame) throws(InvalidFieldError) -> [UInt8] {
        var output: [UInt8] = []
        try encode(frame, into: &output)
        return output
    }

    /// Appends the encoded frame to `output`.
    ///
    /// - Throws: `InvalidFieldError` naming the first field outside its range; `output` is then
    ///   left as it was.
    public static func encode(_ frame: Frame, into output: inout [UInt8]) throws(InvalidFieldError) {
        let message = frame.message
        if let field = message.firstInvalidField {
            throw InvalidFieldError(type: message.type, field: field)
        }
        var payload = ByteWriter(capacity: WireLimits.maximumPayloadCount)
        message.writePayload(to: &payload)
        encodeRaw(
            typeCode: message.type.rawValue, sequence: frame.sequence, payload: payload.bytes,
            into: &output)
    }

    /// Appends a frame with any type byte and payload, checked by nothing but the CRC: for test
    /// vectors, fuzzing seeds and tools that must be able to produce bad frames.
    public static func encodeRaw(
        typeCode: UInt8, sequence: UInt16, payload: some Collection<UInt8>, into output: inout [UInt8]
    ) {
        var body = ByteWriter(capacity: WireLimits.headerCount + payload.count + WireLimits.checksumCount)
        body.write(typeCode)
        body.write(sequence)
        body.bytes.append(contentsOf: payload)
        body.write(CRC32C.checksum(body.bytes))
        output.append(WireLimits.delimiter)
        COBS.encode(body.bytes, into: &output)
        output.append(WireLimits.delimiter)
    }
}
