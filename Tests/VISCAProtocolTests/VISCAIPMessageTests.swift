import Testing
import VISCAProtocol

/// Sony VISCA over IP: the control messages and the helpers that wrap VISCA packets.
@Suite struct VISCAIPMessageTests {
    @Test func controlMessagesAreSonysBytes() {
        // Sony SRG-300H technical manual p. 31: RESET is 01, its ACK 01, ERROR 0F 01 / 0F 02.
        #expect(VISCAIPMessage.resetSequence(sequence: 0).encode() == [0x02, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0x01])
        #expect(VISCAIPMessage.resetAcknowledgement(sequence: 0).encode() == [0x02, 0x01, 0x00, 0x01, 0, 0, 0, 0, 0x01])
        #expect(VISCAIPMessage.controlError(.sequenceNumber, sequence: 5).encode() == [0x02, 0x00, 0x00, 0x02, 0, 0, 0, 5, 0x0F, 0x01])
        #expect(VISCAIPMessage.controlError(.message, sequence: 5).control == .error(.message))
        #expect(VISCAIPMessage.resetSequence(sequence: 9).control == .reset)
        #expect(VISCAIPMessage.resetAcknowledgement(sequence: 9).control == .acknowledge)
    }

    @Test func visCAPayloadsHaveNoControlMeaning() {
        for type in [VISCAIPMessage.PayloadType.command, .inquiry, .reply, .deviceSetting] {
            #expect(VISCAIPMessage(payloadType: type, sequence: 1, payload: [0x01]).control == nil, "\(type)")
        }
        #expect(VISCAIPMessage(payloadType: .controlReply, sequence: 1, payload: [0x0F, 0x03]).control == nil)
        #expect(VISCAIPMessage(payloadType: .controlReply, sequence: 1, payload: [0x01, 0x00]).control == nil)
    }

    @Test func commandsAndInquiriesGetTheirPayloadTypes() throws {
        let drive = VISCAIPMessage.command(.panTiltDrive(panSpeed: 3, tiltSpeed: 3, pan: .left, tilt: .stop), sequence: 7)
        #expect(drive.payloadType == .command && drive.sequence == 7)
        #expect(try VISCACommand.decode(drive.payload) == (1, .panTiltDrive(panSpeed: 3, tiltSpeed: 3, pan: .left, tilt: .stop)))
        #expect(VISCAIPMessage.command(.panTiltPositionInquiry, sequence: 8).payloadType == .inquiry)
        let reply = VISCAIPMessage.reply(.completion(socket: 1), sequence: 7)
        #expect(reply.encode() == [0x01, 0x11, 0x00, 0x03, 0, 0, 0, 7, 0x90, 0x51, 0xFF])
    }

    @Test(arguments: [1 as UInt64, 2])
    func randomMessagesRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<2000 {
            let message = VISCAIPMessage(
                payloadType: VISCAIPMessage.PayloadType.allCases.randomElement(using: &random)!,
                sequence: .random(in: .min ... .max, using: &random),
                payload: (0..<Int.random(in: 1...16, using: &random)).map { _ in .random(in: .min ... .max, using: &random) })
            #expect(try VISCAIPMessage.decode(message.encode()) == message, "seed \(seed)")
        }
    }

    @Test func aDatagramCutAnywhereIsRefused() {
        let datagram = VISCAIPMessage.command(.versionInquiry, sequence: 3).encode()
        for count in 0..<datagram.count {
            #expect(throws: VISCAError.self, "\(count) bytes") { try VISCAIPMessage.decode(Array(datagram[..<count])) }
        }
    }
}
