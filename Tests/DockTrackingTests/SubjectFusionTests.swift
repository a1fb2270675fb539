import DockVocabulary
import Testing

@testable import DockTracking

/// A face and its body are one subject, with one identifier.
@Suite struct SubjectFusionTests {
    func track(_ id: Int, _ kind: SubjectKind, yaw: Double, pitch: Double, width: Double, height: Double) -> SubjectTracker.Track {
        SubjectTracker.Track(
            identifier: id, kind: kind,
            filter: SubjectFilter(
                first: AngularBox(
                    yawRadians: yaw, pitchRadians: pitch,
                    widthRadians: width, heightRadians: height)),
            phase: .confirmed, hits: 5, lastSeen: .zero, lastFused: .zero, born: .zero)
    }

    func body(_ id: Int, yaw: Double) -> SubjectTracker.Track { track(id, .body, yaw: yaw, pitch: -0.05, width: 0.12, height: 0.5) }
    func face(_ id: Int, yaw: Double) -> SubjectTracker.Track { track(id, .face, yaw: yaw, pitch: 0.15, width: 0.04, height: 0.05) }

    @Test func aPersonsFaceAndBodyAreOneSubject() {
        var fusion = SubjectFusion()
        let subjects = fusion.fuse([body(1, yaw: 0), face(2, yaw: 0.01)])
        #expect(subjects.count == 1)
        #expect(subjects.first?.identifier == 1 && subjects.first?.faceTrack == 2 && subjects.first?.bodyTrack == 1)
    }

    @Test func twoPeopleSideBySideAreTwoSubjects() {
        var fusion = SubjectFusion()
        let subjects = fusion.fuse([body(1, yaw: -0.2), body(3, yaw: 0.2), face(2, yaw: -0.2), face(4, yaw: 0.21)])
        #expect(subjects.count == 2)
        #expect(Set(subjects.map(\.identifier)) == [1, 3])
        #expect(subjects.first { $0.identifier == 3 }?.faceTrack == 4)
    }

    @Test func theIdentifierSurvivesTheFaceOrBodyComingAndGoing() {
        var fusion = SubjectFusion()
        // First only a face is seen (the body is hidden), then the body too, then only the body.
        #expect(fusion.fuse([face(5, yaw: 0.1)]).map(\.identifier) == [5])
        #expect(fusion.fuse([face(5, yaw: 0.1), body(8, yaw: 0.1)]).map(\.identifier) == [5], "the older identifier wins")
        #expect(fusion.fuse([body(8, yaw: 0.1)]).map(\.identifier) == [5], "and stays with the body")
        #expect(
            fusion.fuse([body(8, yaw: 0.1), track(9, .object, yaw: -0.4, pitch: 0, width: 0.1, height: 0.1)])
                .map(\.identifier).sorted() == [5, 9])
    }

    @Test func aSubjectKeepsItsIdentifierWhenAnOlderTrackJoinsIt() {
        // The face (track 5) is confirmed first and is subject 5; the body's track (3) was born
        // earlier but confirmed later. Joining must not rename the subject the dock follows.
        var fusion = SubjectFusion()
        #expect(fusion.fuse([face(5, yaw: 0.1)]).map(\.identifier) == [5])
        let joined = fusion.fuse([body(3, yaw: 0.1), face(5, yaw: 0.1)])
        #expect(joined.map(\.identifier) == [5] && joined.first?.bodyTrack == 3 && joined.first?.faceTrack == 5)
        var subjects: [FusedSubject] = []
        fusion.fuse([body(3, yaw: 0.1)], into: &subjects)
        #expect(subjects.map(\.identifier) == [5], "and the body alone keeps it")
    }

    @Test func whenTwoKnownSubjectsJoinTheOneKnownLongestKeepsItsIdentifier() {
        // The face (track 6) is a subject first; the body (track 4) shows up later as its own
        // subject, below where the face is; then they line up and join: the person stays 6, the
        // identifier clients have been following, not the smaller 4.
        var fusion = SubjectFusion()
        #expect(fusion.fuse([face(6, yaw: 0.1)]).map(\.identifier) == [6])
        let apart = fusion.fuse([face(6, yaw: 0.1), body(4, yaw: 0.5)])
        #expect(Set(apart.map(\.identifier)) == [4, 6])
        let joined = fusion.fuse([face(6, yaw: 0.1), body(4, yaw: 0.1)])
        #expect(joined.map(\.identifier) == [6], "\(joined.map(\.identifier))")
    }

    @Test func aFaceDoesNotCarryItsSubjectsIdentifierToAnotherBodyWhileItsOwnBodyLives() {
        // Subject 1: body 1 and face 2. Someone steps in front: body 1 coasts where it was, and
        // face track 2 is handed the newcomer's face, which lies on the newcomer's body 3.
        var fusion = SubjectFusion()
        #expect(fusion.fuse([body(1, yaw: 0), face(2, yaw: 0)]).map(\.identifier) == [1])
        var hidden = body(1, yaw: 0)
        hidden.phase = .coasting
        let newcomer = track(3, .body, yaw: 0.05, pitch: 0, width: 0.2, height: 0.8)
        let onNewcomer = track(2, .face, yaw: 0.05, pitch: 0.33, width: 0.06, height: 0.08)
        let subjects = fusion.fuse([hidden, newcomer, onNewcomer])
        let joined = subjects.first { $0.bodyTrack == 3 }
        #expect(joined?.faceTrack == 2, "the face is the newcomer's now")
        #expect(joined?.identifier == 3, "and the newcomer is not subject 1: \(subjects.map(\.identifier))")
        #expect(subjects.first { $0.bodyTrack == 1 }?.identifier == 1, "subject 1 stays with its body")
        // With its body gone, a face seen alone as a subject still brings its identifier to a
        // body that joins it (the face-first case above).
        var alone = SubjectFusion()
        #expect(alone.fuse([face(5, yaw: 0.1)]).map(\.identifier) == [5])
        #expect(alone.fuse([face(5, yaw: 0.1), body(8, yaw: 0.1)]).map(\.identifier) == [5])
    }
}
