import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockTracking
import DockVocabulary
import Testing
import V4L2Protocol

/// The lost behaviour's zoom out as the host carries it out, in virtual time: when the
/// observations stop arriving altogether (a detector that died), the subject is lost like any
/// other, and after the set time an accessory that zooms is zoomed all the way out; one that
/// cannot zoom holds, and the log says why.
@Suite struct LostBehaviourPolicyTests {
    static var settings: HostSettings {
        var settings = PolicyBench<FirmwarePeer>.quietSettings
        settings.isTrackingEnabled = true
        settings.lostBehaviour = LostBehaviour(after: .seconds(2), action: .zoomOut)
        return settings
    }

    /// A person in the middle of the picture, one frame.
    static func frame(at now: Duration) -> ObservationBatch {
        ObservationBatch(
            observations: [Observation(kind: .body, box: NormalizedRect(x: 0.44, y: 0.3, width: 0.12, height: 0.4), confidence: 0.9)],
            camera: CameraInformation(horizontalFieldOfViewRadians: 1.1, aspectRatio: 16.0 / 9), captureTime: now)
    }

    @Test func aWebcamIsZoomedOutOnceAfterTheSetTimeWhenTheObservationsStop() throws {
        var rig = UVCPolicyTests.rig(settings: Self.settings)
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        rig.request(.setZoom(0.5), from: 1)
        rig.run(for: .milliseconds(20))
        #expect(rig.peer.camera.values[V4L2ControlID.zoomAbsolute] == 50)
        for _ in 0..<30 {
            rig.host.observationsArrived(Self.frame(at: rig.now))
            rig.run(for: .milliseconds(33))
        }
        #expect(rig.host.trackingStep.map { if case .following = $0.activity { true } else { false } } == true)
        // The detector dies: no more Track at all. The track coasts and ends (1.5 s at most), and
        // 2 s later the camera zooms out.
        let died = rig.now
        var zoomedOutAt: Duration?
        for _ in 0..<(6 * 30) {
            rig.run(for: .milliseconds(33))
            if zoomedOutAt == nil, rig.peer.camera.values[V4L2ControlID.zoomAbsolute] == 0 { zoomedOutAt = rig.now }
        }
        let after = try #require(zoomedOutAt, "zoomed out: \(rig.logs.suffix(5))") - died
        #expect(after >= .seconds(2) && after <= .milliseconds(3600), "zoomed out \(after) after the last frame")
        #expect(rig.logs.filter { $0 == "subject lost: zooming out" }.count == 1, "once: \(rig.logs)")
        #expect(rig.host.trackingStep?.activity == .holding)
    }

    @Test func aDockThatCannotZoomHolds() throws {
        var bench = HostBench(settings: Self.settings)
        bench.attach()
        for _ in 0..<30 {
            bench.host.observationsArrived(Self.frame(at: bench.now))
            bench.run(for: .milliseconds(33))
        }
        bench.run(for: .seconds(6))
        #expect(bench.logs.filter { $0 == "subject lost: the accessory cannot zoom out; holding" }.count == 1, "\(bench.logs)")
        #expect(bench.host.trackingStep?.activity == .holding)
    }
}
