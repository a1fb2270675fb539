import DockVocabulary
import Testing

@testable import DockTracking

/// Choosing and holding the primary subject.
@Suite struct PrimarySelectorTests {
    func track(
        _ id: Int, yaw: Double, width: Double = 0.1, height: Double = 0.3, kind: SubjectKind = .body,
        phase: SubjectTracker.Phase = .confirmed, born: Duration = .zero
    ) -> SubjectTracker.Track {
        SubjectTracker.Track(
            identifier: id, kind: kind,
            filter: SubjectFilter(first: AngularBox(yawRadians: yaw, pitchRadians: 0, widthRadians: width, heightRadians: height)),
            phase: phase, hits: 5, lastSeen: .zero, lastFused: .zero, born: born)
    }

    @Test func theMostSalientIsChosenThenHeldAgainstAPasserBy() {
        var selector = PrimarySelector()
        let now = Duration.seconds(5)
        #expect(
            selector.choose(
                [track(1, yaw: 0.5), track(2, yaw: 0.02), track(3, yaw: 0.1, kind: .object)], selection: [],
                gimbalYawRadians: 0, gimbalPitchRadians: 0, now: now) == 2, "large and central")
        // A bigger person walks through the middle: the primary stays.
        #expect(
            selector.choose(
                [track(1, yaw: 0.5), track(2, yaw: 0.02), track(4, yaw: 0, width: 0.3, height: 0.9)], selection: [],
                gimbalYawRadians: 0, gimbalPitchRadians: 0, now: now + .seconds(1)) == 2)
        #expect(
            selector.choose(
                [track(9, yaw: 0.3, phase: .tentative)], selection: [], gimbalYawRadians: 0,
                gimbalPitchRadians: 0, now: now) == nil, "tentative tracks are not subjects yet")
    }

    @Test func aClientsSelectionWins() {
        var selector = PrimarySelector()
        let tracks = [track(1, yaw: 0), track(2, yaw: 0.6)]
        #expect(selector.choose(tracks, selection: [2], gimbalYawRadians: 0, gimbalPitchRadians: 0, now: .seconds(2)) == 2)
        #expect(
            selector.choose(tracks, selection: [7, 1], gimbalYawRadians: 0, gimbalPitchRadians: 0, now: .seconds(2)) == 1,
            "the first selected subject that is present")
    }

    @Test func aLostPrimaryIsReacquiredNearWhereItWent() {
        var selector = PrimarySelector()
        #expect(
            selector.choose(
                [track(1, yaw: 0.4), track(2, yaw: 0)], selection: [1], gimbalYawRadians: 0.4,
                gimbalPitchRadians: 0, now: .seconds(1)) == 1)
        // Track 1 disappears (occluded long enough to be deleted); a new track shows up where it was.
        #expect(
            selector.choose([track(2, yaw: 0)], selection: [], gimbalYawRadians: 0.4, gimbalPitchRadians: 0, now: .seconds(2))
                == nil, "no jump to somebody else right away")
        #expect(
            selector.choose(
                [track(2, yaw: 0, width: 0.3, height: 0.9), track(5, yaw: 0.42, born: .seconds(3))], selection: [],
                gimbalYawRadians: 0.4, gimbalPitchRadians: 0, now: .seconds(3)) == 5,
            "the newcomer near the lost primary's place, not the bigger one elsewhere")
        // Lost for good: after the window the most salient subject is chosen.
        var patient = PrimarySelector()
        _ = patient.choose([track(1, yaw: 0.4)], selection: [], gimbalYawRadians: 0, gimbalPitchRadians: 0, now: .seconds(1))
        _ = patient.choose([track(2, yaw: -0.5)], selection: [], gimbalYawRadians: 0, gimbalPitchRadians: 0, now: .seconds(2))
        #expect(patient.choose([track(2, yaw: -0.5)], selection: [], gimbalYawRadians: 0, gimbalPitchRadians: 0, now: .seconds(6)) == 2)
    }

    @Test func theMostSalientIsWaitedForRatherThanTheFirstConfirmed() {
        // A person off to the side is confirmed first; the one in the middle a moment later.
        var selector = PrimarySelector()
        let side = track(1, yaw: 0.45, born: .zero), middle = track(2, yaw: 0, born: .milliseconds(150))
        #expect(
            selector.choose(
                [side, middle], selection: [], gimbalYawRadians: 0, gimbalPitchRadians: 0,
                now: .milliseconds(250)) == nil, "the most salient is not yet 200 ms old: wait")
        #expect(
            selector.choose(
                [side, middle], selection: [], gimbalYawRadians: 0, gimbalPitchRadians: 0,
                now: .milliseconds(360)) == 2, "then it is chosen, not the first confirmed")
    }

    @Test func anOccluderHandedThePrimarysIdentifierIsNotFollowedAndCannotTakeItBack() {
        var selector = PrimarySelector()
        var now = Duration.seconds(1)
        func choose(_ subjects: [FusedSubject]) -> Int? {
            now += .milliseconds(33)
            return selector.choose(subjects, selection: [], gimbalYawRadians: 0, gimbalPitchRadians: 0, now: now)
        }
        let subject = FusedSubject(track: track(1, yaw: 0.1, width: 0.15, height: 0.5))
        for _ in 0..<40 { #expect(choose([subject]) == 1) }
        // A nearer colleague (1.6 times the size) walks in front: their own track overlaps the
        // primary, which coasts...
        let colleague = FusedSubject(track: track(2, yaw: 0.1, width: 0.24, height: 0.8))
        var hidden = subject
        hidden.isCoasting = true
        hidden.isBoxCoasting = true
        for _ in 0..<10 { #expect(choose([hidden, colleague]) == 1, "held while hidden") }
        // ...and is then handed the colleague's detections: subject 1 is now their size.
        var impostor = FusedSubject(track: track(1, yaw: 0.1, width: 0.24, height: 0.8))
        impostor.identifier = 1
        #expect(choose([impostor, colleague]) == nil, "someone else under the primary's identifier is not followed")
        // Neither the impostor (not of the subject's size) nor the colleague takes the place back,
        // for as long as they stand over it.
        for _ in 0..<150 { #expect(choose([impostor, colleague]) == nil) }
        // The subject reappears as a new track of its own size where it was: taken back.
        let back = FusedSubject(track: track(7, yaw: 0.11, width: 0.15, height: 0.5, born: now))
        #expect(choose([impostor, back]) == 7)
    }

    @Test func aPrimaryThatWalksTowardsTheDockKeepsItsPlace() {
        // Growing by 1.3 % a tick for half a second (walking at 1 m/s, 2.5 m away) is followed, not
        // dropped.
        var selector = PrimarySelector()
        var now = Duration.seconds(1)
        var width = 0.15
        for _ in 0..<30 {
            now += .milliseconds(33)
            #expect(
                selector.choose(
                    [FusedSubject(track: track(1, yaw: 0, width: width, height: width * 3.3))], selection: [],
                    gimbalYawRadians: 0, gimbalPitchRadians: 0, now: now) == 1)
        }
        for _ in 0..<15 {
            now += .milliseconds(33)
            width *= 1.013
            #expect(
                selector.choose(
                    [FusedSubject(track: track(1, yaw: 0, width: width, height: width * 3.3))], selection: [],
                    gimbalYawRadians: 0, gimbalPitchRadians: 0, now: now) == 1, "width \(width)")
        }
    }
}
