import DockLinks
import DockNumbers
import DockPolicy
import DockProtocol
import DockTracking
import DockVocabulary
import Testing
import VISCAProtocol

/// The host's policy over a VISCA camera in virtual time: the same rules as for a dock, carried
/// out through a link that has no failsafe. The camera here answers every command with ACK and
/// Completion and every pose inquiry with where its drive has taken it.
@Suite struct VISCAPolicyTests {
    /// The policy over a VISCA session, on the one policy bench.
    typealias Rig = PolicyBench<Camera>

    /// A camera in a few lines: 5 ms to answer, 20 counts a second per speed step, a zoom that
    /// jumps.
    struct Camera: BenchPeer {
        var drives: [(time: Duration, bytes: [UInt8])] = []
        var panCounts = 0.0
        var panStepsPerSecond = 0.0
        /// The zoom position, where the last zoom direct put it (at once).
        var zoom: UInt16 = 0
        private var now = Duration.zero
        private var pending: [(time: Duration, bytes: [UInt8])] = []

        mutating func opened() {}

        mutating func received(_ bytes: [UInt8], now: Duration) -> [UInt8] {
            self.now = now
            camera(bytes)
            return []
        }

        /// The drive turns the camera; answers come 5 ms after their command.
        mutating func advance(to time: Duration) -> [UInt8] {
            panCounts += panStepsPerSecond * (time - now).secondsValue
            now = time
            var bytes: [UInt8] = []
            while let next = pending.first, next.time <= now {
                pending.removeFirst()
                bytes += next.bytes
            }
            return bytes
        }

        private mutating func camera(_ bytes: [UInt8]) {
            guard let (_, command) = try? VISCACommand.decode(bytes) else { return }
            let answers: [VISCAReply]
            switch command {
            case .addressSet:
                pending.append((now + .milliseconds(5), VISCAReply.addressSet(next: 2).encode(address: 1)))
                return
            case .versionInquiry:
                answers = [.inquiryReply(data: VISCAVersion(vendor: 1, model: 2, romVersion: 3, maximumSocket: 2).data)]
            case .panTiltPositionInquiry:
                answers = [.inquiryReply(data: VISCAPanTiltPosition(pan: Int16(panCounts.rounded()), tilt: 0).data)]
            case .zoomPositionInquiry:
                answers = [.inquiryReply(data: VISCAZoomPosition(position: zoom).data)]
            case .zoomDirect(let position):
                zoom = position
                answers = [.ack(socket: 2), .completion(socket: 2)]
            case .panTiltDrive(let speed, _, let pan, _):
                drives.append((now, bytes))
                panStepsPerSecond = pan == .stop ? 0 : Double(speed) * 20 * (pan == .right ? 1 : -1)
                answers = [.ack(socket: 1), .completion(socket: 1)]
            case .interfaceClear:
                answers = [.completion(socket: 0)]
            default:
                answers = [.ack(socket: 1), .completion(socket: 1)]
            }
            for answer in answers { pending.append((now + .milliseconds(5), answer.encode(address: 1))) }
        }

        var lastDriveIsStop: Bool { drives.last.map { $0.bytes[6] == 3 && $0.bytes[7] == 3 } ?? false }
    }

    static func rig(tracking: Bool = false) -> Rig {
        var settings = HostSettings()
        settings.wakesOnAttach = false
        settings.isTrackingEnabled = tracking
        let profile = VISCAProfile.named("generic")!
        return Rig(
            host: HostPolicy(
                settings: settings,
                link: VISCASession(configuration: VISCASession.Configuration(profile: profile, framing: .serial))),
            peer: Camera())
    }

    @Test func aOneShotVelocityPansTheCameraAndStopsItAtItsEnd() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        #expect(rig.host.status(now: rig.now, device: "test").state == .ready)
        let start = rig.now
        let token = rig.request(
            .motion(
                .velocity(yawRadiansPerSecond: 0.4, pitchRadiansPerSecond: 0, duration: .milliseconds(1500)),
                takeOver: false, waitsForEnd: true), from: 1)
        rig.run(for: .milliseconds(1700))
        #expect(rig.peer.panCounts > 100, "the camera panned right: \(rig.peer.panCounts) counts")
        #expect(rig.peer.lastDriveIsStop)
        let stopAt = rig.peer.drives.last.map { $0.time - start } ?? .zero
        #expect(stopAt >= .milliseconds(1500) && stopAt <= .milliseconds(1540), "stopped at the motion's end: \(stopAt)")
        #expect(rig.replies[token] != nil, "the caller heard how it ended")
        let sent = rig.peer.drives.filter { $0.time >= start }.count
        #expect(sent >= 2 && sent <= 3, "a drive, maybe a second step, a stop — not thirty a second: \(sent)")
    }

    @Test func theTrackerPlansItsCatchUpWithTheCamerasAdvertisedAcceleration() {
        var rig = Self.rig(tracking: true)
        #expect(rig.host.pipeline.accessoryAccelerationRadiansPerSecondSquared == nil)
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        let limits = rig.host.limits
        #expect(limits?.yawAccelerationRadiansPerSecondSquared == 3, "the VISCA session says 3 rad/s²")
        let told = rig.host.pipeline.accessoryAccelerationRadiansPerSecondSquared
        #expect(told?.yaw == limits?.yawAccelerationRadiansPerSecondSquared)
        #expect(told?.pitch == limits?.pitchAccelerationRadiansPerSecondSquared)
    }

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
        #expect(!rig.peer.lastDriveIsStop)
        let gone = rig.now
        rig.perform(rig.host.clientDisconnected(7, now: rig.now))
        #expect(rig.peer.lastDriveIsStop, "the stop is on the line at once")
        #expect(rig.peer.drives.last!.time - gone < .milliseconds(100))
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
        #expect(!rig.peer.lastDriveIsStop)
        rig.perform(rig.host.shuttingDown(now: rig.now))
        #expect(rig.peer.lastDriveIsStop, "SIGTERM: the camera is told to stop before dockd exits")
    }

    /// `SetZoom` is a zoom direct to the profile's nearest position (generic: 0…0x4000), answered
    /// with the fraction it makes; the zoom read back is in the pose at once; a camera whose
    /// profile has no zoom refuses it by name.
    @Test func zoomGoesToTheCamerasZoomAndOneWithoutRefusesIt() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        #expect(rig.host.status(now: rig.now, device: "/dev/ttyUSB0").accessory?.capabilities.contains("zoom") == true)
        let token = rig.request(.setZoom(0.5), from: 1)
        rig.run(for: .milliseconds(100))
        #expect(rig.replies[token] == .zoom(0.5))
        #expect(rig.peer.zoom == 0x2000)
        #expect(rig.host.session.pose(at: rig.now)?.zoomFraction == 0.5, "read back")

        var profile = VISCAProfile.named("generic")!
        profile.zoom = nil
        var settings = HostSettings()
        settings.wakesOnAttach = false
        var plain = Rig(
            host: HostPolicy(
                settings: settings, link: VISCASession(configuration: VISCASession.Configuration(profile: profile, framing: .serial))),
            peer: Camera())
        plain.perform(plain.host.start(now: plain.now))
        plain.run(for: .milliseconds(300))
        let refused = plain.request(.setZoom(0.5), from: 1)
        #expect(plain.replies[refused] == .failure(.notSupported("zoom")))
        #expect(plain.peer.zoom == 0, "nothing sent")
    }

    @Test func statusSaysWhatTheCameraCannotDo() {
        var rig = Self.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        let status = rig.host.status(now: rig.now, device: "/dev/ttyUSB0")
        #expect(status.accessory?.protocolName == "visca")
        let lacks = status.accessory?.lacks ?? []
        #expect(lacks.contains("failsafe") && lacks.contains("buttons"))
        #expect(status.accessory?.capabilities.contains("failsafe") == false)
        let age = status.pose?.ageSeconds
        #expect(age.map { $0 < 0.1 } == true, "polled, and fresh: \(String(describing: age))")
    }
}
