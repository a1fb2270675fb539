import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing

@testable import DockEvaluation

/// The measurement model that does not measure the edges the picture's border cut
/// (`SubjectTracker.Configuration.clippedEdgeMargin`), against measuring every box as whole, in
/// closed loop on the scenarios where people stand tall in the picture, cross, or walk out of it.
@Suite(.onTheComputingThread) struct ClippedEdgeScenarioTests {
    /// One closed-loop run, centred framing, with the given tracker settings.
    static func run(_ name: String, tracker: SubjectTracker.Configuration) throws -> ClosedLoop.Result {
        var configuration = TrackingPipeline.Configuration()
        configuration.tracker = tracker
        var pipeline = TrackingPipeline(configuration: configuration)
        pipeline.framingMode = .center
        var loop = ClosedLoop(scenario: try loadScenario(name), pointer: .tracker(pipeline))
        return loop.run()
    }

    @Test(arguments: ["crossing", "group-of-four", "walk-across", "leave-and-return"])
    func notMeasuringCutEdgesFramesAtLeastAsWell(name: String) throws {
        var whole = SubjectTracker.Configuration()
        whole.clippedEdgeMargin = -1
        let before = try Self.run(name, tracker: whole)
        let after = try Self.run(name, tracker: SubjectTracker.Configuration())
        func line(_ result: ClosedLoop.Result) -> String {
            "in tolerance \(result.inToleranceShare(from: .seconds(2))), rms \(result.rmsFramingError(from: .seconds(2))), "
                + "primary switches \(result.primaryIDSwitches), followed-person switches \(result.followedPersonSwitches)"
        }
        print("\(name): whole boxes: \(line(before)); cut edges not measured: \(line(after))")
        #expect(after.primaryIDSwitches <= before.primaryIDSwitches)
        #expect(after.inToleranceShare(from: .seconds(2)) >= before.inToleranceShare(from: .seconds(2)) - 0.01)
        for verdict in after.report.verdicts(try loadScenario(name).criteria) {
            #expect(verdict.isMet, "\(name): \(verdict.criterion) \(verdict.detail)")
        }
    }
}
