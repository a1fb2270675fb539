import DockDaemon
import DockProtocol
import DockSimulator
import DockSockets
import Testing

@testable import DockSystem

/// The in-process simulated dock hands the host its bytes in the order it sent them.
@Suite struct SimulatorTransportTests {
    /// A write's answer waits for the loop's next turn; a step that was due runs first, and on the
    /// running daemon the loop's clock has moved on by then. The telemetry must still arrive
    /// oldest first: a dock clock seen going back is a reset to the host (one such "reset" failed
    /// a CI run, the dock re-handshaking under a DockKit client's call).
    @Test func aWritesAnswerIsNotOvertakenByALaterStep() throws {
        let loop = ClockMovingLoop()
        let transport = SimulatorTransport(
            scenario: try Scenario.parse(#"{"name": "empty", "duration_s": 60, "seed": 1}"#),
            start: loop.now)
        var received: [UInt8] = []
        let link = try transport.open(baudRate: nil, on: loop, events: DockLinkEvents(received: { received += $0 }, hungUp: {}))
        #expect(link.write(try FrameEncoder.encode(Frame(sequence: 0, message: .hello(Hello(minimumVersion: 1, maximumVersion: 1))))))
        loop.runDue()

        var heartbeat: UInt16 = 1
        for _ in 0..<40 {
            // A heartbeat written while a step is overdue, and the clock moved on before the loop turns.
            loop.now += .milliseconds(27)
            #expect(link.write(try FrameEncoder.encode(Frame(sequence: heartbeat, message: .heartbeat))))
            heartbeat += 1
            loop.now += .milliseconds(13)
            loop.runDue()
        }

        var decoder = FrameDecoder()
        let times = decoder.decode(received).compactMap { result -> Duration? in
            guard case .success(let frame) = result, case .telemetry(let telemetry) = frame.message else { return nil }
            return telemetry.accessoryTime.sinceStart
        }
        #expect(times.count > 50, "the dock sent telemetry at 50 Hz for 1.6 s: \(times.count)")
        let goingBack = zip(times, times.dropFirst()).filter { $0.1 < $0.0 }
        #expect(goingBack.isEmpty, "the dock's clock went back \(goingBack.count) times: \(goingBack.prefix(3))")
    }
}

/// A loop whose clock the test moves while actions wait, as the real loop's clock moves while it
/// works; due actions run earliest deadline first, as ``EventLoop`` says.
private final class ClockMovingLoop: EventLoop {
    var now = Duration.seconds(100)
    private var timers: [(deadline: Duration, id: UInt64, action: () -> Void)] = []
    private var nextID: UInt64 = 0

    func watch(_ descriptor: FileDescriptor, for interest: LoopInterest, handler: @escaping (LoopReadiness) -> Void) {}
    func change(_ descriptor: FileDescriptor, to interest: LoopInterest) {}
    func unwatch(_ descriptor: FileDescriptor) {}
    func stop() {}

    @discardableResult
    func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping () -> Void) -> LoopTimer {
        nextID += 1
        timers.append((deadline, nextID, action))
        return LoopTimer(id: nextID)
    }

    func cancel(_ timer: LoopTimer) {}

    /// Runs every action due now, earliest deadline first (equal ones in the order scheduled).
    func runDue() {
        while let index = timers.indices.filter({ timers[$0].deadline <= now })
            .min(by: { (timers[$0].deadline, timers[$0].id) < (timers[$1].deadline, timers[$1].id) })
        {
            timers.remove(at: index).action()
        }
    }
}
