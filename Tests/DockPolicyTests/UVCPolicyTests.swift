import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockVocabulary
import Foundation
import Testing
import V4L2Protocol

/// The host's policy over a UVC webcam in virtual time, through the framed-ioctl seam: the
/// same rules as for a dock, carried out by a link with no failsafe, against the emulated
/// OBSBOT Tiny of `Protocol/uvc/`.
@Suite struct UVCPolicyTests {
    /// The policy over a UVC session, on the one policy bench.
    typealias Rig = PolicyBench<Webcam>

    /// The emulated webcam behind the framed-ioctl seam, noting each speed write.
    struct Webcam: BenchPeer {
        var camera: UVCCamera
        /// The speeds of each `S_EXT_CTRLS`, with when it was written.
        var speedWrites: [(time: Duration, pan: Int32, tilt: Int32)] = []
        private var decoder = V4L2Frame.Decoder.requests()

        init(camera: UVCCamera) { self.camera = camera }

        mutating func opened() {}

        mutating func received(_ bytes: [UInt8], now: Duration) -> [UInt8] {
            var answers: [UInt8] = []
            for request in try! decoder.requests(bytes) {
                if request.request == V4L2Request.setExtendedControls,
                    let controls = try? V4L2ExtendedControls.decode(request.bytes).controls,
                    let pan = controls.first(where: { $0.id == V4L2ControlID.panSpeed })
                {
                    speedWrites.append((now, pan.value, controls.first { $0.id == V4L2ControlID.tiltSpeed }?.value ?? 0))
                }
                answers += camera.handle(request, now: now).encode()
            }
            return answers
        }

        mutating func advance(to now: Duration) -> [UInt8] {
            camera.advance(to: now)
            return []
        }

        var isStopped: Bool { speedWrites.last.map { $0.pan == 0 && $0.tilt == 0 } ?? false }
    }

    static func rig(settings: HostSettings = PolicyBench<FirmwarePeer>.quietSettings) -> Rig {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/uvc")
        let text = try! String(contentsOf: directory.appendingPathComponent("obsbot-tiny.json"), encoding: .utf8)
        let model = try! UVCCameraModel.parse(json: text)
        return Rig(
            host: HostPolicy(settings: settings, link: UVCSession(configuration: UVCSession.Configuration(model: model))),
            peer: Webcam(camera: UVCCamera(model: model)))
    }

    /// `SetZoom` writes `ZOOM_ABSOLUTE` (OBSBOT Tiny: 0…100) and answers the fraction set; a dock
    /// whose zoom the host cannot drive refuses it by name.
    @Test func zoomGoesToTheZoomControlAndADockWithoutOneRefusesIt() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        let token = rig.request(.setZoom(0.334), from: 1)
        rig.run(for: .milliseconds(20))
        #expect(rig.replies[token] == .zoom(0.33), "snapped to the control's step of 1 in 0…100")
        #expect(rig.peer.camera.values[V4L2ControlID.zoomAbsolute] == 33)

        var dock = HostBench(settings: HostBench.quietSettings)  // a dock-serial dock: its zoom is a button
        let early = dock.request(.setZoom(0.5), from: 1)
        #expect(dock.replies[early] == .failure(.notReady), "nothing attached yet")
        dock.attach()
        let refused = dock.request(.setZoom(0.5), from: 1)
        #expect(dock.replies[refused] == .failure(.notSupported("zoom")))
    }

    /// A streamed velocity the camera already has is acknowledged by the link at once (nothing
    /// to write): the caller is answered at once too, not after the acknowledgement timeout.
    @Test func aVelocityTheCameraAlreadyHasIsAnsweredAtOnce() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        let velocity = MotionRequest.velocity(yawRadiansPerSecond: 0.3, pitchRadiansPerSecond: 0, duration: nil)
        let first = rig.request(.motion(velocity, takeOver: false, waitsForEnd: false), from: 1)
        rig.run(for: .milliseconds(5))
        #expect(rig.replies[first] != nil)
        let writes = rig.peer.speedWrites.count
        let again = rig.request(.motion(velocity, takeOver: false, waitsForEnd: false), from: 1)
        #expect(
            rig.replies[again] == .motion(MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: nil)),
            "answered in the same step")
        #expect(rig.peer.speedWrites.count == writes, "nothing written: the camera has that speed")
    }

    @Test func aOneShotVelocityPansTheCameraAndStopsItAtItsEnd() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        #expect(rig.host.status(now: rig.now, device: "test").state == .ready)
        let start = rig.now
        let token = rig.request(
            .motion(
                .velocity(yawRadiansPerSecond: 0.3, pitchRadiansPerSecond: 0, duration: .seconds(1)),
                takeOver: false, waitsForEnd: true), from: 1)
        rig.run(for: .milliseconds(1200))
        #expect(rig.peer.camera.panArcSeconds > 0.2 * 180 / .pi * 3600, "panned right: \(rig.peer.camera.panArcSeconds)″")
        #expect(rig.peer.isStopped)
        let stopAt = rig.peer.speedWrites.last!.time - start
        #expect(stopAt >= .milliseconds(1000) && stopAt <= .milliseconds(1040), "stopped at the motion's end: \(stopAt)")
        #expect(rig.replies[token] != nil)
    }

    /// `kill -9` of a client holding control: the host hears the socket close, and the speeds
    /// are 0 on the camera at once — within the 100 ms the issue asks.
    @Test func aClientHoldingControlThatVanishesStopsTheCameraAtOnce() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        rig.request(.acquireControl(takeOver: false), from: 7)
        for _ in 0..<10 {
            rig.request(
                .motion(
                    .velocity(yawRadiansPerSecond: -0.6, pitchRadiansPerSecond: 0, duration: nil), takeOver: false,
                    waitsForEnd: false), from: 7)
            rig.run(for: .milliseconds(33))
        }
        #expect(!rig.peer.isStopped)
        let gone = rig.now
        rig.perform(rig.host.clientDisconnected(7, now: rig.now))
        #expect(rig.peer.isStopped)
        #expect(rig.peer.speedWrites.last!.time - gone < .milliseconds(100))
    }

    @Test func shuttingDownStopsAMovingCamera() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        rig.request(
            .motion(
                .velocity(yawRadiansPerSecond: 0.5, pitchRadiansPerSecond: 0, duration: .seconds(10)), takeOver: false,
                waitsForEnd: false), from: 2)
        rig.run(for: .milliseconds(200))
        #expect(!rig.peer.isStopped)
        rig.perform(rig.host.shuttingDown(now: rig.now))
        #expect(rig.peer.isStopped, "SIGTERM: the camera is told to stop before dockd exits")
    }

    @Test func statusShowsTheModelAndWhatItCanDo() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        let status = rig.host.status(now: rig.now, device: "/dev/video0")
        #expect(status.accessory?.model == "OBSBOT Tiny")
        #expect(status.accessory?.protocolName == "uvc")
        #expect(status.accessory?.capabilities == ["orientation_moves", "zoom"])
        #expect(status.accessory?.lacks.contains("failsafe") == true)
    }
}
