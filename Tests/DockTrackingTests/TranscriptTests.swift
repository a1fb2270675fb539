import DockVocabulary
import Testing

@testable import DockTracking

// Frame-by-frame transcripts, in virtual time, of two of issue 23's cases — a person walking out
// of the picture (clipped boxes) and a face crossing a body the other way (face and body split) —
// printed as Markdown tables (`swift test --filter transcriptOf`; BENCHMARKS.md, session 16, has
// them), and held line by line to what each line must show.

/// Three decimals, for the tables.
private func fixed3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let sign = thousandths < 0 ? "−" : ""
    let magnitude = abs(thousandths)
    let fraction = String(magnitude % 1000)
    return "\(sign)\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

extension SubjectTrackerTests {
    /// A walker at −0.2 rad/s from yaw −0.3 to past the left border (−0.611 rad), 30 fps, their
    /// box clipped to the picture as a detector reports it: every fifth frame, and each of the
    /// last ten, the box, whether its left edge is cut, and the track's centre and width with
    /// the cut edge not measured and with every box measured as whole.
    @Test func transcriptOfAPersonWalkingOutOfTheLeftEdge() throws {
        var cutAware = SubjectTracker()
        var wholeConfiguration = SubjectTracker.Configuration()
        wholeConfiguration.clippedEdgeMargin = -1
        var whole = SubjectTracker(configuration: wholeConfiguration)
        var lines = [
            "| t (s) | true yaw | box x, width | left edge cut | cut-aware: yaw, width | whole boxes: yaw, width |",
            "|---|---|---|---|---|---|",
        ]
        var frames: [(index: Int, line: String, cut: Bool, awareError: Double, awareWidth: Double, wholeError: Double)] = []
        // Until less than 30 % of the walker's width is in the picture (as `walkOutLeft`).
        var index = 0, isOut = false
        while !isOut {
            let trueYaw = -0.3 - 0.2 * Double(index) / 30
            let box = try #require(clippedBox(yaw: trueYaw))
            let wholeBox = try #require(
                AngularBox(yawRadians: trueYaw, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.3)
                    .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
            isOut = box.width < 0.3 * wholeBox.width
            update(&cutAware, [Observation(kind: .body, box: box, confidence: 0.9)], at: index)
            update(&whole, [Observation(kind: .body, box: box, confidence: 0.9)], at: index)
            let aware = try #require(cutAware.tracks.first).filter.angularBox
            let naive = try #require(whole.tracks.first).filter.angularBox
            let cut = box.x <= 0.002
            let line =
                "| \(fixed3(Double(index) / 30)) | \(fixed3(trueYaw)) | \(fixed3(box.x)), \(fixed3(box.width)) | \(cut ? "yes" : "no") | "
                + "\(fixed3(aware.yawRadians)), \(fixed3(aware.widthRadians)) | \(fixed3(naive.yawRadians)), \(fixed3(naive.widthRadians)) |"
            frames.append((index, line, cut, aware.yawRadians - trueYaw, aware.widthRadians, naive.yawRadians - trueYaw))
            index += 1
        }
        for (position, frame) in frames.enumerated() where frame.index % 5 == 0 || position >= frames.count - 10 {
            lines.append(frame.line)
        }
        print("transcript: a person walking out of the left edge\n" + lines.joined(separator: "\n"))
        #expect(frames.count > 45 && frames.contains { $0.cut }, "the walk starts inside and ends cut")
        // Every frame of the cut-aware track after it settled (one second in): on the walker, its
        // width the walker's, cut or not.
        for frame in frames where frame.index >= 30 {
            #expect(abs(frame.awareError) < 0.01 && abs(frame.awareWidth - 0.1) < 0.01, "\(frame.line)")
        }
        // The whole-box track is dragged inwards by the last frames.
        let last = try #require(frames.last)
        #expect(last.wholeError > 0.02, "\(last.line)")
    }
}

extension TrackingPipelineTests {
    /// A body walking right at 0.2 rad/s and a face (someone behind, their body hidden) walking
    /// left at 0.25 rad/s across the body's head at 1 s: every third frame, where each is, and
    /// the subjects the pipeline makes of them (identifier: body track + face track).
    @Test func transcriptOfAFaceCrossingABodyTheOtherWay() throws {
        var pipeline = TrackingPipeline()
        let tick = Duration.nanoseconds(33_333_333)
        var now = Duration.zero
        var lines = [
            "| t (s) | body yaw | face yaw | face on the body's head | subjects (identifier: body track + face track) |",
            "|---|---|---|---|---|",
        ]
        for index in 0..<60 {
            now += tick
            let t = Double(index) / 30
            let bodyYaw = -0.2 + 0.2 * t, faceYaw = 0.25 - 0.25 * t
            pipeline.observe(
                try bodyAndFace(bodyYaw: bodyYaw, faceYaw: faceYaw), camera: Self.camera, captureTime: now,
                gimbalYawRadians: 0, gimbalPitchRadians: 0)
            _ = pipeline.step(now: now, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            let onHead = abs(faceYaw - bodyYaw) < 0.05
            let subjects = pipeline.subjects.sorted { $0.identifier < $1.identifier }.map { subject in
                "\(subject.identifier): \(subject.bodyTrack.map { "body \($0)" } ?? "–") + \(subject.faceTrack.map { "face \($0)" } ?? "–")"
            }
            if index % 3 == 0 || onHead {
                lines.append(
                    "| \(fixed3(t)) | \(fixed3(bodyYaw)) | \(fixed3(faceYaw)) | \(onHead ? "yes" : "no") | \(subjects.joined(separator: "; ")) |"
                )
            }
            // Once both are confirmed, never one subject of the two, on the head or not.
            if index >= 10 {
                #expect(
                    !pipeline.subjects.contains { $0.bodyTrack != nil && $0.faceTrack != nil },
                    "frame \(index): \(subjects)")
                #expect(pipeline.subjects.count == 2, "frame \(index): \(subjects)")
            }
        }
        print("transcript: a face crossing a body the other way\n" + lines.joined(separator: "\n"))
    }
}

/// One frame of `crowdScene`: where the two walkers are (pixels of a 640 × 480 picture), how much
/// of the far one shows, and what the detector reports.
struct CrowdFrame {
    let index: Int
    /// Walker A's (far) and B's (near) true left edges.
    let aLeft: Double, bLeft: Double
    /// The share of A's width not behind B.
    let share: Double
    /// A's box as the detector reports it (the visible run of columns), or nil: lost behind B.
    let aSeen: NormalizedRect?
    /// B's box, or nil: missed.
    let bSeen: NormalizedRect?
}

/// A crowd's first two seconds at 30 fps, as `scripts/mot_crowd.py` models a detector: walker A
/// (far: 40 × 120 px, bottom at y 300) walks right at 2 px a frame from x 200; walker B (near:
/// 50 × 160 px, bottom at 340) beside and behind them walks right at 4.5 px a frame from x 140 and
/// passes in front. The detector reports the part of A that B leaves visible — a box that
/// shrinks from the left as B comes over A, and grows back from the left as B moves on —, loses
/// A below 0.35 of their width and finds them again only from 0.55; B is missed in frames 22 and
/// 23 (while A is hidden: a box for A's track to take, if it would).
func crowdScene() -> [CrowdFrame] {
    var frames: [CrowdFrame] = []
    var isLost = false
    func rect(_ left: Double, _ top: Double, _ width: Double, _ height: Double) -> NormalizedRect {
        NormalizedRect(x: left / 640, y: top / 480, width: width / 640, height: height / 480)
    }
    for index in 0..<60 {
        let aLeft = 200 + 2 * Double(index), bLeft = 140 + 4.5 * Double(index)
        let aRight = aLeft + 40, bRight = bLeft + 50
        // The widest run of A's columns B leaves visible.
        var run = (aLeft, aRight)
        if bRight > aLeft && bLeft < aRight {
            let left = (aLeft, max(aLeft, bLeft)), right = (min(aRight, bRight), aRight)
            run = left.1 - left.0 >= right.1 - right.0 ? left : right
        }
        let share = (run.1 - run.0) / 40
        isLost = share < (isLost ? 0.55 : 0.35)
        frames.append(
            CrowdFrame(
                index: index, aLeft: aLeft, bLeft: bLeft, share: share,
                aSeen: isLost ? nil : rect(run.0, 180, run.1 - run.0, 120),
                bSeen: index == 22 || index == 23 ? nil : rect(bLeft, 180, 50, 160)))
    }
    return frames
}

extension SubjectTrackerTests {
    /// What a tracker did with one frame of `crowdScene`: which track took A's and B's boxes, and
    /// where the track born on A is.
    struct CrowdStep {
        let frame: CrowdFrame
        /// The identifiers of the tracks that took A's box and B's box this frame (nil: nobody, or no box).
        let aTakenBy: Int?, bTakenBy: Int?
        /// The track born on A: its phase and its centre's x (pixels), nil once it is gone.
        let aTrack: (phase: SubjectTracker.Phase, centre: Double)?
        /// The identifiers of the confirmed tracks.
        let confirmed: [Int]
    }

    /// Runs `crowdScene` through a tracker with `configuration`; A's track is the one born on A's
    /// first box.
    func runCrowdScene(_ configuration: SubjectTracker.Configuration) throws -> (steps: [CrowdStep], aIdentifier: Int, bIdentifier: Int) {
        var tracker = SubjectTracker(configuration: configuration)
        var steps: [CrowdStep] = []
        var aIdentifier = 0, bIdentifier = 0
        for frame in crowdScene() {
            let before = Dictionary(uniqueKeysWithValues: tracker.tracks.map { ($0.identifier, $0.hits) })
            var observations: [Observation] = []
            if let b = frame.bSeen { observations.append(Observation(kind: .body, box: b, confidence: 0.9)) }
            if let a = frame.aSeen { observations.append(Observation(kind: .body, box: a, confidence: 0.5 + 0.4 * frame.share)) }
            update(&tracker, observations, at: frame.index)
            if frame.index == 0 {
                // B's box came first: B's track was born first.
                bIdentifier = try #require(tracker.tracks.first?.identifier)
                aIdentifier = try #require(tracker.tracks.last?.identifier)
            }
            // A track that fused a box this frame took the box its centre is nearer to.
            var aTakenBy: Int?, bTakenBy: Int?
            for track in tracker.tracks where track.hits > (before[track.identifier] ?? 0) {
                let centre =
                    track.filter.angularBox.project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)
                    .map { $0.x + $0.width / 2 } ?? .nan
                let toA = frame.aSeen.map { abs($0.x + $0.width / 2 - centre) } ?? .infinity
                let toB = frame.bSeen.map { abs($0.x + $0.width / 2 - centre) } ?? .infinity
                if toA < toB { aTakenBy = track.identifier } else { bTakenBy = track.identifier }
            }
            let aTrack = tracker.tracks.first { $0.identifier == aIdentifier }.flatMap { track in
                track.filter.angularBox.project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)
                    .map { (track.phase, 640 * ($0.x + $0.width / 2)) }
            }
            steps.append(
                CrowdStep(
                    frame: frame, aTakenBy: aTakenBy, bTakenBy: bTakenBy, aTrack: aTrack,
                    confirmed: tracker.tracks.filter { $0.phase != .tentative }.map(\.identifier)))
        }
        return (steps, aIdentifier, bIdentifier)
    }

    /// One transcript line: the frame, the walkers, the boxes, and for both trackers who took them.
    func crowdLine(_ step: CrowdStep, _ whole: CrowdStep) -> String {
        func span(_ box: NormalizedRect?) -> String {
            box.map { "\(Int((640 * $0.x).rounded()))–\(Int((640 * $0.maxX).rounded()))" } ?? "–"
        }
        func taken(_ identifier: Int?) -> String { identifier.map { "\($0)" } ?? "–" }
        func track(_ aTrack: (phase: SubjectTracker.Phase, centre: Double)?) -> String {
            aTrack.map { "\($0.phase), \(Int($0.centre.rounded()))" } ?? "gone"
        }
        let frame = step.frame
        return
            "| \(frame.index) | \(Int(frame.aLeft))–\(Int(frame.aLeft + 40)) | \(fixed3(frame.bLeft).dropLast(2))–\(fixed3(frame.bLeft + 50).dropLast(2)) | "
            + "\(fixed3(frame.share).dropLast(1)) | \(span(frame.aSeen)) | \(span(frame.bSeen)) | \(taken(step.aTakenBy)) | \(taken(step.bTakenBy)) | "
            + "\(track(step.aTrack)) | \(taken(whole.aTakenBy)) | \(taken(whole.bTakenBy)) | \(track(whole.aTrack)) |"
    }

    static let crowdHeader = [
        "| frame | A (true x) | B (true x) | A's visible share | A's box | B's box | A's box to | B's box to | A's track: phase, centre x "
            + "| whole boxes: A's box to | B's box to | A's track |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    /// `crowdScene`, frames 0–32: walker A's track, confirmed in the first frames (young), while
    /// the nearer walker B passes in front of A. A's boxes shrink from the left as B comes over
    /// them, then A is lost (frame 15) and B's box goes missing twice (frames 22–23). The left
    /// edge B covers is cut (`occludedEdgeTolerance`): A's track stays on A's right edge, coasts
    /// where A walks, and takes none of B's boxes. Measured whole, the shrinking boxes drag the
    /// track right of A and teach it a pace A does not have: it coasts off ahead of them, into B.
    @Test func transcriptOfAYoungTrackWhosePersonIsHiddenByANeighbour() throws {
        var wholeConfiguration = SubjectTracker.Configuration()
        wholeConfiguration.occludedEdgeTolerance = -1
        let (steps, a, b) = try runCrowdScene(SubjectTracker.Configuration())
        let (whole, wholeA, _) = try runCrowdScene(wholeConfiguration)
        var lines = Self.crowdHeader
        for (step, control) in zip(steps, whole) where step.frame.index <= 32 {
            let line = crowdLine(step, control)
            lines.append(line)
            let frame = step.frame, aCentre = frame.aLeft + 20
            // A's box, when there is one, goes to A's track; B's never does.
            if frame.aSeen != nil, frame.index >= 1 { #expect(step.aTakenBy == a, "\(line)") }
            if frame.bSeen != nil { #expect(step.bTakenBy == b, "\(line)") }
            #expect(step.bTakenBy != a && step.aTakenBy != b, "\(line)")
            // A's track stays where A is: on them while seen, within half their width while hidden.
            let track = try #require(step.aTrack, "\(line)")
            #expect(abs(track.centre - aCentre) < (frame.aSeen == nil ? 20 : 8), "\(line)")
            // Coasting 150 ms after its last box (frame 14).
            if frame.index >= 19 { #expect(track.phase == .coasting, "\(line)") }
        }
        print("transcript: a young track whose person is hidden by a neighbour\n" + lines.joined(separator: "\n"))
        // Measured whole, A's track is half A's width ahead of A by the time A is fully hidden,
        // and walks on faster than A.
        let dragged = try #require(whole.first { $0.frame.index == 20 }?.aTrack)
        let later = try #require(whole.first { $0.frame.index == 32 }?.aTrack)
        #expect(dragged.centre - 260 > 15, "whole boxes: A's track at \(dragged.centre), A at 260")
        #expect(later.centre - 284 > dragged.centre - 260 + 10, "whole boxes: A's track at \(later.centre), A at 284")
        #expect(wholeA == a)
    }

    /// `crowdScene`, frames 30–59: walker A comes out from behind B on the left (found again at
    /// frame 33, 0.6 s after they were lost, well within the 1.5 s a track coasts), their box
    /// growing back from the side B leaves. A's box goes to A's track, under the identifier it had
    /// before, from the first frame on; no other track is confirmed on A, and B keeps theirs.
    /// Measured whole, A's track has coasted off into B and A comes back as someone new.
    @Test func transcriptOfAHiddenPersonComingBackUnderTheirIdentifier() throws {
        var wholeConfiguration = SubjectTracker.Configuration()
        wholeConfiguration.occludedEdgeTolerance = -1
        let (steps, a, b) = try runCrowdScene(SubjectTracker.Configuration())
        let (whole, wholeA, wholeB) = try runCrowdScene(wholeConfiguration)
        var lines = Self.crowdHeader
        for (step, control) in zip(steps, whole) where step.frame.index >= 30 {
            let line = crowdLine(step, control)
            lines.append(line)
            let frame = step.frame
            if frame.aSeen != nil { #expect(step.aTakenBy == a, "\(line)") }
            if frame.bSeen != nil { #expect(step.bTakenBy == b, "\(line)") }
            #expect(Set(step.confirmed) == [a, b], "\(line)")
            let track = try #require(step.aTrack, "\(line)")
            if frame.aSeen != nil { #expect(abs(track.centre - (frame.aLeft + 20)) < 8, "\(line)") }
        }
        #expect(steps.first { $0.frame.aSeen != nil && $0.frame.index >= 30 }?.frame.index == 33, "A is found again at frame 33")
        print("transcript: a hidden person coming back under their identifier\n" + lines.joined(separator: "\n"))
        // Measured whole, A came back under another identifier, and A's track coasts in B's place.
        let back = try #require(whole.first { $0.frame.index == 45 })
        #expect(
            back.aTakenBy != nil && back.aTakenBy != wholeA && back.aTakenBy != wholeB, "whole boxes: A's box went to \(back.aTakenBy ?? 0)"
        )
        let lost = try #require(back.aTrack)
        #expect(
            lost.centre > back.frame.bLeft && lost.centre < back.frame.bLeft + 50,
            "whole boxes: A's track at \(lost.centre), B at \(back.frame.bLeft)")
    }
}
