import DockVocabulary
import Testing

@testable import DockTracking

/// Association and track lifecycle, on boxes drawn by the measurement model.
@Suite struct SubjectTrackerTests {
    static let camera = SubjectFilterTests.camera

    func box(
        yaw: Double, pitch: Double = 0, width: Double = 0.1, height: Double = 0.3,
        gimbalYaw: Double = 0
    ) -> NormalizedRect {
        AngularBox(yawRadians: yaw, pitchRadians: pitch, widthRadians: width, heightRadians: height)
            .project(camera: Self.camera, gimbalYawRadians: gimbalYaw, gimbalPitchRadians: 0)!
    }

    func frame(_ index: Int) -> Duration { .nanoseconds(Int64(index) * 33_333_333) }

    @Test func tracksAreConfirmedCoastAndDie() {
        // Seen for 300 ms, it earns 1.2 s unseen (a track seen for less coasts less: see
        // `YoungTrackTests`).
        var tracker = SubjectTracker()
        for index in 0..<10 {
            tracker.update(
                [Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)], camera: Self.camera,
                captureTime: frame(index), gimbalYawRadians: 0, gimbalPitchRadians: 0)
        }
        #expect(tracker.tracks.count == 1)
        #expect(tracker.tracks.first?.phase == .confirmed)
        #expect(tracker.tracks.first?.identifier == 1)
        tracker.predict(to: frame(9) + .milliseconds(500))
        #expect(tracker.tracks.first?.phase == .coasting, "unseen, it coasts")
        tracker.update(
            [Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)], camera: Self.camera,
            captureTime: frame(9) + .milliseconds(500), gimbalYawRadians: 0, gimbalPitchRadians: 0)
        #expect(tracker.tracks.first?.phase == .confirmed, "seen again, same ID")
        #expect(tracker.tracks.map(\.identifier) == [1])
        tracker.predict(to: frame(9) + .seconds(3))
        #expect(tracker.tracks.isEmpty, "gone for longer than the coast timeout")
    }

    @Test func aOneFrameFalseDetectionNeverBecomesASubject() {
        var tracker = SubjectTracker()
        tracker.update(
            [Observation(kind: .face, box: box(yaw: -0.3, width: 0.03, height: 0.04), confidence: 0.7)],
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
            let a = -0.4 + 0.3 * t, b = 0.4 - 0.3 * t  // they cross at 1.33 s
            tracker.update(
                [
                    Observation(kind: .body, box: box(yaw: a, height: 0.3), confidence: 0.9),
                    Observation(kind: .body, box: box(yaw: b, pitch: 0.02, height: 0.34), confidence: 0.9),
                ],
                camera: Self.camera, captureTime: frame(index), gimbalYawRadians: 0, gimbalPitchRadians: 0)
            if index == 10 {
                aIdentifier = tracker.tracks.min { $0.filter.angularBox.yawRadians < $1.filter.angularBox.yawRadians }?.identifier
            }
        }
        let a = tracker.tracks.first { $0.identifier == aIdentifier }
        #expect(tracker.tracks.count == 2)
        #expect(
            a.map { abs($0.filter.angularBox.yawRadians - (-0.4 + 0.3 * 89 / 30)) < 0.02 } == true,
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
            tracker.update(
                [Observation(kind: .body, box: box(yaw: subjectYaw, gimbalYaw: gimbalYaw), confidence: 0.9)],
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
        let crowd = (0..<20).map {
            Observation(kind: .face, box: box(yaw: -0.55 + Double($0) * 0.055, width: 0.02, height: 0.03), confidence: 0.8)
        }
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
        tracker.update(
            [Observation(kind: .body, box: box, confidence: 0.9)], camera: camera, captureTime: .zero,
            gimbalYawRadians: 0, gimbalPitchRadians: 0)
        let first = tracker.tracks.map(\.identifier)
        tracker.removeAll()
        #expect(tracker.tracks.isEmpty)
        tracker.update(
            [Observation(kind: .body, box: box, confidence: 0.9)], camera: camera, captureTime: .milliseconds(33),
            gimbalYawRadians: 0, gimbalPitchRadians: 0)
        #expect(first == [1] && tracker.tracks.map(\.identifier) == [2])
    }
}

/// The association rules real detections need: confidence in two stages, overlap and size, and
/// lifetimes through an occlusion; in virtual time, frames at 30 fps.
extension SubjectTrackerTests {
    func update(_ tracker: inout SubjectTracker, _ observations: [Observation], at index: Int) {
        tracker.predict(to: frame(index))
        tracker.update(observations, camera: Self.camera, captureTime: frame(index), gimbalYawRadians: 0, gimbalPitchRadians: 0)
    }

    @Test func anUnconfidentBoxKeepsAConfirmedTrackButStartsNone() throws {
        var tracker = SubjectTracker()
        for index in 0..<10 { update(&tracker, [Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)], at: index) }
        let person = try #require(tracker.tracks.first)
        #expect(person.phase == .confirmed)
        // Half hidden, the person gives weak boxes; a weak box appears where nobody is, too.
        for index in 10..<25 {
            update(
                &tracker,
                [
                    Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.3),
                    Observation(kind: .body, box: box(yaw: -0.3), confidence: 0.3),
                ], at: index)
        }
        #expect(tracker.tracks.map(\.identifier) == [person.identifier], "the weak box elsewhere started no track")
        #expect(tracker.tracks.first?.phase == .confirmed, "the weak boxes kept the person's track from coasting")
        #expect(tracker.tracks.first?.hits == person.hits + 15)
        // A confident box of the same pair would have started a track: the difference is the confidence.
        update(
            &tracker,
            [
                Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.3),
                Observation(kind: .body, box: box(yaw: -0.3), confidence: 0.9),
            ], at: 25)
        #expect(tracker.tracks.count == 2 && tracker.tracks[1].phase == .tentative)
    }

    @Test func aWeakBoxKeepsACoastingTrackAliveWithoutMovingIt() throws {
        // A person seen, then hidden: for a while nothing, then only weak boxes a little to the
        // side of where the track expects them (half hidden). The weak boxes keep the coasting
        // track from being deleted at 1.5 s, up to 2 s, but move nothing and do not confirm it; a
        // weak box where nobody is expected starts nothing; without the weak boxes it is deleted.
        var vouched = SubjectTracker(), control = SubjectTracker()
        for index in 0..<20 {
            let seen = [Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)]
            update(&vouched, seen, at: index)
            update(&control, seen, at: index)
        }
        let person = try #require(vouched.tracks.first)
        #expect(person.phase == .confirmed)
        for index in 20..<30 {
            update(&vouched, [], at: index)
            update(&control, [], at: index)
        }
        #expect(vouched.tracks.first?.phase == .coasting)
        let weak = [
            Observation(kind: .body, box: box(yaw: 0.11), confidence: 0.5),
            Observation(kind: .body, box: box(yaw: -0.3), confidence: 0.5),
        ]
        for index in 30..<70 {
            update(&vouched, weak, at: index)
            update(&control, [], at: index)
            if index == 50 {
                let a = try #require(vouched.tracks.first), b = try #require(control.tracks.first)
                for component in 0..<6 {
                    #expect(a.filter.state[component] == b.filter.state[component], "the weak boxes were not fused")
                }
            }
        }
        // Frame 69 is 1.67 s after the last confident box: only the weak boxes kept the track.
        #expect(control.tracks.isEmpty)
        let kept = try #require(vouched.tracks.first)
        #expect(vouched.tracks.count == 1, "the weak box nobody expected started nothing")
        #expect(kept.identifier == person.identifier && kept.phase == .coasting && kept.hits == person.hits)
        // Weak boxes alone keep it no more than 2 s after the last one fused (frame 80: 2.03 s).
        for index in 70..<81 { update(&vouched, weak, at: index) }
        #expect(vouched.tracks.isEmpty, "deleted 2 s after the last box fused")
    }

    @Test func aConfidentBoxIsMatchedBeforeAnUnconfidentOne() throws {
        // Two boxes near a track: the confident one a little off, the unconfident one right on it.
        // The confident one is fused (first stage); the weak one, left over, starts nothing.
        var tracker = SubjectTracker()
        for index in 0..<10 { update(&tracker, [Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.9)], at: index) }
        let before = try #require(tracker.tracks.first).filter.angularBox.yawRadians
        update(
            &tracker,
            [
                Observation(kind: .body, box: box(yaw: 0.1), confidence: 0.2),
                Observation(kind: .body, box: box(yaw: 0.11), confidence: 0.9),
            ], at: 10)
        #expect(tracker.tracks.count == 1)
        let after = try #require(tracker.tracks.first).filter.angularBox.yawRadians
        #expect(after > before + 0.002, "moved towards the confident box: \(before) → \(after)")
    }

    @Test func aRecurringFalsePositiveNeverBecomesAConfirmedTrack() {
        // A poster the detector takes for a person now and then: unsure (0.55, below the birth
        // confidence) every frame, or sure (0.9) for a single frame at a time, once a second.
        var tracker = SubjectTracker()
        for index in 0..<120 {
            var observations = [Observation(kind: .body, box: box(yaw: 0.3), confidence: 0.55)]
            if index % 30 == 0 { observations.append(Observation(kind: .body, box: box(yaw: -0.3), confidence: 0.9)) }
            update(&tracker, observations, at: index)
            #expect(tracker.tracks.allSatisfy { $0.phase == .tentative }, "frame \(index)")
        }
        #expect(tracker.tracks.isEmpty)
    }

    @Test func aCoastingTrackIsNotHandedALargerPersonWhereItWasPredicted() throws {
        // A far person (small box) stops being seen; a nearer person, twice as tall, steps into the
        // very place. The nearer one gets a new track; the far one's track coasts untouched.
        var tracker = SubjectTracker()
        for index in 0..<15 {
            update(&tracker, [Observation(kind: .body, box: box(yaw: 0.0, width: 0.05, height: 0.15), confidence: 0.9)], at: index)
        }
        let far = try #require(tracker.tracks.first)
        for index in 15..<40 {
            update(&tracker, [Observation(kind: .body, box: box(yaw: 0.0, width: 0.1, height: 0.3), confidence: 0.9)], at: index)
        }
        let farNow = try #require(tracker.tracks.first { $0.identifier == far.identifier })
        #expect(farNow.phase == .coasting && farNow.hits == far.hits, "the far track was not fed the near person")
        #expect(tracker.tracks.contains { $0.identifier != far.identifier && $0.phase == .confirmed })
    }

    @Test func crossingWithAnOcclusionGapKeepsBothIdentifiers() throws {
        // A (far, small) walks right; B (near, larger) walks left and hides A completely for 0.6 s
        // (18 frames: A is not detected at all) as they cross. Each keeps its ID, and A's coasting
        // track is not handed B's boxes.
        var tracker = SubjectTracker()
        func a(_ t: Double) -> Double { -0.3 + 0.25 * t }
        func b(_ t: Double) -> Double { 0.3 - 0.25 * t }
        var identifiers: (a: Int, b: Int)?
        for index in 0..<75 {
            let t = Double(index) / 30
            var observations = [Observation(kind: .body, box: box(yaw: b(t), pitch: -0.02, width: 0.12, height: 0.4), confidence: 0.95)]
            let hidden = abs(a(t) - b(t)) < 0.15
            if !hidden { observations.append(Observation(kind: .body, box: box(yaw: a(t), width: 0.07, height: 0.22), confidence: 0.9)) }
            update(&tracker, observations, at: index)
            if index == 10 {
                let left = try #require(tracker.tracks.min { $0.filter.angularBox.yawRadians < $1.filter.angularBox.yawRadians })
                let right = try #require(tracker.tracks.max { $0.filter.angularBox.yawRadians < $1.filter.angularBox.yawRadians })
                identifiers = (left.identifier, right.identifier)
            }
            if hidden, let identifiers, let coasting = tracker.tracks.first(where: { $0.identifier == identifiers.a }) {
                #expect(abs(coasting.filter.angularBox.heightRadians - 0.22) < 0.05, "frame \(index): A's track kept A's size")
            }
        }
        let ids = try #require(identifiers)
        let t = 74.0 / 30
        let trackA = try #require(tracker.tracks.first { $0.identifier == ids.a }, "A's identifier survived the gap")
        let trackB = try #require(tracker.tracks.first { $0.identifier == ids.b })
        #expect(abs(trackA.filter.angularBox.yawRadians - a(t)) < 0.02 && trackA.phase == .confirmed)
        #expect(abs(trackB.filter.angularBox.yawRadians - b(t)) < 0.02)
        #expect(tracker.tracks.count == 2, "no third track: \(tracker.tracks.map(\.identifier))")
    }

    @Test func theDetectorsOwnIdentifierKeepsTwoCloseSubjectsApart() throws {
        // Two people of one size side by side, 0.03 rad apart, their boxes overlapping: in frame
        // 20 each box is drawn where the other was expected. Without the detector's identifiers
        // the tracks follow the geometry; with them, each keeps the box with its identifier.
        func run(identifiers: Bool) throws -> (left: Double, right: Double, leftIdentifier: Int?) {
            var tracker = SubjectTracker()
            for index in 0..<20 {
                update(
                    &tracker,
                    [
                        Observation(kind: .body, box: box(yaw: 0.0), confidence: 0.9, identifier: identifiers ? 7 : nil),
                        Observation(kind: .body, box: box(yaw: 0.03), confidence: 0.9, identifier: identifiers ? 9 : nil),
                    ],
                    at: index)
            }
            let left = try #require(tracker.tracks.min { $0.filter.angularBox.yawRadians < $1.filter.angularBox.yawRadians })
            update(
                &tracker,
                [
                    Observation(kind: .body, box: box(yaw: 0.03), confidence: 0.9, identifier: identifiers ? 7 : nil),
                    Observation(kind: .body, box: box(yaw: 0.0), confidence: 0.9, identifier: identifiers ? 9 : nil),
                ],
                at: 20)
            let after = try #require(tracker.tracks.first { $0.identifier == left.identifier })
            let other = try #require(tracker.tracks.first { $0.identifier != left.identifier })
            return (after.filter.angularBox.yawRadians, other.filter.angularBox.yawRadians, after.detectorIdentifier)
        }
        let geometric = try run(identifiers: false)
        #expect(geometric.left < geometric.right, "without identifiers the left track takes the left box")
        let vouched = try run(identifiers: true)
        #expect(vouched.leftIdentifier == 7)
        #expect(vouched.left > geometric.left + 0.005, "with them it follows detector 7's box to the right: \(vouched.left)")
    }

    /// The detector's identifier lifts the overlap floor: a young track is paired with the box
    /// that carries its identifier though that box no longer meets the one it expected, rather
    /// than with another identifier's box that does (the association refuses pairs that do not
    /// meet before anything else about them, but not such a one).
    @Test func theDetectorsIdentifierVouchesForABoxThatNoLongerOverlaps() throws {
        func run(identifiers: Bool) throws -> (identifier: Int?, yaw: Double) {
            var tracker = SubjectTracker()
            update(
                &tracker, [Observation(kind: .body, box: box(yaw: 0, width: 0.03), confidence: 0.9, identifier: identifiers ? 7 : nil)],
                at: 0)
            let track = try #require(tracker.tracks.first)
            // Its own box moved on by more than its width; another, overlapping it, came in.
            let moved = box(yaw: 0.04, width: 0.03), stranger = box(yaw: 0.01, width: 0.03)
            #expect(
                !tracker.tracks[0].filter.angularBox.project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)!.intersects(
                    moved))
            update(
                &tracker,
                [
                    Observation(kind: .body, box: stranger, confidence: 0.9, identifier: identifiers ? 8 : nil),
                    Observation(kind: .body, box: moved, confidence: 0.9, identifier: identifiers ? 7 : nil),
                ],
                at: 1)
            let after = try #require(tracker.tracks.first { $0.identifier == track.identifier })
            return (after.detectorIdentifier, after.filter.angularBox.yawRadians)
        }
        let geometric = try run(identifiers: false)
        #expect(geometric.yaw < 0.02, "without identifiers the track takes the box that overlaps: \(geometric.yaw)")
        let vouched = try run(identifiers: true)
        #expect(vouched.identifier == 7)
        #expect(vouched.yaw > 0.02, "with them it takes its own: \(vouched.yaw)")
    }

    /// With an overlap floor of 0 a pair that does not meet is allowed: the association's early
    /// refusal of such pairs is off. A young track takes its box that moved past the one it
    /// expected; with the usual floor the box starts a track of its own.
    @Test func withNoOverlapFloorABoxThatNoLongerMeetsIsStillPaired() throws {
        func tracks(minimumOverlap: Double) throws -> Int {
            var configuration = SubjectTracker.Configuration()
            configuration.minimumOverlap = minimumOverlap
            var tracker = SubjectTracker(configuration: configuration)
            update(&tracker, [Observation(kind: .body, box: box(yaw: 0, width: 0.03), confidence: 0.9)], at: 0)
            let expected = try #require(
                tracker.tracks.first?.filter.angularBox.project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
            let moved = box(yaw: 0.04, width: 0.03)
            #expect(!expected.intersects(moved))
            update(&tracker, [Observation(kind: .body, box: moved, confidence: 0.9)], at: 1)
            return tracker.tracks.count
        }
        #expect(try tracks(minimumOverlap: 0.1) == 2)
        #expect(try tracks(minimumOverlap: 0) == 1)
    }

    @Test func configurationsAreChecked() {
        #expect(SubjectTracker.Configuration().isValid)
        for change: (inout SubjectTracker.Configuration) -> Void in [
            { $0.maximumTracks = 0 }, { $0.maximumTracks = 65 }, { $0.gate = .nan }, { $0.confidentThreshold = 1.5 },
            { $0.minimumConfidence = 0.9 }, { $0.birthConfidence = -0.1 }, { $0.minimumOverlap = 2 }, { $0.sizeRatioGate = 1 },
            { $0.confirmationHits = 0 }, { $0.coastAfter = .zero }, { $0.noise.accelerationNoise = .infinity },
            { $0.quickConfirmationConfidence = .nan }, { $0.overlapWeight = -1 }, { $0.coastingReach = .nan }, { $0.coastingGate = -1 },
            { $0.accelerationPerHeight = .infinity },
            { $0.minimumOverlapCoasting = 1.5 }, { $0.distantReach = -1 }, { $0.unpairedCost = 0 }, { $0.unpairedCost = .nan },
            { $0.coastingAccelerationPerHeight = -1 }, { $0.coastingRateWindow = .milliseconds(-1) }, { $0.coastTimeoutPerSeen = -1 },
        ] {
            var configuration = SubjectTracker.Configuration()
            change(&configuration)
            #expect(!configuration.isValid, "\(configuration)")
        }
    }
}

/// What a lost track's prediction does: it stays near where its person was lost.
extension SubjectTrackerTests {
    @Test func aCoastingTracksPredictionStaysAtTheHeightItsPersonWasLost() throws {
        // A person walks to the right at 0.2 rad/s; the last two boxes, half hidden behind
        // someone nearer, slip down the image (their tops cut off), which gives the track a
        // vertical rate. Then nothing for 1.2 s.
        var tracker = SubjectTracker()
        for index in 0..<12 {
            let yaw = -0.2 + 0.2 * Double(index) / 30
            let pitch = index < 10 ? 0 : -0.035 * Double(index - 9)
            update(&tracker, [Observation(kind: .body, box: box(yaw: yaw, pitch: pitch), confidence: 0.9)], at: index)
        }
        let seen = try #require(tracker.tracks.first)
        let pitchRate = seen.filter.rates.pitchRadiansPerSecond
        #expect(pitchRate < -0.1, "the last boxes gave the track a vertical rate: \(pitchRate) rad/s")
        // Still confirmed for the first 150 ms: the rates go on as they were.
        tracker.predict(to: frame(11) + .milliseconds(160))
        let lost = try #require(tracker.tracks.first)
        #expect(lost.phase == .coasting)
        #expect(lost.filter.rates.pitchRadiansPerSecond == 0, "a lost track has no vertical rate")
        let lostBox = lost.filter.angularBox
        for step in 1...26 {
            tracker.predict(to: frame(11) + .milliseconds(160 + 40 * step))
        }
        let coasted = try #require(tracker.tracks.first)
        #expect(coasted.phase == .coasting && coasted.identifier == seen.identifier)
        let box = coasted.filter.angularBox
        #expect(
            abs(box.pitchRadians - lostBox.pitchRadians) < 1e-9,
            "the prediction stays at the height the person was lost at: \(lostBox.pitchRadians) → \(box.pitchRadians)")
        #expect(
            abs(box.heightRadians - lostBox.heightRadians) < 1e-9 && abs(box.widthRadians - lostBox.widthRadians) < 1e-9,
            "and at its size")
        // Without the rule it would have gone down by |rate| × 1.04 s, a third of its height or more.
        #expect(abs(pitchRate) * 1.04 > 0.1)
        // Across the image it keeps walking: a person hidden behind someone walks on.
        let walked = box.yawRadians - lostBox.yawRadians
        #expect(abs(walked - seen.filter.rates.yawRadiansPerSecond * 1.04) < 1e-6, "walked \(walked) rad")
        #expect(walked > 0.1)
    }
}
