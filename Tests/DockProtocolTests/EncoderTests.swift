import DockProtocol
import Testing

/// The encoder refuses messages that the specification forbids, naming the field.
@Suite struct EncoderTests {
    static let cases: [(Message, String)] = [
        (.hello(Hello(minimumVersion: 0, maximumVersion: 1)), "min_version"),
        (
            .setVelocity(
                VelocityCommand(
                    yawRate: AngularRate(microradiansPerSecond: 20_000_001),
                    pitchRate: .zero, timeToLive: .milliseconds(100))), "yaw_rate_urad_s"
        ),
        (
            .setVelocity(
                VelocityCommand(
                    yawRate: .zero, pitchRate: AngularRate(microradiansPerSecond: -20_000_001),
                    timeToLive: .milliseconds(100))), "pitch_rate_urad_s"
        ),
        (.setVelocity(VelocityCommand(yawRate: .zero, pitchRate: .zero, timeToLive: .seconds(6))), "ttl_ms"),
        (.setVelocity(VelocityCommand(yawRate: .zero, pitchRate: .zero, timeToLive: .milliseconds(-5))), "ttl_ms"),
        (.setVelocity(VelocityCommand(yawRate: .zero, pitchRate: .zero, timeToLive: .zero)), "ttl_ms"),
        (
            .moveTo(
                OrientationMove(
                    yaw: Angle(microradians: .max), pitch: Angle(microradians: 0),
                    pace: .duration(.seconds(1)))), "yaw_urad"
        ),
        (
            .moveTo(
                OrientationMove(
                    yaw: Angle(microradians: 0), pitch: Angle(microradians: 0),
                    pace: .duration(.seconds(61)))), "duration_ms"
        ),
        (
            .moveTo(
                OrientationMove(
                    yaw: Angle(microradians: 0), pitch: Angle(microradians: 0),
                    pace: .maximumSpeed(AngularRate(microradiansPerSecond: -1)))), "max_speed_urad_s"
        ),
        (.event(AccessoryEvent(accessoryTime: AccessoryTimestamp(microseconds: 0), kind: .zoom(steps: 0))), "steps"),
        (
            .event(
                AccessoryEvent(
                    accessoryTime: AccessoryTimestamp(microseconds: 0),
                    kind: .customButton(identifier: 0, isPressed: true))), "id"
        ),
        (
            .ack(
                Acknowledgement(
                    sequence: 0, acknowledgedType: .telemetry,
                    accessoryTime: AccessoryTimestamp(microseconds: 0))), "acked_type"
        ),
        (
            .telemetry(
                Telemetry(
                    accessoryTime: AccessoryTimestamp(microseconds: 0), yaw: Angle(microradians: 0),
                    pitch: Angle(microradians: 0), yawRate: .zero, pitchRate: .zero,
                    flags: TelemetryFlags(rawValue: 0x8000))), "flags"
        ),
    ]

    @Test func outOfRangeFieldsAreRefusedByName() {
        for (message, field) in Self.cases {
            var output: [UInt8] = [0xAA]
            #expect(throws: InvalidFieldError(type: message.type, field: field)) {
                try FrameEncoder.encode(Frame(sequence: 1, message: message), into: &output)
            }
            #expect(output == [0xAA], "a refused frame leaves the output as it was")
        }
    }

    @Test func infoFieldsAreChecked() {
        var info = ExampleSession.info
        info.model = String(repeating: "x", count: 33)
        #expect(Message.info(info).firstInvalidField == "model")
        info = ExampleSession.info
        info.pitch.minimum = Angle(microradians: 1)
        #expect(Message.info(info).firstInvalidField == "pitch.min_urad")
        info = ExampleSession.info
        info.yaw.maximumAcceleration = AngularAcceleration(microradiansPerSecondSquared: 0)
        #expect(Message.info(info).firstInvalidField == "yaw.max_accel_urad_s2")
        info = ExampleSession.info
        info.failsafeTimeout = .milliseconds(49)
        #expect(Message.info(info).firstInvalidField == "failsafe_timeout_ms")
        info = ExampleSession.info
        info.features = AccessoryFeatures(rawValue: 0x40)
        #expect(Message.info(info).firstInvalidField == "features")
        #expect(Message.info(ExampleSession.info).firstInvalidField == nil)
    }

    @Test func longTextIsCutToAFieldAtACodePointBoundary() throws {
        let fits = String(repeating: "x", count: 32)
        #expect(WireLimits.fieldText(fits) == fits, "32 bytes fit as they are")
        #expect(WireLimits.fieldText("") == "")
        // 30 bytes, then a four-byte emoji that would end at byte 34: it goes whole.
        let emoji = String(repeating: "a", count: 30) + "\u{1F4F7}" + "b"
        #expect(WireLimits.fieldText(emoji) == String(repeating: "a", count: 30))
        // 31 bytes and a two-byte letter: 31 bytes are sent.
        #expect(WireLimits.fieldText(String(repeating: "a", count: 31) + "\u{F6}") == String(repeating: "a", count: 31))
        // Two-byte letters all the way: 16 of them fill the 32 bytes exactly.
        let letters = String(repeating: "\u{F6}", count: 20)
        #expect(WireLimits.fieldText(letters) == String(repeating: "\u{F6}", count: 16))
        var info = ExampleSession.info
        info.model = WireLimits.fieldText(emoji + emoji)
        #expect(Message.info(info).firstInvalidField == nil, "a cut text always encodes")
    }

    @Test func crcCheckValueAndIncrementalUpdate() {
        let check = Array("123456789".utf8)
        #expect(CRC32C.checksum(check) == CRC32C.checkValue)
        var incremental = CRC32C()
        incremental.update(check[..<4])
        incremental.update(check[4...])
        #expect(incremental.value == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
    }

    @Test func cobsRejectsACutBlock() {
        var output: [UInt8] = []
        #expect(throws: COBS.DecodingError.blockOverrunsEnd) { try COBS.decode([0x05, 0x11, 0x22], into: &output) }
        #expect(throws: COBS.DecodingError.zeroInsideRun) { try COBS.decode([0x03, 0x00, 0x22], into: &output) }
    }
}

/// Conversions between SI floating point and wire integers.
@Suite struct UnitTests {
    @Test func nonFiniteAndHugeValuesHaveNoWireForm() {
        for value in [Double.nan, .infinity, -.infinity, 3e3, -2200] {
            #expect(Angle(radians: value) == nil, "\(value) rad")
            #expect(AngularRate(radiansPerSecond: value) == nil, "\(value) rad/s")
        }
    }

    @Test func conversionsRoundToTheNearestMicroradian() {
        #expect(Angle(radians: 0.0000015)?.microradians == 2)
        #expect(Angle(radians: -1.2345674)?.microradians == -1_234_567)
        #expect(Angle(radians: .pi)?.radians == 3.141593)
        #expect(AngularRate(radiansPerSecond: 0.5)?.microradiansPerSecond == 500_000)
        #expect(AngularRate(radiansPerSecond: -0.0)?.microradiansPerSecond == 0)
    }

    @Test func durationsBecomeWholeMilliseconds() {
        #expect(Duration.milliseconds(1500).wholeMilliseconds == 1500)
        #expect(Duration.microseconds(1499).wholeMilliseconds == 1)
        #expect(Duration.microseconds(1500).wholeMilliseconds == 2)
        #expect(Duration.zero.wholeMilliseconds == 0)
        #expect(Duration.milliseconds(-1).wholeMilliseconds == nil)
        #expect(Duration.seconds(Int64(UInt32.max)).wholeMilliseconds == nil)
        #expect(AccessoryTimestamp(microseconds: 1_500_000).sinceStart == .milliseconds(1500))
    }
}

/// Field numbers, as used in `out_of_range` refusals.
@Suite struct FieldNumberTests {
    @Test func everyFieldAValidatorCanNameHasANumber() {
        #expect(MessageType.setVelocity.fieldNumber(of: "ttl_ms") == 3)
        #expect(MessageType.moveTo.fieldNumber(of: "max_speed_urad_s") == 4)
        #expect(MessageType.moveTo.fieldNumber(of: "duration_ms") == 4)
        #expect(MessageType.info.fieldNumber(of: "pitch.min_urad") == 9)
        #expect(MessageType.event.fieldNumber(of: "pressed") == 4)
        #expect(MessageType.hello.fieldNumber(of: "nonsense") == 0)
        for (message, field) in EncoderTests.cases {
            #expect(message.type.fieldNumber(of: field) > 0, "\(message.type).\(field) has a number")
        }
        #expect(MessageType.telemetry.fixedPayloadCount == 26)
        #expect(MessageType.info.fixedPayloadCount == nil)
    }
}
