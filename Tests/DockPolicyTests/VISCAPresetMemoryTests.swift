import DockLinks
import DockPolicy
import DockSimulator
import DockVocabulary
import Testing
import VISCAProtocol

/// Presets on a VISCA camera with preset memories, in virtual time, through the real session and
/// the simulated camera: a save also stores the pose in a memory (Memory Set), a recall is the
/// camera's own (Memory Recall) and ends `reached` when the polled pose reads back at the saved
/// one; past the camera's memories, and on a camera that refuses them, presets are poses.
@Suite struct VISCAPresetMemoryTests {
    /// The simulated camera at the link's other end, with every command the host sent.
    struct SimulatedCamera: BenchPeer {
        var camera: VISCACamera
        var commands: [(time: Duration, command: VISCACommand)] = []

        mutating func opened() {}

        mutating func received(_ bytes: [UInt8], now: Duration) -> [UInt8] {
            if let (_, command) = try? VISCACommand.decode(bytes), !command.isInquiry { commands.append((now, command)) }
            return camera.receive(bytes, now: now).flatMap { $0 }
        }

        mutating func advance(to now: Duration) -> [UInt8] { camera.advance(to: now).flatMap { $0 } }

        /// The commands sent from `time` on.
        func sent(since time: Duration) -> [VISCACommand] { commands.filter { $0.time >= time }.map(\.command) }
    }

    typealias Rig = PolicyBench<SimulatedCamera>

    static let evi = VISCAProfile.named("sony-evi-d100")!

    /// dockd with `profile` (the EVI-D100's six memories) on a simulated camera of `cameraProfile`.
    static func rig(profile: VISCAProfile = evi, cameraProfile: VISCAProfile = evi) -> Rig {
        var rig = Rig(
            host: HostPolicy(
                settings: Rig.quietSettings,
                link: VISCASession(configuration: VISCASession.Configuration(profile: profile, framing: .serial))),
            peer: SimulatedCamera(camera: VISCACamera(configuration: .init(profile: cameraProfile, transport: .serial), seed: 1)))
        rig.attach(within: .milliseconds(500))
        return rig
    }

    static func ending(_ reply: HostReply?) -> MotionEnding? {
        if case .motion(let outcome)? = reply { outcome.ending } else { nil }
    }

    /// Turns the camera to (yaw, pitch) and waits there.
    static func move(_ rig: inout Rig, yaw: Double, pitch: Double) {
        let token = rig.request(
            .motion(
                .orientation(yawRadians: yaw, pitchRadians: pitch, isRelative: false, pace: .fastest), takeOver: true, waitsForEnd: true),
            from: 1)
        rig.run(for: .seconds(3))
        #expect(ending(rig.replies[token]) == .completed(.orientationReached))
    }

    /// Runs until `token` has its reply (at most `limit`); how long that took.
    static func runUntilReply(_ rig: inout Rig, _ token: RequestToken, limit: Duration = .seconds(15)) -> Duration {
        let start = rig.now
        while rig.replies[token] == nil, rig.now - start < limit { rig.run(for: .milliseconds(10)) }
        return rig.now - start
    }

    @Test func aSavedPresetIsStoredInTheCamerasMemoryAndRecalledByIt() throws {
        var rig = Self.rig()
        #expect(rig.host.session.capabilities.contains(.presetMemory))
        Self.move(&rig, yaw: 0.6, pitch: 0.2)
        let beforeSave = rig.now
        let saved = rig.request(.savePreset(name: "stage"), from: 1)
        rig.run(for: .milliseconds(200))
        guard case .preset(let preset)? = rig.replies[saved] else {
            throw Failure("no preset in \(String(describing: rig.replies[saved]))")
        }
        #expect(preset.slot == 0)
        #expect(rig.host.presets.preset(named: "stage")?.slot == 0)
        #expect(rig.peer.sent(since: beforeSave) == [.memorySet(number: 0)])
        #expect(rig.peer.camera.presetMemories[0] != nil)

        Self.move(&rig, yaw: -0.5, pitch: -0.2)
        let beforeRecall = rig.now
        let recalled = rig.request(.recallPreset(name: "stage", takeOver: false, waitsForEnd: true), from: 2)
        let took = Self.runUntilReply(&rig, recalled)
        #expect(Self.ending(rig.replies[recalled]) == .completed(.orientationReached), "\(String(describing: rig.replies[recalled]))")
        // The camera's own recall, and no move of dockd's making.
        #expect(rig.peer.sent(since: beforeRecall) == [.memoryRecall(number: 0)])
        let pose = try #require(rig.host.session.pose(at: rig.now))
        #expect(abs(pose.yawRadians - preset.yawRadians) < MotionController.arrivalTolerance)
        #expect(abs(pose.pitchRadians - preset.pitchRadians) < MotionController.arrivalTolerance)
        // 1.1 rad at the camera's preset speed (half of 300 °/s) takes about 0.45 s and its ramps.
        #expect(took > .milliseconds(300) && took < .seconds(3), "\(took)")
        #expect(rig.logs.contains { $0.contains("preset 'stage' recalled by client 2 from the accessory's memory 0") })
    }

    @Test func aSeventhPresetOnASixMemoryCameraIsAPoseOnlyAndStillRecalled() throws {
        var rig = Self.rig()
        for index in 1...7 {
            Self.move(&rig, yaw: 0.1 * Double(index), pitch: 0)
            rig.request(.savePreset(name: "p\(index)"), from: 1)
            rig.run(for: .milliseconds(200))
        }
        #expect(rig.host.presets.presets.map(\.slot) == [0, 1, 2, 3, 4, 5, nil])
        #expect(rig.logs.contains { $0.contains("preset 'p7': the accessory's 6 preset memories are taken; kept as a pose only") })
        #expect(rig.peer.commands.filter { if case .memorySet = $0.command { true } else { false } }.count == 6)
        // Saving p3 again keeps its memory.
        rig.request(.savePreset(name: "p3"), from: 1)
        rig.run(for: .milliseconds(200))
        #expect(rig.host.presets.preset(named: "p3")?.slot == 2)

        Self.move(&rig, yaw: -0.4, pitch: 0)
        let beforeRecall = rig.now
        let recalled = rig.request(.recallPreset(name: "p7", takeOver: false, waitsForEnd: true), from: 2)
        _ = Self.runUntilReply(&rig, recalled)
        #expect(Self.ending(rig.replies[recalled]) == .completed(.orientationReached))
        let sent = rig.peer.sent(since: beforeRecall)
        #expect(sent.contains { if case .absolutePosition = $0 { true } else { false } }, "\(sent)")
        #expect(!sent.contains { if case .memoryRecall = $0 { true } else { false } }, "\(sent)")
    }

    @Test func aCameraThatRefusesMemorySetLeavesPresetsPosesAndSaysSo() throws {
        // dockd's profile says six memories; the camera keeps none and answers syntax error.
        var noMemories = Self.evi
        noMemories.presetMemories = 0
        var rig = Self.rig(cameraProfile: noMemories)
        Self.move(&rig, yaw: 0.3, pitch: 0)
        rig.request(.savePreset(name: "stage"), from: 1)
        rig.run(for: .milliseconds(200))
        let refusals = rig.logs.filter { $0.contains("refused to store preset 'stage' in its memory") }
        #expect(refusals.count == 1, "\(rig.logs)")
        Self.move(&rig, yaw: -0.3, pitch: 0)
        let beforeRecall = rig.now
        let recalled = rig.request(.recallPreset(name: "stage", takeOver: false, waitsForEnd: true), from: 2)
        _ = Self.runUntilReply(&rig, recalled)
        #expect(Self.ending(rig.replies[recalled]) == .completed(.orientationReached))
        // Not asked again: the saved pose's move.
        let sent = rig.peer.sent(since: beforeRecall)
        #expect(
            sent.contains { if case .absolutePosition = $0 { true } else { false } } && !sent.contains(.memoryRecall(number: 0)), "\(sent)")
        // A save after the refusal sends no Memory Set.
        let beforeSecond = rig.now
        rig.request(.savePreset(name: "desk"), from: 1)
        rig.run(for: .milliseconds(200))
        #expect(rig.peer.sent(since: beforeSecond).isEmpty)
        #expect(rig.host.presets.preset(named: "desk")?.slot == nil)
    }

    @Test func aRefusedRecallGoesToTheSavedPoseInsteadAndSaysSo() throws {
        var rig = Self.rig()
        // A preset read from the file in memory 3, which this camera has never been told to store:
        // it answers the recall not executable.
        rig.host.presetsLoaded(try PresetStore([Preset(name: "door", yawRadians: 0.4, pitchRadians: 0.1, slot: 3)]))
        let recalled = rig.request(.recallPreset(name: "door", takeOver: false, waitsForEnd: true), from: 2)
        _ = Self.runUntilReply(&rig, recalled)
        #expect(Self.ending(rig.replies[recalled]) == .completed(.orientationReached), "\(String(describing: rig.replies[recalled]))")
        let sent = rig.peer.commands.map(\.command)
        let recall = try #require(sent.firstIndex(of: .memoryRecall(number: 3)))
        #expect(sent[(recall + 1)...].contains { if case .absolutePosition = $0 { true } else { false } }, "\(sent)")
        #expect(rig.logs.filter { $0.contains("refused its preset recall") && $0.contains("going to the saved pose instead") }.count == 1)
        let pose = try #require(rig.host.session.pose(at: rig.now))
        #expect(abs(pose.yawRadians - 0.4) < MotionController.arrivalTolerance)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
