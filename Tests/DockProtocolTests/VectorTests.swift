import DockProtocol
import Foundation
import Testing

/// The golden vectors of `Protocol/vectors/`, each checked against the codec.
@Suite struct VectorTests {
    @Test func directoryHoldsExactlyTheKnownVectorFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Vectors.directory.path)
        // visca/ and pelco-d/ hold those protocols' vectors, which VISCAProtocolTests,
        // PelcoDSessionTests and PelcoDHeadTests read.
        let vectorFiles = Set(names.filter { !["README.md", "visca", "pelco-d"].contains($0) })
        #expect(names.contains("README.md"), "Protocol/vectors/README.md documents the format")
        #expect(
            vectorFiles == Set(Vectors.knownFiles),
            "every vector file must be read by a test, and every file a test reads must exist")
        for name in Vectors.knownFiles {
            #expect(throws: Never.self, "\(name) must be readable JSON") { try Vectors.load(name) }
        }
    }

    @Test func crcCasesMatch() throws {
        let document = try Vectors.load("crc32c.json")
        #expect(try document.string("check") == "0xe3069283")
        #expect(CRC32C.checkValue == 0xE306_9283)
        let cases = try document.array("cases")
        #expect(!cases.isEmpty)
        for vector in cases {
            let input = try Vectors.bytes(hex: vector.string("input_hex"))
            let expected = try vector.string("crc")
            let name = try vector.string("name")
            #expect(hex32(CRC32C.checksum(input)) == expected, "CRC of \(name)")
        }
    }

    @Test func cobsCasesMatchBothWays() throws {
        let cases = try Vectors.load("cobs.json").array("cases")
        #expect(!cases.isEmpty)
        for vector in cases {
            let decoded = try Vectors.bytes(hex: vector.string("decoded_hex"))
            let encoded = try Vectors.bytes(hex: vector.string("encoded_hex"))
            var output: [UInt8] = []
            COBS.encode(decoded, into: &output)
            #expect(output == encoded, "encoding \(decoded)")
            var roundTrip: [UInt8] = []
            try COBS.decode(encoded, into: &roundTrip)
            #expect(roundTrip == decoded, "decoding \(encoded)")
        }
    }

    @Test func everyMessageVectorDecodesAndEncodesExactly() throws {
        let vectors = try Vectors.load("messages.json").array("vectors")
        var typesSeen = Set<MessageType>()
        for vector in vectors {
            let name = try vector.string("name")
            let bytes = try Vectors.bytes(hex: vector.string("hex"))
            let expected = try Vectors.frame(vector.member("message"))
            typesSeen.insert(expected.message.type)

            var decoder = FrameDecoder()
            let results = decoder.decode(bytes)
            #expect(results == [.success(expected)], "decoding \(name)")
            #expect(decoder.bufferedCount == 0, "\(name) leaves nothing behind")
            #expect(try FrameEncoder.encode(expected) == bytes, "encoding \(name)")
        }
        #expect(typesSeen == Set(MessageType.allCases), "every message type has a vector")
    }

    @Test func everyStreamVectorGivesItsOutcomesInAnyChunking() throws {
        let vectors = try Vectors.load("streams.json").array("vectors")
        #expect(vectors.count >= 20)
        for vector in vectors {
            let name = try vector.string("name")
            let input = try Vectors.bytes(hex: vector.string("input_hex"))
            let expected = try vector.array("expect")

            var whole = FrameDecoder()
            try expectOutcomes(whole.decode(input), expected, "\(name), whole")

            var byteByByte = FrameDecoder()
            var results: [Result<Frame, FrameError>] = []
            for byte in input {
                if let result = byteByByte.decode(byte) { results.append(result) }
            }
            try expectOutcomes(results, expected, "\(name), one byte at a time")

            for split in 1..<input.count {
                var decoder = FrameDecoder()
                let results = decoder.decode(input[..<split]) + decoder.decode(input[split...])
                try expectOutcomes(results, expected, "\(name), split at \(split)")
            }
        }
    }

    @Test func allStreamVectorsMergedGiveAllOutcomesInOrder() throws {
        let vectors = try Vectors.load("streams.json").array("vectors")
        var input: [UInt8] = []
        var expected: [JSONValue] = []
        for vector in vectors {
            input += try Vectors.bytes(hex: vector.string("input_hex"))
            expected += try vector.array("expect")
        }
        var decoder = FrameDecoder()
        try expectOutcomes(decoder.decode(input), expected, "all streams merged")
    }

    @Test func textCasesAreCutAsTheGeneratorCutsThem() throws {
        let document = try Vectors.load("texts.json")
        #expect(try document.integer("maximum_bytes") == WireLimits.maximumTextCount)
        let cases = try document.array("cases")
        #expect(cases.count >= 5)
        for vector in cases {
            let name = try vector.string("name")
            let sent = try vector.string("sent")
            #expect(WireLimits.fieldText(try vector.string("text")) == sent, "\(name)")
            #expect(Array(sent.utf8) == (try Vectors.bytes(hex: vector.string("sent_hex"))), "\(name)")
            #expect(sent.utf8.count <= WireLimits.maximumTextCount, "\(name)")
        }
    }

    @Test func exampleSessionMatchesTheLibraryAndTheVectors() throws {
        let steps = try Vectors.load("example-session.json").array("steps")
        #expect(steps.count == ExampleSession.steps.count)
        for (json, step) in zip(steps, ExampleSession.steps) {
            let direction = step.direction == .hostToAccessory ? "host_to_accessory" : "accessory_to_host"
            #expect(try json.string("direction") == direction)
            #expect(try Vectors.frame(json.member("message")) == step.frame)
            let bytes = try Vectors.bytes(hex: json.string("hex"))
            #expect(try FrameEncoder.encode(step.frame) == bytes, "encoding \(step.frame)")
            #expect(step.frame.message.type.direction == step.direction)
        }
    }

    /// Every frame of every transcript decodes to its message and encodes back to its bytes; a
    /// host write holds exactly its `messages`, in order. (The firmware's C tests and the
    /// simulator's play the transcripts; this checks their bytes.)
    @Test func transcriptFramesMatchTheirBytes() throws {
        let transcripts = try Vectors.load("transcripts.json").array("transcripts")
        #expect(transcripts.count >= 2)
        for transcript in transcripts {
            let name = try transcript.string("name")
            for step in try transcript.array("steps") {
                switch try step.string("direction") {
                case "host_to_accessory":
                    let bytes = try Vectors.bytes(hex: step.string("hex"))
                    var decoder = FrameDecoder()
                    let frames = try decoder.decode(bytes).map { try $0.get() }
                    #expect(frames == (try step.array("messages").map(Vectors.frame)), "\(name): a host write")
                    #expect(bytes.count <= 256, "\(name): a write within the 256 bytes a host may have unanswered")
                case "accessory_to_host":
                    let frame = try Vectors.frame(step.member("message"))
                    #expect(try FrameEncoder.encode(frame) == (try Vectors.bytes(hex: step.string("hex"))), "\(name): \(frame)")
                    #expect(frame.message.type.direction == .accessoryToHost, "\(name)")
                case "world":
                    #expect(try step.string("button") == "tracking_button", "\(name)")
                default:
                    Issue.record("\(name): a step in no known direction: \(step)")
                }
            }
        }
    }

    /// Compares decoder results with a vector's `expect` list.
    private func expectOutcomes(
        _ results: [Result<Frame, FrameError>], _ expected: [JSONValue], _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(results.count == expected.count, "\(context): \(results)", sourceLocation: sourceLocation)
        for (result, outcome) in zip(results, expected) {
            switch result {
            case .success(let frame):
                let wanted = try outcome["frame"].map(Vectors.frame)
                #expect(wanted == frame, "\(context): got \(frame)", sourceLocation: sourceLocation)
            case .failure(let error):
                #expect(
                    try outcome.string("error") == error.name, "\(context): got \(error)",
                    sourceLocation: sourceLocation)
                try expectDetails(of: error, outcome, context, sourceLocation)
            }
        }
    }

    private func expectDetails(
        of error: FrameError, _ outcome: JSONValue, _ context: String, _ sourceLocation: SourceLocation
    ) throws {
        if outcome["seq"] != nil {
            #expect(error.sequence == (try outcome.integer("seq")), "\(context)", sourceLocation: sourceLocation)
        }
        switch error {
        case .unknownType(let code, _):
            if outcome["code"] != nil {
                #expect(code == (try outcome.integer("code")), "\(context)", sourceLocation: sourceLocation)
            }
        case .wrongPayloadLength(let type, _, _):
            #expect(type.name == (try outcome.string("type")), "\(context)", sourceLocation: sourceLocation)
        case .valueOutOfRange(let type, _, let field):
            #expect(type.name == (try outcome.string("type")), "\(context)", sourceLocation: sourceLocation)
            #expect(field == (try outcome.string("field")), "\(context)", sourceLocation: sourceLocation)
        case .oversize, .truncated, .checksumMismatch:
            break
        }
    }
}

func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
