import DockVocabulary
import Testing

@testable import DockTracking

/// A face and a body that disagree — the face outside the body's box, or moving against it — are
/// two subjects, each with its own identifier, not one person.
extension SubjectFusionTests {
    /// The subjects, through `fuse(_:into:freshIdentifier:)`.
    func fuse(_ fusion: inout SubjectFusion, _ tracks: [SubjectTracker.Track], freshIdentifier: () -> Int?) -> [FusedSubject] {
        var subjects: [FusedSubject] = []
        fusion.fuse(tracks, into: &subjects, freshIdentifier: freshIdentifier)
        return subjects
    }

    /// A track moving at `yawRate` rad/s, its rate known to 0.02 rad/s.
    func moving(_ track: SubjectTracker.Track, yawRate: Double) -> SubjectTracker.Track {
        var track = track
        track.filter.setYawRate(yawRate, variance: 0.02 * 0.02)
        return track
    }

    @Test func aFaceMovingAgainstItsBodyIsSplitIntoASubjectOfItsOwn() {
        var fusion = SubjectFusion()
        var fresh = 100
        func next() -> Int? {
            fresh += 1
            return fresh
        }
        // Walking together at 0.3 rad/s: one subject, the body's identifier.
        let together = fuse(
            &fusion, [moving(body(1, yaw: 0), yawRate: 0.3), moving(face(2, yaw: 0.01), yawRate: 0.32)], freshIdentifier: next)
        #expect(together.count == 1 && together.first?.identifier == 1 && together.first?.faceTrack == 2)
        // The face track now moves the other way (it was handed the face of someone passing in
        // front), though it still lies on the body: two subjects, the body keeps 1.
        let apart = fuse(
            &fusion, [moving(body(1, yaw: 0.02), yawRate: 0.3), moving(face(2, yaw: 0.0), yawRate: -0.3)], freshIdentifier: next)
        #expect(apart.count == 2)
        #expect(apart.first { $0.bodyTrack == 1 }?.identifier == 1 && apart.first { $0.bodyTrack == 1 }?.faceTrack == nil)
        #expect(apart.first { $0.faceTrack == 2 }?.identifier == 2, "the face is subject 2, not a second subject 1")
        #expect(fresh == 100, "its own track's identifier was free")
        // Moving together again, they join under the identifier known longest.
        let again = fuse(
            &fusion, [moving(body(1, yaw: 0.04), yawRate: 0.3), moving(face(2, yaw: 0.04), yawRate: 0.3)], freshIdentifier: next)
        #expect(again.map(\.identifier) == [1] && again.first?.faceTrack == 2)
    }

    @Test func aFaceWhoseTrackNamedTheSubjectGetsAFreshIdentifierWhenItSplits() {
        // The face (track 5) was seen first: the person is subject 5; then its body (8) joins.
        var fusion = SubjectFusion()
        var fresh = 100
        func next() -> Int? {
            fresh += 1
            return fresh
        }
        _ = fuse(&fusion, [face(5, yaw: 0.1)], freshIdentifier: next)
        let joined = fuse(&fusion, [face(5, yaw: 0.1), body(8, yaw: 0.1)], freshIdentifier: next)
        #expect(joined.map(\.identifier) == [5])
        // The face leaves the body's box (outside its width): the body keeps 5, the face is 101.
        let apart = fuse(&fusion, [face(5, yaw: 0.3), body(8, yaw: 0.1)], freshIdentifier: next)
        #expect(apart.first { $0.bodyTrack == 8 }?.identifier == 5)
        #expect(apart.first { $0.faceTrack == 5 }?.identifier == 101, "\(apart.map(\.identifier))")
        // And keeps it.
        let later = fuse(&fusion, [face(5, yaw: 0.35), body(8, yaw: 0.1)], freshIdentifier: next)
        #expect(Set(later.map(\.identifier)) == [5, 101] && fresh == 101)
    }

    @Test func aFaceWhoseRateIsStillUnknownJoinsItsBody() {
        var fusion = SubjectFusion()
        // A face track just born (rate unknown, σ 1 rad/s) on a walking body: fused.
        let subjects = fusion.fuse([moving(body(1, yaw: 0), yawRate: 0.3), face(2, yaw: 0.01)])
        #expect(subjects.count == 1 && subjects.first?.faceTrack == 2)
    }
}

/// The same through the whole pipeline, frame by frame: boxes in, subjects out.
extension TrackingPipelineTests {
    /// One frame of a body (0.12 × 0.5 rad, its centre 0.05 rad down) at `bodyYaw` and a face
    /// (0.04 × 0.05 rad, 0.15 rad up: on the body's head when the yaws match) at `faceYaw`, seen
    /// with the gimbal at rest.
    func bodyAndFace(bodyYaw: Double, faceYaw: Double) throws -> [Observation] {
        func box(yaw: Double, pitch: Double, width: Double, height: Double) throws -> NormalizedRect {
            try #require(
                AngularBox(yawRadians: yaw, pitchRadians: pitch, widthRadians: width, heightRadians: height)
                    .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        }
        return [
            Observation(kind: .body, box: try box(yaw: bodyYaw, pitch: -0.05, width: 0.12, height: 0.5), confidence: 0.9),
            Observation(kind: .face, box: try box(yaw: faceYaw, pitch: 0.15, width: 0.04, height: 0.05), confidence: 0.9),
        ]
    }

    @Test func aFacePassingAcrossABodyTheOtherWayIsNotFusedWithIt() throws {
        var pipeline = TrackingPipeline()
        let tick = Duration.nanoseconds(33_333_333)
        var now = Duration.zero
        var crossingFrames = 0, fusedFrames = 0, identifiersWhileCrossing: Set<Int> = []
        for index in 0..<90 {
            now += tick
            let t = Double(index) / 30
            // A body walking right at 0.2 rad/s (its face turned away); a face — someone behind,
            // whose body is hidden — walking left at 0.25 rad/s, across the body's head at 1 s.
            let bodyYaw = -0.2 + 0.2 * t, faceYaw = 0.25 - 0.25 * t
            pipeline.observe(
                try bodyAndFace(bodyYaw: bodyYaw, faceYaw: faceYaw), camera: Self.camera, captureTime: now,
                gimbalYawRadians: 0, gimbalPitchRadians: 0)
            _ = pipeline.step(now: now, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            if abs(faceYaw - bodyYaw) < 0.05 {
                crossingFrames += 1
                if pipeline.subjects.contains(where: { $0.bodyTrack != nil && $0.faceTrack != nil }) { fusedFrames += 1 }
                identifiersWhileCrossing.formUnion(pipeline.subjects.map(\.identifier))
            }
        }
        #expect(crossingFrames >= 6, "the face lies on the body's head for a while (\(crossingFrames) frames)")
        #expect(fusedFrames == 0, "it is never fused with the body going the other way (\(fusedFrames) frames)")
        #expect(identifiersWhileCrossing.count == 2, "two subjects while it does: \(identifiersWhileCrossing)")
        // A face on the same body moving with it is fused at once, as before.
        var together = TrackingPipeline()
        now = .zero
        for index in 0..<30 {
            now += tick
            let bodyYaw = -0.2 + 0.2 * Double(index) / 30
            together.observe(
                try bodyAndFace(bodyYaw: bodyYaw, faceYaw: bodyYaw), camera: Self.camera, captureTime: now,
                gimbalYawRadians: 0, gimbalPitchRadians: 0)
            _ = together.step(now: now, gimbalYawRadians: 0, gimbalPitchRadians: 0)
        }
        #expect(together.subjects.count == 1 && together.subjects.first?.faceTrack != nil)
    }
}
