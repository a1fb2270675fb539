import DockSimulator
import DockTracking
import DockVocabulary
import Foundation
import TestSupport
import Testing

@testable import DockEvaluation

/// Faults in virtual time, with the tracker following its subject through them.
@Suite(.onTheComputingThread) struct FaultScenarioTests {
    @Test func aHundredUnplugsMidMotionAreEachSurvivedWithinASecond() throws {
        let scenario = try loadScenario("unplug-100")
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
        let result = loop.run()
        let unplugs = result.report.faults.filter { $0.kind == "unplug" }
        #expect(unplugs.count == 100)
        let slowest = unplugs.compactMap(\.recoveredAfterSeconds).max() ?? .infinity
        #expect(unplugs.allSatisfy { ($0.recoveredAfterSeconds ?? .infinity) <= 1 }, "slowest reconnect \(slowest) s")
        let verdicts = result.report.verdicts(scenario.criteria)
        #expect(!verdicts.isEmpty && verdicts.allSatisfy { $0.isMet })
        // The dock kept following its subject between the cuts.
        #expect(result.inToleranceShare(from: .seconds(2)) > 0.8, "in tolerance \(result.inToleranceShare(from: .seconds(2)))")
        #expect((loop.pipeline?.tracker.tracks.count ?? 99) <= 16)
    }

    /// Every example scenario's own pass criteria, met by the tracker in virtual time (the
    /// hardware-in-the-loop suite, `scripts/hil`, checks the same criteria in real time); the
    /// presenter who walks out past the pan range's end is `LostSubjectTests`'.
    static let checkedScenarios = [
        "crossing", "dock-faults", "dropout-latency", "erratic", "group-of-four", "host-silence",
        "late-still", "late-still-10fps", "late-walk", "late-walk-10fps", "leave-and-return",
        "look-alike-return", "line-noise", "occluder-beside", "occluder-in-front", "still-noisy", "unplug-replug",
        "walk-across", "unplug-100", "walk-out-and-back", "walk-out-come-back-left",
    ]

    @Test func everyExampleScenarioIsChecked() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: scenarioDirectory.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(Self.checkedScenarios))
    }

    @Test(arguments: [
        "crossing", "dock-faults", "dropout-latency", "erratic", "group-of-four", "host-silence", "late-still",
        "late-still-10fps", "late-walk", "late-walk-10fps", "leave-and-return", "look-alike-return", "line-noise", "occluder-beside",
        "occluder-in-front", "still-noisy", "unplug-replug", "walk-across",
    ])
    func everyScenarioMeetsItsCriteriaInVirtualTime(name: String) throws {
        let scenario = try loadScenario(name)
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
        let result = loop.run()
        #expect(result.report.faults.count == scenario.faults.count, "every fault injected")
        for verdict in result.report.verdicts(scenario.criteria) {
            #expect(verdict.isMet, "\(name): \(verdict.criterion) \(verdict.detail)")
        }
    }
}
