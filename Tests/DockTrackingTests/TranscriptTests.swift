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
