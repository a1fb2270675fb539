import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing

@testable import DockEvaluation

/// dockd's tracker against the baseline PID on the same scenarios.
@Suite(.onTheComputingThread) struct BaselineComparisonTests {
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
        print(
            "\(name): settled tracker \(tracker.inToleranceShare(from: .seconds(2))) rms \(tracker.rmsFramingError(from: .seconds(2))) baseline \(baseline.inToleranceShare(from: .seconds(2))) rms \(baseline.rmsFramingError(from: .seconds(2)))"
        )
        print(
            "\(name): tracker in tolerance \(tracker.inToleranceShare()) rms \(tracker.rmsFramingError()) switches \(tracker.primaryIDSwitches) followed switches \(tracker.followedPersonSwitches) follows primary \(tracker.followsPrimaryShare) final \(String(describing: tracker.finallyFollowed))"
        )
        print(
            "\(name): baseline in tolerance \(baseline.inToleranceShare()) rms \(baseline.rmsFramingError()) followed switches \(baseline.followedPersonSwitches) follows primary \(baseline.followsPrimaryShare) final \(String(describing: baseline.finallyFollowed))"
        )
        if name == "group-of-four" {
            // Four people milling slowly in a group: the tracker's dead band, sized from the
            // estimate's uncertainty so that a still subject gets a still camera, lets the
            // primary drift inside it (0.027 rad in pitch for a standing body), so it frames no
            // more than a little better than the PID here — but it stays on the right person,
            // where the PID flips between them.
            #expect(tracker.rmsFramingError(from: .seconds(2)) < baseline.rmsFramingError(from: .seconds(2)))
            #expect(tracker.followedPersonSwitches == 0 && baseline.followedPersonSwitches > 10)
        } else {
            #expect(tracker.rmsFramingError(from: .seconds(2)) * 2 <= baseline.rmsFramingError(from: .seconds(2)))
        }
    }
}
