import DockDaemon
import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockSystem
import DockVocabulary
import TestSupport
import Testing

/// The session runner on the virtual loop: over a socket-pair transport with the test playing the
/// dock's firmware, and over the in-process simulator. Time moves only when the test says.
@Suite struct SessionRunnerTests {
    @Test func attachesOverAnyTransportAndSurvivesAHangUp() throws {
        _ = brokenPipesIgnored
        let loop = VirtualEventLoop()
        let dock = LoopDock(loop: loop)
        let lines = LogLines()
        var configuration = Configuration()
        configuration.wakeOnAttach = false
        let runner = SessionRunner(transport: dock.transport, loop: loop, settings: configuration.hostSettings, log: lines.logger)
        runner.start()
        loop.advance(by: .milliseconds(500))
        #expect(lines.contains("attached DK-1 Demo"))
        #expect(runner.policy.session.state == .ready(isDocked: true))
        #expect(runner.serialNumber == "SIM-0001")

        // A client's velocity goes out and the dock's acknowledgement answers it; another client
        // is refused while the first has control; a bad request changes nothing.
        var replies: [HostReply] = []
        let velocity = MotionRequest.velocity(yawRadiansPerSecond: 0.2, pitchRadiansPerSecond: 0, duration: nil)
        runner.submit(.motion(velocity, takeOver: false, waitsForEnd: false), from: 1) { replies.append($0) }
        loop.advance(by: .milliseconds(50))
        #expect(replies == [.motion(MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: nil))])
        runner.submit(.stop(takeOver: false), from: 2) { replies.append($0) }
        let bad = MotionRequest.velocity(yawRadiansPerSecond: .nan, pitchRadiansPerSecond: 0, duration: nil)
        runner.submit(.motion(bad, takeOver: false, waitsForEnd: false), from: 1) { replies.append($0) }
        loop.advance(by: .milliseconds(50))
        #expect(replies.dropFirst() == [.failure(.busy(holder: 1)), .failure(.invalid(.notFinite(field: .yaw)))])
        #expect(runner.policy.arbiter.controller == .client(1, isExplicit: false))
        runner.clientDisconnected(1)
        #expect(runner.policy.arbiter.controller == .none, "control returns when a streaming client goes away")

        // Settings of this dock (tracking, here toggled by its button) survive a re-plug of the same dock.
        dock.pressTrackingButton()
        loop.advance(by: .milliseconds(50))
        #expect(lines.contains("control: nobody -> system tracker"))
        dock.setPluggedIn(false)
        loop.advance(by: .milliseconds(50))
        #expect(lines.contains("disconnected; retrying"))
        dock.setPluggedIn(true)
        loop.advance(by: .seconds(5))
        #expect(lines.count("attached DK-1 Demo") == 2, "re-attached after the re-plug")
        #expect(dock.transport.openCount == 2, "opened again after the re-plug")
        #expect(runner.policy.arbiter.isSystemTrackingEnabled, "the same serial number keeps its settings")

        runner.shutdown()
        loop.runUntilIdle()
        #expect(lines.contains("motors stopped"), "shutdown stops the motors")

    }

    @Test func theIndicatorShowsTheSubjectInFrameAndTrackingOffStopsTheTracker() throws {
        let scenario = try Scenario.parse(
            """
            {"name": "one-person", "duration_s": 600, "seed": 3,
             "subjects": [{"id": 1, "kind": "person", "primary": true, "path": {"waypoints": [
                 {"t_s": 0, "x_m": 8, "y_m": 3}, {"t_s": 3, "x_m": 8, "y_m": 3}, {"t_s": 4, "x_m": 0.9, "y_m": 3}]}}]}
            """)
        // Out of the picture for the first 3 s (70° across it, 69° off to the side), so that the
        // dock attaches and looks for them before they walk in.
        let loop = VirtualEventLoop()
        let transport = SimulatorTransport(scenario: scenario, start: loop.now)
        var configuration = Configuration()
        configuration.wakeOnAttach = false
        configuration.tracking = true
        let runner = SessionRunner(
            transport: transport, loop: loop, settings: configuration.hostSettings,
            log: Logger(usesJournalPrefixes: false) { _ in })
        transport.detections = { runner.cameraFrame($0) }
        runner.start()
        var sawBlinking = false
        var framed = false
        for _ in 0..<400 where !framed {
            loop.advance(by: .milliseconds(25))
            let indicator = transport.simulation.firmware.indicator
            if indicator.pattern == .slowBlink, indicator.green > 0 { sawBlinking = true }
            framed = runner.status().isSubjectInFrame && indicator.pattern == .solid && indicator.green > 0
        }
        #expect(sawBlinking, "green and blinking while looking for the subject: \(transport.simulation.firmware.indicatorPatternsSet)")
        #expect(framed, "steady green with the subject in frame")
        #expect(runner.status().tracker == .following)

        var reply: HostReply?
        runner.submit(.setSystemTracking(false), from: 1) { reply = $0 }
        loop.advance(by: .milliseconds(300))
        #expect(reply == .done)
        #expect(transport.simulation.firmware.indicator.pattern == .off, "dark with tracking off")
        let motion = runner.status().motion
        #expect(motion == .idle, "the tracker let go of the dock: \(motion)")
        runner.shutdown()
    }
}
