import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockTracking
import DockVocabulary
import Testing
import V4L2Protocol

/// Presets in the policy, in virtual time on the simulated dock: saved from where the dock
/// points, recalled as an orientation move that answers how it ended and obeys control, deleted;
/// a lost behaviour of `preset:NAME` turns to the preset, and holds (saying so once) when there
/// is none of that name. The bench's disk takes every write (`HostAction.storePresets`).
@Suite struct PresetPolicyTests {
    /// Moves the dock to an orientation and waits until it has arrived.
    static func orient(_ bench: inout HostBench, yaw: Double, pitch: Double) {
        let token = bench.request(
            .motion(
                .orientation(yawRadians: yaw, pitchRadians: pitch, isRelative: false, pace: .fastest), takeOver: false, waitsForEnd: true),
            from: 1)
        bench.run(for: .seconds(3))
        #expect(bench.replies[token].map { if case .motion(let outcome) = $0 { outcome.ending != nil } else { false } } == true)
    }

    static func ending(_ reply: HostReply?) -> MotionEnding? {
        if case .motion(let outcome)? = reply { outcome.ending } else { nil }
    }

    @Test func aSavedPoseIsRecalledAsAMotionThatSaysItArrived() throws {
        var bench = HostBench()
        bench.attach()
        Self.orient(&bench, yaw: 0.5, pitch: 0.2)
        let saved = bench.request(.savePreset(name: "stage"), from: 2)
        guard case .preset(let preset)? = bench.replies[saved] else {
            Issue.record("saved: \(String(describing: bench.replies[saved]))")
            return
        }
        #expect(preset.name == "stage" && abs(preset.yawRadians - 0.5) < 0.01 && abs(preset.pitchRadians - 0.2) < 0.01)
        #expect(preset.zoomFraction == nil, "a dock-serial dock has no zoom dockd drives")
        #expect(bench.host.presets.presets == [preset])

        Self.orient(&bench, yaw: -0.4, pitch: 0)
        let recalled = bench.request(.recallPreset(name: "stage", takeOver: false, waitsForEnd: true), from: 3)
        bench.run(for: .seconds(3))
        #expect(Self.ending(bench.replies[recalled]) == .completed(.orientationReached), "\(String(describing: bench.replies[recalled]))")
        #expect(abs(bench.yaw - preset.yawRadians) < 0.02, "the dock is at the preset: yaw \(bench.yaw)")
        #expect(abs(bench.firmware.pitch.outputRadians - preset.pitchRadians) < 0.02)

        // Saved again elsewhere, it is replaced where it stood; another comes after it.
        let list = bench.request(.listPresets, from: 2)
        #expect(bench.replies[list] == .presets([preset]))
        Self.orient(&bench, yaw: 0, pitch: 0)
        bench.request(.savePreset(name: "desk"), from: 2)
        bench.request(.savePreset(name: "stage"), from: 2)
        #expect(bench.host.presets.presets.map(\.name) == ["stage", "desk"])
        #expect(abs(try #require(bench.host.presets.preset(named: "stage")).yawRadians) < 0.01)

        // Deleted, it is gone: recalling or deleting it again is NoSuchPreset, and nothing moves.
        let deleted = bench.request(.deletePreset(name: "stage"), from: 2)
        #expect(bench.replies[deleted] == .done)
        #expect(bench.host.presets.presets.map(\.name) == ["desk"])
        let asked = bench.now
        let missing = bench.request(.recallPreset(name: "stage", takeOver: false, waitsForEnd: true), from: 3)
        #expect(bench.replies[missing] == .failure(.noSuchPreset("stage")))
        #expect(bench.replies[bench.request(.deletePreset(name: "stage"), from: 2)] == .failure(.noSuchPreset("stage")))
        bench.run(for: .milliseconds(100))
        let moves = bench.frames(since: asked).filter { frame in
            if case .moveTo = frame.message { true } else { false }
        }
        #expect(moves.isEmpty, "nothing was sent for a preset that does not exist")
    }

    @Test func aRecallObeysControlLikeAnyMotion() throws {
        var bench = HostBench()
        bench.attach()
        bench.request(.savePreset(name: "home-ish"), from: 1)
        let acquired = bench.request(.acquireControl(takeOver: false), from: 1)
        #expect(bench.replies[acquired] == .done)
        let refused = bench.request(.recallPreset(name: "home-ish", takeOver: false, waitsForEnd: false), from: 2)
        #expect(bench.replies[refused] == .failure(.busy(holder: 1)))
        let taken = bench.request(.recallPreset(name: "home-ish", takeOver: true, waitsForEnd: true), from: 2)
        bench.run(for: .seconds(1))
        #expect(Self.ending(bench.replies[taken]) == .completed(.orientationReached))
        // A later move that takes over replaces a recall, and the recall's caller hears by whom.
        var second = HostBench()
        second.attach()
        second.request(.savePreset(name: "home-ish"), from: 1)
        Self.orient(&second, yaw: -0.5, pitch: 0)
        let replacedRecall = second.request(.recallPreset(name: "home-ish", takeOver: false, waitsForEnd: true), from: 2)
        second.run(for: .milliseconds(60))
        second.request(
            .motion(.orientation(yawRadians: 0.5, pitchRadians: 0, isRelative: false, pace: .fastest), takeOver: true, waitsForEnd: false),
            from: 3)
        second.run(for: .milliseconds(60))
        #expect(
            Self.ending(second.replies[replacedRecall]) == .replaced(byClient: 3), "\(String(describing: second.replies[replacedRecall]))")
        // Without a dock, NotReady; saving too.
        var idle = HostBench()
        #expect(idle.replies[idle.request(.savePreset(name: "a"), from: 1)] == .failure(.notReady))
    }

    @Test func aDamagedFileLeavesNoPresetsAndRefusesToWriteOverIt() {
        var bench = HostBench()
        bench.attach()
        bench.host.presetsDamaged(file: "/state/presets.json", reason: "line 3: presets[0].yaw: is required")
        let refusal = HostError.presetsUnavailable(
            file: "/state/presets.json",
            reason: "could not be read (line 3: presets[0].yaw: is required); mend or remove it and restart dockd")
        #expect(bench.replies[bench.request(.savePreset(name: "a"), from: 1)] == .failure(refusal))
        #expect(bench.replies[bench.request(.deletePreset(name: "a"), from: 1)] == .failure(refusal))
        #expect(bench.replies[bench.request(.listPresets, from: 1)] == .presets([]))
        #expect(
            bench.replies[bench.request(.recallPreset(name: "a", takeOver: false, waitsForEnd: false), from: 1)]
                == .failure(.noSuchPreset("a")))
    }

    @Test func aWebcamsPresetKeepsItsZoomAndARecallSetsIt() throws {
        var rig = UVCPolicyTests.rig()
        rig.perform(rig.host.start(now: rig.now))
        rig.run(for: .milliseconds(300))
        rig.request(.setZoom(0.5), from: 1)
        rig.run(for: .milliseconds(200))
        let saved = rig.request(.savePreset(name: "close"), from: 1)
        guard case .preset(let preset)? = rig.replies[saved] else {
            Issue.record("saved: \(String(describing: rig.replies[saved]))")
            return
        }
        #expect(preset.zoomFraction == 0.5)
        rig.request(.setZoom(0), from: 1)
        rig.run(for: .milliseconds(200))
        #expect(rig.peer.camera.values[V4L2ControlID.zoomAbsolute] == 0)
        rig.request(.recallPreset(name: "close", takeOver: false, waitsForEnd: false), from: 1)
        rig.run(for: .milliseconds(200))
        #expect(rig.peer.camera.values[V4L2ControlID.zoomAbsolute] == 50, "the recall set the preset's zoom")
    }

    /// A person in the middle of the picture, one frame.
    static func frame(at now: Duration) -> ObservationBatch {
        ObservationBatch(
            observations: [Observation(kind: .body, box: NormalizedRect(x: 0.44, y: 0.3, width: 0.12, height: 0.4), confidence: 0.9)],
            camera: CameraInformation(horizontalFieldOfViewRadians: 1.1, aspectRatio: 16.0 / 9), captureTime: now)
    }

    /// Follows a person for a second, then the frames stop; runs `seconds` more.
    static func loseTheSubject(_ bench: inout HostBench, for seconds: Int) {
        for _ in 0..<30 {
            bench.host.observationsArrived(frame(at: bench.now))
            bench.run(for: .milliseconds(33))
        }
        bench.run(for: .seconds(Int64(seconds)))
    }

    @Test func aLostBehaviourOfAPresetTurnsToItAndOneThatDoesNotExistHoldsAndSaysSoOnce() throws {
        var settings = HostBench.quietSettings
        settings.isTrackingEnabled = true
        settings.lostBehaviour = LostBehaviour(after: .seconds(1), action: .preset(name: "door"))
        var bench = HostBench(settings: settings)
        bench.attach()
        // Saved at 0.6 rad, while a client moved the dock there; then back to the middle.
        Self.orient(&bench, yaw: 0.6, pitch: 0)
        bench.request(.savePreset(name: "door"), from: 1)
        Self.orient(&bench, yaw: 0, pitch: 0)
        Self.loseTheSubject(&bench, for: 6)
        #expect(abs(bench.yaw - 0.6) < 0.05, "turned to the preset: yaw \(bench.yaw); \(bench.logs.suffix(4))")

        // Changed over the API to a preset there is none of: the dock holds, and says so once.
        let changed = bench.request(.setLostBehaviour(after: nil, action: .preset(name: "nowhere")), from: 1)
        #expect(bench.replies[changed] == .lostBehaviour(LostBehaviour(after: .seconds(1), action: .preset(name: "nowhere"))))
        #expect(bench.host.pipeline.lostBehaviour.action == .preset(name: "nowhere"))
        let before = bench.yaw
        Self.loseTheSubject(&bench, for: 6)
        let said = bench.logs.filter { $0.contains("no preset 'nowhere'") }
        #expect(said.count == 1, "\(said)")
        #expect(abs(bench.yaw - before) < 0.15, "held: from \(before) to \(bench.yaw)")
        #expect(bench.host.trackingStep?.activity == .holding)
    }

    @Test func setLostBehaviourChangesOnlyTheFieldsGiven() {
        var bench = HostBench()
        let asked = bench.request(.setLostBehaviour(after: nil, action: nil), from: 1)
        #expect(bench.replies[asked] == .lostBehaviour(.default))
        bench.request(.setLostBehaviour(after: .seconds(12), action: nil), from: 1)
        #expect(bench.host.settings.lostBehaviour == LostBehaviour(after: .seconds(12), action: LostBehaviour.default.action))
        bench.request(.setLostBehaviour(after: nil, action: .zoomOut), from: 1)
        #expect(bench.host.pipeline.lostBehaviour == LostBehaviour(after: .seconds(12), action: .zoomOut))
    }
}
