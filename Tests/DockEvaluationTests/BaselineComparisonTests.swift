import DockSimulator
import DockTracking
import Testing

@testable import DockEvaluation

/// dockd's tracker against the baseline PID on the same scenarios.
@Suite struct BaselineComparisonTests {
    func centred() -> TrackingPipeline {
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        return pipeline
    }

    @Test(arguments: ["crossing", "group-of-four", "dropout-latency"])
    func theTrackerFramesBetterThanThePID(name: String) throws {
        let scenario = try loadScenario(name)
        var ours = ClosedLoop(scenario: scenario, pointer: .tracker(centred()))
        var theirs = ClosedLoop(scenario: scenario, pointer: .baseline(BaselinePID()))
        let tracker = ours.run(), baseline = theirs.run()
        print("\(name): settled tracker \(tracker.inToleranceShare(from: .seconds(2))) rms \(tracker.rmsFramingError(from: .seconds(2))) baseline \(baseline.inToleranceShare(from: .seconds(2))) rms \(baseline.rmsFramingError(from: .seconds(2)))")
        print("\(name): tracker in tolerance \(tracker.inToleranceShare()) rms \(tracker.rmsFramingError()) switches \(tracker.primaryIDSwitches) followed switches \(tracker.followedPersonSwitches) follows primary \(tracker.followsPrimaryShare) final \(String(describing: tracker.finallyFollowed))")
        print("\(name): baseline in tolerance \(baseline.inToleranceShare()) rms \(baseline.rmsFramingError()) followed switches \(baseline.followedPersonSwitches) follows primary \(baseline.followsPrimaryShare) final \(String(describing: baseline.finallyFollowed))")
        #expect(tracker.rmsFramingError(from: .seconds(2)) * 2 <= baseline.rmsFramingError(from: .seconds(2)))
    }
}
