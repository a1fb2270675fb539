import DockProtocol
import DockSimulator
import DockVocabulary
import Testing

@testable import DockLinks

/// Control arbitration as a transcript.
@Suite struct ControlArbiterTests {
    @Test func aClientMovingTheDockTakesControlUntilItsMotionEnds() throws {
        var arbiter = ControlArbiter(isSystemTrackingEnabled: true)
        #expect(arbiter.controller == .systemTracker)
        #expect(try arbiter.motionRequested(by: 7) == .init(from: .systemTracker, to: .client(7, isExplicit: false)))
        #expect(throws: ControlArbiter.Busy(holder: 7)) { try arbiter.motionRequested(by: 8) }
        #expect(arbiter.motionEnded(for: 8) == nil, "only the holder's motion counts")
        #expect(arbiter.motionEnded(for: 7) == .init(from: .client(7, isExplicit: false), to: .systemTracker))
    }

    @Test func acquiredControlOutlivesMotionAndEndsWithRelease() throws {
        var arbiter = ControlArbiter()
        #expect(try arbiter.acquire(by: 1) == .init(from: .none, to: .client(1, isExplicit: true)))
        #expect(try arbiter.motionRequested(by: 1) == nil)
        #expect(arbiter.motionEnded(for: 1) == nil, "acquired control stays after a motion")
        #expect(throws: ControlArbiter.Busy(holder: 1)) { try arbiter.acquire(by: 2) }
        #expect(arbiter.release(by: 2) == nil)
        #expect(arbiter.release(by: 1) == .init(from: .client(1, isExplicit: true), to: .none))
    }

    @Test func takeOverAndDisconnect() throws {
        var arbiter = ControlArbiter(isSystemTrackingEnabled: true)
        _ = try arbiter.acquire(by: 1)
        #expect(
            try arbiter.motionRequested(by: 2, takeOver: true)
                == .init(from: .client(1, isExplicit: true), to: .client(2, isExplicit: false)))
        #expect(arbiter.clientDisconnected(1) == (nil, false), "a client without control leaves quietly")
        let (change, mustStop) = arbiter.clientDisconnected(2)
        #expect(mustStop)
        #expect(change == .init(from: .client(2, isExplicit: false), to: .systemTracker))
    }

    @Test func theTrackingButtonTogglesSystemTracking() {
        var arbiter = ControlArbiter()
        #expect(arbiter.trackingButtonPressed() == .init(from: .none, to: .systemTracker))
        #expect(arbiter.isSystemTrackingEnabled)
        #expect(arbiter.trackingButtonPressed() == .init(from: .systemTracker, to: .none))
        #expect(!arbiter.isSystemTrackingEnabled)
        _ = try? arbiter.acquire(by: 3)
        #expect(arbiter.trackingButtonPressed() == nil, "a client keeps control; tracking resumes after it")
        #expect(arbiter.release(by: 3) == .init(from: .client(3, isExplicit: true), to: .systemTracker))
    }

    @Test func theButtonOnTheDockReachesTheArbiter() {
        var bench = SessionBench()
        bench.start()
        bench.run(for: .milliseconds(100))
        var arbiter = ControlArbiter()
        bench.deliver(bench.firmware.button(.tracking, isPressed: true, now: bench.now))
        bench.deliver(bench.firmware.button(.tracking, isPressed: false, now: bench.now))
        for event in bench.eventList {
            if case .button(.trackingButton(isPressed: true)) = event { _ = arbiter.trackingButtonPressed() }
        }
        #expect(arbiter.isSystemTrackingEnabled, "one press (the release does not count) turns tracking on")
    }
}
