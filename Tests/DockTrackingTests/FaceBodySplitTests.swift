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
        func next() -> Int? { fresh += 1; return fresh }
        // Walking together at 0.3 rad/s: one subject, the body's identifier.
        let together = fuse(&fusion, [moving(body(1, yaw: 0), yawRate: 0.3), moving(face(2, yaw: 0.01), yawRate: 0.32)], freshIdentifier: next)
        #expect(together.count == 1 && together.first?.identifier == 1 && together.first?.faceTrack == 2)
        // The face track now moves the other way (it was handed the face of someone passing in
        // front), though it still lies on the body: two subjects, the body keeps 1.
        let apart = fuse(&fusion, [moving(body(1, yaw: 0.02), yawRate: 0.3), moving(face(2, yaw: 0.0), yawRate: -0.3)], freshIdentifier: next)
        #expect(apart.count == 2)
        #expect(apart.first { $0.bodyTrack == 1 }?.identifier == 1 && apart.first { $0.bodyTrack == 1 }?.faceTrack == nil)
        #expect(apart.first { $0.faceTrack == 2 }?.identifier == 2, "the face is subject 2, not a second subject 1")
        #expect(fresh == 100, "its own track's identifier was free")
        // Moving together again, they join under the identifier known longest.
        let again = fuse(&fusion, [moving(body(1, yaw: 0.04), yawRate: 0.3), moving(face(2, yaw: 0.04), yawRate: 0.3)], freshIdentifier: next)
        #expect(again.map(\.identifier) == [1] && again.first?.faceTrack == 2)
    }

    @Test func aFaceWhoseTrackNamedTheSubjectGetsAFreshIdentifierWhenItSplits() {
        // The face (track 5) was seen first: the person is subject 5; then its body (8) joins.
        var fusion = SubjectFusion()
        var fresh = 100
        func next() -> Int? { fresh += 1; return fresh }
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
