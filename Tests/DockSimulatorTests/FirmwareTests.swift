import DockProtocol
import Testing

@testable import DockSimulator

/// The firmware model against `Protocol/dock-serial.md`, in virtual time.
@Suite struct FirmwareTests {
    @Test func helloIsAnsweredWithInfoAndTelemetryFollowsAtTheAdvertisedRate() throws {
        var host = FirmwareHost()
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
        var host = FirmwareHost(configuration: AccessoryConfiguration(supportedVersions: 1...2))
        let refused = try host.send(.hello(Hello(minimumVersion: 3, maximumVersion: 4)))
        #expect(
            refused.first?.refusal
                == Refusal(
                    sequence: 0, refusedTypeCode: 0x01, reason: .unsupportedVersion,
                    detail: 0x0201))
        #expect(host.firmware.session == .notReady)
        _ = try host.send(.hello(Hello(minimumVersion: 1, maximumVersion: 5)))
        #expect(host.firmware.session == .ready(version: 2))
    }

    @Test func everythingButHelloIsRefusedBeforeASession() throws {
        var host = FirmwareHost()
        for message in [Message.heartbeat, .stop, velocity(yaw: 0.1, pitch: 0)] {
            let answer = try host.send(message)
            #expect(answer.first?.refusal?.reason == .notReady, "\(message)")
        }
        #expect(host.firmware.isStill)
    }

    @Test func aVelocityRunsForItsTimeToLiveThenStops() throws {
        var host = FirmwareHost()
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
        var host = FirmwareHost()
        try host.handshake()
        for _ in 0..<10 {
            try host.send(velocity(yaw: 0.3, pitch: 0, ttl: .milliseconds(200)))
            host.wait(.milliseconds(100))
        }
        #expect(abs(host.firmware.yaw.motorRadiansPerSecond - 0.3) < 1e-3, "still turning after 1 s of refreshes")
    }

    @Test func ratesAboveTheAxisMaximumAreRefusedWithTheFieldNumber() throws {
        var host = FirmwareHost()
        try host.handshake()
        let tooFast = try host.send(velocity(yaw: 0, pitch: 1.6))
        #expect(tooFast.first?.refusal?.reason == .outOfRange)
        #expect(tooFast.first?.refusal?.detail == 2)
        #expect(host.firmware.motion == .idle, "a refused command changes nothing")
    }

    @Test func orientationMovesReachTheirTarget() throws {
        var host = FirmwareHost()
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
        #expect(
            outside.first?.refusal
                == Refusal(
                    sequence: host.sequence - 1, refusedTypeCode: 0x04,
                    reason: .outOfRange, detail: 2))
    }

    @Test func stopDeceleratesWithinTheAccelerationLimit() throws {
        var host = FirmwareHost()
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
        var host = FirmwareHost()
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
        #expect(
            answer.last?.fault
                == FaultReport(
                    accessoryTime: host.firmware.accessoryTime, code: .failsafeStop,
                    axis: nil, isActive: false))
        #expect(!host.firmware.isFailsafeStopped)
        #expect(host.firmware.isStill, "the failsafe does not restart motion")
    }

    @Test func heartbeatsKeepTheSessionAlive() throws {
        var host = FirmwareHost()
        try host.handshake()
        for _ in 0..<50 {
            host.wait(.milliseconds(100))
            try host.send(.heartbeat)
        }
        #expect(!host.received.contains { $0.fault != nil })
    }

    @Test func damagedAndForeignFramesAreRefusedByReason() throws {
        var host = FirmwareHost()
        try host.handshake()
        func raw(_ type: UInt8, _ sequence: UInt16, _ payload: [UInt8]) -> [UInt8] {
            var bytes: [UInt8] = []
            FrameEncoder.encodeRaw(typeCode: type, sequence: sequence, payload: payload, into: &bytes)
            return bytes
        }
        #expect(
            host.sendBytes(raw(0x7E, 100, [])).first?.refusal
                == Refusal(sequence: 100, refusedTypeCode: 0x7E, reason: .unknownMessage, detail: 0))
        #expect(
            host.sendBytes(raw(0x03, 101, [1, 2, 3])).first?.refusal
                == Refusal(sequence: 101, refusedTypeCode: 0x03, reason: .wrongLength, detail: 10))
        #expect(
            host.sendBytes(raw(0x03, 102, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).first?.refusal
                == Refusal(sequence: 102, refusedTypeCode: 0x03, reason: .outOfRange, detail: 3))
        #expect(
            host.sendBytes(raw(0x06, 103, [9, 0, 0, 0])).first?.refusal
                == Refusal(sequence: 103, refusedTypeCode: 0x06, reason: .outOfRange, detail: 1))
        #expect(
            host.sendBytes(raw(0x84, 104, [UInt8](repeating: 0, count: 26))).first?.refusal
                == Refusal(sequence: 104, refusedTypeCode: 0x84, reason: .unknownMessage, detail: 0))
        var damaged = raw(0x02, 105, [])
        damaged[3] ^= 0x40
        #expect(host.sendBytes(damaged).isEmpty, "a frame with a bad CRC gets no answer")
        #expect(host.firmware.badFrameCount == 5)
    }

    @Test func aStalledMotorRaisesALatchedFaultThatStopClears() throws {
        var host = FirmwareHost()
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
        var host = FirmwareHost()
        try host.handshake()
        let raised = host.firmware.setOverTemperature(true, now: host.now)
        #expect(raised.last?.fault?.code == .overTemperature)
        #expect(try host.send(velocity(yaw: 0.1, pitch: 0)).first?.refusal?.detail == 2)
        _ = host.firmware.setOverTemperature(false, now: host.now)
        #expect(try host.send(velocity(yaw: 0.1, pitch: 0)).first?.acknowledgement != nil)
    }

    @Test func buttonsAndDockChangesBecomeEvents() throws {
        var host = FirmwareHost()
        #expect(host.firmware.button(.tracking, isPressed: true, now: host.now).isEmpty, "no events before a session")
        try host.handshake()
        let press = host.firmware.button(.tracking, isPressed: true, now: host.now)
        #expect(press.last?.event?.kind == .trackingButton(isPressed: true))
        #expect(host.firmware.zoom(steps: -2, now: host.now).last?.event?.kind == .zoom(steps: -2))
        #expect(
            host.firmware.button(.custom(4), isPressed: true, now: host.now).last?.event?.kind
                == .customButton(identifier: 4, isPressed: true))
        #expect(
            host.firmware.button(.custom(4), isPressed: false, now: host.now).last?.event?.kind
                == .customButton(identifier: 4, isPressed: false))
        #expect(host.firmware.setDocked(false, now: host.now).last?.event?.kind == .dockChanged(isDocked: false))
        #expect(host.wait(.milliseconds(40)).compactMap(\.telemetry).last?.flags.contains(.docked) == false)
    }

    @Test func theIndicatorTakesItsState() throws {
        var host = FirmwareHost()
        try host.handshake()
        let state = IndicatorState(pattern: .pulse, red: 0, green: 255, blue: 0)
        #expect(try host.send(.setIndicator(state)).first?.acknowledgement != nil)
        #expect(host.firmware.indicator == state)
    }

    @Test func aRebootEndsTheSessionAndRestartsTheClock() throws {
        var host = FirmwareHost()
        try host.handshake()
        try host.send(velocity(yaw: 1, pitch: 0, ttl: .seconds(5)))
        host.wait(.seconds(1))
        host.firmware.reboot(now: host.now)
        #expect(host.firmware.isStill)
        #expect(host.waitQuietly(.milliseconds(500)).isEmpty, "no telemetry after a reset")
        let refused = try host.send(.heartbeat)
        #expect(
            refused == [
                Frame(
                    sequence: 0,
                    message: .nack(
                        Refusal(
                            sequence: host.sequence - 1, refusedTypeCode: 0x02,
                            reason: .notReady, detail: 0)))
            ])
        try host.handshake()
        let first = try #require(host.wait(.milliseconds(30)).compactMap(\.telemetry).first)
        #expect(first.accessoryTime.microseconds < 600_000, "the clock restarted at the reset")
    }

    @Test func sequenceNumbersCountEveryFrameTheDockSends() throws {
        var host = FirmwareHost()
        try host.handshake()
        try host.send(.heartbeat)
        host.wait(.milliseconds(200))
        let sequences = host.received.map(\.sequence)
        #expect(sequences == Array(0..<UInt16(sequences.count)))
    }

    // MARK: Text 1.1 of the specification

    /// A frame with any type byte and payload, good CRC.
    private func raw(_ type: UInt8, _ sequence: UInt16, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        FrameEncoder.encodeRaw(typeCode: type, sequence: sequence, payload: payload, into: &bytes)
        return bytes
    }

    /// A host with a yaw stall latched.
    private func hostWithLatchedStall() throws -> FirmwareHost {
        var host = FirmwareHost()
        try host.handshake()
        _ = host.firmware.setBlocked(.yaw, true, now: host.now)
        try host.send(velocity(yaw: 1, pitch: 0, ttl: .seconds(2)))
        host.wait(.milliseconds(300))
        precondition(host.firmware.latchedStall == .yaw, "the stall was not latched")
        return host
    }

    @Test func whileAStallIsLatchedOnlyMotionIsRefusedAndOnlyStopClearsIt() throws {
        var host = try hostWithLatchedStall()
        #expect(try host.send(.heartbeat).first?.acknowledgement?.acknowledgedType == .heartbeat)
        #expect(
            try host.send(.setIndicator(IndicatorState(pattern: .solid, red: 9, green: 0, blue: 0)))
                .first?.acknowledgement?.acknowledgedType == .setIndicator)
        let moveRefusal = try host.send(move(yaw: 0.2, pitch: 0, pace: .duration(.seconds(1))))
        #expect(
            moveRefusal.first?.refusal
                == Refusal(
                    sequence: host.sequence - 1, refusedTypeCode: 0x04,
                    reason: .faulted, detail: 1))
        // A new session keeps the latch, and says so right after info.
        let reopened = try host.send(.hello(Hello(minimumVersion: 1, maximumVersion: 1)))
        #expect(reopened.count == 2)
        #expect(
            reopened.last?.fault?.code == .motorStall && reopened.last?.fault?.axis == .yaw
                && reopened.last?.fault?.isActive == true)
        #expect(host.firmware.latchedStall == .yaw, "hello does not clear a stall")
        #expect(try host.send(velocity(yaw: 0.1, pitch: 0)).first?.refusal?.reason == .faulted)

        let cleared = try host.send(.stop)
        #expect(
            cleared.map(\.message) == [
                .ack(
                    Acknowledgement(
                        sequence: host.sequence - 1, acknowledgedType: .stop,
                        accessoryTime: host.firmware.accessoryTime)),
                .fault(
                    FaultReport(
                        accessoryTime: host.firmware.accessoryTime, code: .motorStall, axis: .yaw,
                        isActive: false)),
            ], "the stop's ack, then the stall cleared")
        #expect(
            host.wait(.milliseconds(40)).compactMap(\.telemetry).last?.flags.isDisjoint(with: [.yawStalled, .faulted])
                == true)
        #expect(try host.send(.stop).count == 1, "a stop with nothing latched is just acknowledged")

        // The motor is still blocked: the next motion is accepted, and the stall comes back.
        #expect(try host.send(velocity(yaw: 1, pitch: 0, ttl: .seconds(2))).first?.acknowledgement != nil)
        let again = host.wait(.milliseconds(300)).compactMap(\.fault)
        #expect(
            again == [
                FaultReport(
                    accessoryTime: again.first?.accessoryTime ?? AccessoryTimestamp(microseconds: 0),
                    code: .motorStall, axis: .yaw, isActive: true)
            ])
    }

    @Test func aFaultedRefusalCarriesTheLowestActiveFaultCode() throws {
        var host = try hostWithLatchedStall()
        _ = host.firmware.setOverTemperature(true, now: host.now)
        #expect(try host.send(velocity(yaw: 0.1, pitch: 0)).first?.refusal?.detail == 1, "stall and heat: 1")
        try host.send(.stop)
        #expect(host.firmware.isOverTemperature, "stop clears only the stall")
        #expect(try host.send(velocity(yaw: 0.1, pitch: 0)).first?.refusal?.detail == 2, "heat alone: 2")
    }

    @Test func faultsActiveWhenASessionOpensAreAnnouncedAfterInfo() throws {
        var host = FirmwareHost()
        #expect(host.firmware.setOverTemperature(true, now: host.now).isEmpty, "nothing is sent before hello")
        let answer = try host.send(.hello(Hello(minimumVersion: 1, maximumVersion: 1)))
        #expect(answer.count == 2)
        guard case .info? = answer.first?.message else {
            Issue.record("hello got \(answer)")
            return
        }
        #expect(
            answer[1]
                == Frame(
                    sequence: 1,
                    message: .fault(
                        FaultReport(
                            accessoryTime: host.firmware.accessoryTime, code: .overTemperature, axis: nil, isActive: true))))
    }

    @Test func aHelloWithoutASharedVersionEndsTheSession() throws {
        var host = FirmwareHost()
        try host.handshake()
        try host.send(.setIndicator(IndicatorState(pattern: .solid, red: 0, green: 255, blue: 0)))
        try host.send(velocity(yaw: 0.5, pitch: 0, ttl: .seconds(5)))
        host.wait(.milliseconds(200))
        let refused = try host.send(.hello(Hello(minimumVersion: 2, maximumVersion: 3)))
        #expect(
            refused.map(\.refusal) == [
                Refusal(
                    sequence: host.sequence - 1, refusedTypeCode: 0x01,
                    reason: .unsupportedVersion, detail: 0x0101)
            ])
        #expect(host.firmware.session == .notReady)
        #expect(host.firmware.motion == .idle)
        #expect(host.firmware.indicator.pattern == .off)
        #expect(host.waitQuietly(.milliseconds(500)).isEmpty, "no telemetry, and no failsafe, once not ready")
        #expect(host.firmware.isStill)
        #expect(try host.send(.heartbeat).first?.refusal?.reason == .notReady)
    }

    @Test func aHelloRefusedForItsFieldsChangesNothing() throws {
        var host = FirmwareHost()
        try host.handshake()
        try host.send(velocity(yaw: 0.5, pitch: 0, ttl: .seconds(5)))
        let motion = host.firmware.motion
        let answer = host.sendBytes(raw(0x01, 77, [2, 1]))
        #expect(answer.map(\.refusal) == [Refusal(sequence: 77, refusedTypeCode: 0x01, reason: .outOfRange, detail: 2)])
        #expect(host.firmware.session == .ready(version: 1))
        #expect(host.firmware.motion == motion)
    }

    @Test func anAcceptedHelloDoesNotRestartTheDocksSequenceNumbers() throws {
        var host = FirmwareHost()
        try host.handshake()
        host.wait(.milliseconds(100))
        let last = try #require(host.received.last).sequence
        let info = try host.send(.hello(Hello(minimumVersion: 1, maximumVersion: 1)))
        #expect(info.map(\.sequence) == [last + 1])
        host.wait(.milliseconds(100))
        #expect(host.received.map(\.sequence) == Array(0..<UInt16(host.received.count)))
    }

    @Test func onlyFramesOfHostTypesKeepTheFailsafeAwayRefusedOnesIncluded() throws {
        var host = FirmwareHost()
        try host.handshake()
        // Refused host frames every 100 ms for a second: the host is alive, no failsafe.
        for index in 0..<10 {
            host.waitQuietly(.milliseconds(100))
            let answer = host.sendBytes(raw(0x03, UInt16(index), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
            #expect(answer.first?.refusal?.reason == .outOfRange)
        }
        #expect(!host.firmware.isFailsafeStopped)
        // The dock's own telemetry echoed back every 100 ms: refused, and no sign of a host.
        let echo = raw(0x84, 500, [UInt8](repeating: 0, count: 26))
        var raised = false
        for _ in 0..<6 {
            raised = host.waitQuietly(.milliseconds(100)).contains { $0.fault?.code == .failsafeStop } || raised
            #expect(host.sendBytes(echo).first?.refusal?.reason == .unknownMessage)
        }
        #expect(raised && host.firmware.isFailsafeStopped, "echoed frames do not keep the failsafe away")
        #expect(host.sendBytes(echo).count == 1, "nor do they end a failsafe stop")
        // The next host frame ends it, refused or not: its answer first, then the cleared fault.
        let ended = host.sendBytes(raw(0x7E, 600, []))
        #expect(
            ended.map(\.message) == [
                .nack(Refusal(sequence: 600, refusedTypeCode: 0x7E, reason: .unknownMessage, detail: 0)),
                .fault(
                    FaultReport(
                        accessoryTime: host.firmware.accessoryTime, code: .failsafeStop, axis: nil,
                        isActive: false)),
            ])
        #expect(!host.firmware.isFailsafeStopped)
    }

    @Test func refusalsFollowTheOrderOfTheSpecification() throws {
        var host = FirmwareHost()
        // Not ready: an accessory type is unknown whatever its length; a bad field comes before
        // not_ready; a good frame gets not_ready.
        #expect(
            host.sendBytes(raw(0x84, 1, [1, 2, 3])).map(\.refusal)
                == [Refusal(sequence: 1, refusedTypeCode: 0x84, reason: .unknownMessage, detail: 0)])
        #expect(host.sendBytes(raw(0x81, 2, [])).first?.refusal?.reason == .unknownMessage)
        #expect(host.sendBytes(raw(0x80, 3, [])).first?.refusal?.reason == .unknownMessage)
        #expect(host.sendBytes(raw(0x00, 4, [])).first?.refusal?.reason == .unknownMessage)
        #expect(
            host.sendBytes(raw(0x03, 5, [0, 0, 0, 0, 0, 0, 0, 0, 0])).first?.refusal
                == Refusal(sequence: 5, refusedTypeCode: 0x03, reason: .wrongLength, detail: 10))
        #expect(
            host.sendBytes(raw(0x03, 6, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).first?.refusal
                == Refusal(sequence: 6, refusedTypeCode: 0x03, reason: .outOfRange, detail: 3))
        #expect(try host.send(velocity(yaw: 9, pitch: 0)).first?.refusal?.reason == .notReady)
        // Ready with a stall latched: faulted comes before the axis limits.
        host = try hostWithLatchedStall()
        #expect(try host.send(velocity(yaw: 9, pitch: 0)).first?.refusal?.reason == .faulted)
        try host.send(.stop)
        #expect(
            try host.send(velocity(yaw: 9, pitch: 0)).first?.refusal
                == Refusal(sequence: host.sequence - 1, refusedTypeCode: 0x03, reason: .outOfRange, detail: 1))
    }

    @Test func movingFlagsAreSetExactlyAboveTheThresholdOfTheReportedRate() throws {
        var host = FirmwareHost()
        try host.handshake()
        var telemetry: [Telemetry] = []
        for microradiansPerSecond: Int32 in [999, 1_000, 1_001, 1_500, 0, -1_001, 300_000, 0] {
            try host.send(
                .setVelocity(
                    VelocityCommand(
                        yawRate: AngularRate(microradiansPerSecond: microradiansPerSecond),
                        pitchRate: AngularRate(microradiansPerSecond: -microradiansPerSecond), timeToLive: .seconds(1))))
            telemetry += host.wait(.milliseconds(900)).compactMap(\.telemetry)
        }
        #expect(telemetry.count > 300)
        for sample in telemetry {
            #expect(
                sample.flags.contains(.yawMoving) == (sample.yawRate.microradiansPerSecond.magnitude > 1_000),
                "\(sample)")
            #expect(
                sample.flags.contains(.pitchMoving) == (sample.pitchRate.microradiansPerSecond.magnitude > 1_000),
                "\(sample)")
        }
        #expect(telemetry.contains { $0.yawRate.microradiansPerSecond == 1_000 && !$0.flags.contains(.yawMoving) })
        #expect(telemetry.contains { $0.yawRate.microradiansPerSecond == 1_001 && $0.flags.contains(.yawMoving) })
    }

    @Test func textLongerThanAFieldIsCutAtACodePointBoundary() throws {
        // 31 ASCII bytes and a two-byte "ö": 33 bytes, so the "ö" goes whole.
        let model = String(repeating: "M", count: 31) + "ö"
        let serial = "SIM-0001"
        var host = FirmwareHost(configuration: AccessoryConfiguration(model: model, serialNumber: serial))
        let answer = try host.send(.hello(Hello(minimumVersion: 1, maximumVersion: 1)))
        guard case .info(let info)? = answer.first?.message else {
            Issue.record("hello got \(answer)")
            return
        }
        #expect(info.model == String(repeating: "M", count: 31))
        #expect(info.serialNumber == serial)
    }
}
