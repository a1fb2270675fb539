import DockProtocol
import Foundation
import Testing

@testable import DockSimulator

/// The firmware model against the golden vectors of `Protocol/vectors/`: it answers the
/// specification's example exactly, accepts every valid host message, and refuses every malformed
/// one with the right reason.
@Suite struct VectorConformanceTests {
    static let vectors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol/vectors")

    static func load(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: vectors.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func bytes(_ hex: Any?) throws -> [UInt8] {
        let text = try #require(hex as? String)
        return try text.split(separator: " ").map { try #require(UInt8($0, radix: 16)) }
    }

    @Test func theExampleHelloGetsTheExampleInfoByteForByte() throws {
        let steps = try #require(try Self.load("example-session.json")["steps"] as? [[String: Any]])
        var firmware = AccessoryFirmware(configuration: AccessoryConfiguration(), seed: 1)
        let answer = firmware.receive(bytes: try Self.bytes(steps[0]["hex"]), now: .zero)
        #expect(answer == (try Self.bytes(steps[1]["hex"])))
    }

    /// The firmware model plays the accessory's side of every transcript (text 1.2): host bytes
    /// at their times, the button at its times (the model needs no debounce), and every frame it
    /// sends up to the transcript's end is the transcript's next accessory frame.
    @Test func theTranscriptsArePlayedFrameForFrame() throws {
        let document = try Self.load("transcripts.json")
        let byteMicroseconds = try #require(document["byte_time_us"] as? Int)
        let transcripts = try #require(document["transcripts"] as? [[String: Any]])
        #expect(transcripts.count >= 2)
        for transcript in transcripts {
            let name = transcript["name"] as? String ?? "?"
            let steps = try #require(transcript["steps"] as? [[String: Any]])
            var firmware = AccessoryFirmware(configuration: AccessoryConfiguration(), seed: 1)
            var sent: [UInt8] = []
            var expected: [(frame: Frame, freeTime: Bool)] = []
            for step in steps {
                let at = step["at_us"] as? Int ?? 0
                switch step["direction"] as? String {
                case "host_to_accessory":
                    let bytes = try Self.bytes(step["hex"])
                    for (index, byte) in bytes.enumerated() {
                        let arrived = at - (bytes.count - 1 - index) * byteMicroseconds
                        sent += firmware.receive(bytes: [byte], now: .microseconds(arrived))
                    }
                case "world":
                    #expect(step["button"] as? String == "tracking_button")
                    let pressed = try #require(step["pressed"] as? Bool)
                    sent += try firmware.button(.tracking, isPressed: pressed, now: .microseconds(at)).map { try FrameEncoder.encode($0) }
                        .flatMap { $0 }
                default:
                    var decoder = FrameDecoder()
                    let frame = try #require(try decoder.decode(Self.bytes(step["hex"])).first?.get())
                    expected.append((frame, (step["free"] as? [String] ?? []).contains("time_us")))
                }
            }
            sent += firmware.advanceBytes(to: .microseconds(try #require(transcript["end_us"] as? Int)))
            var decoder = FrameDecoder()
            let frames = try decoder.decode(sent).map { try $0.get() }
            #expect(frames.count == expected.count, "\(name): \(frames.count) frames, the transcript has \(expected.count)")
            for (got, want) in zip(frames, expected) {
                if want.freeTime, case .ack(let ack) = got.message, case .ack(let wanted) = want.frame.message {
                    #expect(
                        got.sequence == want.frame.sequence && ack.sequence == wanted.sequence
                            && ack.acknowledgedType == wanted.acknowledgedType
                            && ack.accessoryTime.microseconds >= wanted.accessoryTime.microseconds, "\(name): \(got)")
                } else {
                    #expect(got == want.frame, "\(name)")
                }
            }
        }
    }

    @Test func everyValidHostMessageIsAccepted() throws {
        let vectors = try #require(try Self.load("messages.json")["vectors"] as? [[String: Any]])
        var accepted = 0
        for vector in vectors {
            let bytes = try Self.bytes(vector["hex"])
            var decoder = FrameDecoder()
            guard case .success(let frame)? = decoder.decode(bytes).first,
                frame.message.type.direction == .hostToAccessory
            else { continue }
            var host = FirmwareHost()
            try host.handshake()
            let answer = host.sendBytes(bytes)
            let name = vector["name"] as? String ?? "?"
            switch frame.message {
            case .hello:
                #expect(answer.count == 1 && { if case .info = answer[0].message { true } else { false } }(), "\(name)")
            case .setVelocity(let command)
            where command.yawRate.radiansPerSecond.magnitude > Double.pi
                || command.pitchRate.radiansPerSecond.magnitude > Double.pi / 2:
                #expect(answer.first?.refusal?.reason == .outOfRange, "\(name): faster than this dock can turn")
            case .moveTo(let move) where move.yaw.radians.magnitude > 2.967:
                #expect(answer.first?.refusal?.reason == .outOfRange, "\(name): beyond this dock's range")
            default:
                #expect(answer.first?.acknowledgement?.sequence == frame.sequence, "\(name)")
            }
            accepted += 1
        }
        #expect(accepted >= 9)
    }

    @Test func everyMalformedHostFrameIsRefusedWithTheRightReason() throws {
        let vectors = try #require(try Self.load("streams.json")["vectors"] as? [[String: Any]])
        let reasons: [String: Refusal.Reason] = [
            "unknown_type": .unknownMessage, "wrong_payload_length": .wrongLength, "value_out_of_range": .outOfRange,
        ]
        var checked = 0
        for vector in vectors {
            let expect = try #require(vector["expect"] as? [[String: Any]])
            guard expect.count == 1, let error = expect[0]["error"] as? String, let reason = reasons[error],
                let sequence = expect[0]["seq"] as? Int
            else { continue }
            let typeName = expect[0]["type"] as? String
            if let typeName, MessageType(name: typeName)?.direction == .accessoryToHost {
                // The dock refuses any accessory-to-host type as unknown to it.
                var host = FirmwareHost()
                try host.handshake()
                let answer = host.sendBytes(try Self.bytes(vector["input_hex"]))
                #expect(answer.first?.refusal?.reason == .unknownMessage, "\(vector["name"] ?? "")")
                checked += 1
                continue
            }
            var host = FirmwareHost()
            try host.handshake()
            let answer = host.sendBytes(try Self.bytes(vector["input_hex"]))
            let refusal = try #require(answer.first?.refusal, "\(vector["name"] ?? "") gets a nack")
            #expect(refusal.reason == reason, "\(vector["name"] ?? "")")
            #expect(refusal.sequence == UInt16(sequence))
            if let field = expect[0]["field"] as? String, let typeName, let type = MessageType(name: typeName) {
                #expect(refusal.detail == type.fieldNumber(of: field), "\(vector["name"] ?? ""): field number of \(field)")
            }
            checked += 1
        }
        #expect(checked >= 15)
    }
}
