import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockTracking
import DockVocabulary
import Foundation
import Testing
import V4L2Protocol

/// `SetShotSize` on the host's policy in virtual time: a shot size needs a zoom the host drives
/// and knows the optics of; anything else is refused by name and changes nothing.
@Suite struct ShotSizePolicyTests {
    static func rig(model name: String) -> UVCPolicyTests.Rig {
        var model = UVCCameraModel.named(name)!
        model.enumerationDelay = .zero
        return UVCPolicyTests.Rig(
            host: HostPolicy(
                settings: PolicyBench<FirmwarePeer>.quietSettings,
                link: UVCSession(configuration: UVCSession.Configuration(model: model))),
            peer: UVCPolicyTests.Webcam(camera: UVCCamera(model: model)))
    }

    @Test func aWebcamWhoseZoomTableIsKnownTakesAShotSizeAndTheStatusSaysIt() {
        var rig = Self.rig(model: "generic")
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        let token = rig.request(.setShotSize(.half), from: 1)
        #expect(rig.replies[token] == .done)
        #expect(rig.host.status(now: rig.now, device: "video0").shotSize == .half)
        let fraction = rig.request(.setShotSize(.fraction(0.5)), from: 1)
        #expect(rig.replies[fraction] == .done)
        #expect(rig.host.status(now: rig.now, device: "video0").shotSize == .fraction(0.5))
        let off = rig.request(.setShotSize(.off), from: 1)
        #expect(rig.replies[off] == .done)
        #expect(rig.host.pipeline.shotSize == .off)
    }

    @Test func aZoomWithoutKnownOpticsOrNoZoomIsRefusedByNameAndNothingChanges() {
        // The OBSBOT Tiny's model gives no zoom table: its zoom is driven, its magnification unknown.
        var webcam = Self.rig(model: "obsbot-tiny")
        webcam.perform(webcam.host.start(now: webcam.now))
        webcam.run(for: .milliseconds(300))
        let refused = webcam.request(.setShotSize(.head), from: 1)
        #expect(webcam.replies[refused] == .failure(.notSupported("zoom")))
        #expect(webcam.host.status(now: webcam.now, device: "video0").shotSize == .off, "the shot size in force kept")

        var dock = HostBench(settings: HostBench.quietSettings)  // a dock-serial dock: no zoom to drive
        let early = dock.request(.setShotSize(.full), from: 1)
        #expect(dock.replies[early] == .failure(.notReady), "nothing attached yet")
        dock.attach()
        let noZoom = dock.request(.setShotSize(.full), from: 1)
        #expect(dock.replies[noZoom] == .failure(.notSupported("zoom")))
        #expect(dock.host.pipeline.shotSize == .off)
        let off = dock.request(.setShotSize(.off), from: 1)
        #expect(dock.replies[off] == .done, "off asks for nothing a dock lacks")
    }

    @Test func aShotSizeFromTheSettingsIsTheTrackersAndAReloadSetsItAgain() {
        var settings = PolicyBench<FirmwarePeer>.quietSettings
        settings.shotSize = .full
        var host = HostPolicy(settings: settings)
        #expect(host.pipeline.shotSize == .full)
        settings.shotSize = .off
        _ = host.reconfigured(settings, now: .seconds(1))
        #expect(host.pipeline.shotSize == .off)
    }
}
