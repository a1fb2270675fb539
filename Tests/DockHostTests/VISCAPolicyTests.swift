import DockCore
import DockHost
import DockProtocol
import Testing
import VISCAProtocol

/// The host's policy over a VISCA camera in virtual time: the same rules as for a dock, carried
/// out through a link that has no failsafe. The camera here answers every command with ACK and
/// Completion and every pose inquiry with where its drive has taken it.
@Suite struct VISCAPolicyTests {
    struct Rig {
        var host: HostPolicy
        var now = Duration.zero
        var drives: [(time: Duration, bytes: [UInt8])] = []
        var replies: [RequestToken: HostReply] = [:]
        var panCounts = 0.0
        var panStepsPerSecond = 0.0
        private var token: RequestToken = 0
        private var pending: [(time: Duration, bytes: [UInt8])] = []

        init() {
            var settings = HostSettings()
            settings.wakesOnAttach = false
            let profile = VISCAProfile.named("generic")!
            host = HostPolicy(settings: settings,
                              link: VISCASession(configuration: VISCASession.Configuration(profile: profile, framing: .serial)))
        }

        mutating func run(for duration: Duration) {
            let end = now + duration
            while now < end {
                now += .milliseconds(1)
                panCounts += panStepsPerSecond / 1000
                while let next = pending.first, next.time <= now {
                    pending.removeFirst()
                    perform(host.bytesReceived(next.bytes, now: now))
                }
                if now >= host.nextWake { perform(host.woke(now: now)) }
            }
        }

        @discardableResult
        mutating func request(_ request: ClientRequest, from client: ClientID) -> RequestToken {
            token += 1
            perform(host.requested(request, token: token, from: client, now: now))
            return token
        }

        mutating func perform(_ actions: [HostAction]) {
            for action in actions {
                switch action {
                case .openTransport: perform(host.transportOpened(now: now))
                case .write(let bytes): camera(bytes)
                case .reply(let token, let reply): replies[token] = reply
                case .closeTransport, .publish, .log: break
                }
            }
        }

        /// A camera in a few lines: 5 ms to answer, 20 counts a second per speed step.
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

    @Test func aOneShotVelocityPansTheCameraAndStopsItAtItsEnd() {
        var rig = Rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        #expect(rig.host.status(now: rig.now, device: "test").state == .ready)
        let start = rig.now
        let token = rig.request(.motion(.velocity(yawRadiansPerSecond: 0.4, pitchRadiansPerSecond: 0, duration: .milliseconds(1500)),
                                        takeOver: false, waitsForEnd: true), from: 1)
        rig.run(for: .milliseconds(1700))
        #expect(rig.panCounts > 100, "the camera panned right: \(rig.panCounts) counts")
        #expect(rig.lastDriveIsStop)
        let stopAt = rig.drives.last.map { $0.time - start } ?? .zero
        #expect(stopAt >= .milliseconds(1500) && stopAt <= .milliseconds(1540), "stopped at the motion's end: \(stopAt)")
        #expect(rig.replies[token] != nil, "the caller heard how it ended")
        let sent = rig.drives.filter { $0.time >= start }.count
        #expect(sent >= 2 && sent <= 3, "a drive, maybe a second step, a stop — not thirty a second: \(sent)")
    }

    @Test func aClientHoldingControlThatVanishesStopsTheCameraAtOnce() {
        var rig = Rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        rig.request(.acquireControl(takeOver: false), from: 7)
        for _ in 0..<10 {
            rig.request(.motion(.velocity(yawRadiansPerSecond: -0.6, pitchRadiansPerSecond: 0, duration: nil), takeOver: false,
                                waitsForEnd: false), from: 7)
            rig.run(for: .milliseconds(33))
        }
        #expect(!rig.lastDriveIsStop)
        let gone = rig.now
        rig.perform(rig.host.clientDisconnected(7, now: rig.now))
        #expect(rig.lastDriveIsStop, "the stop is on the line at once")
        #expect(rig.drives.last!.time - gone < .milliseconds(100))
    }

    @Test func shuttingDownStopsAMovingCamera() {
        var rig = Rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        rig.request(.motion(.velocity(yawRadiansPerSecond: 0.5, pitchRadiansPerSecond: 0, duration: .seconds(10)), takeOver: false,
                            waitsForEnd: false), from: 2)
        rig.run(for: .milliseconds(200))
        #expect(!rig.lastDriveIsStop)
        rig.perform(rig.host.shuttingDown(now: rig.now))
        #expect(rig.lastDriveIsStop, "SIGTERM: the camera is told to stop before dockd exits")
    }

    @Test func statusSaysWhatTheCameraCannotDo() {
        var rig = Rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        let status = rig.host.status(now: rig.now, device: "/dev/ttyUSB0")
        #expect(status.protocolName == "visca")
        #expect(!status.capabilities.contains(.failsafe) && !status.capabilities.contains(.buttons))
        #expect(status.poseAge.map { $0 < .milliseconds(100) } == true, "polled, and fresh: \(String(describing: status.poseAge))")
    }
}
