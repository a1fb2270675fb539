import DockLinks
import DockPolicy
import DockProtocol
import DockTracking
import DockVocabulary
import Foundation
import Testing

/// The host's policy over a digital pan-tilt-zoom in virtual time: the crop is the "motor", and
/// the picture the observations come in is the fixed camera's whole picture, which does not turn
/// with the crop (`fixed_picture`).
@Suite struct DigitalPolicyTests {
    /// The other end of a port with no wire: nothing.
    struct NoWire: BenchPeer {
        var writes = 0
        mutating func opened() {}
        mutating func received(_ bytes: [UInt8], now: Duration) -> [UInt8] {
            writes += 1
            return []
        }
        mutating func advance(to now: Duration) -> [UInt8] { [] }
    }

    typealias Rig = PolicyBench<NoWire>

    static let fieldOfView = 78 * Double.pi / 180
    static let camera = CameraInformation(horizontalFieldOfViewRadians: fieldOfView, aspectRatio: 16.0 / 9)

    /// The crop starting at its longest zoom, 3× (the middle third of the picture), unless told.
    static func rig(startZoom: Double = 1, _ configure: (inout HostSettings) -> Void = { _ in }) -> Rig {
        var settings = HostSettings()
        settings.wakesOnAttach = false
        settings.isTrackingEnabled = true
        configure(&settings)
        var crop = DigitalSession.Configuration()
        crop.initialZoomFraction = startZoom
        return Rig(host: HostPolicy(settings: settings, link: DigitalSession(configuration: crop)), peer: NoWire())
    }

    /// The crop's window now.
    static func window(_ rig: Rig) throws -> NormalizedRect {
        let link = try #require(rig.host.session as? DigitalSession)
        return try #require(link.window(at: rig.now))
    }

    /// A person standing still with their body's centre at `x` across the fixed picture: the
    /// same box whatever the crop does.
    static func frame(x: Double, at time: Duration) -> ObservationBatch {
        ObservationBatch(
            observations: [Observation(kind: .body, box: NormalizedRect(x: x - 0.05, y: 0.3, width: 0.1, height: 0.4), confidence: 0.9)],
            camera: camera, captureTime: time)
    }

    @Test func theCropFollowsASubjectInTheFixedPictureAndStopsThere() throws {
        var rig = Self.rig()
        rig.attach()
        for _ in 0..<120 {
            // Inside the first crop (the middle third), so that the tracker takes them as a
            // motorised camera's would.
            rig.host.observationsArrived(Self.frame(x: 0.64, at: rig.now))
            rig.run(for: .milliseconds(33))
        }
        let link = try #require(rig.host.session as? DigitalSession)
        let window = try #require(link.window(at: rig.now))
        // The crop (a third of the picture) centred on the subject's body, and still: had the
        // picture been taken to turn with the crop, the subject would stay right of centre
        // however far it turned, and the crop would run to the picture's edge.
        #expect(abs(window.center.x - 0.64) < 0.02, "crop \(window)")
        #expect(abs(window.width - 1.0 / 3) < 1e-9)
        let pose = try #require(rig.host.session.pose(at: rig.now))
        #expect(abs(pose.yawRadians - atan(0.28 * tan(Self.fieldOfView / 2))) < 0.02)
        #expect(abs(pose.yawRadiansPerSecond) < 0.02)
        #expect(rig.peer.writes == 0, "nothing goes on a wire")
        // The status says where the crop is, for the vision service's framed picture.
        let status = rig.host.status(now: rig.now, device: "digital")
        #expect(status.crop == window)
        #expect(status.accessory?.capabilities.contains("fixed_picture") == true)
    }

    @Test func aSubjectOutsideTheCropIsNotChosen() throws {
        // Seen in the fixed picture but not in the crop (the middle third): a motorised camera
        // would not have seen them, and the crop stays where it is.
        var rig = Self.rig()
        rig.attach()
        for _ in 0..<60 {
            rig.host.observationsArrived(Self.frame(x: 0.85, at: rig.now))
            rig.run(for: .milliseconds(33))
        }
        #expect(rig.host.pipeline.primary == nil)
        #expect(rig.host.pipeline.subjects.count == 1, "tracked all the same")
        let pose = try #require(rig.host.session.pose(at: rig.now))
        #expect(pose.yawRadians == 0)
    }

    @Test func theCropWidensSmoothlyWhenTheSubjectIsLost() throws {
        // Lost for a second, the lost behaviour zooms out: the crop grows to the whole picture at
        // the zoom's pace (at most 2× a second), never in a jump.
        var rig = Self.rig { $0.lostBehaviour = LostBehaviour(after: .seconds(1), action: .zoomOut) }
        rig.attach()
        for _ in 0..<60 {
            rig.host.observationsArrived(Self.frame(x: 0.5, at: rig.now))
            rig.run(for: .milliseconds(33))
        }
        #expect(abs(try Self.window(rig).width - 1.0 / 3) < 1e-9)
        var widths: [Double] = []
        for _ in 0..<180 {
            rig.run(for: .milliseconds(33))
            widths.append(try Self.window(rig).width)
        }
        #expect(abs(widths.last! - 1) < 1e-9, "the whole picture again")
        let firstWider = try #require(widths.firstIndex { $0 > 1.0 / 3 + 1e-9 })
        #expect(firstWider >= 30, "held for the lost behaviour's second first: widened after \(firstWider) ticks")
        for (earlier, later) in zip(widths, widths.dropFirst()) {
            #expect(later >= earlier - 1e-12 && later / earlier <= pow(2, 0.034) + 1e-9, "\(earlier) → \(later)")
        }
    }

    @Test func aShotSizeIsHeldByTheCropsZoom() throws {
        // A body 0.4 of the picture's height, still; a full shot puts it at four fifths: 2×.
        var rig = Self.rig(startZoom: 0) { $0.shotSize = .full }
        rig.attach()
        for _ in 0..<240 {
            rig.host.observationsArrived(Self.frame(x: 0.5, at: rig.now))
            rig.run(for: .milliseconds(33))
        }
        let width = try Self.window(rig).width
        #expect(abs(1 / width - 2) < 0.2, "magnified \(1 / width)×")
    }

    @Test func aPresetIsRecalledWithItsZoomThroughTheCrop() throws {
        // Saved at 3×, far across; recalled at 1×, where the crop cannot pan: the move goes first
        // and the zoom after it, and the crop arrives as the zoom lets it.
        var rig = Self.rig { $0.isTrackingEnabled = false }
        rig.attach()
        rig.request(
            .motion(
                .orientation(yawRadians: 0.4, pitchRadians: 0.05, isRelative: false, pace: .fastest), takeOver: false, waitsForEnd: true),
            from: 1)
        rig.run(for: .seconds(2))
        let saved = rig.request(.savePreset(name: "stage"), from: 2)
        rig.run(for: .milliseconds(100))
        guard case .preset(let preset)? = rig.replies[saved] else {
            Issue.record("saved: \(String(describing: rig.replies[saved]))")
            return
        }
        #expect(preset.zoomFraction == 1 && abs(preset.yawRadians - 0.4) < 0.003)
        rig.request(.setZoom(0), from: 1)
        rig.run(for: .seconds(2))
        #expect(rig.host.session.pose(at: rig.now) == Pose(yawRadians: 0, pitchRadians: 0, zoomFraction: 0), "1×: the whole picture")
        let recalled = rig.request(.recallPreset(name: "stage", takeOver: false, waitsForEnd: true), from: 3)
        rig.run(for: .seconds(4))
        guard case .motion(let outcome)? = rig.replies[recalled] else {
            Issue.record("recalled: \(String(describing: rig.replies[recalled]))")
            return
        }
        #expect(outcome.ending == .completed(.orientationReached), "\(outcome)")
        let pose = try #require(rig.host.session.pose(at: rig.now))
        #expect(abs(pose.yawRadians - preset.yawRadians) < 0.003 && pose.zoomFraction == 1, "\(pose)")
    }

    @Test func theCropsGeometryIsTheTrackersAtPoseZero() {
        let geometry = DigitalCrop(horizontalFieldOfViewRadians: Self.fieldOfView, aspectRatio: 16.0 / 9.0)
        for (x, y) in [(0.5, 0.5), (0.9, 0.2), (0.1, 0.75), (0.3, 0.05)] {
            let angles = geometry.angles(centreX: x, centreY: y)
            let window = geometry.window(yawRadians: angles.yawRadians, pitchRadians: angles.pitchRadians, magnification: 2)
            #expect(abs(window.center.x - x) < 1e-12 && abs(window.center.y - y) < 1e-12)
            // The tracker's own angles for a small box there, seen at pose zero.
            let box = NormalizedRect(x: x - 0.001, y: y - 0.001, width: 0.002, height: 0.002)
            let seen = AngularBox(box: box, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)!
            #expect(abs(seen.yawRadians - angles.yawRadians) < 1e-6 && abs(seen.pitchRadians - angles.pitchRadians) < 1e-6, "(\(x), \(y))")
        }
    }
}
