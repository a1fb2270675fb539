import DockNumbers
import DockProtocol
import Testing

@testable import DockLinks
@testable import DockSimulator

/// The accessory session against the simulated dock's firmware, in virtual time.
@Suite struct SessionTests {
    @Test func theHandshakeAttachesTheDockAndHeartbeatsKeepItAlive() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .milliseconds(100))
        let expected = AccessoryConfiguration().info(version: 1)!
        #expect(bench.eventList == [.attached(expected, isDocked: true)])
        #expect(bench.session.state == .ready(isDocked: true))
        bench.run(for: .seconds(5))
        #expect(bench.eventList.count == 1, "no failsafe, no stall, no disconnect: \(bench.eventList)")
        #expect(!bench.firmware.isFailsafeStopped)
        let heartbeats = bench.framesWritten.filter { $0.message == .heartbeat }.count
        #expect((79...84).contains(heartbeats), "a heartbeat every 62.5 ms (an eighth of the 500 ms failsafe): \(heartbeats)")
        var longest = Duration.zero
        for (earlier, later) in zip(bench.writeTimes, bench.writeTimes.dropFirst()) { longest = max(longest, later - earlier) }
        #expect(longest <= .milliseconds(125), "never more than a quarter of the failsafe between frames: \(longest)")
    }

    @Test(arguments: [100, 200, 500, 10_000])
    func heartbeatsKeepEveryFailsafeTheHostHonoursFed(milliseconds: Int) {
        var configuration = AccessoryConfiguration()
        configuration.failsafeTimeout = .milliseconds(milliseconds)
        var bench = SessionBench(configuration: configuration)
        bench.start()
        bench.run(for: .seconds(3), step: .milliseconds(1))
        #expect(bench.session.state == .ready(isDocked: true))
        #expect(!bench.firmware.isFailsafeStopped)
        let writes = bench.writeTimes.drop { $0 < .milliseconds(50) }
        var longest = Duration.zero
        for (earlier, later) in zip(writes, writes.dropFirst()) { longest = max(longest, later - earlier) }
        #expect(longest <= .milliseconds(milliseconds) / 4, "failsafe \(milliseconds) ms: longest gap \(longest)")
    }

    @Test func aFailsafeShorterThanTheHostCanKeepAliveIsRefused() {
        var configuration = AccessoryConfiguration()
        configuration.failsafeTimeout = .milliseconds(50)
        var bench = SessionBench(configuration: configuration)
        bench.start()
        bench.run(for: .milliseconds(500))
        #expect(bench.eventList == [.failsafeTooShort(advertised: .milliseconds(50), minimum: .milliseconds(100))])
        #expect(bench.session.state == .incompatible)
        #expect(bench.session.heartbeatDeadline == nil, "no session to keep alive")
    }

    @Test func dockingAndUndockingAreReported() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .milliseconds(100))
        bench.deliver(bench.firmware.setDocked(false, now: bench.now))
        #expect(bench.eventList.last == .undocked, "from the event, before any telemetry")
        bench.run(for: .milliseconds(50))
        #expect(bench.eventList.last == .undocked, "and only once")
        #expect(bench.session.state == .ready(isDocked: false))
        bench.deliver(bench.firmware.setDocked(true, now: bench.now))
        bench.run(for: .milliseconds(50))
        #expect(bench.eventList.suffix(2) == [.undocked, .docked])
    }

    @Test func aVersionMismatchIsReportedOnceAndNotRetried() {
        var bench = SessionBench(configuration: AccessoryConfiguration(supportedVersions: 2...3))
        bench.start()
        bench.run(for: .seconds(3))
        #expect(bench.eventList == [.versionMismatch(offered: 1...1, supported: 2...3)])
        #expect(bench.session.state == .incompatible)
        #expect(bench.framesWritten.count == 1, "one hello, then silence")
    }

    @Test func unplugAndReplugDisconnectsThenReattachesTheSameDock() throws {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .seconds(1))
        bench.unplug()
        #expect(bench.session.state == .disconnected)
        #expect(bench.eventList.last == .disconnected)
        bench.run(for: .seconds(2))
        let failures = bench.events.filter { if case .connectFailed = $0.event { true } else { false } }
        #expect(failures.count >= 3, "it keeps trying while the cable is out")
        let waits = failures.compactMap { if case .connectFailed(_, let wait) = $0.event { wait } else { nil } }
        #expect(waits.prefix(3) == [.milliseconds(500), .seconds(1), .seconds(2)], "the backoff doubles")

        bench.replug()
        bench.run(for: .seconds(5))
        let attachments = bench.eventList.compactMap { if case .attached(let info, _) = $0 { info } else { nil } }
        #expect(attachments.count == 2)
        #expect(attachments.last?.serialNumber == attachments.first?.serialNumber)
        #expect(bench.session.state == .ready(isDocked: true))
        #expect(bench.session.disconnectCount == 1)
    }

    @Test func anAccessoryResetLeadsToANewHandshake() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .seconds(1))
        bench.firmware.reboot(now: bench.now)
        bench.run(for: .seconds(1))
        let events = bench.eventList
        #expect(events.contains(.accessoryReset))
        #expect(events.filter { if case .attached = $0 { true } else { false } }.count == 2)
        #expect(bench.session.state == .ready(isDocked: true))
    }

    @Test func telemetryWhoseClockWentBackIsAResetAndLeadsToANewHandshake() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .seconds(1))
        let restarted = Telemetry(
            accessoryTime: AccessoryTimestamp(microseconds: 2_000), yaw: Angle(microradians: 0),
            pitch: Angle(microradians: 0), yawRate: .zero, pitchRate: .zero, flags: [.docked])
        bench.deliver([Frame(sequence: 0, message: .telemetry(restarted))])
        #expect(bench.eventList.last == .accessoryReset)
        #expect(bench.session.state == .handshaking, "hello again")
        bench.run(for: .milliseconds(300))
        #expect(bench.session.state == .ready(isDocked: true))
    }

    @Test func faultsAnnouncedRightAfterInfoAreReported() {
        var bench = SessionBench()
        _ = bench.firmware.setOverTemperature(true, now: bench.now)
        bench.start()
        bench.run(for: .milliseconds(200))
        #expect(
            bench.eventList.contains { if case .fault(let fault) = $0 { fault.code == .overTemperature && fault.isActive } else { false } },
            "the dock's active fault, announced after info, is not dropped: \(bench.eventList)")
    }

    @Test func aPeerThatIsNotADockIsGivenUpAndRetried() {
        var bench = SessionBench()
        bench.isMute = true
        bench.start()
        bench.run(for: .milliseconds(1600))
        #expect(bench.framesWritten.filter { if case .hello = $0.message { true } else { false } }.count == 3)
        #expect(bench.eventList.first == .handshakeFailed)
        #expect(!bench.isPortOpen)
        bench.isMute = false
        bench.run(for: .seconds(2))
        #expect(bench.session.state == .ready(isDocked: true), "a later attempt succeeds")
    }

    @Test func buttonsAndFaultsAreReported() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .milliseconds(100))
        bench.deliver(bench.firmware.button(.tracking, isPressed: true, now: bench.now))
        #expect(bench.eventList.last == .button(.trackingButton(isPressed: true)))
        bench.deliver(bench.firmware.setOverTemperature(true, now: bench.now))
        #expect(bench.eventList.contains { if case .fault(let fault) = $0 { fault.code == .overTemperature } else { false } })
    }

    @Test func theClockMappingAndPoseHistoryFollowTheDock() throws {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .milliseconds(200))
        bench.send(.velocity(yawRadiansPerSecond: 1, pitchRadiansPerSecond: 0, timeToLive: .seconds(2)))
        bench.run(for: .seconds(1))
        let offset = try #require(bench.session.clock.offset)
        #expect(abs(offset.secondsValue) <= 0.001, "the simulated dock's clock starts with the host's")
        let pose = try #require(bench.session.pose(at: bench.now - .milliseconds(300)))
        // 1 rad/s since about 200 ms (plus the ramp): at 900 ms about 0.66 rad.
        #expect(abs(pose.yawRadians - 0.66) < 0.03)
        #expect(abs(pose.yawRadiansPerSecond - 1) < 0.01)
        #expect(bench.session.pose(at: bench.now - .seconds(10)) == nil, "older than the history")
    }

    @Test func telemetryStallsAreNoticedAndTheirEndToo() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .milliseconds(100))
        bench.firmware.isTelemetrySuppressed = true
        bench.run(for: .seconds(1))
        #expect(bench.eventList.last == .telemetryStalled)
        bench.firmware.isTelemetrySuppressed = false
        bench.run(for: .milliseconds(100))
        #expect(bench.eventList.last == .telemetryResumed)
        #expect(bench.session.state == .ready(isDocked: true), "a stall is not a disconnect")
    }

    @Test func garbageOnTheLineIsCountedAndChangesNothing() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .milliseconds(100))
        var random = SimulationRandom(seed: 9)
        let noise = (0..<10_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bench.perform(bench.session.bytesReceived(noise + [0], now: bench.now))
        #expect(bench.session.badFrameCount > 10)
        #expect(bench.session.state == .ready(isDocked: true))
        bench.run(for: .milliseconds(100))
        #expect(bench.eventList.count == 1)
    }
}

extension SessionTests {
    @Test func aDeviceAppearingCutsTheBackoffShort() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .seconds(1))
        bench.unplug()
        bench.run(for: .seconds(4))  // the backoff has grown to seconds
        bench.replug()
        bench.perform(bench.session.deviceAppeared(now: bench.now))
        bench.run(for: .milliseconds(100))
        #expect(bench.session.state == .ready(isDocked: true), "attached at once, not at the next retry")
        #expect(bench.session.deviceAppeared(now: bench.now).isEmpty, "nothing to do while ready")
    }
}
