import DockSimulator
import Foundation
import Testing

/// The emulated Pelco-D head in virtual time: the golden frames of `Protocol/vectors/pelco-d/`
/// and what the head makes of them, its receiver (checksum, address, resynchronisation), its
/// motors and its answers.
@Suite struct PelcoDHeadTests {
    static let degree = Double.pi / 180

    static func head(address: UInt8 = 1, queries: Bool = false) -> PelcoDHead {
        PelcoDHead(configuration: PelcoDHead.Configuration(address: address, answersPositionQueries: queries), seed: 1)
    }

    /// A frame made here from the protocol's definition: `FF`, the five bytes, their sum modulo 256.
    static func frame(_ address: UInt8, _ command1: UInt8, _ command2: UInt8, _ data1: UInt8, _ data2: UInt8) -> [UInt8] {
        let body = [address, command1, command2, data1, data2]
        return [0xFF] + body + [UInt8(body.map(Int.init).reduce(0, +) % 256)]
    }

    static func vectors() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/vectors/pelco-d/frames.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func bytes(_ hex: String) -> [UInt8] { hex.split(separator: " ").map { UInt8($0, radix: 16)! } }

    @Test func everyCommandVectorDoesWhatItSays() throws {
        let commands = try #require(try Self.vectors()["commands"] as? [[String: Any]])
        for vector in commands {
            let name = try #require(vector["name"] as? String)
            let command = try #require(vector["command"] as? [String: Any])
            let address = UInt8(try #require(vector["address"] as? Int))
            let frame = Self.bytes(try #require(vector["hex"] as? String))
            var head = Self.head(address: address, queries: true)
            // A preset to go to, 10° right of home, and the head somewhere else.
            _ = head.receive(Self.frame(address, 0, 0x02, 0x3F, 0), now: .zero)
            _ = head.advance(to: .milliseconds(500))
            _ = head.receive(Self.frame(address, 0, 0, 0, 0), now: .milliseconds(500))
            _ = head.advance(to: .seconds(1))
            let stored = head.pan.motorRadians
            _ = head.receive(Self.frame(address, 0, 0x03, 0, 1), now: .seconds(1))
            _ = head.receive(Self.frame(address, 0, 0x04, 0x3F, 0), now: .seconds(1))
            _ = head.advance(to: .milliseconds(1500))
            let answers = head.receive(frame, now: .milliseconds(1500))
            #expect(head.framesReceived == 5, "\(name): taken as a good frame for \(address)")
            #expect(head.unknownCommands == 0, "\(name)")
            switch command["type"] as? String {
            case "stop":
                #expect(head.lastStopTime == .milliseconds(1500) && head.motion == .idle, "\(name)")
            case "drive":
                guard case .drive(let pan, let tilt) = head.motion else {
                    Issue.record("\(name): \(head.motion)")
                    continue
                }
                func expected(_ direction: Any?, _ speed: Any?, fastest: Double) -> Double {
                    let step = Double(speed as? Int ?? 0) / 63 * fastest * Self.degree
                    return ["right", "up"].contains(direction as? String) ? step : direction as? String == "stop" ? 0 : -step
                }
                #expect(abs(pan - expected(command["pan"], command["pan_speed"], fastest: 60)) < 1e-12, "\(name): pan \(pan)")
                #expect(abs(tilt - expected(command["tilt"], command["tilt_speed"], fastest: 30)) < 1e-12, "\(name): tilt \(tilt)")
            case "go_to_preset":
                _ = head.advance(to: .seconds(4))
                #expect(abs(head.pan.motorRadians - stored) < 1e-3, "\(name): back at the preset, \(head.pan.motorRadians)")
            case "set_preset":
                #expect(head.presets[1]?.pan == head.pan.motorRadians, "\(name)")
            case "clear_preset":
                #expect(head.presets[1] == nil, "\(name)")
            case "query_pan", "query_tilt":
                #expect(answers.count == 1 && answers[0].count == 7, "\(name): one answer")
            default:
                Issue.record("\(name): a command type no test knows")
            }
        }
    }

    @Test func itAnswersTheQueriesAsTheReplyVectorsSpellThem() throws {
        var head = Self.head(queries: true)
        #expect(head.receive(Self.frame(1, 0, 0x51, 0, 0), now: .zero) == [Self.bytes("ff 01 00 59 00 00 5a")], "pan 0: the vector pan-0")
        // Tilt down at 0x3F (30 °/s) for 1/3 s, with ramps: about -9.3°, read back as 350.7° in hundredths.
        _ = head.receive(Self.frame(1, 0, 0x10, 0, 0x3F), now: .zero)
        _ = head.receive(Self.frame(1, 0, 0, 0, 0), now: .milliseconds(333))
        _ = head.advance(to: .seconds(1))
        let answer = try #require(head.receive(Self.frame(1, 0, 0x53, 0, 0), now: .seconds(1)).first)
        let hundredths = Int(answer[4]) << 8 | Int(answer[5])
        let expected = Int((head.tilt.motorRadians / Self.degree * 100).rounded()) + 36_000
        #expect(answer == Self.frame(1, 0, 0x5B, UInt8(expected >> 8), UInt8(expected & 0xFF)))
        #expect(hundredths > 35_000 && hundredths < 35_200, "about -9.3°: \(hundredths)")
    }

    @Test func aHeadWithoutQueriesAnswersNothing() {
        var head = Self.head()
        #expect(head.receive(Self.frame(1, 0, 0x51, 0, 0), now: .zero).isEmpty)
        #expect(head.receive(Self.frame(1, 0, 0x07, 0, 1), now: .zero).isEmpty)
        #expect(head.unknownCommands == 2, "an extended command it lacks is ignored, counted")
    }

    @Test func aWrongChecksumIsDroppedAndTheNextFrameFound() {
        for cutting in [1, 3, 14] {
            var head = Self.head()
            var input = Self.frame(1, 0, 0x02, 0x20, 0)
            input[6] &+= 1
            input += [0x12, 0x34] + Self.frame(1, 0, 0x04, 0x10, 0) + Self.frame(2, 0, 0x02, 0x3F, 0)
            for start in stride(from: 0, to: input.count, by: cutting) {
                _ = head.receive(Array(input[start..<min(start + cutting, input.count)]), now: .zero)
            }
            #expect(head.checksumErrors == 1 && head.strayRuns == 0, "cut every \(cutting): the bad frame's bytes are one error")
            #expect(head.framesReceived == 1 && head.framesForOthers == 1)
            #expect(head.motion == .drive(panRadiansPerSecond: -16.0 / 63 * 60 * Self.degree, tiltRadiansPerSecond: 0))
        }
    }

    @Test func strayBytesAreOneRunHoweverTheyArrive() {
        var head = Self.head()
        for byte: UInt8 in [0x00, 0x12, 0x34] { _ = head.receive([byte], now: .zero) }
        _ = head.receive(Self.frame(1, 0, 0, 0, 0), now: .zero)
        #expect(head.strayRuns == 1 && head.framesReceived == 1)
    }

    @Test func aDriveTurnsAtItsStepsSpeedAndGoesOnWithNoFailsafe() {
        var head = Self.head()
        _ = head.receive(Self.frame(1, 0, 0x02 | 0x08, 0x3F, 0x3F), now: .zero)
        _ = head.advance(to: .seconds(1))
        // 60 °/s reached after π/3 / 4 s, losing (π/3)² / 8 rad; the motors lag 20 ms more.
        let rate = 60 * Self.degree
        let expected = rate - rate * rate / 8 - rate * 0.02
        #expect(abs(head.pan.motorRadians - expected) < 0.005, "\(head.pan.motorRadians) against \(expected)")
        #expect(abs(head.pan.motorRadiansPerSecond - rate) < 1e-3)
        _ = head.advance(to: .seconds(2))
        #expect(abs(head.pan.motorRadiansPerSecond - rate) < 1e-3, "nothing for a second more, and it turns on: no failsafe")
        _ = head.advance(to: .seconds(10))
        #expect(abs(head.tilt.motorRadians - 60 * Self.degree) < 1e-9, "held at the tilt end stop")
    }

    @Test func turboIsTheFastestStepAndOtherSpeedsAboveItAreCounted() {
        var head = Self.head()
        _ = head.receive(Self.frame(1, 0, 0x02, 0xFF, 0), now: .zero)
        #expect(head.motion == .drive(panRadiansPerSecond: 60 * Self.degree, tiltRadiansPerSecond: 0))
        #expect(head.unknownCommands == 0)
        _ = head.receive(Self.frame(1, 0, 0x02, 0x40, 0), now: .zero)
        #expect(head.unknownCommands == 1)
        _ = head.receive(Self.frame(1, 0, 0x02 | 0x04, 0x10, 0), now: .zero)
        #expect(head.unknownCommands == 2, "right and left at once")
        #expect(head.motion == .idle)
    }

    @Test func unpluggedOrHungItTakesNothing() {
        var head = Self.head(queries: true)
        _ = head.receive(Self.frame(1, 0, 0x02, 0x20, 0), now: .zero)
        head.isUnresponsive = true
        #expect(head.receive(Self.frame(1, 0, 0x51, 0, 0), now: .milliseconds(100)).isEmpty)
        _ = head.receive(Self.frame(1, 0, 0, 0, 0), now: .milliseconds(100))
        _ = head.advance(to: .seconds(1))
        #expect(!head.isStill, "hung, its drive goes on")
        head.isUnresponsive = false
        _ = head.setUnplugged(true, now: .seconds(1))
        _ = head.advance(to: .milliseconds(1100))
        #expect(head.isStill)
        #expect(head.receive(Self.frame(1, 0, 0x51, 0, 0), now: .milliseconds(1100)).isEmpty)
    }

    /// With a lens, tele (`20`) and wide (`40`) move the zoom the whole range in its travel time
    /// until the next command, held at the ends; a position query does not stop it; without a
    /// lens the bits do nothing.
    @Test func theZoomBitsMoveALensAtItsPace() {
        var head = PelcoDHead(configuration: PelcoDHead.Configuration(answersPositionQueries: true, zoomFullTravel: .seconds(2)), seed: 1)
        let start = head.zoomFraction
        _ = head.receive(Self.frame(1, 0, 0x20, 0, 0), now: .zero)
        _ = head.receive(Self.frame(1, 0, 0x51, 0, 0), now: .milliseconds(200))
        _ = head.advance(to: .milliseconds(500))
        #expect(abs(head.zoomFraction - (start + 0.25)) < 1e-9, "a quarter in 0.5 s: \(head.zoomFraction)")
        #expect(!head.isStill, "the lens moves")
        _ = head.receive(Self.frame(1, 0, 0x42, 0x20, 0), now: .milliseconds(500))  // wide, and pan right
        _ = head.advance(to: .seconds(5))
        #expect(head.zoomFraction == 0, "held at the wide end")
        _ = head.receive(Self.frame(1, 0, 0, 0, 0), now: .seconds(5))
        _ = head.advance(to: .seconds(6))
        #expect(head.zoomFraction == 0 && head.isStill)
        var plain = Self.head()
        let before = plain.zoomFraction
        _ = plain.receive(Self.frame(1, 0, 0x20, 0, 0), now: .zero)
        _ = plain.advance(to: .seconds(1))
        #expect(plain.zoomFraction == before && plain.isStill, "no lens: nothing moves")
    }
}
