// libFuzzer entry point for the dock frame decoder. Built by scripts/fuzz-decoder, compiled in
// one module with Sources/Core/DockProtocol, so it needs no import.
//
// Invariants checked on every input:
// - the decoder never traps and never holds more than one maximum-size frame;
// - cutting the input in two (at a point the input chooses) changes nothing in the outcome;
// - a body with a good CRC yields exactly one frame or one error;
// - every frame it accepts is valid, re-encodes, and decodes again to the same frame.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))

    var whole = FrameDecoder()
    var wholeResults: [Result<Frame, FrameError>] = []
    for byte in bytes {
        if let result = whole.decode(byte) { wholeResults.append(result) }
        precondition(whole.bufferedCount <= WireLimits.maximumEncodedCount)
    }
    precondition(whole.bufferedCount <= WireLimits.maximumEncodedCount)

    let split = count == 0 ? 0 : Int(bytes[0]) % (count + 1)
    var parts = FrameDecoder()
    let partResults = parts.decode(bytes[..<split]) + parts.decode(bytes[split...])
    precondition(partResults == wholeResults, "chunking changed the outcome")

    // The checksum hides payload parsing from most random inputs, so also treat the input as a
    // frame body (type, sequence, payload) and give it a good CRC and stuffing.
    var wrapped: [UInt8] = []
    if count >= 3, count - 3 <= WireLimits.maximumPayloadCount {
        FrameEncoder.encodeRaw(
            typeCode: bytes[0], sequence: UInt16(bytes[1]) | UInt16(bytes[2]) << 8,
            payload: bytes[3...], into: &wrapped)
    }
    var body = FrameDecoder()
    let bodyResults = body.decode(wrapped)
    precondition(bodyResults.count == (wrapped.isEmpty ? 0 : 1), "one frame in, one outcome out")

    for case .success(let frame) in wholeResults + bodyResults {
        precondition(frame.message.firstInvalidField == nil, "accepted an invalid \(frame)")
        guard let encoded = try? FrameEncoder.encode(frame) else {
            preconditionFailure("decoded frame does not re-encode: \(frame)")
        }
        var again = FrameDecoder()
        precondition(again.decode(encoded) == [.success(frame)], "re-encoded \(frame) differs")
    }
    return 0
}
