import DockNumbers
import DockVocabulary
import Testing

@testable import DockTracking

/// A subject who walks out of the picture is kept as out of the picture on that side, frozen with
/// what its track knew, and matched first when someone comes back on that side. Virtual time,
/// 30 fps, the 70° camera of the other tracker tests (left border at yaw −0.611 rad, right at
/// +0.611), the detector's boxes clipped to the picture.
extension SubjectTrackerTests {
    /// A walker at `rate` rad/s from `start`, boxes while any of them is in the picture, from
    /// frame `from` to frame `to` (exclusive); returns the frame after the last box.
    @discardableResult
    func walk(
        _ tracker: inout SubjectTracker, from: Int, to: Int, start: Double, rate: Double,
        width: Double = 0.1, height: Double = 0.3
    ) -> Int {
        var last = from
        for index in from..<to {
            let yaw = start + rate * Double(index - from) / 30
            guard let box = clippedBox(yaw: yaw, width: width, height: height),
                box.width > 0.3
                    * (AngularBox(yawRadians: yaw, pitchRadians: 0, widthRadians: width, heightRadians: height)
                        .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)?.width ?? 1)
            else {
                update(&tracker, [], at: index)
                continue
            }
            update(&tracker, [Observation(kind: .body, box: box, confidence: 0.9)], at: index)
            last = index + 1
        }
        return last
    }

    @Test func aWalkerWhoLeavesOnTheLeftAndComesBackThereTenSecondsLaterKeepsTheirIdentifier() throws {
        var tracker = SubjectTracker()
        // Seen for 3.7 s, out on the left at 0.3 rad/s.
        walk(&tracker, from: 0, to: 150, start: 0.45, rate: -0.3)
        let walker = try #require(tracker.tracks.first)
        #expect(walker.outOfPicture == .left, "\(String(describing: walker.outOfPicture)) \(walker.phase)")
        let frozen = walker.filter.angularBox
        // Ten seconds of an empty picture: kept, frozen where it left, with its size.
        for index in 150..<450 { update(&tracker, [], at: index) }
        let kept = try #require(tracker.tracks.first { $0.identifier == walker.identifier })
        #expect(kept.outOfPicture == .left && kept.filter.angularBox == frozen)
        // Meanwhile someone else comes in on the right: a new track, not the walker.
        let newcomer = walk(&tracker, from: 450, to: 480, start: 0.7, rate: -0.3)
        #expect(newcomer > 455)
        let stranger = try #require(tracker.tracks.first { $0.identifier != walker.identifier })
        #expect(stranger.outOfPicture == nil && stranger.phase == .confirmed)
        // The walker comes back in on the left: their own identifier, in the picture again.
        walk(&tracker, from: 480, to: 540, start: -0.7, rate: 0.3)
        let back = try #require(tracker.tracks.first { $0.identifier == walker.identifier })
        #expect(back.outOfPicture == nil && back.phase == .confirmed)
        let trueYaw = -0.7 + 0.3 * 59 / 30
        #expect(abs(back.filter.angularBox.yawRadians - trueYaw) < 0.02, "\(back.filter.angularBox.yawRadians) against \(trueYaw)")
        #expect(back.identifier == 1 && stranger.identifier > 1)
    }

    @Test func someoneOfAnotherHeightComingInOnThatSideIsAStranger() throws {
        var tracker = SubjectTracker()
        walk(&tracker, from: 0, to: 150, start: 0.45, rate: -0.3)
        let walker = try #require(tracker.tracks.first)
        #expect(walker.outOfPicture == .left)
        // A child (half the height) comes in on the left.
        walk(&tracker, from: 150, to: 210, start: -0.7, rate: 0.3, width: 0.06, height: 0.14)
        #expect(tracker.tracks.first { $0.identifier == walker.identifier }?.outOfPicture == .left, "still waited for")
        #expect(tracker.tracks.contains { $0.identifier != walker.identifier && $0.phase == .confirmed })
    }

    @Test func aTrackOutOfThePictureIsForgottenAfterItsTimeout() throws {
        var configuration = SubjectTracker.Configuration()
        configuration.outOfPictureTimeout = .seconds(5)
        var tracker = SubjectTracker(configuration: configuration)
        walk(&tracker, from: 0, to: 150, start: 0.45, rate: -0.3)
        let left = try #require(tracker.tracks.first)
        #expect(left.outOfPicture == .left)
        // Frame n is at about n/30 s: the last frame within 5 s of leaving, then one after.
        let lastKept = Int(((left.leftPictureAt + .seconds(5)).secondsValue * 30).rounded(.down))
        for index in 150...lastKept { update(&tracker, [], at: index) }
        #expect(tracker.tracks.count == 1, "kept within its 5 s")
        update(&tracker, [], at: lastKept + 2)
        #expect(tracker.tracks.isEmpty, "gone after it")
        // Switched off, a walker who leaves coasts and dies as any track.
        configuration.outOfPictureTimeout = .zero
        var plain = SubjectTracker(configuration: configuration)
        walk(&plain, from: 0, to: 150, start: 0.45, rate: -0.3)
        #expect(plain.tracks.allSatisfy { $0.outOfPicture == nil })
        for index in 150..<210 { update(&plain, [], at: index) }
        #expect(plain.tracks.isEmpty)
    }

    @Test func aPasserByIsNotWaitedFor() throws {
        // Seen for 2 s only (less than `outOfPictureAfterSeen`): coasts out and dies.
        var tracker = SubjectTracker()
        walk(&tracker, from: 0, to: 90, start: -0.05, rate: -0.3)
        #expect(tracker.tracks.allSatisfy { $0.outOfPicture == nil })
        for index in 90..<150 { update(&tracker, [], at: index) }
        #expect(tracker.tracks.isEmpty)
    }

    @Test func aHiddenSubjectIsNotOutOfThePicture() throws {
        // Seen in the middle, then not at all (behind something): coasts and dies as before.
        var tracker = SubjectTracker()
        for index in 0..<30 { update(&tracker, [Observation(kind: .body, box: box(yaw: 0.05), confidence: 0.9)], at: index) }
        for index in 30..<45 { update(&tracker, [], at: index) }
        #expect(tracker.tracks.first?.phase == .coasting && tracker.tracks.first?.outOfPicture == nil)
        for index in 45..<120 { update(&tracker, [], at: index) }
        #expect(tracker.tracks.isEmpty)
    }
}
