import DockVocabulary
import Testing

@testable import DockTracking

/// How long a track that has barely been seen lives on unseen, in a tracker's first seconds too
/// (virtual time, 30 fps, from zero).
extension SubjectTrackerTests {
    @Test func aTrackSeenBrieflyInTheFirstSecondDiesWhenItsTimeIsUp() {
        // Confirmed on three boxes (frames 0–2: seen 67 ms), then nothing: it may coast four times as
        // long as it was seen, at least 300 ms. Before, a track that no weak box had ever vouched
        // for counted as vouched for at time zero, and in a tracker started at zero lived 1.5 s.
        var tracker = SubjectTracker()
        for index in 0..<3 { update(&tracker, [Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)], at: index) }
        #expect(tracker.tracks.first?.phase == .confirmed && tracker.tracks.first?.lastVouched == nil)
        for index in 3..<11 { update(&tracker, [], at: index) }
        #expect(tracker.tracks.count == 1, "frame 10: 267 ms after its last box, it still coasts")
        for index in 11..<13 { update(&tracker, [], at: index) }
        #expect(tracker.tracks.isEmpty, "frame 12: 333 ms after its last box, it is gone")
    }

    @Test func aWeakBoxBuysAYoungTrackOnlyWhatItEarned() {
        // Seen 133 ms (frames 0–4), it earns 533 ms unseen. A weak box over it at frame 15 (367 ms
        // unseen) vouches: it lives 533 ms from there, not the 1.5 s a long-seen track gets.
        var tracker = SubjectTracker()
        for index in 0..<5 { update(&tracker, [Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)], at: index) }
        for index in 5..<15 { update(&tracker, [], at: index) }
        update(&tracker, [Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.4)], at: 15)
        let vouched = tracker.tracks.first
        #expect(vouched?.phase == .coasting && vouched?.lastVouched == frame(15), "the weak box vouched for it")
        for index in 16..<31 { update(&tracker, [], at: index) }
        #expect(tracker.tracks.count == 1, "frame 30: 500 ms after the weak box")
        for index in 31..<34 { update(&tracker, [], at: index) }
        #expect(tracker.tracks.isEmpty, "frame 33: 600 ms after the weak box, it is gone")
    }
}
