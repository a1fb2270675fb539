import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing
import V4L2Protocol
import VISCAProtocol

@testable import DockEvaluation

/// The shot size held by zoom, in virtual time: the emulated webcam (the generic model, its
/// zoom's table widened to 1× … 4× — a 4× optical zoom, which the emulation draws as the table
/// says), dockd's host policy over `UVCSession`, the tracker holding a shot size with the field of
/// view following the zoom. Scored from the simulator's truth: the subject's true box in each
/// frame, and the zoom at each tick.
@Suite(.onTheComputingThread) struct ShotSizeTests {
    /// The generic webcam with a zoom from 1× to `longest`×, panning at most `panDegreesPerSecond`
    /// (its speed control's 255 units; the model's own guess is 127.5°/s), its zoom crossing its
    /// range in `zoomTravel` — by default none: the zoom jumps, so that the trace is the
    /// commands and the figures (`BENCHMARKS.md`) are the controller's; the model's own 1.5 s
    /// travel is run through dockd in `scripts/hil --uvc Scenarios/zoom/*.json`.
    static func webcam(longest: Double, panDegreesPerSecond: Double = 127.5, zoomTravel: Duration = .zero) -> UVCCameraModel {
        var model = UVCCameraModel.named("generic")!
        model.zoomFullTravel = zoomTravel
        model.zoomMagnification = [.init(fraction: 0, magnification: 1), .init(fraction: 1, magnification: longest)]
        model.degreesPerSecondPerSpeedUnit = panDegreesPerSecond / 255
        return model
    }

    static func run(
        _ scenario: Scenario, shot: ShotSize, longest: Double = 4, configuration: ShotSizeController.Configuration = .init(),
        fixedZoom: Double? = nil, panDegreesPerSecond: Double = 127.5
    ) -> ClosedLoop.Result {
        var settings = TrackingPipeline.Configuration()
        settings.shot = configuration
        var pipeline = TrackingPipeline(configuration: settings)
        pipeline.framingMode = .center
        pipeline.shotSize = shot
        var loop = ClosedLoop(
            scenario: scenario, pointer: .tracker(pipeline),
            uvc: webcam(longest: longest, panDegreesPerSecond: panDegreesPerSecond),
            zoomFraction: fixedZoom)
        return loop.run()
    }

    /// Times the zoom turned from in to out or back, changes under `ignoring` (a ratio) apart.
    static func reversals(_ trace: [(time: Duration, magnification: Double)], ignoring: Double = 0.01) -> Int {
        var count = 0, direction = 0, anchor = trace.first?.magnification ?? 1
        for sample in trace {
            let ratio = sample.magnification / anchor
            guard abs(ratio - 1) >= ignoring else { continue }
            let now = ratio > 1 ? 1 : -1
            if direction != 0, now != direction { count += 1 }
            direction = now
            anchor = sample.magnification
        }
        return count
    }

    /// The share of `box` inside the picture.
    static func inPicture(_ box: NormalizedRect) -> Double {
        let width = max(0, min(box.maxX, 1) - max(box.x, 0)), height = max(0, min(box.maxY, 1) - max(box.y, 0))
        return box.width * box.height > 0 ? width * height / (box.width * box.height) : 0
    }

    /// A person walking slowly straight towards the camera, from 10 m to 3.5 m, and away again,
    /// twice in a minute, drifting half a metre to each side: a full-body shot needs 3.6× at 10 m
    /// and 1.3× at 3.5 m.
    static let towardAndAway = try! Scenario.parse(
        """
        {"name": "toward-and-away", "duration_s": 60, "seed": 71,
         "subjects": [{"id": 1, "kind": "person", "primary": true,
           "path": {"waypoints": [{"t_s": 0, "x_m": 0, "y_m": 10}, {"t_s": 3, "x_m": 0, "y_m": 10},
                                  {"t_s": 16, "x_m": 0.5, "y_m": 3.5}, {"t_s": 30, "x_m": -0.5, "y_m": 10},
                                  {"t_s": 45, "x_m": 0.5, "y_m": 3.5}, {"t_s": 60, "x_m": 0, "y_m": 10}]}}]}
        """)

    @Test func aWalkerTowardAndAwayIsHeldAtTheSameShotSizeWithoutZoomHunting() {
        let result = Self.run(Self.towardAndAway, shot: .full)
        let target = ShotSizeController.Configuration().fullBodyShare
        // The true body's height in the picture, from 5 s on (the first zoom in done).
        let heights = result.primaryBoxes.filter { $0.captureTime >= .seconds(5) }.map { $0.box.height / target }
        let within = Double(heights.filter { abs($0 - 1) <= 0.2 }.count) / Double(max(heights.count, 1))
        let worst = heights.map { abs($0 - 1) }.max() ?? 1
        let reversals = Self.reversals(result.zoomTrace)
        let magnifications = result.zoomTrace.map(\.magnification)
        print(
            "toward-and-away, full body (0.8 of the height): within ±20 % \(within) of frames from 5 s, worst "
                + "\(worst); zoom \(magnifications.min() ?? 0)…\(magnifications.max() ?? 0)×, \(reversals) reversals in "
                + "60 s; in tolerance \(result.inToleranceShare(from: .seconds(5)))")
        for second in stride(from: 0, to: 60, by: 3) {
            let tick = result.zoomTrace.first { $0.time >= .seconds(second) }
            let box = result.primaryBoxes.first { $0.captureTime >= .seconds(second) }
            print("  t \(second) s: zoom \(tick?.magnification ?? 0)×, body \(box?.box.height ?? 0) of the height")
        }
        #expect(within >= 0.9, "the body within ±20 % of its share in most frames")
        #expect(worst <= 0.35, "and never far off")
        // The walk turns three times in the minute; the zoom turns with it, and no more than twice
        // as often.
        #expect(reversals <= 6, "\(reversals) zoom reversals")
        #expect(result.inToleranceShare(from: .seconds(5)) >= 0.85, "and the framing kept")
    }

    @Test func aVISCACameraHoldsTheWalkerTooThroughItsProfilesZoomTable() {
        // The generic VISCA profile: a 25× table (Sony's x25 block), a zoom that travels its
        // range in 3 s, each position read back with the pose.
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        pipeline.shotSize = .full
        let camera = VISCACamera.Configuration(profile: VISCAProfile.named("generic")!, transport: .serial)
        var loop = ClosedLoop(scenario: Self.towardAndAway, pointer: .tracker(pipeline), visca: camera)
        let result = loop.run()
        let target = ShotSizeController.Configuration().fullBodyShare
        let heights = result.primaryBoxes.filter { $0.captureTime >= .seconds(8) }.map { $0.box.height / target }
        let within = Double(heights.filter { abs($0 - 1) <= 0.2 }.count) / Double(max(heights.count, 1))
        let magnifications = result.zoomTrace.map(\.magnification)
        print(
            "toward-and-away through VISCA, full body: within ±20 % \(within) of frames from 8 s, worst "
                + "\(heights.map { abs($0 - 1) }.max() ?? 1); zoom \(magnifications.min() ?? 0)…\(magnifications.max() ?? 0)×, "
                + "\(Self.reversals(result.zoomTrace)) reversals; in tolerance \(result.inToleranceShare(from: .seconds(8)))")
        #expect(within >= 0.9, "the body within ±20 % of its share in most frames")
        #expect(result.inToleranceShare(from: .seconds(8)) >= 0.85, "and the framing kept")
    }

    /// A person walking across at 4 m, held at half body (2.9×), who breaks into a run at 8 s —
    /// 2, 4, then 6 m/s, a third of a second each — faster than the webcam pans (6 m/s is
    /// 1.5 rad/s in front of it; the webcam here pans at 60°/s, 1.05 rad/s) and stops 10 m to the
    /// right.
    static let breaksIntoARun = try! Scenario.parse(
        """
        {"name": "breaks-into-a-run", "duration_s": 14, "seed": 73, "accessory": {"yaw": {"max_speed_deg_s": 60}},
         "subjects": [{"id": 1, "kind": "person", "primary": true,
           "path": {"waypoints": [{"t_s": 0, "x_m": -2, "y_m": 4}, {"t_s": 8, "x_m": 0, "y_m": 4},
                                  {"t_s": 8.33, "x_m": 0.67, "y_m": 4}, {"t_s": 8.67, "x_m": 2, "y_m": 4},
                                  {"t_s": 9, "x_m": 4, "y_m": 4}, {"t_s": 10, "x_m": 10, "y_m": 4}]}}]}
        """)

    /// The face in a person's true body box, by the simulator's proportions (`SubjectPart.parts`:
    /// 0.09 of the height wide, from 0.13 to 0.0065 of it below the top).
    static func face(of body: NormalizedRect) -> NormalizedRect {
        let width = body.width * 0.09 / 0.26
        return NormalizedRect(
            x: body.center.x - width / 2, y: body.y + body.height * 0.0065, width: width, height: body.height * 0.1235)
    }

    @Test func aSubjectBreakingIntoARunIsZoomedOutFromBeforeLeavingThePicture() {
        // A webcam that says it pans at 60°/s at most (1.05 rad/s).
        let result = Self.run(Self.breaksIntoARun, shot: .half, panDegreesPerSecond: 60)
        // Without the allowance for motion (only the box and its place count), for the figure.
        var blind = ShotSizeController.Configuration()
        blind.reactionSeconds = 0
        blind.escapeHorizonSeconds = 0
        blind.uncertaintyDeviations = 0
        let without = Self.run(Self.breaksIntoARun, shot: .half, configuration: blind, panDegreesPerSecond: 60)
        // No shot size: the zoom set once to where the half-body shot had it (3×, a client's SetZoom).
        let fixed = Self.run(Self.breaksIntoARun, shot: .off, fixedZoom: 2 / 3, panDegreesPerSecond: 60)
        func firstExit(_ result: ClosedLoop.Result) -> Duration? {
            result.primaryBoxes.first { $0.captureTime >= .seconds(8) && Self.inPicture(Self.face(of: $0.box)) < 0.5 }?.captureTime
        }
        func zoomAt(_ result: ClosedLoop.Result, _ time: Duration) -> Double {
            result.zoomTrace.last { $0.time <= time }?.magnification ?? 1
        }
        let before = zoomAt(result, .seconds(8))
        func zoomOutTime(_ result: ClosedLoop.Result) -> Duration? {
            let before = zoomAt(result, .seconds(8))
            return result.zoomTrace.first { $0.time >= .seconds(8) && $0.magnification < before * 0.9 }?.time
        }
        /// The face's nearest approach to the picture's left or right edge (negative: past it).
        func nearest(_ result: ClosedLoop.Result) -> Double {
            result.primaryBoxes.filter { $0.captureTime >= .seconds(8) }.map {
                let face = Self.face(of: $0.box)
                return min(face.x, 1 - face.maxX)
            }.min() ?? -1
        }
        let zoomOut = zoomOutTime(result)
        let exit = firstExit(result), exitWithout = firstExit(without)
        func least(_ result: ClosedLoop.Result) -> Double {
            result.primaryBoxes.filter { $0.captureTime >= .seconds(8) }.map { Self.inPicture(Self.face(of: $0.box)) }.min() ?? 0
        }
        let leastWith = least(result), leastWithout = least(without)
        print(
            "breaks-into-a-run, half body: zoom \(before)× at the start of the run, zoomed out by 10 % at "
                + "\(zoomOut.map { "\($0)" } ?? "never"), least \(result.zoomTrace.filter { $0.time >= .seconds(8) }.map(\.magnification).min() ?? 0)×; the face at least "
                + "\(leastWith) in the picture, first under half at \(exit.map { "\($0)" } ?? "never"); without the "
                + "allowance for motion: zoomed out at \(zoomOutTime(without).map { "\($0)" } ?? "never"), least \(leastWithout), first "
                + "under half at \(exitWithout.map { "\($0)" } ?? "never"); the face's nearest approach to the picture's side "
                + "\(nearest(result)) with the allowance, \(nearest(without)) without; at a fixed 3× (no shot size): least "
                + "\(least(fixed)), nearest approach \(nearest(fixed))")
        #expect(nearest(result) > nearest(fixed), "zooming out keeps the face further from the edge than a fixed zoom")
        #expect(nearest(result) >= nearest(without), "the allowance for motion keeps the face further from the edge")
        #expect(before >= 2, "held at half body before the run: \(before)×")
        #expect(zoomOut != nil, "the zoom went out during the run")
        if let zoomOut, let exit { #expect(zoomOut < exit, "zoomed out before the subject left the picture") }
        #expect(leastWith >= 0.5, "the running subject's face stays at least half in the picture")
    }

    /// A person 3 m away strolling sideways (0.3 m/s) and back: head and shoulders needs 3.6×, half
    /// body 2.2×, full body 1.1×, the body at 0.9 of the height 1.2×.
    static let stroller = try! Scenario.parse(
        """
        {"name": "stroller", "duration_s": 20, "seed": 83,
         "subjects": [{"id": 1, "kind": "person", "primary": true,
           "path": {"waypoints": [{"t_s": 0, "x_m": -0.5, "y_m": 3}, {"t_s": 2, "x_m": -0.5, "y_m": 3},
                                  {"t_s": 8, "x_m": 1.3, "y_m": 3}, {"t_s": 14, "x_m": -0.5, "y_m": 3}]}}]}
        """)

    @Test(arguments: [ShotSize.head, .half, .full, .fraction(0.9)])
    func eachShotSizeHoldsItsPartAtItsShare(shot: ShotSize) throws {
        let result = Self.run(Self.stroller, shot: shot)
        let configuration = ShotSizeController.Configuration()
        let share = try #require(ShotSizeController(configuration: configuration).share(shot))
        let isFace = shot == .head || shot == .half
        // The part's true height in the picture over the last 12 s (the zoom in done by 8 s).
        let heights = result.primaryBoxes.filter { $0.captureTime >= .seconds(8) }.map {
            (isFace ? Self.face(of: $0.box).height : $0.box.height) / share
        }
        let within = Double(heights.filter { abs($0 - 1) <= 0.2 }.count) / Double(max(heights.count, 1))
        let faceInPicture = result.primaryBoxes.filter { $0.captureTime >= .seconds(8) }.map { Self.inPicture(Self.face(of: $0.box)) }
        print(
            "stroller at \(shot.setting): the part within ±20 % of \(share) of the height in \(within) of frames from 8 s, "
                + "zoom \(result.zoomTrace.last?.magnification ?? 0)×, \(Self.reversals(result.zoomTrace)) reversals, the face at "
                + "least \(faceInPicture.min() ?? 0) in the picture")
        if shot == .head {
            // Head and shoulders at 3 m needs 3.6×, where the webcam's 300 ms lag behind a stroller
            // is a large share of the picture: the zoom goes in and out with the walk and the size
            // is not held (BENCHMARKS.md); what is held is that the face stays in the picture.
            #expect((faceInPicture.min() ?? 0) >= 0.5, "the face in the picture throughout")
        } else {
            #expect(within >= 0.9, "\(shot.setting) held at its share")
            #expect((faceInPicture.min() ?? 0) >= 0.99, "the face in the picture throughout")
        }
    }

    @Test func aCoastingSubjectIsNeverZoomedInOn() {
        // A person at 8 m who walks behind a pillar... here: whom the detector misses for 2 s
        // (an absence), while the zoom is being asked to go in.
        let scenario = try! Scenario.parse(
            """
            {"name": "missed-while-far", "duration_s": 12, "seed": 79,
             "subjects": [{"id": 1, "kind": "person", "primary": true, "absent": [{"from_s": 2, "to_s": 4}],
               "path": {"waypoints": [{"t_s": 0, "x_m": 0, "y_m": 8}, {"t_s": 12, "x_m": 0.5, "y_m": 8}]}}]}
            """)
        let result = Self.run(scenario, shot: .full)
        let during = result.zoomTrace.filter { $0.time >= .milliseconds(2200) && $0.time <= .seconds(4) }
        let rises = zip(during, during.dropFirst()).filter { $1.magnification > $0.magnification + 1e-9 }
        print("missed-while-far: zoom \(during.first?.magnification ?? 0)× … \(during.last?.magnification ?? 0)× while missed")
        #expect(rises.isEmpty, "no zoom in while the subject is not seen: \(rises.map { ($0.1.time, $0.1.magnification) })")
    }
}
