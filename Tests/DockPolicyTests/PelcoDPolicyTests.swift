import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockTracking
import DockVocabulary
import Testing

/// The host's policy over a Pelco-D head in virtual time: the same rules as for a dock, carried
/// out through a link that has no failsafe, no acknowledgement and (on most heads) no pose to read.
/// The head is the simulator's emulated one, whose motors the link never sees: the pose the policy
/// works from is the link's reckoning, or its polls.
@Suite struct PelcoDPolicyTests {
    /// The emulated head at the bench, with every frame the host wrote kept.
    struct Head: BenchPeer {
        var head: PelcoDHead
        var written: [(time: Duration, bytes: [UInt8])] = []

        mutating func opened() {}

        mutating func received(_ bytes: [UInt8], now: Duration) -> [UInt8] {
            written.append((now, bytes))
            return head.receive(bytes, now: now).flatMap(\.self)
        }

        mutating func advance(to now: Duration) -> [UInt8] { head.advance(to: now).flatMap(\.self) }

        static let stop: [UInt8] = [0xFF, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01]

        /// When the first stop went out at or after `time`.
        func firstStop(since time: Duration) -> Duration? { written.first { $0.time >= time && $0.bytes == Self.stop }?.time }

        var lastIsStop: Bool { written.last { $0.bytes[3] & 0x01 == 0 }?.bytes == Self.stop }
    }

    typealias Rig = PolicyBench<Head>

    static func rig(queries: Bool = false, tracking: Bool = false) -> Rig {
        var settings = HostSettings()
        settings.wakesOnAttach = false
        settings.isTrackingEnabled = tracking
        var link = PelcoDSession.Configuration()
        link.answersPositionQueries = queries
        let head = PelcoDHead.Configuration(answersPositionQueries: queries)
        return Rig(
            host: HostPolicy(settings: settings, link: PelcoDSession(configuration: link)),
            peer: Head(head: PelcoDHead(configuration: head, seed: 3)))
    }

    @Test func aOneShotVelocityPansTheHeadAndStopsItAtItsEnd() throws {
        var rig = Self.rig()
        rig.attach(within: .milliseconds(300))
        #expect(rig.host.status(now: rig.now, device: "test").state == .ready)
        let start = rig.now
        let token = rig.request(
            .motion(
                .velocity(yawRadiansPerSecond: 0.4, pitchRadiansPerSecond: 0, duration: .milliseconds(1500)),
                takeOver: false, waitsForEnd: true), from: 1)
        rig.run(for: .milliseconds(2500))
        let stopAt = try #require(rig.peer.firstStop(since: start)) - start
        #expect(stopAt >= .milliseconds(1500) && stopAt <= .milliseconds(1540), "stopped at the motion's end: \(stopAt)")
        // 0.4 rad/s is step 24 (22.9 °/s = 0.399 rad/s), for 1.5 s, with ramps at 4 rad/s² each way.
        let yaw = rig.peer.head.pan.outputRadians
        #expect(abs(yaw - 0.399 * 1.5) < 0.03, "the head panned right: \(yaw) rad")
        #expect(rig.peer.head.isStill)
        #expect(rig.replies[token] != nil, "the caller heard how it ended")
        let drives = rig.peer.written.filter { $0.time >= start && $0.time < start + stopAt && $0.bytes[3] == 0x02 }
        #expect(drives.count == 3, "one drive, written again every 500 ms — not thirty a second: \(drives.count)")
    }

    @Test func theReckonedPoseFollowsTheHeadItNeverReads() throws {
        var rig = Self.rig()
        rig.attach(within: .milliseconds(300))
        for (yaw, pitch) in [(0.5, 0.2), (-0.8, -0.1), (0.05, 0.3)] {
            rig.request(
                .motion(
                    .velocity(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch, duration: .milliseconds(900)),
                    takeOver: false, waitsForEnd: false), from: 1)
            rig.run(for: .milliseconds(400))
            let reckoned = try #require(rig.host.session.pose(at: rig.now))
            let head = rig.peer.head
            // Within the 20 ms the head's motors lag their speed (0.016 rad at 0.8 rad/s).
            #expect(
                abs(reckoned.yawRadians - head.pan.outputRadians) < 0.02,
                "yaw \(reckoned.yawRadians) against the head's \(head.pan.outputRadians)")
            #expect(
                abs(reckoned.pitchRadians - head.tilt.outputRadians) < 0.02,
                "pitch \(reckoned.pitchRadians) against \(head.tilt.outputRadians)")
            rig.run(for: .milliseconds(800))
        }
    }

    @Test func aPolledHeadsPoseIsWhatItAnswers() throws {
        var rig = Self.rig(queries: true)
        rig.attach(within: .milliseconds(300))
        #expect(rig.host.status(now: rig.now, device: "test").state == .ready)
        rig.request(
            .motion(
                .velocity(yawRadiansPerSecond: -0.6, pitchRadiansPerSecond: 0.2, duration: .seconds(2)),
                takeOver: false, waitsForEnd: false), from: 1)
        rig.run(for: .seconds(1))
        let pose = try #require(rig.host.session.pose(at: rig.now))
        #expect(abs(pose.yawRadians - rig.peer.head.pan.outputRadians) < 0.01)
        #expect(abs(pose.pitchRadians - rig.peer.head.tilt.outputRadians) < 0.01)
        let status = rig.host.status(now: rig.now, device: "test")
        let age = status.pose?.ageSeconds
        #expect(age.map { $0 <= 0.12 } == true, "polled every 100 ms: \(String(describing: age))")
    }

    @Test func aClientHoldingControlThatVanishesStopsTheHeadAtOnce() throws {
        var rig = Self.rig()
        rig.attach(within: .milliseconds(300))
        rig.request(.acquireControl(takeOver: false), from: 7)
        for _ in 0..<10 {
            rig.request(
                .motion(
                    .velocity(yawRadiansPerSecond: -0.6, pitchRadiansPerSecond: 0, duration: nil), takeOver: false,
                    waitsForEnd: false), from: 7)
            rig.run(for: .milliseconds(33))
        }
        #expect(!rig.peer.lastIsStop)
        let gone = rig.now
        rig.disconnect(7)
        let stop = try #require(rig.peer.firstStop(since: gone))
        #expect(stop == gone, "the stop is on the line at once")
        rig.run(for: .milliseconds(500))
        #expect(rig.peer.head.isStill)
    }

    @Test func shuttingDownStopsAMovingHead() {
        var rig = Self.rig()
        rig.attach(within: .milliseconds(300))
        rig.request(
            .motion(
                .velocity(yawRadiansPerSecond: 0.5, pitchRadiansPerSecond: 0, duration: .seconds(10)), takeOver: false,
                waitsForEnd: false), from: 2)
        rig.run(for: .milliseconds(200))
        #expect(!rig.peer.lastIsStop)
        rig.perform(rig.host.shuttingDown(now: rig.now))
        #expect(rig.peer.lastIsStop, "SIGTERM: the head is told to stop before dockd exits")
    }

    /// dockd's presets on a polled head are the head's own: a save writes Set Preset under the
    /// lowest free number, a recall Go To Preset (the head goes there at its own speed, no drive
    /// written), ending when the polled pose reads back at the saved one.
    @Test func aPolledHeadKeepsDockdsPresetsInItsMemoryAndGoesToThem() throws {
        var rig = Self.rig(queries: true)
        rig.attach(within: .milliseconds(300))
        rig.request(
            .motion(
                .velocity(yawRadiansPerSecond: 0.5, pitchRadiansPerSecond: 0.1, duration: .seconds(1)), takeOver: false,
                waitsForEnd: true), from: 1)
        rig.run(for: .milliseconds(1500))
        let saved = (yaw: rig.peer.head.pan.outputRadians, pitch: rig.peer.head.tilt.outputRadians)
        let saveAt = rig.now
        let save = rig.request(.savePreset(name: "desk"), from: 1)
        rig.run(for: .milliseconds(100))
        guard case .preset(let preset)? = rig.replies[save] else {
            Issue.record("\(String(describing: rig.replies[save]))")
            return
        }
        #expect(preset.slot == 1, "the lowest of 1...32")
        #expect(rig.peer.written.contains { $0.time >= saveAt && $0.bytes == [0xFF, 0x01, 0x00, 0x03, 0x00, 0x01, 0x05] })
        rig.request(
            .motion(
                .velocity(yawRadiansPerSecond: -0.8, pitchRadiansPerSecond: -0.2, duration: .seconds(1)), takeOver: false,
                waitsForEnd: true), from: 1)
        rig.run(for: .milliseconds(1500))
        #expect(abs(rig.peer.head.pan.outputRadians - saved.yaw) > 0.5, "turned away")
        let recallAt = rig.now
        let recall = rig.request(.recallPreset(name: "desk", takeOver: false, waitsForEnd: true), from: 1)
        rig.run(for: .seconds(4))
        // Besides the polls (extended commands: bit 0 of the third byte set).
        let sinceRecall = rig.peer.written.filter { $0.time >= recallAt }.map(\.bytes).filter { $0[3] != 0x51 && $0[3] != 0x53 }
        #expect(sinceRecall.first == [0xFF, 0x01, 0x00, 0x07, 0x00, 0x01, 0x09], "Go To Preset 1: \(sinceRecall.prefix(3))")
        #expect(!sinceRecall.contains { $0[3] & 0x01 == 0 && $0[3] & 0x1E != 0 }, "no drive of dockd's own: \(sinceRecall)")
        #expect(
            abs(rig.peer.head.pan.outputRadians - saved.yaw) < 0.01 && abs(rig.peer.head.tilt.outputRadians - saved.pitch) < 0.01,
            "back at the saved pose: \(rig.peer.head.pan.outputRadians), \(rig.peer.head.tilt.outputRadians) against \(saved)")
        guard case .motion(let outcome)? = rig.replies[recall] else {
            Issue.record("\(String(describing: rig.replies[recall]))")
            return
        }
        #expect(outcome.ending == .completed(.orientationReached), "\(outcome)")
    }

    @Test func statusSaysWhatTheHeadCannotDo() {
        var rig = Self.rig()
        rig.attach(within: .milliseconds(300))
        let status = rig.host.status(now: rig.now, device: "/dev/ttyUSB0")
        #expect(status.accessory?.protocolName == "pelco-d")
        #expect(status.accessory?.capabilities == [], "no failsafe, no time-to-live, no telemetry, stepped speeds, no moves")
        let age = status.pose?.ageSeconds
        #expect(age.map { $0 < 0.04 } == true, "reckoned at every tick: \(String(describing: age))")
    }

    @Test func theTrackerTurnsTheHeadTowardsASubject() throws {
        var rig = Self.rig(tracking: true)
        rig.attach(within: .milliseconds(300))
        #expect(rig.host.pipeline.accessoryAccelerationRadiansPerSecondSquared?.yaw == 4, "the link's advertised acceleration")
        let camera = CameraInformation(horizontalFieldOfViewRadians: 1.1, aspectRatio: 16.0 / 9)
        // A person standing 0.3 rad to the right of home, seen through the head's camera as it turns.
        for _ in 0..<90 {
            let box = NormalizedRect(x: 0.5 + (0.3 - rig.peer.head.pan.outputRadians) / 1.1 - 0.06, y: 0.3, width: 0.12, height: 0.4)
            rig.host.observationsArrived(
                ObservationBatch(observations: [Observation(kind: .body, box: box, confidence: 0.9)], camera: camera, captureTime: rig.now))
            rig.run(for: .milliseconds(33))
        }
        let yaw = rig.peer.head.pan.outputRadians
        #expect(abs(yaw - 0.3) < 0.05, "the head turned to the subject: \(yaw) rad")
    }
}
