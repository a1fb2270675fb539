import DockVocabulary
import Testing

@testable import DockTracking

/// Boxes the image's border cuts, as a detector reports them (clipped to the picture): the cut
/// edge neither drags the track's centre inwards nor shrinks it (`clippedEdgeMargin`). Virtual
/// time, 30 fps, the 70° camera of the other tracker tests (its left border at yaw −0.611 rad).
extension SubjectTrackerTests {
    /// The detector's box for a subject: projected with the gimbal at the given pose and clipped
    /// to the image; nil when nothing of it is in the picture.
    func clippedBox(
        yaw: Double, pitch: Double = 0, width: Double = 0.1, height: Double = 0.3,
        gimbalYaw: Double = 0, gimbalPitch: Double = 0
    ) -> NormalizedRect? {
        AngularBox(yawRadians: yaw, pitchRadians: pitch, widthRadians: width, heightRadians: height)
            .project(camera: Self.camera, gimbalYawRadians: gimbalYaw, gimbalPitchRadians: gimbalPitch)?
            .intersection(.fullImage)
    }

    /// A walker at −0.2 rad/s from yaw −0.3, boxes until only `leftInPicture` of their width is
    /// in it; the tracker and the walker's true yaw at the last box.
    func walkOutLeft(_ configuration: SubjectTracker.Configuration, leftInPicture: Double) throws
        -> (tracker: SubjectTracker, trueYaw: Double, frames: Int)
    {
        var tracker = SubjectTracker(configuration: configuration)
        var index = 0, trueYaw = -0.3
        while true {
            trueYaw = -0.3 - 0.2 * Double(index) / 30
            let box = try #require(clippedBox(yaw: trueYaw))
            let whole = try #require(
                AngularBox(yawRadians: trueYaw, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.3)
                    .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
            update(&tracker, [Observation(kind: .body, box: box, confidence: 0.9)], at: index)
            if box.width < leftInPicture * whole.width { break }
            index += 1
        }
        return (tracker, trueYaw, index + 1)
    }

    @Test func aPersonWalkingOutOfTheLeftEdgeIsNotDraggedInwardsNorShrunk() throws {
        let (tracker, trueYaw, frames) = try walkOutLeft(SubjectTracker.Configuration(), leftInPicture: 0.3)
        #expect(frames > 45, "the walk starts well inside the picture (\(frames) frames)")
        let track = try #require(tracker.tracks.first)
        #expect(tracker.tracks.count == 1 && track.phase == .confirmed)
        let estimate = track.filter.angularBox
        #expect(abs(estimate.yawRadians - trueYaw) < 0.01, "centre \(estimate.yawRadians) against \(trueYaw)")
        #expect(abs(estimate.widthRadians - 0.1) < 0.01, "width \(estimate.widthRadians) against 0.1")
        #expect(abs(estimate.heightRadians - 0.3) < 0.02, "height \(estimate.heightRadians) against 0.3")
        #expect(abs(track.filter.rates.yawRadiansPerSecond + 0.2) < 0.05, "rate \(track.filter.rates.yawRadiansPerSecond)")

        // Measured as whole boxes (the model before), the same walk pulls the centre in and shrinks it.
        var whole = SubjectTracker.Configuration()
        whole.clippedEdgeMargin = -1
        let old = try #require(try walkOutLeft(whole, leftInPicture: 0.3).tracker.tracks.first).filter.angularBox
        #expect(old.yawRadians - trueYaw > 0.02, "the whole-box model's centre \(old.yawRadians) is dragged in")
        #expect(old.widthRadians < 0.07, "and its width \(old.widthRadians) shrinks")
    }

    @Test func aPersonWalkingInFromTheRightEdgeGrowsToTheirSizeOnOneTrack() throws {
        // Coming in at 0.2 rad/s from just outside the right border (yaw 0.611 + 0.05).
        var tracker = SubjectTracker()
        for index in 0..<60 {
            let yaw = 0.66 - 0.2 * Double(index) / 30
            guard let box = clippedBox(yaw: yaw) else { continue }
            update(&tracker, [Observation(kind: .body, box: box, confidence: 0.9)], at: index)
        }
        #expect(tracker.tracks.count == 1, "\(tracker.tracks.map(\.identifier))")
        let estimate = try #require(tracker.tracks.first).filter.angularBox
        let trueYaw = 0.66 - 0.2 * 59 / 30
        #expect(abs(estimate.yawRadians - trueYaw) < 0.01, "centre \(estimate.yawRadians) against \(trueYaw)")
        #expect(abs(estimate.widthRadians - 0.1) < 0.01, "width \(estimate.widthRadians): a track born small grows")
    }

    @Test func aTallBodyCutAtTheBottomKeepsItsPlaceWhileTheGimbalTiltsUp() throws {
        // 0.9 rad tall, its top 0.3 rad above the axis: the picture (0.375 rad up and down)
        // cuts it at the bottom. The gimbal tilts up by 0.1 rad over two seconds: the cut moves up the body,
        // the head stays where it was. The track's direction and height must stay put (measured
        // as a whole box, its centre rises with the tilt: the dock would chase its own motion).
        func run(_ configuration: SubjectTracker.Configuration) throws -> AngularBox {
            var tracker = SubjectTracker(configuration: configuration)
            for index in 0..<90 {
                let gimbalPitch = index < 30 ? 0 : 0.1 * Double(index - 30) / 60
                let box = try #require(clippedBox(yaw: 0, pitch: -0.15, width: 0.25, height: 0.9, gimbalPitch: gimbalPitch))
                #expect(box.maxY == 1 && box.y > 0.05, "cut at the bottom only: \(box)")
                tracker.predict(to: frame(index))
                tracker.update(
                    [Observation(kind: .body, box: box, confidence: 0.9)], camera: Self.camera,
                    captureTime: frame(index), gimbalYawRadians: 0, gimbalPitchRadians: gimbalPitch)
            }
            return try #require(tracker.tracks.first).filter.angularBox
        }
        let estimate = try run(SubjectTracker.Configuration())
        let top = estimate.pitchRadians + estimate.heightRadians / 2
        #expect(abs(top - 0.3) < 0.01, "its top \(top) stays at the head's 0.3")
        #expect(abs(estimate.yawRadians) < 0.01)
        var whole = SubjectTracker.Configuration()
        whole.clippedEdgeMargin = -1
        let old = try run(whole)
        #expect(
            old.pitchRadians - estimate.pitchRadians > 0.03,
            "whole boxes put its centre \(old.pitchRadians) up with the tilt, against \(estimate.pitchRadians)")
    }
}
