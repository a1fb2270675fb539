import DockSimulator
import DockTracking
import DockVocabulary
import Foundation
import TestSupport
import Testing

@testable import DockEvaluation

/// The tracker in closed loop with the simulated dock, camera and detector, in virtual time with
/// the scenarios' fixed seeds.
@Suite(.onTheComputingThread) struct TrackingScenarioTests {
    /// One person walking across the room at constant speed, starting a little left of centre.
    static func walker(speed: Double = 0.4, seconds: Double = 12, camera: String = "") throws -> Scenario {
        let end = -0.4 + speed * seconds
        return try Scenario.parse(
            """
            {"name": "walker", "duration_s": \(seconds), "seed": 31,
             \(camera.isEmpty ? "" : "\"camera\": {\(camera)},")
             "subjects": [{"id": 1, "kind": "person", "primary": true,
               "path": {"waypoints": [{"t_s": 0, "x_m": -0.4, "y_m": 3}, {"t_s": \(seconds), "x_m": \(end), "y_m": 3}]}}]}
            """)
    }

    static func pipeline(_ mode: FramingMode, regionOfInterest: NormalizedRect = .fullImage) -> TrackingPipeline {
        var pipeline = TrackingPipeline()
        pipeline.framingMode = mode
        pipeline.regionOfInterest = regionOfInterest
        return pipeline
    }

    /// The horizontal angle (radians) between the box's centre and the image point `x` (delivered
    /// image, upright camera).
    static func angle(fromX x: Double, to box: NormalizedRect, camera: CameraInformation) -> Double {
        let half = tan(camera.horizontalFieldOfViewRadians / 2)
        return atan((box.center.x - 0.5) * 2 * half) - atan((x - 0.5) * 2 * half)
    }

    @Test func aWalkerAtConstantSpeedIsFramedWithinTheDeadBand() throws {
        let scenario = try Self.walker()
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(Self.pipeline(.center)))
        let result = loop.run()
        let settled = result.primaryBoxes.filter { $0.captureTime >= .seconds(3) }
        #expect(settled.count > 250)
        let errors = settled.map { abs(Self.angle(fromX: 0.5, to: $0.box, camera: scenario.camera.information)) }
        let within = Double(errors.filter { $0 <= FramingController.Configuration().deadBandRadians }.count) / Double(errors.count)
        print("walker: \(Int(within * 100)) % of frames within the dead band after 3 s, worst \(errors.max()!) rad")
        #expect(within >= 0.95, "framing error within the 0.02 rad dead band in \(within) of the frames")
        #expect(errors.max()! < 0.035, "and never far outside it")
        #expect(result.primaryIDSwitches == 0)
    }

    @Test func theCrossingKeepsThePrimarysIdentityAndFollowsTheRightPerson() throws {
        var loop = ClosedLoop(scenario: try loadScenario("crossing"), pointer: .tracker(Self.pipeline(.center)))
        let result = loop.run()
        #expect(result.primaryIDSwitches == 0)
        #expect(Set(result.primaryTrace.compactMap { $0 }).count == 1, "one primary ID the whole run")
        #expect(result.finallyFollowed == 1, "after the crossing the dock still follows subject 1")
        #expect(result.followsPrimaryShare > 0.95)
        #expect(result.inToleranceShare(from: .seconds(2)) > 0.95)
    }

    @Test func fusingWithThePoseAtCaptureTimeBeatsThePoseOnArrival() throws {
        // 30 % of detections missed, 150 ms late, while the dock pans after a walker.
        let scenario = try loadScenario("dropout-latency")
        #expect(scenario.detector.missRate == 0.3 && scenario.detector.latency == .milliseconds(150))
        var atCapture = ClosedLoop(scenario: scenario, pointer: .tracker(Self.pipeline(.center), poseAtCapture: true))
        var onArrival = ClosedLoop(scenario: scenario, pointer: .tracker(Self.pipeline(.center), poseAtCapture: false))
        let right = atCapture.run(), wrong = onArrival.run()
        let rightError = right.rmsFramingError(from: .seconds(2)), wrongError = wrong.rmsFramingError(from: .seconds(2))
        print("dropout-latency: RMS framing error \(rightError) with the capture-time pose, \(wrongError) with the pose on arrival")
        #expect(rightError * 1.5 < wrongError, "capture time \(rightError) vs arrival \(wrongError)")
    }

    @Test(arguments: [(FramingMode.center, 0.5), (.left, 1.0 / 3), (.right, 2.0 / 3)])
    func framingModesPutTheSubjectWhereTheySay(mode: FramingMode, x: Double) throws {
        let scenario = try Self.walker(speed: 0.2)
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(Self.pipeline(mode)))
        let settled = loop.run().primaryBoxes.filter { $0.captureTime >= .seconds(4) }
        let errors = settled.map { abs(Self.angle(fromX: x, to: $0.box, camera: scenario.camera.information)) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 0.02, "\(mode): mean distance from x = \(x) is \(mean) rad")
    }

    @Test func automaticFramingLeavesHeadroom() throws {
        let scenario = try Self.walker(speed: 0.2)
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(Self.pipeline(.automatic)))
        let settled = loop.run().primaryBoxes.filter { $0.captureTime >= .seconds(4) }
        let tops = settled.map(\.box.y)
        let mean = tops.reduce(0, +) / Double(tops.count)
        let headroom = FramingController.Configuration().headroom
        #expect(abs(mean - headroom) < 0.03, "the body's top sits at \(mean) of the image, headroom \(headroom)")
        // Typed step by step: as one expression inside #expect it took the type checker 20 s.
        let centres: [Double] = settled.map(\.box.center.x)
        let meanCentre: Double = centres.reduce(0, +) / Double(centres.count)
        #expect(abs(meanCentre - 0.5) < 0.03, "and centred across")
    }

    @Test func theRegionOfInterestMovesTheTarget() throws {
        // Only the right half of the image is used: centre framing aims at x = 0.75.
        let region = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let scenario = try Self.walker(speed: 0.2)
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(Self.pipeline(.center, regionOfInterest: region)))
        let settled = loop.run().primaryBoxes.filter { $0.captureTime >= .seconds(4) }
        let errors: [Double] = settled.map { abs(Self.angle(fromX: 0.75, to: $0.box, camera: scenario.camera.information)) }
        let meanError: Double = errors.reduce(0, +) / Double(errors.count)
        #expect(meanError < 0.02)
    }

    @Test(arguments: [("rotated_clockwise", false), ("upside_down", true), ("up", true), ("rotated_counterclockwise", true)])
    func theCamerasOrientationAndMirroringAreHonoured(orientation: String, mirrored: Bool) throws {
        // If either were ignored the dock would turn away from the subject and lose it.
        let scenario = try Self.walker(camera: "\"orientation\": \"\(orientation)\", \"mirrored\": \(mirrored)")
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(Self.pipeline(.center)))
        let result = loop.run()
        let error = result.rmsFramingError(from: .seconds(3))
        #expect(error < 0.03, "\(orientation), mirrored \(mirrored): RMS framing error \(error)")
        #expect(result.primaryIDSwitches == 0)
    }
}
