import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockTracking
import DockVocabulary
import Testing

/// Each control rule of `HostPolicy` (and of the README's "Control"), as a transcript in virtual
/// time against the simulated dock's firmware.
@Suite struct ControlRuleTests {
    static let oneSecondRight = MotionRequest.velocity(yawRadiansPerSecond: 0.5, pitchRadiansPerSecond: 0, duration: .seconds(1))

    @Test func aBoundedMotionRunsToItsEndWhenItsClientLeavesThenTheTrackerHasControl() {
        var settings = HostBench.quietSettings
        settings.isTrackingEnabled = true
        var bench = HostBench(settings: settings)
        bench.attach()
        let token = bench.request(.motion(Self.oneSecondRight, takeOver: false, waitsForEnd: false), from: 7)
        bench.run(for: .milliseconds(20))
        #expect(
            bench.replies[token] == .motion(MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: nil)),
            "answered once the dock acknowledged")
        let left = bench.now
        bench.disconnect(7)  // the one-shot client hangs up at once
        #expect(bench.host.arbiter.controller == .unattended(formerClient: 7))
        #expect(bench.firstStop(since: left) == nil, "no stop when a bounded motion's client leaves")
        bench.run(for: .milliseconds(1200))
        #expect(abs(bench.yaw - 0.5) < 0.05, "turned 0.5 rad/s for a second: \(bench.yaw)")
        #expect(bench.host.arbiter.controller == .systemTracker, "control back to the tracker at the end")
        #expect(bench.events.contains { $0.event == .motionEnded(owner: 7, ending: .completed(.velocityExpired)) })
    }

    @Test func aClientHoldingControlIsADeadMansHandle() {
        var bench = HostBench()
        bench.attach()
        bench.request(.acquireControl(takeOver: false), from: 3)
        for _ in 0..<10 {
            bench.request(
                .motion(
                    .velocity(yawRadiansPerSecond: 0.8, pitchRadiansPerSecond: 0, duration: nil),
                    takeOver: false, waitsForEnd: false), from: 3)
            bench.run(for: .milliseconds(50))
        }
        #expect(abs(bench.yawRate) > 0.5, "moving: \(bench.yawRate)")
        let gone = bench.now
        bench.disconnect(3)
        #expect(bench.firstStop(since: gone) == gone, "stop on the line the moment the holder is gone")
        bench.run(for: .milliseconds(100))
        #expect(abs(bench.yawRate) < 0.08, "nearly still within 100 ms of the stop (the motor decelerates): \(bench.yawRate)")
        bench.run(for: .milliseconds(100))
        #expect(abs(bench.yawRate) < 0.001, "still: \(bench.yawRate)")
        #expect(bench.host.arbiter.controller == .none)

        // Streaming velocities without AcquireControl holds control the same way.
        bench.request(
            .motion(
                .velocity(yawRadiansPerSecond: -0.8, pitchRadiansPerSecond: 0, duration: nil),
                takeOver: false, waitsForEnd: false), from: 4)
        bench.run(for: .milliseconds(60))
        let streamerGone = bench.now
        bench.disconnect(4)
        #expect(bench.firstStop(since: streamerGone) == streamerGone)
    }

    @Test func stopStopsTheMotorsAndReleasesControl() {
        var settings = HostBench.quietSettings
        settings.isTrackingEnabled = true
        var bench = HostBench(settings: settings)
        bench.attach()
        bench.request(.acquireControl(takeOver: false), from: 2)
        bench.request(.motion(Self.oneSecondRight, takeOver: false, waitsForEnd: false), from: 2)
        bench.run(for: .milliseconds(300))
        #expect(bench.request(.stop(takeOver: false), from: 5) != 0)
        #expect(bench.replies.values.contains(.failure(.busy(holder: 2))), "another client's stop is busy")
        let stopped = bench.now
        let token = bench.request(.stop(takeOver: false), from: 2)
        #expect(bench.replies[token] == .done)
        #expect(bench.firstStop(since: stopped) == stopped)
        #expect(bench.host.arbiter.controller == .systemTracker, "released: the tracker has control again")
        #expect(bench.events.contains { $0.event == .motionEnded(owner: 2, ending: .stopped(byClient: 2)) })
    }

    @Test func aMoveToWhereTheDockAlreadyIsIsAnsweredAtOnce() {
        // Found from outside: `dockctl orient --yaw 9` twice with the yaw limit at 1 rad hung the
        // second time: the move was reached in its first tick and nobody heard.
        var bench = HostBench()
        bench.attach()
        let move = ClientRequest.motion(
            .orientation(yawRadians: 0.3, pitchRadians: 0, isRelative: false, pace: .fastest),
            takeOver: false, waitsForEnd: true)
        let first = bench.request(move, from: 1)
        bench.run(for: .seconds(3))
        #expect(
            bench.replies[first]
                == .motion(
                    MotionOutcome(
                        clampedFields: [], cancelledAnimation: nil,
                        ending: .completed(.orientationReached))))
        let controllerAfterAMove = bench.host.arbiter.controller
        let again = bench.request(move, from: 1)
        #expect(
            bench.replies[again]
                == .motion(
                    MotionOutcome(
                        clampedFields: [], cancelledAnimation: nil,
                        ending: .completed(.orientationReached))),
            "answered in the same step, not never")
        #expect(bench.host.arbiter.controller == controllerAfterAMove, "and control went back as after any move")
        let notWaiting = bench.request(
            .motion(
                .orientation(
                    yawRadians: 0.3, pitchRadians: 0, isRelative: false,
                    pace: .fastest), takeOver: false, waitsForEnd: false), from: 1)
        #expect(bench.replies[notWaiting] == .motion(MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: nil)))
    }

    @Test func aWaitingCallerHearsHowItsMotionEnded() {
        var bench = HostBench()
        bench.attach()
        let reached = bench.request(
            .motion(
                .orientation(yawRadians: 0.3, pitchRadians: 0, isRelative: false, pace: .fastest),
                takeOver: false, waitsForEnd: true), from: 1)
        bench.run(for: .milliseconds(50))
        #expect(bench.replies[reached] == nil, "no answer before the move has ended")
        bench.run(for: .seconds(2))
        #expect(
            bench.replies[reached]
                == .motion(
                    MotionOutcome(
                        clampedFields: [], cancelledAnimation: nil,
                        ending: .completed(.orientationReached))))
        #expect(abs(bench.yaw - 0.3) < 0.01)

        let nod = bench.request(.motion(.animate(.yes), takeOver: false, waitsForEnd: true), from: 1)
        bench.run(for: .milliseconds(300))
        let busy = bench.request(.motion(.animate(.no), takeOver: false, waitsForEnd: true), from: 2)
        #expect(bench.replies[busy] == .failure(.busy(holder: 1)))
        let shake = bench.request(.motion(.animate(.no), takeOver: true, waitsForEnd: true), from: 2)
        #expect(
            bench.replies[nod]
                == .motion(
                    MotionOutcome(
                        clampedFields: [], cancelledAnimation: nil,
                        ending: .replaced(byClient: 2))))
        bench.run(for: .seconds(4))
        #expect(
            bench.replies[shake]
                == .motion(
                    MotionOutcome(
                        clampedFields: [], cancelledAnimation: .yes,
                        ending: .completed(.animationFinished(.no)))))
    }

    @Test func aRefusedRequestChangesNothingAndAnnouncesNothing() {
        var bench = HostBench()
        bench.attach()
        bench.request(.acquireControl(takeOver: false), from: 1)
        let before = bench.events.count
        let busy = bench.request(.motion(Self.oneSecondRight, takeOver: false, waitsForEnd: false), from: 2)
        let invalid = bench.request(
            .motion(
                .velocity(yawRadiansPerSecond: .infinity, pitchRadiansPerSecond: 0, duration: nil),
                takeOver: true, waitsForEnd: false), from: 2)
        #expect(bench.replies[busy] == .failure(.busy(holder: 1)))
        #expect(bench.replies[invalid] == .failure(.invalid(.notFinite(field: .yaw))))
        #expect(bench.events.count == before, "no control change was broadcast: \(bench.events.suffix(2))")
        #expect(bench.host.arbiter.controller == .client(1, isExplicit: true))
    }

    /// Issue 25: an orientation move whose speed rounds to 0 µrad/s (the wire's unit) built a frame
    /// the session's encoder refused, and dockd trapped (FuzzTesting/regressions/host-session/).
    @Test(arguments: [Double.leastNonzeroMagnitude, 1e-9, 4.9e-7])
    func aMoveTooSlowForTheWireIsRefusedByNameAndChangesNothing(speed: Double) {
        var bench = HostBench()
        bench.attach()
        let before = (events: bench.events.count, frames: bench.peer.written.count, motion: bench.host.motion.activity)
        let token = bench.request(
            .motion(
                .orientation(yawRadians: 0.5, pitchRadians: 0, isRelative: false, pace: .maximumSpeed(speed)),
                takeOver: false, waitsForEnd: false), from: 1)
        let fastest = max(bench.host.limits!.yawSpeedRadiansPerSecond, bench.host.limits!.pitchSpeedRadiansPerSecond)
        #expect(bench.replies[token] == .failure(.invalid(.outOfRange(field: .speed, allowed: 1e-6...fastest))))
        #expect(bench.events.count == before.events && bench.peer.written.count == before.frames, "nothing announced, nothing sent")
        #expect(bench.host.motion.activity == before.motion && bench.host.arbiter.controller == .none)
        let slowest = bench.request(
            .motion(
                .orientation(yawRadians: 0.5, pitchRadians: 0, isRelative: false, pace: .maximumSpeed(1e-6)),
                takeOver: false, waitsForEnd: false), from: 1)
        bench.run(for: .milliseconds(100))
        #expect(
            bench.replies[slowest] == .motion(MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: nil)),
            "1 µrad/s, the slowest the wire carries, goes out")
    }

    @Test func aCommandTheDockRefusesAnswersItsCallerAndIsNotSentAgain() {
        var bench = HostBench()
        bench.attach()
        bench.deliver(bench.firmware.setOverTemperature(true, now: bench.now))
        bench.run(for: .milliseconds(50))
        #expect(bench.host.activeFaults.map(\.code) == [.overTemperature])
        let asked = bench.now
        let token = bench.request(.motion(Self.oneSecondRight, takeOver: false, waitsForEnd: false), from: 1)
        bench.run(for: .milliseconds(500))
        #expect(bench.replies[token] == .failure(.dockRefused(.faulted, detail: UInt16(FaultReport.Code.overTemperature.rawValue))))
        let velocities = bench.frames(since: asked).filter { if case .setVelocity = $0.message { true } else { false } }
        #expect(velocities.count == 1, "sent once, refused, not sent again: \(velocities.count)")
        #expect(bench.host.arbiter.controller == .none, "control goes back")
    }

    @Test func aMotorStallUnderTrackingIsClearedAndTrackingResumes() throws {
        var settings = HostBench.quietSettings
        settings.isTrackingEnabled = true
        var bench = HostBench(settings: settings)
        bench.attach()
        // The tracker drives the dock (a steady stream of its velocities) at a subject off to the right.
        let camera = CameraInformation(horizontalFieldOfViewRadians: 1.1, aspectRatio: 16.0 / 9)
        func see() {
            // A person standing 0.3 rad to the right of home, seen through a camera that turns.
            let box = NormalizedRect(x: 0.5 + (0.3 - bench.yaw) / 1.1 - 0.06, y: 0.3, width: 0.12, height: 0.4)
            bench.host.observationsArrived(
                ObservationBatch(
                    observations: [Observation(kind: .body, box: box, confidence: 0.9)], camera: camera,
                    captureTime: bench.now))
        }
        for _ in 0..<10 {
            see()
            bench.run(for: .milliseconds(33))
        }
        #expect(bench.host.trackingStep.map { if case .following = $0.activity { true } else { false } } == true)
        bench.deliver(bench.firmware.setBlocked(.yaw, true, now: bench.now))
        var stallAt: Duration?
        for _ in 0..<30 where stallAt == nil {
            see()
            bench.run(for: .milliseconds(33))
            stallAt = bench.events.first { if case .fault(let f) = $0.event { f.code == .motorStall && f.isActive } else { false } }?.time
        }
        let raised = try #require(stallAt, "the blocked axis is reported as a stall")
        let stop = try #require(bench.firstStop(since: raised))
        #expect(stop - raised <= .milliseconds(100), "stop within 100 ms of the fault: \(stop - raised)")
        #expect(
            bench.events.contains { if case .fault(let f) = $0.event { f.code == .motorStall && !f.isActive } else { false } },
            "the stop cleared the dock's latch")
        bench.deliver(bench.firmware.setBlocked(.yaw, false, now: bench.now))
        let freed = bench.now
        for _ in 0..<60 {
            see()
            bench.run(for: .milliseconds(33))
        }
        let velocities = bench.frames(since: freed).filter { if case .setVelocity = $0.message { true } else { false } }
        #expect(velocities.count > 20, "the tracker drives the dock again: \(velocities.count)")
        #expect(bench.host.activeFaults.isEmpty)
    }

    @Test func anUnattendedMotionMayBeReplacedByAnyClientWithoutTakingOver() {
        var bench = HostBench()
        bench.attach()
        bench.request(.motion(Self.oneSecondRight, takeOver: false, waitsForEnd: false), from: 1)
        bench.run(for: .milliseconds(20))
        bench.disconnect(1)
        let token = bench.request(.motion(.animate(.no), takeOver: false, waitsForEnd: false), from: 2)
        bench.run(for: .milliseconds(20))
        #expect(bench.replies[token] == .motion(MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: nil)))
        #expect(bench.host.arbiter.controller == .client(2, isExplicit: false))
        #expect(bench.events.contains { $0.event == .motionEnded(owner: 1, ending: .replaced(byClient: 2)) })
    }

    @Test func aWaitingCallerHearsWhenTheDockGoesAway() {
        var bench = HostBench()
        bench.attach()
        let token = bench.request(
            .motion(
                .orientation(yawRadians: 1, pitchRadians: 0, isRelative: false, pace: .duration(.seconds(2))),
                takeOver: false, waitsForEnd: true), from: 1)
        bench.run(for: .milliseconds(300))
        #expect(bench.replies[token] == nil)
        bench.perform(bench.host.transportClosed(now: bench.now))
        #expect(bench.replies[token] == .failure(.notReady), "the cable was pulled mid-move")
        #expect(bench.host.arbiter.controller == .none)
    }

    @Test func aMoveThatCannotBeSeenToArriveEndsTimedOut() {
        var bench = HostBench()
        bench.attach()
        let token = bench.request(
            .motion(
                .orientation(yawRadians: 0.5, pitchRadians: 0, isRelative: false, pace: .fastest),
                takeOver: false, waitsForEnd: true), from: 1)
        bench.firmware.isTelemetrySuppressed = true  // the dock stops reporting its pose
        bench.run(for: .seconds(7))
        #expect(
            bench.replies[token]
                == .motion(
                    MotionOutcome(
                        clampedFields: [], cancelledAnimation: nil,
                        ending: .completed(.timedOut))),
            "not 'reached': nobody saw it arrive")
        #expect(bench.host.arbiter.controller == .none, "and control was given back")
    }

    @Test func stopReleasesControlEvenWithNoDock() {
        var bench = HostBench()
        bench.attach()
        bench.request(.acquireControl(takeOver: false), from: 1)
        bench.perform(bench.host.transportClosed(now: bench.now))
        let token = bench.request(.stop(takeOver: false), from: 1)
        #expect(bench.replies[token] == .done)
        #expect(bench.host.arbiter.controller == .none)
    }
}
