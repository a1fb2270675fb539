import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing
import VISCAProtocol

@testable import DockEvaluation

/// The tracker through a VISCA camera in virtual time: the scenarios of the hardware-in-the-loop
/// suite's VISCA runs, the simulated camera in the dock's place, dockd's host policy over
/// `VISCASession` — held to each scenario's own criteria, the same way every time.
@Suite(.onTheComputingThread) struct VISCAScenarioTests {
    static func run(_ name: String, transport: VISCACamera.Transport, profile: String = "generic") throws -> ClosedLoop.Result {
        let scenario = try loadScenario(name)
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        let camera = VISCACamera.Configuration(profile: VISCAProfile.named(profile)!, transport: transport)
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline), visca: camera)
        return loop.run()
    }

    @Test(
        arguments: ["crossing", "walk-across", "group-of-four", "unplug-replug", "occluder-in-front", "late-walk", "still-noisy"],
        [VISCACamera.Transport.serial, .sonyIP])
    func aScenarioThroughVISCAMeetsItsCriteria(name: String, transport: VISCACamera.Transport) throws {
        let scenario = try loadScenario(name)
        let result = try Self.run(name, transport: transport)
        #expect(result.report.faults.count == scenario.faults.count, "every fault injected")
        for verdict in result.report.verdicts(scenario.criteria) {
            #expect(verdict.isMet, "\(name) over \(transport): \(verdict.criterion) \(verdict.detail)")
        }
        print(
            "visca \(transport) \(name): in tolerance \(result.inToleranceShare()), settled RMS \(result.rmsFramingError(from: .seconds(2)))"
        )
    }

    @Test(arguments: [VISCACamera.Transport.serial, .sonyIP])
    func aCameraThatHangsAnswersLateLosesRepliesAndIsUnpluggedIsFollowedThrough(transport: VISCACamera.Transport) throws {
        let scenario = try loadScenario("visca/camera-faults")
        let result = try Self.run("visca/camera-faults", transport: transport)
        #expect(result.report.faults.count == 4)
        let survived = result.report.faults.filter { $0.isSurvived }.count
        #expect(survived == 4, "\(result.report.faults)")
        for verdict in result.report.verdicts(scenario.criteria) {
            #expect(verdict.isMet, "camera-faults over \(transport): \(verdict.criterion) \(verdict.detail)")
        }
        print("visca \(transport) camera-faults: in tolerance \(result.inToleranceShare()), faults \(result.report.faults)")
    }

    @Test func aCameraWithAnotherSpeedTableStillFramesTheWalker() throws {
        let result = try Self.run("walk-across", transport: .serial, profile: "telycam-tlc-700")
        #expect(result.inToleranceShare(from: .seconds(2)) > 0.9, "\(result.inToleranceShare(from: .seconds(2)))")
    }

    @Test func withoutAFailsafeHostSilenceLeavesTheCameraTurning() throws {
        // host-silence asks the dock's failsafe to stop the motors within 0.5 s of the host going
        // quiet; a VISCA camera has none, and this shows it rather than hiding it.
        let scenario = try loadScenario("host-silence")
        let result = try Self.run("host-silence", transport: .serial)
        let silence = result.report.verdicts(scenario.criteria).first { $0.criterion == "silence_stop_max_s" }
        #expect(silence?.isMet == false, "\(String(describing: silence))")
    }
}
