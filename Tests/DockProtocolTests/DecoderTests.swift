import DockProtocol
import Testing

/// Properties of the streaming decoder beyond the fixed vectors: noise, chunking, memory.
@Suite struct DecoderTests {
    /// Every distinct frame of the example session and a few more, encoded.
    static let frames: [Frame] =
        ExampleSession.steps.map(\.frame) + [
            Frame(sequence: 40, message: .heartbeat),
            Frame(sequence: 41, message: .stop),
            Frame(
                sequence: 42,
                message: .moveTo(
                    OrientationMove(
                        yaw: Angle(microradians: -1_000_000), pitch: Angle(microradians: 250_000),
                        pace: .maximumSpeed(AngularRate(microradiansPerSecond: 900_000))))),
            Frame(
                sequence: 43,
                message: .fault(
                    FaultReport(
                        accessoryTime: AccessoryTimestamp(microseconds: 9), code: .motorStall, axis: .pitch, isActive: true))),
        ]

    @Test func everyFrameRoundTrips() throws {
        for frame in Self.frames {
            var decoder = FrameDecoder()
            #expect(decoder.decode(try FrameEncoder.encode(frame)) == [.success(frame)])
        }
    }

    @Test(arguments: [1 as UInt64, 2, 3, 0xD0C_D0C])
    func randomGarbageBetweenFramesCostsNoFrame(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var input: [UInt8] = []
        var sent: [Frame] = []
        for _ in 0..<200 {
            input += [UInt8].random(count: Int.random(in: 0...64, using: &random), using: &random)
            let frame = Self.frames.randomElement(using: &random)!
            input += try FrameEncoder.encode(frame)
            sent.append(frame)
        }
        var decoder = FrameDecoder()
        var received: [Frame] = []
        var offset = 0
        while offset < input.count {
            let chunk = Int.random(in: 1...97, using: &random)
            let end = min(offset + chunk, input.count)
            for result in decoder.decode(input[offset..<end]) {
                if case .success(let frame) = result { received.append(frame) }
            }
            #expect(decoder.bufferedCount <= WireLimits.maximumEncodedCount)
            offset = end
        }
        #expect(received == sent, "seed \(seed)")
    }

    @Test func oneMebibyteOfRandomBytesThenOneFrameYieldsExactlyThatFrame() throws {
        var random = SeededGenerator(seed: 0x1_0000)
        let noise = [UInt8].random(count: 1 << 20, using: &random)
        let frame = ExampleSession.steps[2].frame
        var decoder = FrameDecoder()
        var frames: [Frame] = []
        var errorCount = 0
        var largestBuffer = 0
        for chunkStart in stride(from: 0, to: noise.count, by: 4096) {
            decoder.decode(noise[chunkStart..<min(chunkStart + 4096, noise.count)]) { result in
                switch result {
                case .success(let frame): frames.append(frame)
                case .failure: errorCount += 1
                }
            }
            largestBuffer = max(largestBuffer, decoder.bufferedCount)
        }
        decoder.decode(try FrameEncoder.encode(frame)) { result in
            switch result {
            case .success(let frame): frames.append(frame)
            case .failure: errorCount += 1
            }
        }
        #expect(frames == [frame])
        #expect(errorCount > 1000, "the noise's runs are each reported")
        #expect(largestBuffer <= WireLimits.maximumEncodedCount)
        #expect(decoder.bufferedCount == 0)
    }

    @Test func everySingleBitErrorIsDetected() throws {
        for frame in Self.frames {
            let bytes = try FrameEncoder.encode(frame)
            // Flip every bit between the delimiters; the delimiters themselves are covered by the
            // garbage tests (a missing delimiter merges two runs, which then fail as one).
            for index in 1..<(bytes.count - 1) {
                for bit in 0..<8 {
                    var damaged = bytes
                    damaged[index] ^= 1 << bit
                    var decoder = FrameDecoder()
                    let results = decoder.decode(damaged + [0])
                    let decoded = results.compactMap { try? $0.get() }
                    #expect(decoded.isEmpty, "bit \(bit) of byte \(index) in \(frame) went unnoticed")
                    #expect(!results.isEmpty)
                }
            }
        }
    }

    @Test func anOversizeRunIsReportedOnceAndTheNextFrameSurvives() throws {
        let frame = ExampleSession.steps[0].frame
        var decoder = FrameDecoder()
        let results = decoder.decode([0] + [UInt8](repeating: 0x42, count: 10_000) + (try FrameEncoder.encode(frame)))
        #expect(results == [.failure(.oversize), .success(frame)])
    }

    @Test func aFrameAtTheMaximumSizeDecodes() {
        // info with three 32-byte texts is not the largest possible body; build one that is.
        let payload = [UInt8](repeating: 0x11, count: WireLimits.maximumPayloadCount)
        var bytes: [UInt8] = []
        FrameEncoder.encodeRaw(typeCode: 0x7F, sequence: 1, payload: payload, into: &bytes)
        #expect(bytes.count - 2 == WireLimits.maximumEncodedCount)
        var decoder = FrameDecoder()
        #expect(decoder.decode(bytes) == [.failure(.unknownType(code: 0x7F, sequence: 1))])

        var tooLong: [UInt8] = []
        FrameEncoder.encodeRaw(typeCode: 0x7F, sequence: 1, payload: payload + [1], into: &tooLong)
        #expect(decoder.decode(tooLong) == [.failure(.oversize)])
    }
}
