import DockProtocol
import Testing

@testable import DockSimulator

/// The firmware model against `Protocol/dock-serial.md`, in virtual time.
@Suite struct FirmwareTests {
    @Test func helloIsAnsweredWithInfoAndTelemetryFollowsAtTheAdvertisedRate() throws {
        var host = TestHost()
        #expect(host.waitQuietly(.seconds(1)).isEmpty, "no telemetry before a session")
        let answer = try host.send(.hello(Hello(minimumVersion: 1, maximumVersion: 3)))
        let expected = AccessoryConfiguration().info(version: 1)!
        #expect(answer == [Frame(sequence: 0, message: .info(expected))])
        #expect(expected == ExampleSession.info, "the default dock is the specification's example dock")

        let telemetry = host.wait(.seconds(1)).compactMap(\.telemetry)
        #expect(telemetry.count == 50)
        let intervals = zip(telemetry.dropFirst(), telemetry).map { $0.accessoryTime.microseconds - $1.accessoryTime.microseconds }
        #expect(intervals.allSatisfy { $0 == 20_000 })
        #expect(telemetry.allSatisfy { $0.flags == [.docked] })
    }

    @Test func versionsAreNegotiated() throws {
        var host = TestHost(configuration: AccessoryConfiguration(supportedVersions: 1...2))
        let refused = try host.send(.hello(Hello(minimumVersion: 3, maximumVersion: 4)))
        #expect(refused.first?.refusal == Refusal(sequence: 0, refusedTypeCode: 0x01, reason: .unsupportedVersion,
                                                 detail: 0x0201))
        #expect(host.firmware.session == .notReady)
        _ = try host.send(.hello(Hello(minimumVersion: 1, maximumVersion: 5)))
        #expect(host.firmware.session == .ready(version: 2))
    }

    @Test func everythingButHelloIsRefusedBeforeASession() throws {
        var host = TestHost()
        for message in [Message.heartbeat, .stop, velocity(yaw: 0.1, pitch: 0)] {
            let answer = try host.send(message)
            #expect(answer.first?.refusal?.reason == .notReady, "\(message)")
        }
        #expect(host.firmware.isStill)
    }

    @Test func aVelocityRunsForItsTimeToLiveThenStops() throws {
        var host = TestHost()
        try host.handshake()
        let answer = try host.send(velocity(yaw: 0.5, pitch: -0.2, ttl: .milliseconds(500)))
        #expect(answer.first?.acknowledgement?.acknowledgedType == .setVelocity)
        host.wait(.milliseconds(400))
        #expect(abs(host.firmware.yaw.motorRadiansPerSecond - 0.5) < 1e-3)
        #expect(abs(host.firmware.pitch.motorRadiansPerSecond + 0.2) < 1e-3)
        host.wait(.milliseconds(300))
        #expect(host.firmware.isStill, "stopped within 200 ms after the time-to-live")
        // 0.5 s at 0.5 rad/s, less the ramp and lag at each end.
        #expect(abs(host.firmware.yaw.motorRadians - 0.25) < 0.02)
        #expect(host.firmware.motion == .idle)
    }

    @Test func aNewerVelocityReplacesTheOldAndRestartsItsTimeToLive() throws {
        var host = TestHost()
        try host.handshake()
        for _ in 0..<10 {
            try host.send(velocity(yaw: 0.3, pitch: 0, ttl: .milliseconds(200)))
            host.wait(.milliseconds(100))
        }
        #expect(abs(host.firmware.yaw.motorRadiansPerSecond - 0.3) < 1e-3, "still turning after 1 s of refreshes")
    }

    @Test func ratesAboveTheAxisMaximumAreRefusedWithTheFieldNumber() throws {
        var host = TestHost()
        try host.handshake()
        let tooFast = try host.send(velocity(yaw: 0, pitch: 1.6))
        #expect(tooFast.first?.refusal?.reason == .outOfRange)
        #expect(tooFast.first?.refusal?.detail == 2)
        #expect(host.firmware.motion == .idle, "a refused command changes nothing")
    }

    @Test func orientationMovesReachTheirTarget() throws {
        var host = TestHost()
        try host.handshake()
        try host.send(move(yaw: 1.0, pitch: 0.3, pace: .duration(.seconds(2))))
        host.wait(.milliseconds(1000))
        #expect(abs(host.firmware.yaw.motorRadians - 0.5) < 0.08, "halfway at half time")
        host.wait(.milliseconds(1500))
        #expect(abs(host.firmware.yaw.motorRadians - 1.0) < 1e-3)
        #expect(abs(host.firmware.pitch.motorRadians - 0.3) < 1e-3)
        #expect(host.firmware.isStill)

        try host.send(move(yaw: -0.5, pitch: 0, pace: .maximumSpeed(AngularRate(radiansPerSecond: 1)!)))
        host.wait(.milliseconds(1000))
        #expect(abs(host.firmware.yaw.motorRadiansPerSecond + 1) < 1e-3, "cruising at the given speed")
        host.wait(.milliseconds(1500))
        #expect(abs(host.firmware.yaw.motorRadians + 0.5) < 1e-3)

        let outside = try host.send(move(yaw: 0, pitch: 1.2, pace: .duration(.seconds(1))))
        #expect(outside.first?.refusal == Refusal(sequence: host.sequence - 1, refusedTypeCode: 0x04,
                                                 reason: .outOfRange, detail: 2))
    }

    @Test func stopDeceleratesWithinTheAccelerationLimit() throws {
        var host = TestHost()
        try host.handshake()
        try host.send(velocity(yaw: 3, pitch: 0, ttl: .seconds(5)))
        host.wait(.milliseconds(500))
        #expect(abs(host.firmware.yaw.motorRadiansPerSecond - 3) < 1e-2)
        try host.send(.stop)
        host.wait(.milliseconds(200))
        #expect(!host.firmware.isStill, "3 rad/s at 12 rad/s² takes 250 ms to stop")
        host.wait(.milliseconds(200))
        #expect(host.firmware.isStill, "stopped after the ramp and the motor's 20 ms lag")
    }

    @Test func theFailsafeStopsTheMotorsWhenTheHostGoesQuiet() throws {
        var host = TestHost()
        try host.handshake()
        try host.send(velocity(yaw: 1, pitch: 0, ttl: .seconds(5)))
        let sentAt = host.now
        var failsafeAt: Duration?
        var stillAt: Duration?
        for _ in 0..<1000 {
            let frames = host.waitQuietly(.milliseconds(1))
            if failsafeAt == nil, frames.contains(where: { $0.fault?.code == .failsafeStop && $0.fault?.isActive == true }) {
                failsafeAt = host.now
            }
            if failsafeAt != nil, stillAt == nil, host.firmware.isStill { stillAt = host.now }
        }
        #expect(failsafeAt.map { $0 - sentAt } == .milliseconds(501))
        // Braking from 1 rad/s at 12 rad/s² takes 83 ms, and the motor's 20 ms lag about 110 ms more.
        #expect(stillAt.map { $0 - sentAt }! <= .milliseconds(720), "stopped after the timeout plus braking")
        #expect(host.firmware.isFailsafeStopped)
        #expect(host.received.last(where: { $0.telemetry != nil })?.telemetry?.flags.contains(.failsafeStopped) == true)

        let answer = try host.send(.heartbeat)
        #expect(answer.count == 2)
        #expect(answer.last?.fault == FaultReport(accessoryTime: host.firmware.accessoryTime, code: .failsafeStop,
                                                 axis: nil, isActive: false))
        #expect(!host.firmware.isFailsafeStopped)
        #expect(host.firmware.isStill, "the failsafe does not restart motion")
    }

    @Test func heartbeatsKeepTheSessionAlive() throws {
        var host = TestHost()
        try host.handshake()
        for _ in 0..<50 {
            host.wait(.milliseconds(100))
            try host.send(.heartbeat)
        }
        #expect(!host.received.contains { $0.fault != nil })
    }

    @Test func damagedAndForeignFramesAreRefusedByReason() throws {
        var host = TestHost()
        try host.handshake()
        func raw(_ type: UInt8, _ sequence: UInt16, _ payload: [UInt8]) -> [UInt8] {
            var bytes: [UInt8] = []
            FrameEncoder.encodeRaw(typeCode: type, sequence: sequence, payload: payload, into: &bytes)
            return bytes
        }
        #expect(host.sendBytes(raw(0x7E, 100, [])).first?.refusal
                == Refusal(sequence: 100, refusedTypeCode: 0x7E, reason: .unknownMessage, detail: 0))
        #expect(host.sendBytes(raw(0x03, 101, [1, 2, 3])).first?.refusal
                == Refusal(sequence: 101, refusedTypeCode: 0x03, reason: .wrongLength, detail: 10))
        #expect(host.sendBytes(raw(0x03, 102, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).first?.refusal
                == Refusal(sequence: 102, refusedTypeCode: 0x03, reason: .outOfRange, detail: 3))
        #expect(host.sendBytes(raw(0x06, 103, [9, 0, 0, 0])).first?.refusal
                == Refusal(sequence: 103, refusedTypeCode: 0x06, reason: .outOfRange, detail: 1))
        #expect(host.sendBytes(raw(0x84, 104, [UInt8](repeating: 0, count: 26))).first?.refusal
                == Refusal(sequence: 104, refusedTypeCode: 0x84, reason: .unknownMessage, detail: 0))
        var damaged = raw(0x02, 105, [])
        damaged[3] ^= 0x40
        #expect(host.sendBytes(damaged).isEmpty, "a frame with a bad CRC gets no answer")
        #expect(host.firmware.badFrameCount == 5)
    }

    @Test func aStalledMotorRaisesALatchedFaultThatStopClears() throws {
        var host = TestHost()
        try host.handshake()
        _ = host.firmware.setBlocked(.yaw, true, now: host.now)
        try host.send(velocity(yaw: 1, pitch: 0.2, ttl: .seconds(2)))
        let frames = host.wait(.milliseconds(400))
        let raised = try #require(frames.compactMap(\.fault).first)
        #expect(host.firmware.yaw.motorRadians == 0 && host.firmware.pitch.motorRadians > 0)
        #expect(raised.code == .motorStall && raised.axis == .yaw && raised.isActive)
        #expect(host.firmware.motion == .idle, "a stall stops motion")

        let refused = try host.send(velocity(yaw: 0.1, pitch: 0))
        #expect(refused.first?.refusal?.reason == .faulted)
        #expect(refused.first?.refusal?.detail == 1)
        #expect(host.wait(.milliseconds(40)).compactMap(\.telemetry).last?.flags.contains(.yawStalled) == true)

        _ = host.firmware.setBlocked(.yaw, false, now: host.now)
        let cleared = try host.send(.stop)
        #expect(cleared.first?.acknowledgement != nil)
        #expect(cleared.last?.fault?.isActive == false)
        #expect(try host.send(velocity(yaw: 0.1, pitch: 0)).first?.acknowledgement != nil)
    }

    @Test func overTemperatureBlocksMotionWhileActive() throws {
        var host = TestHost()
        try host.handshake()
        let raised = host.firmware.setOverTemperature(true, now: host.now)
        #expect(raised.last?.fault?.code == .overTemperature)
        #expect(try host.send(velocity(yaw: 0.1, pitch: 0)).first?.refusal?.detail == 2)
        _ = host.firmware.setOverTemperature(false, now: host.now)
        #expect(try host.send(velocity(yaw: 0.1, pitch: 0)).first?.acknowledgement != nil)
    }

    @Test func buttonsAndDockChangesBecomeEvents() throws {
        var host = TestHost()
        #expect(host.firmware.button(.tracking, isPressed: true, now: host.now).isEmpty, "no events before a session")
        try host.handshake()
        let press = host.firmware.button(.tracking, isPressed: true, now: host.now)
        #expect(press.last?.event?.kind == .trackingButton(isPressed: true))
        #expect(host.firmware.zoom(steps: -2, now: host.now).last?.event?.kind == .zoom(steps: -2))
        #expect(host.firmware.button(.custom(4), isPressed: false, now: host.now).last?.event?.kind
                == .customButton(identifier: 4, isPressed: false))
        #expect(host.firmware.setDocked(false, now: host.now).last?.event?.kind == .dockChanged(isDocked: false))
        #expect(host.wait(.milliseconds(40)).compactMap(\.telemetry).last?.flags.contains(.docked) == false)
    }

    @Test func theIndicatorTakesItsState() throws {
        var host = TestHost()
        try host.handshake()
        let state = IndicatorState(pattern: .pulse, red: 0, green: 255, blue: 0)
        #expect(try host.send(.setIndicator(state)).first?.acknowledgement != nil)
        #expect(host.firmware.indicator == state)
    }

    @Test func aRebootEndsTheSessionAndRestartsTheClock() throws {
        var host = TestHost()
        try host.handshake()
        try host.send(velocity(yaw: 1, pitch: 0, ttl: .seconds(5)))
        host.wait(.seconds(1))
        host.firmware.reboot(now: host.now)
        #expect(host.firmware.isStill)
        #expect(host.waitQuietly(.milliseconds(500)).isEmpty, "no telemetry after a reset")
        let refused = try host.send(.heartbeat)
        #expect(refused == [Frame(sequence: 0, message: .nack(Refusal(sequence: host.sequence - 1, refusedTypeCode: 0x02,
                                                                     reason: .notReady, detail: 0)))])
        try host.handshake()
        let first = try #require(host.wait(.milliseconds(30)).compactMap(\.telemetry).first)
        #expect(first.accessoryTime.microseconds < 600_000, "the clock restarted at the reset")
    }

    @Test func sequenceNumbersCountEveryFrameTheDockSends() throws {
        var host = TestHost()
        try host.handshake()
        try host.send(.heartbeat)
        host.wait(.milliseconds(200))
        let sequences = host.received.map(\.sequence)
        #expect(sequences == Array(0..<UInt16(sequences.count)))
    }
}
