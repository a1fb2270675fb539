import DockLinks
import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing

@testable import DockEvaluation

/// The tracker through a digital pan-tilt-zoom alone, in virtual time: no motors, a fixed wide
/// camera (the scenario's, made 120° across), the crop of its picture framed by dockd's host
/// policy over `DigitalSession`, and each frame scored as the crop shows it — held to each
/// scenario's own criteria, the same way every time.
@Suite(.onTheComputingThread) struct DigitalScenarioTests {
    /// A 120° webcam's crop, up to 3×.
    static var settings: DigitalSession.Configuration {
        var settings = DigitalSession.Configuration()
        settings.horizontalFieldOfViewDegrees = 120
        settings.maximumMagnification = 3
        return settings
    }

    static func run(_ name: String, zoomFraction: Double?) throws -> ClosedLoop.Result {
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        var loop = ClosedLoop(scenario: try loadScenario(name), pointer: .tracker(pipeline), digital: settings, zoomFraction: zoomFraction)
        return loop.run()
    }

    /// The vision issue's closed-loop scenarios and the walker, through the crop at 2.4× (a 71.5°
    /// crop: the motorised runs' 70° camera).
    @Test(arguments: ["vision/presenter", "vision/crossing", "vision/leave-5s", "vision/seated", "walk-across"])
    func aScenarioThroughTheCropAloneMeetsItsCriteria(name: String) throws {
        let scenario = try loadScenario(name)
        let result = try Self.run(name, zoomFraction: 0.7)
        for verdict in result.report.verdicts(scenario.criteria) {
            #expect(verdict.isMet, "\(name) through the crop: \(verdict.criterion) \(verdict.detail)")
        }
        print(
            "digital \(name): in tolerance \(result.inToleranceShare()), settled RMS \(result.rmsFramingError(from: .seconds(2))), "
                + "ID switches \(result.primaryIDSwitches), follows the primary \(result.followsPrimaryShare), finally \(String(describing: result.finallyFollowed))"
        )
    }

    @Test func withTheCropTheWholePictureTheWalkerIsNotFramed() throws {
        // The control: at 1× the crop cannot move, so the walker crosses the picture unframed —
        // what the tracker's crop earns above is its own.
        let framed = try Self.run("walk-across", zoomFraction: 0.7)
        let whole = try Self.run("walk-across", zoomFraction: nil)
        #expect(whole.inToleranceShare() < 0.5, "\(whole.inToleranceShare())")
        #expect(framed.inToleranceShare() > whole.inToleranceShare() + 0.3, "\(framed.inToleranceShare()) vs \(whole.inToleranceShare())")
        #expect(whole.zoomTrace.allSatisfy { $0.magnification == 1 })
        #expect(framed.zoomTrace.last.map { abs($0.magnification - 2.4) < 1e-9 } == true)
    }
}
