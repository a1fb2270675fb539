import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing
import VISCAProtocol

@testable import DockEvaluation

/// The tracker at a VISCA camera's zoom, in virtual time: the simulated camera (the generic
/// profile: zoom 0–0x4000, 3 s end to end, the x25 lens table) zoomed to 4× once it is ready, the
/// zoom going over the line as CAM_Zoom Direct and coming back with CAM_ZoomPosInq into the pose
/// history; the camera app sends the field of view at the widest zoom. With the field of view
/// following the zoom the camera reported at each frame's capture time, a box seen at 4× is read
/// as a quarter of the angle; without, the dock turns four times as far as the subject is off.
@Suite(.onTheComputingThread) struct VISCAZoomFieldOfViewTests {
    static func run(zoom: Double, following: Bool, speed: Double = 0.5) throws -> ClosedLoop.Result {
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        let camera = VISCACamera.Configuration(profile: VISCAProfile.named("generic")!, transport: .serial)
        var loop = ClosedLoop(
            scenario: try ZoomFieldOfViewTests.walker(speed: speed), pointer: .tracker(pipeline), visca: camera,
            zoomFraction: zoom, fieldOfViewFollowsZoom: following)
        return loop.run()
    }

    /// At 4× (0x2752 on the generic table), a subject standing off to the side or walking at
    /// 0.5 m/s. Measured (seed 61): standing, settled RMS 0.014 with the field of view following
    /// the zoom and 0.021 without; walking, in tolerance 100 % with and 0.2 % without (the dock
    /// turns four times as far as the subject is off, and loses them). At 2× a walker the stepped
    /// VISCA drive lags is framed a little tighter without (RMS 0.010 against 0.013): the extra
    /// gain happens to make up for the lag, as the UVC test notes at 1.5×.
    @Test(arguments: [0.0, 0.5])
    func theFieldOfViewFollowsTheZoomTheCameraReports(speed: Double) throws {
        let generic = try #require(VISCAProfile.named("generic"))
        #expect(generic.magnification(atZoomPosition: 0x2752) == 4)
        let zoom = Double(0x2752) / 0x4000
        let with = try Self.run(zoom: zoom, following: true, speed: speed)
        let without = try Self.run(zoom: zoom, following: false, speed: speed)
        let line =
            "VISCA generic at 4×, subject at \(speed) m/s: in tolerance \(with.inToleranceShare(from: .seconds(4))) with the field "
            + "of view following the zoom, \(without.inToleranceShare(from: .seconds(4))) without; settled RMS "
            + "\(with.rmsFramingError(from: .seconds(4))) / \(without.rmsFramingError(from: .seconds(4)))"
        print(line)
        #expect(with.rmsFramingError(from: .seconds(4)) < without.rmsFramingError(from: .seconds(4)), "\(line)")
        #expect(with.inToleranceShare(from: .seconds(4)) >= 0.9, "and frames at zoom: \(line)")
    }
}
