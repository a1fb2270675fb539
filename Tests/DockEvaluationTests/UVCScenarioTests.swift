import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing
import V4L2Protocol

@testable import DockEvaluation

/// The tracker through a UVC PTZ webcam in virtual time: the scenarios of the hardware-in-the-loop
/// suite's UVC runs, the simulated webcam in the dock's place (its model's controls, read-back and
/// slow enumeration over the dock's motor physics), dockd's host policy over `UVCSession` —
/// held to each scenario's own criteria, the same way every time.
@Suite(.onTheComputingThread) struct UVCScenarioTests {
    static func run(_ name: String, model: String) throws -> ClosedLoop.Result {
        let scenario = try loadScenario(name)
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline), uvc: UVCCameraModel.named(model)!)
        return loop.run()
    }

    @Test(arguments: ["crossing", "walk-across", "group-of-four", "unplug-replug"], ["obsbot-tiny", "generic"])
    func aScenarioThroughAWebcamMeetsItsCriteria(name: String, model: String) throws {
        let scenario = try loadScenario(name)
        let result = try Self.run(name, model: model)
        #expect(result.report.faults.count == scenario.faults.count, "every fault injected")
        #expect(result.report.faults.allSatisfy { $0.isSurvived }, "\(result.report.faults)")
        for verdict in result.report.verdicts(scenario.criteria) {
            #expect(verdict.isMet, "\(name) through \(model): \(verdict.criterion) \(verdict.detail)")
        }
        print("uvc \(model) \(name): in tolerance \(result.inToleranceShare()), settled RMS \(result.rmsFramingError(from: .seconds(2)))")
    }

    @Test func theUnpluggedWebcamAnswersENODEVAndIsAttachedAgainAfterItsSlowEnumeration() throws {
        // The OBSBOT model takes 1 s to enumerate: back (reading the pose again) within the
        // scenario's 2 s all the same, and not before that second (the session must wait the
        // enumeration out, not time it out).
        let result = try Self.run("unplug-replug", model: "obsbot-tiny")
        let fault = try #require(result.report.faults.first)
        let recovered = try #require(fault.recoveredAfterSeconds)
        #expect(recovered > 1 && recovered < 2, "\(recovered)")
    }

    @Test func withoutSpeedControlsSteppedTargetsStillFrameTheWalker() throws {
        // insta360-link has pan/tilt absolute only: velocity is an absolute target stepped every 100 ms.
        let result = try Self.run("walk-across", model: "insta360-link")
        #expect(result.inToleranceShare(from: .seconds(2)) > 0.8, "\(result.inToleranceShare(from: .seconds(2)))")
        print("uvc insta360-link walk-across: in tolerance from 2 s \(result.inToleranceShare(from: .seconds(2)))")
    }
}
