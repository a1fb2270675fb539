import DockProtocol
import Testing

@testable import DockSimulator

/// Text 1.2 of the specification (§5.4, §7) on the firmware model, in virtual time: moves by
/// duration arrive on time, an axis brakes before a range end within its acceleration, and a
/// button held through `hello` is not released in the session.
@Suite struct MotionTimingTests {
    /// How far apart two times are.
    private func apart(_ a: Duration, _ b: Duration) -> Duration { a > b ? a - b : b - a }

    /// When both axes first stand at their targets (within 1 mrad, slower than 1 mrad/s), after the
    /// move was sent, stepping 1 ms at a time with a heartbeat every 100 ms; nil if not in 3 s.
    private func arrival(_ host: inout FirmwareHost, yaw: Double, pitch: Double) -> Duration? {
        let start = host.now
        for step in 1...3000 {
            host.waitQuietly(.milliseconds(1))
            if step % 100 == 0 { _ = try? host.send(.heartbeat) }
            let firmware = host.firmware
            if abs(firmware.yaw.motorRadians - yaw) <= 1e-3, abs(firmware.pitch.motorRadians - pitch) <= 1e-3,
                abs(firmware.yaw.motorRadiansPerSecond) <= 1e-3, abs(firmware.pitch.motorRadiansPerSecond) <= 1e-3
            {
                return host.now - start
            }
        }
        return nil
    }

    @Test(arguments: [(0.5, 0.1, 1000), (1.0, -0.3, 1000), (0.05, 0.0, 300), (0.1, 0.05, 300), (-0.1, 0.03, 300)])
    func aMoveByDurationArrivesWithinTwentyMillisecondsOfIt(yaw: Double, pitch: Double, milliseconds: Int) throws {
        // all within what the default dock can do in that time (π and π/2 rad/s, 12 and 8 rad/s²)
        let yawShortest = try #require(MoveProfile.shortestSeconds(from: 0, rate: 0, to: yaw, parameters: .defaultYaw))
        let pitchShortest = try #require(MoveProfile.shortestSeconds(from: 0, rate: 0, to: pitch, parameters: .defaultPitch))
        #expect(max(yawShortest, pitchShortest) < Double(milliseconds) / 1000)
        var host = FirmwareHost()
        try host.handshake()
        let answer = try host.send(move(yaw: yaw, pitch: pitch, pace: .duration(.milliseconds(milliseconds))))
        #expect(answer.first?.acknowledgement != nil)
        let arrived = try #require(arrival(&host, yaw: yaw, pitch: pitch))
        #expect(
            apart(arrived, .milliseconds(milliseconds)) <= .milliseconds(20),
            "\(yaw), \(pitch) rad in \(milliseconds) ms arrived after \(arrived)")
    }

    @Test func theFirstTelemetryTwentyMillisecondsAfterTheDurationShowsTheTargetStill() throws {
        var host = FirmwareHost()
        try host.handshake()
        try host.send(move(yaw: 0.5, pitch: 0.1, pace: .duration(.milliseconds(1000))))
        let acknowledged = host.firmware.accessoryTime.microseconds
        let telemetry = host.wait(.milliseconds(1100)).compactMap(\.telemetry)
        let due = try #require(telemetry.first { $0.accessoryTime.microseconds >= acknowledged + 1_020_000 })
        #expect(abs(due.yaw.microradians - 500_000) <= 1_000 && abs(due.pitch.microradians - 100_000) <= 1_000)
        #expect(!due.flags.contains(.yawMoving) && !due.flags.contains(.pitchMoving), "\(due)")
        let early = try #require(telemetry.last { $0.accessoryTime.microseconds <= acknowledged + 960_000 })
        #expect(early.flags.contains(.yawMoving), "still on its way 40 ms before the duration: \(early)")
    }

    @Test func aMoveTooShortForTheLimitsTakesTheShortestTimeBothAxesTogether() throws {
        var host = FirmwareHost()
        try host.handshake()
        // 2 rad of yaw cannot be done in 300 ms at π rad/s; the pitch's 0.1 rad could, and waits.
        let shortest = try #require(MoveProfile.shortestSeconds(from: 0, rate: 0, to: 2, parameters: .defaultYaw))
        #expect(shortest > 0.9 && shortest < 1.1, "the simulated dock plans 2 rad for \(shortest) s")
        try host.send(move(yaw: 2, pitch: 0.1, pace: .duration(.milliseconds(300))))
        let start = host.now
        var pitchArrived: Duration?
        for step in 1...2000 where host.firmware.motion != .idle {
            host.waitQuietly(.milliseconds(1))
            if step % 100 == 0 { try host.send(.heartbeat) }
            if pitchArrived == nil, abs(host.firmware.pitch.motorRadians - 0.1) <= 1e-3,
                abs(host.firmware.pitch.motorRadiansPerSecond) <= 1e-3
            {
                pitchArrived = host.now - start
            }
        }
        let ended = host.now - start
        #expect(apart(ended, .seconds(shortest)) <= .milliseconds(20), "ended after \(ended), the shortest is \(shortest) s")
        #expect(
            pitchArrived.map { apart($0, ended) <= .milliseconds(20) } == true, "pitch arrived after \(String(describing: pitchArrived))")
    }

    @Test func aMoveWhileTurningAwayTurnsRoundAndStillArrivesOnTime() throws {
        var host = FirmwareHost()
        try host.handshake()
        try host.send(velocity(yaw: -1, pitch: 0.3, ttl: .seconds(1)))
        host.wait(.milliseconds(300))
        try host.send(move(yaw: 0.6, pitch: -0.1, pace: .duration(.milliseconds(1000))))
        let arrived = try #require(arrival(&host, yaw: 0.6, pitch: -0.1))
        #expect(apart(arrived, .seconds(1)) <= .milliseconds(20), "arrived after \(arrived)")
    }

    @Test func aVelocityIntoARangeEndBrakesWithinTheAccelerationAndStopsAtTheEnd() throws {
        var host = FirmwareHost()
        try host.handshake()
        try host.send(move(yaw: 2.4, pitch: 0.8, pace: .maximumSpeed(AngularRate(radiansPerSecond: 3)!)))
        host.wait(.seconds(2))
        var largestChange = 0.0, beyond = false
        var previous = host.firmware.yaw.motorRadiansPerSecond
        for step in 1...1500 {
            if step % 100 == 1 { try host.send(velocity(yaw: 3, pitch: 1.5, ttl: .milliseconds(200))) }
            host.waitQuietly(.milliseconds(1))
            let rate = host.firmware.yaw.motorRadiansPerSecond
            largestChange = max(largestChange, abs(rate - previous))
            previous = rate
            beyond = beyond || host.firmware.yaw.motorRadians > AxisParameters.defaultYaw.maximumRadians
        }
        // 12 rad/s² is 0.012 rad/s a millisecond
        #expect(largestChange <= 0.012 + 1e-9, "the rate changed by \(largestChange) rad/s in one millisecond")
        #expect(!beyond && host.firmware.yaw.isAtLimit && host.firmware.pitch.isAtLimit)
        let last = try #require(host.received.last { $0.telemetry != nil }?.telemetry)
        #expect(last.flags.isSuperset(of: [.yawAtLimit, .pitchAtLimit]) && !last.flags.contains(.yawMoving), "\(last.flags)")
        #expect(host.firmware.latchedStall == nil, "pushing against an end is no stall")
    }

    @Test func aButtonHeldThroughHelloIsNotReleasedInTheSession() throws {
        var host = FirmwareHost()
        #expect(host.firmware.button(.tracking, isPressed: true, now: host.now).isEmpty)
        try host.handshake()
        host.wait(.milliseconds(10))
        #expect(
            host.firmware.button(.tracking, isPressed: false, now: host.now).allSatisfy { $0.event == nil },
            "the release of a press the host never heard of")
        #expect(host.firmware.button(.tracking, isPressed: true, now: host.now).last?.event?.kind == .trackingButton(isPressed: true))
        // a new hello while it is held: that session is not told of its release either
        try host.handshake()
        #expect(host.firmware.button(.tracking, isPressed: false, now: host.now).allSatisfy { $0.event == nil })
        #expect(host.firmware.button(.shutter, isPressed: true, now: host.now).last?.event?.kind == .shutterButton(isPressed: true))
        #expect(host.firmware.button(.shutter, isPressed: false, now: host.now).last?.event?.kind == .shutterButton(isPressed: false))
    }
}
