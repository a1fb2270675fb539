import DockNumbers
import DockVocabulary
import Testing

@testable import DockTracking

/// The pipeline as the daemon runs it, in virtual time: what it does after losing its subject.
@Suite struct TrackingPipelineTests {
    static let camera = SubjectFilterTests.camera

    /// Follows a still person at `yaw` for two seconds with the gimbal on them, then sees nothing;
    /// returns when the pipeline started returning to rest (0, 0), seconds after the last box,
    /// with the lost behaviour "home after `after`".
    func returnDelay(subjectYaw yaw: Double, after: Duration = .seconds(8)) throws -> Double? {
        var pipeline = TrackingPipeline()
        pipeline.lostBehaviour = LostBehaviour(after: after, action: .home)
        let person = AngularBox(yawRadians: yaw, pitchRadians: 0, widthRadians: 0.15, heightRadians: 0.5)
        let box = try #require(person.project(camera: Self.camera, gimbalYawRadians: yaw, gimbalPitchRadians: 0))
        var now = Duration.zero
        let tick = Duration.nanoseconds(33_333_333)
        for _ in 0..<60 {
            now += tick
            pipeline.observe(
                [Observation(kind: .body, box: box, confidence: 0.9)], camera: Self.camera, captureTime: now,
                gimbalYawRadians: yaw, gimbalPitchRadians: 0)
            _ = pipeline.step(now: now, gimbalYawRadians: yaw, gimbalPitchRadians: 0)
        }
        #expect(pipeline.primary != nil, "the person is followed")
        let lastBox = now
        for _ in 0..<(30 * 12) {
            now += tick
            if pipeline.step(now: now, gimbalYawRadians: yaw, gimbalPitchRadians: 0).activity == .returning {
                return (now - lastBox).secondsValue
            }
        }
        return nil
    }

    @Test func theEvidenceIsAsOldAsTheNewestBoxFusedIntoTheSubjectsBoxTrack() throws {
        // A person's boxes arrive 300 ms after their capture, and one captured earlier still
        // arrives last; an object's likewise.
        for kind in [SubjectKind.body, .object] {
            var pipeline = TrackingPipeline()
            let thing = AngularBox(yawRadians: 0.1, pitchRadians: 0, widthRadians: 0.15, heightRadians: 0.5)
            let box = try #require(thing.project(camera: Self.camera, gimbalYawRadians: 0.1, gimbalPitchRadians: 0))
            var newest = Duration.zero
            for frame in 1...20 {
                let capture = Duration.milliseconds(100 * frame)
                pipeline.observe(
                    [Observation(kind: kind, box: box, confidence: 0.9)], camera: Self.camera, captureTime: capture,
                    gimbalYawRadians: 0.1, gimbalPitchRadians: 0)
                newest = capture
                _ = pipeline.step(now: capture + .milliseconds(300), gimbalYawRadians: 0.1, gimbalPitchRadians: 0)
            }
            pipeline.observe(
                [Observation(kind: kind, box: box, confidence: 0.9)], camera: Self.camera, captureTime: newest - .milliseconds(50),
                gimbalYawRadians: 0.1, gimbalPitchRadians: 0)
            let now = newest + .milliseconds(350)
            _ = pipeline.step(now: now, gimbalYawRadians: 0.1, gimbalPitchRadians: 0)
            let subject = try #require(pipeline.subjects.first { $0.identifier == pipeline.primary }, "\(kind) followed")
            #expect(subject.boxLastSeen == newest, "\(kind): the older box does not make the evidence older")
            #expect(abs(pipeline.evidenceAge(of: subject, now: now) - 0.35) < 1e-9, "\(kind)")
        }
    }

    @Test func aSubjectLostWhereTheRestPoseShowsItIsNotStaredAfterForLong() throws {
        // Lost at 0.1 rad: the rest pose shows that place. The track coasts for its 1.5 s, the
        // dock holds while the selector waits for the subject to reappear there (3 s), then goes
        // back.
        let inView = try #require(try returnDelay(subjectYaw: 0.1))
        #expect(inView > 4.4 && inView < 4.7, "returned \(inView) s after the last box")
        // Lost at 1 rad, out of the rest pose's view: the full 8 s of holding.
        let outOfView = try #require(try returnDelay(subjectYaw: 1.0))
        #expect(outOfView > 9.4 && outOfView < 9.7, "returned \(outOfView) s after the last box")
        // And never later than the lost behaviour's time, however short.
        let short = try #require(try returnDelay(subjectYaw: 1.0, after: .milliseconds(500)))
        #expect(short > 1.9 && short < 2.2, "returned \(short) s after the last box")
    }
}
