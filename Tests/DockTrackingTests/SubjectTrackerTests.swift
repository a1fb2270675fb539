import Testing

@testable import DockTracking

/// Association and track lifecycle, on boxes drawn by the measurement model.
@Suite struct SubjectTrackerTests {
    static let camera = SubjectFilterTests.camera

    func box(yaw: Double, pitch: Double = 0, width: Double = 0.1, height: Double = 0.3,
             gimbalYaw: Double = 0) -> NormalizedRect {
        AngularBox(yawRadians: yaw, pitchRadians: pitch, widthRadians: width, heightRadians: height)
            .project(camera: Self.camera, gimbalYawRadians: gimbalYaw, gimbalPitchRadians: 0)!
    }

    func frame(_ index: Int) -> Duration { .nanoseconds(Int64(index) * 33_333_333) }

    @Test func tracksAreConfirmedCoastAndDie() {
        var tracker = SubjectTracker()
        for index in 0..<3 {
            tracker.update([Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)], camera: Self.camera,
                           captureTime: frame(index), gimbalYawRadians: 0, gimbalPitchRadians: 0)
        }
        #expect(tracker.tracks.count == 1)
        #expect(tracker.tracks.first?.phase == .confirmed)
        #expect(tracker.tracks.first?.identifier == 1)
        tracker.predict(to: frame(2) + .milliseconds(500))
        #expect(tracker.tracks.first?.phase == .coasting, "unseen, it coasts")
        tracker.update([Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)], camera: Self.camera,
                       captureTime: frame(2) + .milliseconds(500), gimbalYawRadians: 0, gimbalPitchRadians: 0)
        #expect(tracker.tracks.first?.phase == .confirmed, "seen again, same ID")
        #expect(tracker.tracks.map(\.identifier) == [1])
        tracker.predict(to: frame(2) + .seconds(3))
        #expect(tracker.tracks.isEmpty, "gone for longer than the coast timeout")
    }

    @Test func aOneFrameFalseDetectionNeverBecomesASubject() {
        var tracker = SubjectTracker()
        tracker.update([Observation(kind: .face, box: box(yaw: -0.3, width: 0.03, height: 0.04), confidence: 0.4)],
                       camera: Self.camera, captureTime: frame(0), gimbalYawRadians: 0, gimbalPitchRadians: 0)
        #expect(tracker.tracks.first?.phase == .tentative)
        tracker.predict(to: frame(20))
        #expect(tracker.tracks.isEmpty)
    }

    @Test func crossingSubjectsKeepTheirIdentifiers() {
        var tracker = SubjectTracker()
        var aIdentifier: Int?
        for index in 0..<90 {
            let t = Double(index) / 30
            let a = -0.4 + 0.3 * t, b = 0.4 - 0.3 * t   // they cross at 1.33 s
            tracker.update([Observation(kind: .body, box: box(yaw: a, height: 0.3), confidence: 0.9),
                            Observation(kind: .body, box: box(yaw: b, pitch: 0.02, height: 0.34), confidence: 0.9)],
                           camera: Self.camera, captureTime: frame(index), gimbalYawRadians: 0, gimbalPitchRadians: 0)
            if index == 10 {
                aIdentifier = tracker.tracks.min { $0.filter.angularBox.yawRadians < $1.filter.angularBox.yawRadians }?.identifier
            }
        }
        let a = tracker.tracks.first { $0.identifier == aIdentifier }
        #expect(tracker.tracks.count == 2)
        #expect(a.map { abs($0.filter.angularBox.yawRadians - (-0.4 + 0.3 * 89 / 30)) < 0.02 } == true,
                "the track that was on the left is on the right after the crossing")
    }

    @Test func lateObservationsOnAPanningGimbalStillFollow() {
        var tracker = SubjectTracker()
        for index in 0..<60 {
            let capture = Double(index) / 30
            let gimbalYaw = 0.5 * capture
            let subjectYaw = 0.2 + 0.2 * capture
            // Delivered 150 ms late: the tracker is already at the later time.
            tracker.predict(to: frame(index) + .milliseconds(150))
            tracker.update([Observation(kind: .body, box: box(yaw: subjectYaw, gimbalYaw: gimbalYaw), confidence: 0.9)],
                           camera: Self.camera, captureTime: frame(index), gimbalYawRadians: gimbalYaw, gimbalPitchRadians: 0)
        }
        #expect(tracker.tracks.count == 1)
        let track = tracker.tracks[0]
        let expectedNow = 0.2 + 0.2 * (59.0 / 30 + 0.15)
        #expect(abs(track.filter.angularBox.yawRadians - expectedNow) < 0.02)
        #expect(abs(track.filter.rates.yawRadiansPerSecond - 0.2) < 0.05)
    }

    @Test func atMostSixteenTracks() {
        var tracker = SubjectTracker()
        let crowd = (0..<20).map { Observation(kind: .face, box: box(yaw: -0.55 + Double($0) * 0.055, width: 0.02, height: 0.03), confidence: 0.8) }
        tracker.update(crowd, camera: Self.camera, captureTime: .zero, gimbalYawRadians: 0, gimbalPitchRadians: 0)
        #expect(tracker.tracks.count == 16)
        #expect(Set(tracker.tracks.map(\.identifier)).count == 16)
    }
}

extension SubjectTrackerTests {
    @Test func identifiersAreNotReusedAfterTheTracksAreDropped() {
        var tracker = SubjectTracker()
        let camera = CameraInformation(horizontalFieldOfViewRadians: 1.2, aspectRatio: 1.5)
        let box = NormalizedRect(x: 0.4, y: 0.3, width: 0.1, height: 0.4)
        tracker.update([Observation(kind: .body, box: box, confidence: 0.9)], camera: camera, captureTime: .zero,
                       gimbalYawRadians: 0, gimbalPitchRadians: 0)
        let first = tracker.tracks.map(\.identifier)
        tracker.removeAll()
        #expect(tracker.tracks.isEmpty)
        tracker.update([Observation(kind: .body, box: box, confidence: 0.9)], camera: camera, captureTime: .milliseconds(33),
                       gimbalYawRadians: 0, gimbalPitchRadians: 0)
        #expect(first == [1] && tracker.tracks.map(\.identifier) == [2])
    }
}
