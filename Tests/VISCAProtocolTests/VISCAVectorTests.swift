import Foundation
import Testing
import VISCAProtocol

/// The golden vectors of `Protocol/vectors/visca/`, each checked against the codec.
@Suite struct VISCAVectorTests {
    @Test func directoryHoldsExactlyTheKnownVectorFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: VISCAVectors.directory.path)
        #expect(names.contains("README.md"), "Protocol/vectors/visca/README.md documents the format")
        #expect(
            Set(names.filter { $0 != "README.md" }) == Set(VISCAVectors.knownFiles),
            "every vector file must be read by a test, and every file a test reads must exist")
    }

    @Test func everyCommandVectorDecodesAndEncodesExactly() throws {
        let vectors = try VISCAVectors.load("commands.json").objects("vectors")
        var typesSeen = Set<String>()
        for vector in vectors {
            let name = try vector.string("name")
            let bytes = try vector.bytes("hex")
            let address: UInt8 = try vector.integer("address")
            let command = try VISCAVectors.command(vector.object("command"))
            typesSeen.insert(command.name)
            #expect(try vector.object("command").string("type") == command.name, "\(name): the command's name")

            let decoded = try VISCACommand.decode(bytes)
            #expect(decoded.address == address, "\(name): address")
            #expect(decoded.command == command, "\(name): command")
            if command == .addressSet {
                for anyAddress: UInt8 in 1...7 { #expect(command.encode(address: anyAddress) == bytes, "\(name) from \(anyAddress)") }
            } else {
                #expect(command.encode(address: address) == bytes, "\(name): encoding")
            }
            // A command never reads as a reply, nor a reply as a command; but address set comes
            // back round the ring as a reply (88 30 01 FF: no camera renumbered it).
            if command != .addressSet {
                #expect(throws: VISCAError.self, "\(name) as a reply") { try VISCAReply.decode(bytes) }
            }
        }
        #expect(typesSeen == Set(VISCACodecTests.oneOfEach.map(\.name)), "every command type has a vector")
    }

    @Test func everyReplyVectorDecodesAndEncodesExactly() throws {
        let vectors = try VISCAVectors.load("replies.json").objects("vectors")
        var typesSeen = Set<String>()
        var codesSeen = Set<VISCAErrorCode>()
        for vector in vectors {
            let name = try vector.string("name")
            let bytes = try vector.bytes("hex")
            let address: UInt8 = try vector.integer("address")
            let reply = try VISCAVectors.reply(vector.object("reply"))
            typesSeen.insert(reply.name)
            if case .error(_, let code) = reply { codesSeen.insert(code) }

            let decoded = try VISCAReply.decode(bytes)
            #expect(decoded.address == address, "\(name): address")
            #expect(decoded.reply == reply, "\(name): reply")
            #expect(reply.encode(address: address == 8 ? 1 : address) == bytes, "\(name): encoding")
            if address != 8 {
                #expect(throws: VISCAError.self, "\(name) as a command") { try VISCACommand.decode(bytes) }
            }
            if case .inquiryReply(let data) = reply {
                try expectReads(data, vector.object("reads"), name)
            } else {
                #expect(!vector.has("reads"), "\(name): reads is for inquiry replies")
            }
        }
        #expect(typesSeen == ["ack", "completion", "inquiry_reply", "error", "address_set", "network_change"])
        #expect(codesSeen.isSuperset(of: VISCAErrorCode.named), "every named error code has a vector")
    }

    /// The typed readers against a vector's `reads`: the named one gives its fields and the same
    /// bytes back, the others refuse.
    private func expectReads(_ data: [UInt8], _ reads: VISCAVectors.Object, _ name: String) throws {
        let readers = ["version", "pan_tilt_position", "zoom_position", "pan_tilt_max_speed"]
        #expect(Set(reads.members.keys).isSubset(of: readers), "\(name): reads names known readers")
        #expect(reads.members.count <= 1, "\(name): at most one reader takes the data")
        if reads.has("version") {
            let fields = try reads.object("version")
            let version = try #require(VISCAVersion(data: data), "\(name)")
            #expect(
                version
                    == VISCAVersion(
                        vendor: try fields.integer("vendor"), model: try fields.integer("model"),
                        romVersion: try fields.integer("rom_version"),
                        maximumSocket: try fields.integer("maximum_socket")), "\(name)")
            #expect(version.data == data, "\(name): version data")
        } else {
            #expect(VISCAVersion(data: data) == nil, "\(name): not a version")
        }
        if reads.has("pan_tilt_position") {
            let fields = try reads.object("pan_tilt_position")
            let position = try #require(VISCAPanTiltPosition(data: data), "\(name)")
            #expect(position == VISCAPanTiltPosition(pan: try fields.integer("pan"), tilt: try fields.integer("tilt")), "\(name)")
            #expect(position.data == data, "\(name): position data")
        } else {
            #expect(VISCAPanTiltPosition(data: data) == nil, "\(name): not a pan-tilt position")
        }
        if reads.has("zoom_position") {
            let fields = try reads.object("zoom_position")
            let zoom = try #require(VISCAZoomPosition(data: data), "\(name)")
            #expect(zoom == VISCAZoomPosition(position: try fields.integer("position")), "\(name)")
            #expect(zoom.data == data, "\(name): zoom data")
        } else {
            #expect(VISCAZoomPosition(data: data) == nil, "\(name): not a zoom position")
        }
        if reads.has("pan_tilt_max_speed") {
            let fields = try reads.object("pan_tilt_max_speed")
            let speeds = try #require(VISCAPanTiltMaxSpeed(data: data), "\(name)")
            #expect(speeds == VISCAPanTiltMaxSpeed(pan: try fields.integer("pan"), tilt: try fields.integer("tilt")), "\(name)")
            #expect(speeds.data == data, "\(name): max speed data")
        } else {
            #expect(VISCAPanTiltMaxSpeed(data: data) == nil, "\(name): not a max speed")
        }
    }

    @Test func everyIPVectorDecodesAndEncodesExactly() throws {
        let vectors = try VISCAVectors.load("ip-messages.json").objects("vectors")
        var typesSeen = Set<VISCAIPMessage.PayloadType>()
        var controlsSeen = Set<VISCAIPMessage.Control>()
        for vector in vectors {
            let name = try vector.string("name")
            let bytes = try vector.bytes("hex")
            let typeName = try vector.string("payload_type")
            let type = try #require(VISCAIPMessage.PayloadType.allCases.first { $0.name == typeName }, "\(name): \(typeName)")
            let message = VISCAIPMessage(
                payloadType: type, sequence: try vector.integer("sequence"),
                payload: try vector.bytes("payload_hex"))
            typesSeen.insert(type)

            #expect(try VISCAIPMessage.decode(bytes) == message, "\(name): decoding")
            #expect(message.encode() == bytes, "\(name): encoding")
            let control: VISCAIPMessage.Control? =
                switch vector.has("control") ? try vector.string("control") : nil {
                case nil: nil
                case "reset": .reset
                case "acknowledge": .acknowledge
                case "error_sequence_number": .error(.sequenceNumber)
                case "error_message": .error(.message)
                case let other?: throw VISCAVectors.ShapeError(description: "\(name): control \(other)")
                }
            #expect(message.control == control, "\(name): control")
            if let control { controlsSeen.insert(control) }
        }
        #expect(typesSeen == Set(VISCAIPMessage.PayloadType.allCases), "every payload type has a vector")
        #expect(controlsSeen == [.reset, .acknowledge, .error(.sequenceNumber), .error(.message)])
    }

    @Test func everyMalformedInputIsRefusedWithItsNamedError() throws {
        let vectors = try VISCAVectors.load("malformed.json").objects("vectors")
        var errorsSeen = Set<String>()
        for vector in vectors {
            let name = try vector.string("name")
            let bytes = try vector.bytes("hex")
            let error: VISCAError
            do {
                switch try vector.string("side") {
                case "camera": _ = try VISCACommand.decode(bytes)
                case "host": _ = try VISCAReply.decode(bytes)
                case "ip": _ = try VISCAIPMessage.decode(bytes)
                case let other: throw VISCAVectors.ShapeError(description: "\(name): side \(other)")
                }
                Issue.record("\(name): \(bytes) was accepted")
                continue
            } catch let refused as VISCAError {
                error = refused
            }
            errorsSeen.insert(error.name)
            #expect(error.name == (try vector.string("error")), "\(name): got \(error)")
            #expect(!error.description.isEmpty)
            switch error {
            case .wrongLength(let message, _, _):
                #expect(message == (try vector.string("message")), "\(name)")
            case .badNibble(let message, let index, _):
                #expect(message == (try vector.string("message")), "\(name)")
                #expect(index == (try vector.integer("index")), "\(name)")
            case .badParameter(let message, let field, _):
                #expect(message == (try vector.string("message")), "\(name)")
                #expect(field == (try vector.string("field")), "\(name)")
            case .earlyTerminator(let index):
                #expect(index == (try vector.integer("index")), "\(name)")
            default:
                #expect(!vector.has("message") && !vector.has("field") && !vector.has("index"), "\(name): extra keys")
            }
        }
        #expect(
            errorsSeen == [
                "too_short", "missing_terminator", "early_terminator", "too_long", "bad_header", "unknown_command",
                "unknown_reply", "wrong_length", "bad_nibble", "bad_parameter", "datagram_too_short", "unknown_payload_type",
                "payload_length_mismatch", "payload_length_out_of_range",
            ])
    }

    @Test func everyStreamVectorGivesItsOutcomesInAnyChunking() throws {
        let vectors = try VISCAVectors.load("streams.json").objects("vectors")
        #expect(vectors.count >= 10)
        for vector in vectors {
            let name = try vector.string("name")
            let input = try vector.bytes("input_hex")
            let expected = try vector.objects("expect")

            var whole = VISCAPacketDecoder()
            try expectOutcomes(whole.decode(input), expected, "\(name), whole")
            #expect(whole.bufferedCount == 0, "\(name) leaves nothing behind")

            var byteByByte = VISCAPacketDecoder()
            try expectOutcomes(input.compactMap { byteByByte.decode($0) }, expected, "\(name), one byte at a time")

            for split in 1..<input.count {
                var decoder = VISCAPacketDecoder()
                try expectOutcomes(
                    decoder.decode(input[..<split]) + decoder.decode(input[split...]), expected,
                    "\(name), split at \(split)")
            }
        }
    }

    @Test func allStreamVectorsMergedGiveAllOutcomesInOrder() throws {
        var input: [UInt8] = []
        var expected: [VISCAVectors.Object] = []
        for vector in try VISCAVectors.load("streams.json").objects("vectors") {
            input += try vector.bytes("input_hex")
            expected += try vector.objects("expect")
        }
        var decoder = VISCAPacketDecoder()
        try expectOutcomes(decoder.decode(input), expected, "all streams merged")
    }

    @Test func everyWireVectorMergedWithItsNeighboursDecodesToItsValue() throws {
        // Commands and replies fed back to back, whole, a byte at a time and in uneven chunks, come
        // out as the same packets, and each decodes to its vector's value.
        var input: [UInt8] = []
        var expected: [(bytes: [UInt8], check: ([UInt8]) throws -> Bool)] = []
        for vector in try VISCAVectors.load("commands.json").objects("vectors") {
            let bytes = try vector.bytes("hex"), address: UInt8 = try vector.integer("address")
            let command = try VISCAVectors.command(vector.object("command"))
            input += bytes
            expected.append((bytes, { try VISCACommand.decode($0) == (address, command) }))
        }
        for vector in try VISCAVectors.load("replies.json").objects("vectors") {
            let bytes = try vector.bytes("hex"), address: UInt8 = try vector.integer("address")
            let reply = try VISCAVectors.reply(vector.object("reply"))
            input += bytes
            expected.append((bytes, { try VISCAReply.decode($0) == (address, reply) }))
        }
        var whole = VISCAPacketDecoder(), byteByByte = VISCAPacketDecoder(), chunked = VISCAPacketDecoder()
        var chunks: [Result<[UInt8], VISCAError>] = []
        var offset = 0, size = 1
        while offset < input.count {
            chunks += chunked.decode(input[offset..<min(offset + size, input.count)])
            offset += size
            size = size % 7 + 1
        }
        for (name, results) in [
            ("whole", whole.decode(input)), ("byte by byte", input.compactMap { byteByByte.decode($0) }),
            ("chunked", chunks),
        ] {
            #expect(results.count == expected.count, "\(name)")
            for (result, (bytes, check)) in zip(results, expected) {
                let packet = try result.get()
                #expect(packet == bytes, "\(name)")
                #expect(try check(packet), "\(name): \(bytes)")
            }
        }
    }

    private func expectOutcomes(
        _ results: [Result<[UInt8], VISCAError>], _ expected: [VISCAVectors.Object], _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(results.count == expected.count, "\(context): \(results)", sourceLocation: sourceLocation)
        for (result, outcome) in zip(results, expected) {
            switch result {
            case .success(let packet):
                let wanted = outcome.has("packet") ? try outcome.bytes("packet") : nil
                #expect(wanted == packet, "\(context): got \(packet)", sourceLocation: sourceLocation)
            case .failure(let error):
                let wanted = outcome.has("error") ? try outcome.string("error") : nil
                #expect(wanted == error.name, "\(context): got \(error)", sourceLocation: sourceLocation)
                let count: Int? =
                    switch error {
                    case .noHeader(let count), .tooLong(let count): count
                    default: nil
                    }
                #expect(count == (try outcome.integer("byte_count")), "\(context): \(error)", sourceLocation: sourceLocation)
            }
        }
    }
}
