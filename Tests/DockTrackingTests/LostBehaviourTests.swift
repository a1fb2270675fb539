import DockNumbers
import DockVocabulary
import Testing

@testable import DockTracking

/// The subject lost: the chosen lost behaviour after the set time, in virtual time at 30 Hz —
/// hold, home, a pose, zoom out — and tracking resumed when a subject is found; the same when the
/// observations stop arriving altogether.
@Suite struct LostBehaviourTests {
    static let camera = SubjectFilterTests.camera
    static let tick = Duration.nanoseconds(33_333_333)

    /// A pipeline that has followed a still person at yaw 1 rad for two seconds, the gimbal on
    /// them, with `behaviour`; the time of the last box.
    static func following(_ behaviour: LostBehaviour, yaw: Double = 1.0) throws -> (TrackingPipeline, Duration) {
        var pipeline = TrackingPipeline()
        pipeline.lostBehaviour = behaviour
        let person = AngularBox(yawRadians: yaw, pitchRadians: 0, widthRadians: 0.15, heightRadians: 0.5)
        let box = try #require(person.project(camera: camera, gimbalYawRadians: yaw, gimbalPitchRadians: 0))
        var now = Duration.zero
        for _ in 0..<60 {
            now += tick
            pipeline.observe(
                [Observation(kind: .body, box: box, confidence: 0.9)], camera: camera, captureTime: now,
                gimbalYawRadians: yaw, gimbalPitchRadians: 0)
            _ = pipeline.step(now: now, gimbalYawRadians: yaw, gimbalPitchRadians: 0)
        }
        #expect(pipeline.primary != nil, "the person is followed")
        return (pipeline, now)
    }

    /// One line of a transcript: when (seconds after the last box), what the pipeline did.
    struct Line: Equatable, CustomStringConvertible {
        var seconds: Double
        var activity: TrackingPipeline.Activity
        var yawRate: Double?
        var zoomsOut: Bool
        var description: String { "\(seconds) s: \(activity) yaw \(yawRate.map { String($0) } ?? "-")\(zoomsOut ? " zoom out" : "")" }
    }

    /// Steps `seconds` more with nothing observed — delivering empty frames as a detector that
    /// sees nobody does, or no frames at all as one that died — the gimbal at `yaw` (moved by the
    /// commanded rate when `moves`); the transcript of the changes (and every zoom out).
    static func transcript(
        _ pipeline: inout TrackingPipeline, from start: Duration, seconds: Double, yaw: Double = 1.0, framesArrive: Bool,
        moves: Bool = false
    ) -> [Line] {
        var now = start, yaw = yaw, lines: [Line] = []
        for _ in 0..<Int(seconds * 30) {
            now += tick
            if framesArrive {
                pipeline.observe([], camera: camera, captureTime: now, gimbalYawRadians: yaw, gimbalPitchRadians: 0)
            }
            let step = pipeline.step(now: now, gimbalYawRadians: yaw, gimbalPitchRadians: 0)
            if moves, let rate = step.yawRadiansPerSecond { yaw += rate / 30 }
            let line = Line(
                seconds: ((now - start).secondsValue * 30).rounded() / 30, activity: step.activity,
                yawRate: step.yawRadiansPerSecond, zoomsOut: step.zoomsOut)
            if lines.last.map({ $0.activity != line.activity || line.zoomsOut || ($0.yawRate == nil) != (line.yawRate == nil) }) ?? true {
                lines.append(line)
            }
        }
        return lines
    }

    @Test(arguments: [true, false])
    func holdKeepsLookingWhereTheSubjectWasLost(framesArrive: Bool) throws {
        var (pipeline, last) = try Self.following(LostBehaviour(after: .seconds(2), action: .hold))
        let lines = Self.transcript(&pipeline, from: last, seconds: 30, framesArrive: framesArrive)
        // The track coasts (the dock brakes on it), ends after 1.5 s: holding, still, for good.
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.activity == .following(subject: 1) && lines.last?.activity == .holding, "\(lines)")
        #expect(lines.allSatisfy { !$0.zoomsOut && $0.yawRate == 0 }, "never moves, never zooms: \(lines)")
    }

    @Test(arguments: [true, false])
    func homeTurnsToTheRestPoseAfterTheSetTime(framesArrive: Bool) throws {
        var (pipeline, last) = try Self.following(LostBehaviour(after: .seconds(3), action: .home))
        let lines = Self.transcript(&pipeline, from: last, seconds: 12, framesArrive: framesArrive, moves: true)
        let holding = try #require(lines.first { $0.activity == .holding })
        let returning = try #require(lines.first { $0.activity == .returning }, "\(lines)")
        // Lost when the track ends (about 1.5 s after the last box), home 3 s later.
        #expect(abs(returning.seconds - holding.seconds - 3) < 0.05, "\(lines)")
        #expect((returning.yawRate ?? 0) < 0, "towards yaw 0 from 1 rad: \(lines)")
        #expect(lines.last?.activity == .idle, "arrives and leaves the dock be: \(lines)")
    }

    @Test func poseTurnsThereInsteadOfHome() throws {
        var (pipeline, last) = try Self.following(LostBehaviour(after: .seconds(1), action: .pose(yawRadians: 1.4, pitchRadians: 0)))
        pipeline.restYawRadians = 0
        let lines = Self.transcript(&pipeline, from: last, seconds: 8, framesArrive: true, moves: true)
        let returning = try #require(lines.first { $0.activity == .returning }, "\(lines)")
        #expect((returning.yawRate ?? 0) > 0, "towards 1.4 rad, away from home: \(lines)")
        #expect(lines.last?.activity == .idle, "\(lines)")
    }

    @Test(arguments: [true, false])
    func zoomOutZoomsOutOnceAfterTheSetTimeAndHolds(framesArrive: Bool) throws {
        var (pipeline, last) = try Self.following(LostBehaviour(after: .seconds(2), action: .zoomOut))
        let lines = Self.transcript(&pipeline, from: last, seconds: 20, framesArrive: framesArrive)
        let zooms = lines.filter(\.zoomsOut)
        let holding = try #require(lines.first { $0.activity == .holding })
        #expect(zooms.count == 1, "one zoom out: \(lines)")
        #expect(abs((zooms.first?.seconds ?? 0) - holding.seconds - 2) < 0.05, "2 s after the subject was lost: \(lines)")
        #expect(lines.allSatisfy { $0.activity != .returning && $0.yawRate == 0 }, "and holds: \(lines)")
    }

    @Test func trackingResumesWhenASubjectIsFoundOnTheWayHome() throws {
        var (pipeline, last) = try Self.following(LostBehaviour(after: .seconds(1), action: .home))
        _ = Self.transcript(&pipeline, from: last, seconds: 3, framesArrive: true)
        #expect(pipeline.activity == .returning)
        // Someone at 0.9 rad, seen from the dock still near 1 rad.
        let box = try #require(
            AngularBox(yawRadians: 0.9, pitchRadians: 0, widthRadians: 0.15, heightRadians: 0.5)
                .project(camera: Self.camera, gimbalYawRadians: 1, gimbalPitchRadians: 0))
        var now = last + .seconds(3)
        for _ in 0..<10 {
            now += Self.tick
            pipeline.observe(
                [Observation(kind: .body, box: box, confidence: 0.9)], camera: Self.camera, captureTime: now,
                gimbalYawRadians: 1, gimbalPitchRadians: 0)
            _ = pipeline.step(now: now, gimbalYawRadians: 1, gimbalPitchRadians: 0)
        }
        guard case .following = pipeline.activity else {
            Issue.record("followed again, not \(pipeline.activity)")
            return
        }
    }

    @Test func settingsSpellTheActions() throws {
        #expect(try LostBehaviour.Action(setting: "hold") == .hold)
        #expect(try LostBehaviour.Action(setting: "home") == .home)
        #expect(try LostBehaviour.Action(setting: "zoom-out") == .zoomOut)
        let pose = try LostBehaviour.Action(setting: "pose:30,-5.5")
        #expect(pose == .pose(yawRadians: 30 * .pi / 180, pitchRadians: -5.5 * .pi / 180))
        for action in [LostBehaviour.Action.hold, .home, .zoomOut, pose] {
            #expect(try LostBehaviour.Action(setting: action.setting) == action, "\(action.setting) reads back")
        }
        #expect(throws: LostBehaviourError.unknownAction("preset")) { try LostBehaviour.Action(setting: "preset") }
        #expect(throws: LostBehaviourError.unknownAction("")) { try LostBehaviour.Action(setting: "") }
        #expect(throws: LostBehaviourError.malformedPose("pose:30")) { try LostBehaviour.Action(setting: "pose:30") }
        #expect(throws: LostBehaviourError.malformedPose("pose:a,b")) { try LostBehaviour.Action(setting: "pose:a,b") }
        #expect(throws: LostBehaviourError.malformedPose("pose:1,2,3")) { try LostBehaviour.Action(setting: "pose:1,2,3") }
        #expect(throws: LostBehaviourError.poseOutOfRange("pose:721,0")) { try LostBehaviour.Action(setting: "pose:721,0") }
        #expect(throws: LostBehaviourError.poseOutOfRange("pose:nan,0")) { try LostBehaviour.Action(setting: "pose:nan,0") }
        #expect(throws: LostBehaviourError.poseOutOfRange("pose:inf,0")) { try LostBehaviour.Action(setting: "pose:inf,0") }
    }
}

extension LostBehaviourTests {
    /// A zoom out due while the dock still turns after a subject who walked out is not lost.
    @Test func aZoomOutDueWhileTurningAfterAWalkerIsStillGiven() throws {
        var pipeline = TrackingPipeline()
        pipeline.lostBehaviour = LostBehaviour(after: .zero, action: .zoomOut)
        var now = Duration.zero, zooms = 0
        for index in 0..<(6 * 30) {
            now += Self.tick
            let seconds = Double(index + 1) / 30
            var observations: [Observation] = []
            // Walking left at 0.3 rad/s from 0.5 rad, boxes clipped to the picture, until 4.3 s.
            if seconds <= 4.3,
                let box = AngularBox(yawRadians: 0.5 - 0.3 * seconds, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.3)
                    .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)?.intersection(.fullImage),
                box.width > 0.01
            {
                observations.append(Observation(kind: .body, box: box, confidence: 0.9))
            }
            pipeline.observe(observations, camera: Self.camera, captureTime: now, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            if pipeline.step(now: now, gimbalYawRadians: 0, gimbalPitchRadians: 0).zoomsOut { zooms += 1 }
        }
        #expect(pipeline.lostPrimaryWalkedOut == .left)
        #expect(zooms == 1)
    }
}
