import Testing
import VISCAProtocol

/// Properties of the command and reply codec and the packet decoder beyond the fixed vectors.
@Suite struct VISCACodecTests {
    /// One of each command (the vectors must cover them all).
    static let oneOfEach: [VISCACommand] = [
        .addressSet, .interfaceClear, .cancel(socket: 1), .panTiltDrive(panSpeed: 1, tiltSpeed: 1, pan: .stop, tilt: .stop),
        .absolutePosition(panSpeed: 1, tiltSpeed: 1, pan: 0, tilt: 0), .relativePosition(panSpeed: 1, tiltSpeed: 1, pan: 0, tilt: 0),
        .home, .reset, .zoomStop, .zoomTele(speed: 0), .zoomWide(speed: 0), .zoomDirect(position: 0), .versionInquiry,
        .panTiltPositionInquiry, .zoomPositionInquiry, .panTiltMaxSpeedInquiry, .memoryReset(number: 0), .memorySet(number: 0),
        .memoryRecall(number: 0),
    ]

    /// Commands with parameters at their edges.
    static let commands: [VISCACommand] =
        oneOfEach + [
            .cancel(socket: 0), .cancel(socket: 15),
            .panTiltDrive(panSpeed: 0, tiltSpeed: 0xFE, pan: .left, tilt: .down),
            .absolutePosition(panSpeed: 0x18, tiltSpeed: 0x17, pan: .min, tilt: .max),
            .relativePosition(panSpeed: 0, tiltSpeed: 0, pan: -1, tilt: 1),
            .zoomTele(speed: 15), .zoomWide(speed: 7), .zoomDirect(position: .max), .memorySet(number: 0xFE),
            .memoryRecall(number: 0x80),
        ]

    @Test func everyCommandRoundTripsAtEveryAddress() throws {
        for command in Self.commands {
            for address: UInt8 in 1...7 {
                let bytes = command.encode(address: address)
                let decoded = try VISCACommand.decode(bytes)
                #expect(decoded.command == command, "\(command) at \(address)")
                #expect(decoded.address == (command == .addressSet ? 8 : address), "\(command) at \(address)")
                #expect(bytes.count <= VISCAPacketDecoder.maximumPacketCount && bytes.last == 0xFF)
            }
        }
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func randomCommandsRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<2000 {
            let speed = { (random: inout SeededGenerator) in UInt8.random(in: 0...0xFE, using: &random) }
            let command: VISCACommand =
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    .panTiltDrive(
                        panSpeed: speed(&random), tiltSpeed: speed(&random),
                        pan: PanDirection.allCases.randomElement(using: &random)!,
                        tilt: TiltDirection.allCases.randomElement(using: &random)!)
                case 1:
                    .absolutePosition(
                        panSpeed: speed(&random), tiltSpeed: speed(&random),
                        pan: .random(in: .min ... .max, using: &random), tilt: .random(in: .min ... .max, using: &random))
                case 2:
                    .relativePosition(
                        panSpeed: speed(&random), tiltSpeed: speed(&random),
                        pan: .random(in: .min ... .max, using: &random), tilt: .random(in: .min ... .max, using: &random))
                default:
                    .zoomDirect(position: .random(in: .min ... .max, using: &random))
                }
            let address = UInt8.random(in: 1...7, using: &random)
            #expect(try VISCACommand.decode(command.encode(address: address)) == (address, command), "seed \(seed): \(command)")
        }
    }

    @Test func inquiriesAreTheCommandsOfCategoryNineAndAnsweredWithData() {
        for command in Self.commands {
            let bytes = command.encode(address: 1)
            #expect(command.isInquiry == (bytes[1] == 0x09), "\(command)")
            #expect(command.isInquiry == (command.expectedReply == .inquiryData), "\(command)")
        }
        #expect(VISCACommand.interfaceClear.expectedReply == .completionOnSocketZero)
        #expect(VISCACommand.addressSet.expectedReply == .addressSet)
        #expect(VISCACommand.cancel(socket: 1).expectedReply == .cancelOutcome)
        #expect(VISCACommand.home.expectedReply == .acknowledgementThenCompletion)
    }

    @Test func broadcastInterfaceClearEncodesForAddressEight() throws {
        #expect(VISCACommand.interfaceClear.encode(address: 8) == [0x88, 0x01, 0x00, 0x01, 0xFF])
        #expect(try VISCACommand.decode([0x88, 0x01, 0x00, 0x01, 0xFF]) == (8, .interfaceClear))
        // The broadcast comes back unchanged; a host that did not send it has nothing to read in it.
        #expect(throws: VISCAError.unknownReply(bytes: [0x88, 0x01, 0x00, 0x01, 0xFF])) {
            try VISCAReply.decode([0x88, 0x01, 0x00, 0x01, 0xFF])
        }
    }

    @Test func addressSetIsTakenOnlyAsTheFirstCameraOnTheChainTakesIt() throws {
        // A second camera on a chain sees 88 30 02 FF; this codec models the first camera only
        // (Protocol/visca.md, "Addressing"), so it refuses the rest with the field named.
        #expect(throws: VISCAError.badParameter(message: "address_set", field: "first_address", byte: 2)) {
            try VISCACommand.decode([0x88, 0x30, 0x02, 0xFF])
        }
        #expect(try VISCAReply.decode([0x88, 0x30, 0x02, 0xFF]) == (8, .addressSet(next: 2)))
    }

    @Test func everyReplyRoundTripsAtEveryAddress() throws {
        let replies: [VISCAReply] = [
            .ack(socket: 1), .ack(socket: 2), .completion(socket: 0), .completion(socket: 2),
            .inquiryReply(data: [0x02]), .inquiryReply(data: [UInt8](repeating: 0xFE, count: 13)),
            .error(socket: 0, code: .bufferFull), .error(socket: 2, code: VISCAErrorCode(rawValue: 0x7F)),
            .networkChange,
        ]
        for reply in replies {
            for address: UInt8 in 1...7 {
                #expect(try VISCAReply.decode(reply.encode(address: address)) == (address, reply), "\(reply) from \(address)")
            }
        }
        for next: UInt8 in 0...15 {
            #expect(try VISCAReply.decode(VISCAReply.addressSet(next: next).encode(address: 1)) == (8, .addressSet(next: next)))
        }
    }

    @Test func errorCodesHaveNamesBothWays() {
        for code in VISCAErrorCode.named {
            #expect(VISCAErrorCode(name: code.name) == code)
            #expect(!code.name.hasPrefix("unknown"))
        }
        #expect(VISCAErrorCode(rawValue: 0x7E).name == "unknown_7e")
        #expect(VISCAErrorCode(name: "unknown_7e") == VISCAErrorCode(rawValue: 0x7E))
        #expect(VISCAErrorCode(name: "broken") == nil)
    }

    @Test func typedReadersRefuseDataOfOtherShapes() {
        #expect(VISCAPanTiltPosition(data: [0, 0, 0, 0x10, 0, 0, 0, 0]) == nil, "a byte over 0x0F")
        #expect(VISCAZoomPosition(data: [0, 0, 0]) == nil)
        #expect(VISCAVersion(data: [0, 1, 5, 0x13, 1, 0]) == nil)
        #expect(VISCAPanTiltMaxSpeed(data: [0x18]) == nil)
        #expect(VISCAPanTiltPosition(pan: -2448, tilt: 1296).data == [0x0F, 0x06, 0x07, 0x00, 0x00, 0x05, 0x01, 0x00])
    }

    // MARK: The packet decoder

    static let packets: [[UInt8]] =
        commands.map { $0.encode(address: 1) } + [
            [0x90, 0x41, 0xFF], [0x90, 0x51, 0xFF], [0x90, 0x50, 0x00, 0x09, 0x09, 0x00, 0x00, 0x05, 0x01, 0x00, 0xFF],
        ]

    @Test(arguments: [1 as UInt64, 2, 3, 0x5153])
    func garbageWithoutHeaderBytesCostsNoPacket(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var input: [UInt8] = []
        var sent: [[UInt8]] = []
        for _ in 0..<300 {
            // Bytes without bit 7 (no header) and no FF: a header byte or FF ends them.
            input += (0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...0x7F, using: &random) }
            let packet = Self.packets.randomElement(using: &random)!
            input += packet
            sent.append(packet)
        }
        var decoder = VISCAPacketDecoder()
        var received: [[UInt8]] = []
        var offset = 0
        while offset < input.count {
            let end = min(offset + Int.random(in: 1...40, using: &random), input.count)
            for case .success(let packet) in decoder.decode(input[offset..<end]) { received.append(packet) }
            #expect(decoder.bufferedCount < VISCAPacketDecoder.maximumPacketCount)
            offset = end
        }
        #expect(received == sent, "seed \(seed)")
    }

    @Test(arguments: [4 as UInt64, 5, 6])
    func anyGarbageEndedByATerminatorCostsNoLaterPacket(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var input: [UInt8] = []
        var sent: [[UInt8]] = []
        for _ in 0..<300 {
            input += (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...0xFF, using: &random) }
            input.append(0xFF)
            let packet = Self.packets.randomElement(using: &random)!
            input += packet
            sent.append(packet)
        }
        var decoder = VISCAPacketDecoder()
        let received = decoder.decode(input).compactMap { try? $0.get() }
        // Garbage can hold packet-shaped runs of its own; what was sent must come out, in order.
        var remaining = sent[...]
        for packet in received where packet == remaining.first { remaining.removeFirst() }
        #expect(remaining.isEmpty, "seed \(seed): \(remaining.count) packets lost")
    }

    @Test func oneMebibyteOfRandomBytesNeverHoldsMoreThanAPacket() {
        var random = SeededGenerator(seed: 0x1_0000)
        var decoder = VISCAPacketDecoder()
        var largest = 0
        var outcomes = 0
        for _ in 0..<(1 << 20) {
            if decoder.decode(UInt8.random(in: 0...0xFF, using: &random)) != nil { outcomes += 1 }
            largest = max(largest, decoder.bufferedCount)
        }
        #expect(largest < VISCAPacketDecoder.maximumPacketCount)
        #expect(outcomes > 0)
        // However it was left, an FF and a packet bring it back.
        #expect(decoder.decode([0xFF, 0x90, 0x41, 0xFF]).last == .success([0x90, 0x41, 0xFF]))
    }

    @Test func sixteenBytePacketIsTheLongestTaken() {
        var decoder = VISCAPacketDecoder()
        let largest: [UInt8] = [0x90, 0x50] + [UInt8](repeating: 0x01, count: 13) + [0xFF]
        #expect(decoder.decode(largest) == [.success(largest)])
        let overlong: [UInt8] = [0x90, 0x50] + [UInt8](repeating: 0x01, count: 14) + [0xFF]
        #expect(decoder.decode(overlong) == [.failure(.tooLong(byteCount: 16))])
        #expect(decoder.bufferedCount == 0)
    }
}

/// A deterministic random source (SplitMix64), so every randomised test can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
