import DockCore
import DockHost
import DockDaemon
import DockProtocol
import DockSimulator
import DockSystem
import Synchronization
import Testing

/// The session runner over the in-memory transport, with the test playing the dock's firmware.
/// The runner keeps its real clock; the test waits for what the runner logs, never for time.
@Suite struct SessionRunnerTests {
    /// The dock's firmware, shared between the task that plays it and the test that presses its
    /// buttons.
    final class Dock: Sendable {
        let firmware = Mutex(AccessoryFirmware(configuration: AccessoryConfiguration(), seed: 1))
        let clock = SystemClock()
        let origin: Duration

        init() { origin = clock.now() }

        var now: Duration { clock.now() - origin }

        /// Answers each write, and sends what the firmware produces on its own (telemetry) every
        /// 10 ms of the dock's clock, as a real dock would.
        func play(_ transport: MemoryTransport) -> Task<Void, Never> {
            Task {
                let telemetry = Task {
                    var next = clock.now()
                    while !Task.isCancelled {
                        next += .milliseconds(10)
                        try? await clock.sleep(until: next)
                        let bytes = firmware.withLock { $0.advanceBytes(to: now) }
                        if !bytes.isEmpty { transport.peerSend(bytes) }
                    }
                }
                for await bytes in transport.written {
                    let answer = firmware.withLock { $0.receive(bytes: bytes, now: now) }
                    if !answer.isEmpty { transport.peerSend(answer) }
                }
                telemetry.cancel()
            }
        }

        /// Presses and releases the tracking button.
        func pressTrackingButton(_ transport: MemoryTransport) {
            let frames = firmware.withLock { firmware in
                firmware.button(.tracking, isPressed: true, now: now) + firmware.button(.tracking, isPressed: false, now: now)
            }
            var bytes: [UInt8] = []
            for frame in frames { try? FrameEncoder.encode(frame, into: &bytes) }
            transport.peerSend(bytes)
        }
    }

    /// Reads log lines until one contains `text`.
    static func next(_ lines: inout AsyncStream<String>.Iterator, containing text: String) async -> String? {
        while let line = await lines.next() {
            if line.contains(text) { return line }
        }
        return nil
    }

    @Test(.timeLimit(.minutes(1)))
    func attachesOverAnyTransportAndSurvivesAHangUp() async throws {
        let transport = MemoryTransport()
        let clock = SystemClock()
        let (stream, continuation) = AsyncStream<String>.makeStream()
        var lines = stream.makeAsyncIterator()
        let log = Logger(usesJournalPrefixes: false) { continuation.yield($0) }
        var configuration = Configuration()
        configuration.wakeOnAttach = false
        let runner = SessionRunner(transport: transport, clock: clock, settings: configuration.hostSettings, log: log)
        let dock = Dock()
        let playing = dock.play(transport)
        let loop = Task { await runner.run() }

        #expect(await Self.next(&lines, containing: "attached DK-1 Demo") != nil)
        #expect(await runner.policy.session.state == .ready(isDocked: true))
        #expect(await runner.serialNumber == "SIM-0001")

        // A client's velocity goes out and the dock's acknowledgement answers it; another client
        // is refused while the first has control; a bad request changes nothing.
        let velocity = MotionRequest.velocity(yawRadiansPerSecond: 0.2, pitchRadiansPerSecond: 0, duration: nil)
        let reply = await runner.request(.motion(velocity, takeOver: false, waitsForEnd: false), from: 1)
        #expect(reply == .motion(MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: nil)))
        #expect(await runner.request(.stop(takeOver: false), from: 2) == .failure(.busy(holder: 1)))
        let bad = MotionRequest.velocity(yawRadiansPerSecond: .nan, pitchRadiansPerSecond: 0, duration: nil)
        #expect(await runner.request(.motion(bad, takeOver: false, waitsForEnd: false), from: 1)
                == .failure(.invalid(.notFinite(field: "yaw"))))
        #expect(await runner.policy.arbiter.controller == .client(1, isExplicit: false))
        await runner.clientDisconnected(1)
        #expect(await runner.policy.arbiter.controller == .none, "control returns when a streaming client goes away")

        // Settings of this dock (tracking, here toggled by its button) survive a re-plug of the same dock.
        dock.pressTrackingButton(transport)
        #expect(await Self.next(&lines, containing: "control: nobody -> system tracker") != nil)
        transport.setPluggedIn(false)
        #expect(await Self.next(&lines, containing: "disconnected; retrying") != nil)
        transport.setPluggedIn(true)
        #expect(await Self.next(&lines, containing: "attached DK-1 Demo") != nil, "re-attached after the re-plug")
        #expect(transport.openCount >= 2, "opened again after the re-plug")
        #expect(await runner.policy.arbiter.isSystemTrackingEnabled, "the same serial number keeps its settings")

        loop.cancel()
        await loop.value
        #expect(await Self.next(&lines, containing: "motors stopped") != nil, "shutdown stops the motors")
        playing.cancel()
    }

    @Test(.timeLimit(.minutes(1)))
    func theIndicatorShowsTheSubjectInFrameAndTrackingOffStopsTheTracker() async throws {
        let scenario = try Scenario.parse("""
            {"name": "one-person", "duration_s": 600, "seed": 3,
             "subjects": [{"id": 1, "kind": "person", "primary": true, "path": {"waypoints": [
                 {"t_s": 0, "x_m": 8, "y_m": 3}, {"t_s": 3, "x_m": 8, "y_m": 3}, {"t_s": 4, "x_m": 0.9, "y_m": 3}]}}]}
            """)
        // Out of the picture for the first 3 s (70° across it, 69° off to the side), so that the
        // dock attaches and looks for them before they walk in, however slow the machine; in it
        // already at attach, the indicator would go straight to steady green (seen once in CI).
        let clock = SystemClock()
        let transport = SimulatorTransport(scenario: scenario, clock: clock)
        var configuration = Configuration()
        configuration.wakeOnAttach = false
        configuration.tracking = true
        let runner = SessionRunner(transport: transport, clock: clock, settings: configuration.hostSettings,
                                   log: Logger(usesJournalPrefixes: false) { _ in })
        let loop = Task { await runner.run() }
        let camera = Task { for await batch in transport.detections { await runner.cameraFrame(batch) } }
        defer {
            camera.cancel()
            loop.cancel()
        }
        var sawBlinking = false
        var framed = false
        for _ in 0..<400 where !framed {
            try await Task.sleep(for: .milliseconds(25))
            let indicator = transport.simulation.firmware.indicator
            if indicator.pattern == .slowBlink, indicator.green > 0 { sawBlinking = true }
            framed = await runner.status().isSubjectInFrame && indicator.pattern == .solid && indicator.green > 0
        }
        // Sampled every 25 ms on a busy machine the blinking can fall between samples; the
        // simulated dock keeps every pattern it was set to.
        let patterns = transport.simulation.firmware.indicatorPatternsSet
        sawBlinking = sawBlinking || patterns.contains { $0.pattern == .slowBlink && $0.green > 0 }
        #expect(sawBlinking, "green and blinking while looking for the subject: \(patterns)")
        #expect(framed, "steady green with the subject in frame")
        #expect(await runner.status().tracker == "following")

        #expect(await runner.request(.setSystemTracking(false), from: 1) == .done)
        try await Task.sleep(for: .milliseconds(300))
        #expect(transport.simulation.firmware.indicator.pattern == .off, "dark with tracking off")
        let motion = await runner.status().motion
        #expect(motion == "idle", "the tracker let go of the dock: \(motion)")
    }
}
