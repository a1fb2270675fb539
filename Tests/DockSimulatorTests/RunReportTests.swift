import DockVocabulary
import Foundation
import Testing

@testable import DockSimulator

/// The report's per-frame series (capture time, framing error, the tracker's primary), the count
/// of primary ID switches, and the JSON that carries them.
@Suite struct RunReportTests {
    /// A frame at `seconds` with subject 1's body centred `offset` right of the image centre, or
    /// without subject 1 in the room.
    static func truth(_ seconds: Double, offset: Double?) -> GroundTruthFrame {
        let parts =
            offset.map { offset in
                [
                    GroundTruthPart(
                        subjectIdentifier: 1, kind: .body, box: NormalizedRect(x: 0.4 + offset, y: 0.2, width: 0.2, height: 0.6),
                        inFrameFraction: 1, visibleFraction: 1, wasReported: true)
                ]
            } ?? []
        return GroundTruthFrame(
            captureTime: .milliseconds(Int64((seconds * 1000).rounded())), yawRadians: 0, pitchRadians: 0,
            parts: parts, presentSubjects: offset == nil ? [] : [1])
    }

    /// Ten seconds at 10 frames a second: the subject drifts right, leaves from 4 s to 5 s; the
    /// tracker is unknown for the first second, follows 3 until 6 s (none while the subject is
    /// away), then 7; an unplug from 2 s to 3 s and a reboot at 8 s.
    static func syntheticReport(withTracker: Bool = true) -> RunReport {
        var report = RunReport(scenarioName: "walk <&> back", seed: 5, toleranceFraction: 0.1)
        for index in 0..<100 {
            let seconds = Double(index) / 10
            let isAway = seconds >= 4 && seconds < 5
            let tracker: TrackerPrimary =
                if !withTracker || seconds < 1 { .unknown } else if isAway { .none } else if seconds < 6 { .subject(3) } else {
                    .subject(7)
                }
            report.record(truth(seconds, offset: isAway ? nil : seconds / 50), primary: 1, tracker: tracker)
        }
        report.faults = [
            FaultRecord(kind: "unplug", startSeconds: 2, endSeconds: 3, recoveredAfterSeconds: 0.4, faultIndex: 0),
            FaultRecord(kind: "reboot", startSeconds: 8, endSeconds: 8, recoveredAfterSeconds: 0.2, faultIndex: 1),
        ]
        return report
    }

    @Test func theReportKeepsEveryFrameWithItsTimeErrorAndPrimary() {
        let report = Self.syntheticReport()
        #expect(report.frames.count == 100)
        #expect(report.framingErrors.count == 90, "frames with the primary away have no error")
        #expect(report.frames[41].framingError == nil)
        #expect(report.frames[0].trackerPrimary == nil && report.frames[10].trackerPrimary == 3)
        #expect(report.frames[45].trackerPrimary == nil && report.frames[99].trackerPrimary == 7)
        #expect(abs(report.frames[20].captureSeconds - 2) < 1e-12)
        #expect(abs((report.frames[20].framingError ?? 0) - 0.04) < 1e-12)
        // 3, none, 3 again is not a switch; 3 to 7 is.
        #expect(report.primaryIDSwitches == 1)
        #expect(Self.syntheticReport(withTracker: false).primaryIDSwitches == nil)
    }

    @Test func aTrackerWithoutPrimaryCountsZeroSwitchesNotUnknown() {
        var report = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        report.record(Self.truth(0, offset: 0), primary: 1, tracker: .none)
        #expect(report.primaryIDSwitches == 0)
    }

    @Test func theJSONKeepsItsFieldsAndAddsTheSeries() throws {
        var report = Self.syntheticReport()
        report.cameraApp = CameraAppCounts(batches: 100, sent: 95, refused: 1, dropped: 4, statusSamples: 98)
        let text = report.json(criteria: PassCriteria(framingToleranceFraction: 0.1))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        for key in [
            "scenario", "seed", "frames", "primary_frames", "framing_error", "framing_tolerance",
            "primary_in_tolerance_share", "primary_id_switches", "dock_frames", "faults", "criteria", "passed",
        ] {
            #expect(json[key] != nil, "\(key) is still there")
        }
        #expect(json["frames"] as? Int == 100 && json["primary_frames"] as? Int == 90)
        #expect(json["primary_id_switches"] as? Int == 1)
        let series = try #require(json["series"] as? [String: [Any]])
        #expect(series["capture_s"]?.count == 100 && series["framing_error"]?.count == 100 && series["primary_id"]?.count == 100)
        #expect(series["capture_s"]?[15] as? Double == 1.5)
        #expect(series["framing_error"]?[20] as? Double == 0.04)
        #expect(series["framing_error"]?[41] is NSNull)
        #expect(series["primary_id"]?[0] is NSNull && series["primary_id"]?[99] as? Int == 7)
        let cameraApp = try #require(json["camera_app"] as? [String: Int])
        #expect(cameraApp == ["batches": 100, "sent": 95, "refused": 1, "dropped": 4, "status_samples": 98])

        let without = Self.syntheticReport(withTracker: false).json(criteria: PassCriteria(framingToleranceFraction: 0.1))
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(without.utf8)) as? [String: Any])
        #expect(plain["camera_app"] is NSNull && plain["primary_id_switches"] is NSNull)
    }

    /// Two people side by side, 1 at x 0.2...0.4 and 2 at x 0.6...0.8.
    static func pair(_ seconds: Double, still: [Int] = [], yaw: Double = 0, commands: VelocityCommandCounts = VelocityCommandCounts())
        -> GroundTruthFrame
    {
        let parts = [(1, 0.2), (2, 0.6)].map { subject, x in
            GroundTruthPart(
                subjectIdentifier: subject, kind: .body, box: NormalizedRect(x: x, y: 0.2, width: 0.2, height: 0.6),
                inFrameFraction: 1, visibleFraction: 1, wasReported: true)
        }
        return GroundTruthFrame(
            captureTime: .milliseconds(Int64((seconds * 1000).rounded())), yawRadians: yaw, pitchRadians: 0,
            parts: parts, presentSubjects: [1, 2], stillSubjects: still, velocityCommands: commands)
    }

    @Test func personSwitchesCountTheTruePersonBehindThePrimaryNotItsID() throws {
        var report = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        let onFirst = NormalizedRect(x: 0.21, y: 0.2, width: 0.2, height: 0.6)
        let onSecond = NormalizedRect(x: 0.59, y: 0.22, width: 0.2, height: 0.58)
        let between = NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.6)
        // The same ID the whole time: on person 1, between the two (no judgement), on person 2.
        for index in 0..<30 {
            let box = index < 10 ? onFirst : index < 20 ? between : onSecond
            report.record(Self.pair(Double(index) / 10), primary: 1, tracker: .subject(4), trackerBox: box)
        }
        #expect(report.primaryIDSwitches == 0)
        #expect(report.primaryPersonSwitches == 1)
        #expect(report.frames[5].truePerson == 1 && report.frames[15].truePerson == nil && report.frames[25].truePerson == 2)
        #expect(RunReport.person(behind: between, in: Self.pair(0)) == nil, "half on each is nobody clearly")
        let criteria = PassCriteria(maximumPrimaryPersonSwitches: 0, framingToleranceFraction: 0.1)
        #expect(report.verdicts(criteria).map(\.isMet) == [false])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json(criteria: criteria).utf8)) as? [String: Any])
        #expect(json["primary_person_switches"] as? Int == 1)
        let series = try #require(json["series"] as? [String: [Any]])
        #expect(series["primary_person"]?[0] as? Int == 1 && series["primary_person"]?[29] as? Int == 2)
        #expect(series["primary_person"]?[15] is NSNull)
        // Without tracker output nothing is known.
        var unknown = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        unknown.record(Self.pair(0), primary: 1)
        #expect(unknown.primaryPersonSwitches == nil)
    }

    @Test func aDockCountsItsCommandsMovingCommandsAndReversals() {
        var counts = VelocityCommandCounts()
        for (yaw, pitch) in [(0, 0), (5, 0), (7, -1), (0, 0), (-3, -2), (4, 3), (0, 2)] as [(Int32, Int32)] {
            counts.count(yawMicroradiansPerSecond: yaw, pitchMicroradiansPerSecond: pitch)
        }
        // Yaw: + + (zero) − + : two reversals; pitch: − − + : one.
        #expect(counts.commands == 7 && counts.movingCommands == 5 && counts.reversals == 3)
    }

    @Test func stillnessCountsReversalsAndJitterOnlyWhileTheSubjectHasBeenStillAWhile() throws {
        var report = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        var counts = VelocityCommandCounts()
        // 10 s at 10 frames a second; subject 1 still from 2 s on. Before that the dock slews
        // (large moves, reversals), after 4 s (2 s settling) it alternates ±0.01 rad with a
        // reversal each frame.
        for index in 0..<100 {
            let seconds = Double(index) / 10
            let isStill = seconds >= 2
            let yaw = seconds < 4 ? seconds * 0.3 : 1.2 + (index.isMultiple(of: 2) ? 0.01 : -0.01)
            let rate: Int32 = index.isMultiple(of: 2) ? 1000 : -1000
            counts.count(yawMicroradiansPerSecond: rate, pitchMicroradiansPerSecond: 0)
            report.record(Self.pair(seconds, still: isStill ? [1] : [], yaw: yaw, commands: counts), primary: 1)
        }
        let still = try #require(report.stillness)
        #expect(abs(still.seconds - 5.9) < 1e-9, "from 4.0 s to 9.9 s")
        #expect(abs(still.commandReversalsPerSecond - 10) < 1e-9)
        // ±0.01 rad about a moving mean that stays within 0.01/11 of 1.2, but for the first half
        // second, whose window still holds the end of the slew: 0.0130048 rad (worked out separately
        // over the 60 frames).
        #expect(
            abs(still.jitterRMSDegrees - 0.013_004_8 * 180 / .pi) < 1e-4,
            "jitter \(still.jitterRMSDegrees)°")
        #expect(still.movingCommandShare == 1)
        let criteria = PassCriteria(maximumStillReversalsPerSecond: 1, maximumStillJitterDegrees: 1, framingToleranceFraction: 0.1)
        #expect(report.verdicts(criteria).map(\.criterion) == ["still_reversals_per_s_max", "still_jitter_deg_max"])
        #expect(report.verdicts(criteria).map(\.isMet) == [false, true])
        // One smooth move of 0.02 rad over a second, mid-stretch, is a settling move, not jitter:
        // far less than a dock hunting by ±0.01 rad.
        var settling = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        for index in 0..<100 {
            let seconds = Double(index) / 10
            let yaw = 0.02 * min(max(seconds - 5, 0), 1)
            settling.record(Self.pair(seconds, still: [1], yaw: yaw), primary: 1)
        }
        let settled = try #require(settling.stillness)
        #expect(settled.jitterRMSDegrees < 0.1 * still.jitterRMSDegrees, "jitter \(settled.jitterRMSDegrees)°")
        // A subject never still has no stillness figures, and fails a criterion on them.
        var moving = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        moving.record(Self.pair(0), primary: 1)
        #expect(moving.stillness == nil && moving.verdicts(criteria).allSatisfy { !$0.isMet })
    }
}

/// Returns: the primary subject coming back into the picture after a second or more out of it,
/// and how long until it is framed — within the tolerance, or with the camera at the end of its
/// pan range on the subject's side.
extension RunReportTests {
    /// A frame at `seconds` with subject 1's body `offset` right of centre (nil: out of the room),
    /// `inFrame` of it in the picture, standing at `bearing`, the camera at `yaw` of a ±1 rad range.
    static func frame(_ seconds: Double, offset: Double?, inFrame: Double = 1, bearing: Double = 0, yaw: Double = 0) -> GroundTruthFrame {
        var truth = truth(seconds, offset: offset)
        truth.yawRadians = yaw
        truth.yawRangeRadians = -1...1
        for index in truth.parts.indices {
            truth.parts[index].inFrameFraction = inFrame
            truth.parts[index].bearingRadians = bearing
        }
        return truth
    }

    @Test func aReturnIsTimedFromBackInThePictureToFramed() throws {
        var report = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        for index in 0..<100 {
            let seconds = Double(index) / 10
            switch seconds {
            case ..<2: report.record(Self.frame(seconds, offset: 0), primary: 1)  // framed
            case ..<3: report.record(Self.frame(seconds, offset: nil), primary: 1)  // out of the room
            case ..<4: report.record(Self.frame(seconds, offset: 0.55, inFrame: 0.2), primary: 1)  // back, mostly outside
            case ..<4.35: report.record(Self.frame(seconds, offset: 0.3), primary: 1)  // back in the picture at 4 s
            case ..<6: report.record(Self.frame(seconds, offset: 0.05), primary: 1)  // framed at 4.4 s
            case ..<6.5: report.record(Self.frame(seconds, offset: 0.05, inFrame: 0.3), primary: 1)  // out for 0.5 s: no return
            default: report.record(Self.frame(seconds, offset: 0), primary: 1)
            }
        }
        #expect(report.returns.count == 1, "\(report.returns)")
        let record = try #require(report.returns.first)
        #expect(abs(record.backSeconds - 4) < 1e-9 && abs((record.secondsToFrame ?? 0) - 0.4) < 1e-9, "\(record)")
        var criteria = PassCriteria(framingToleranceFraction: 0.1)
        criteria.maximumReframeSeconds = 0.5
        #expect(report.verdicts(criteria).filter { $0.criterion == "reframe_max_s" }.allSatisfy { $0.isMet })
        criteria.maximumReframeSeconds = 0.3
        #expect(!report.verdicts(criteria).filter { $0.criterion == "reframe_max_s" }.allSatisfy { $0.isMet })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json(criteria: criteria).utf8)) as? [String: Any])
        #expect((json["returns"] as? [[String: Double]])?.first?["back_s"] == 4)
    }

    @Test func beyondTheEndOfThePanRangeTheCameraAtThatEndFramesAsNearAsItCan() throws {
        var report = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        for index in 0..<40 {
            let seconds = Double(index) / 10
            // Framed, then out 2 s, then back at 3 s at the right edge, 1.3 rad, the camera at its
            // end stop (1 rad): framed as near as it can be, at once.
            let offset: Double? = seconds < 1 ? 0 : seconds < 3 ? nil : 0.35
            report.record(Self.frame(seconds, offset: offset, bearing: seconds < 1 ? 0 : 1.3, yaw: seconds < 1 ? 0 : 0.995), primary: 1)
        }
        #expect(report.returns.map(\.secondsToFrame) == [0], "\(report.returns)")
        // Short of the end stop, or with the subject on the other side, the edge is not framed.
        var short = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        for index in 0..<40 {
            let seconds = Double(index) / 10
            let offset: Double? = seconds < 1 ? 0 : seconds < 3 ? nil : 0.35
            short.record(Self.frame(seconds, offset: offset, bearing: 1.3, yaw: seconds < 1 ? 0 : 0.9), primary: 1)
        }
        #expect(short.returns.count == 1 && short.returns.first?.framedSeconds == nil, "\(short.returns)")
        var noScenario = PassCriteria(framingToleranceFraction: 0.1)
        noScenario.maximumReframeSeconds = 1
        let empty = RunReport(scenarioName: "s", seed: 1, toleranceFraction: 0.1)
        #expect(!empty.verdicts(noScenario).allSatisfy { $0.isMet }, "a run without a return does not meet reframe_max_s")
    }

    /// A frame at `seconds` with subject 1's body `height` of the picture's, centred `offset`
    /// right of the middle, its face (a tenth of the body high) `faceIn` inside the picture, the
    /// zoom at `magnification`.
    static func zoomed(_ seconds: Double, magnification: Double, height: Double, offset: Double = 0, faceIn: Double = 1)
        -> GroundTruthFrame
    {
        let body = NormalizedRect(x: 0.45 + offset, y: 0.5 - height / 2, width: 0.1, height: height)
        let face = NormalizedRect(x: 0.48 + offset, y: body.y, width: 0.04, height: height / 10)
        var frame = GroundTruthFrame(
            captureTime: .milliseconds(Int64((seconds * 1000).rounded())), yawRadians: 0, pitchRadians: 0,
            parts: [
                GroundTruthPart(subjectIdentifier: 1, kind: .body, box: body, inFrameFraction: 1, visibleFraction: 1, wasReported: true),
                GroundTruthPart(
                    subjectIdentifier: 1, kind: .face, box: face, inFrameFraction: faceIn, visibleFraction: faceIn, wasReported: true),
            ],
            presentSubjects: [1])
        frame.magnification = magnification
        return frame
    }

    @Test func theZoomFiguresCountReversalsTheBandAndTheFace() throws {
        // 60 s at 10 frames a second: the zoom rises 1 -> 2 (0-10 s), falls to 1.5 (10-20 s), rises
        // to 2.5 (20-30 s), then wobbles by 0.5 % (finer than a reversal) to the end. The body is
        // 0.4 of the height except 0.2 from 20 s to 25 s; the face half out of the picture at 40 s,
        // worst off-centre 0.3 at 45 s, framed again at 46 s.
        var report = RunReport(scenarioName: "zoom", seed: 1, toleranceFraction: 0.1)
        for index in 0..<600 {
            let t = Double(index) / 10
            let zoom =
                t < 10 ? 1 + t / 10 : t < 20 ? 2 - (t - 10) / 20 : t < 30 ? 1.5 + (t - 20) / 10 : 2.5 * (index % 2 == 0 ? 1 : 1.005)
            let offset = (45..<46).contains(t) ? 0.3 : 0
            report.record(
                Self.zoomed(t, magnification: zoom, height: (20..<25).contains(t) ? 0.2 : 0.4, offset: offset, faceIn: t == 40 ? 0.5 : 1),
                primary: 1)
        }
        #expect(report.zoomReversals == 2)
        #expect(abs((report.zoomReversalsPerMinute ?? 0) - 2 * 60 / 59.9) < 1e-9)
        #expect(report.leastFaceInPicture == 0.5)
        let band = ShotBand(part: .body, lowFraction: 0.35, highFraction: 0.45, fromSeconds: 10, toSeconds: 40, minimumShare: 0.9)
        let figures = try #require(report.shotBandFigures(band))
        #expect(abs(figures.share - 251.0 / 301) < 1e-9, "50 of the 301 frames from 10 s to 40 s are too small")
        #expect(figures.least == 0.2 && figures.greatest == 0.4 && figures.firstInBandSeconds == 0)
        let faceBand = ShotBand(part: .face, lowFraction: 0.035, highFraction: 0.045, fromSeconds: 0, toSeconds: 60, minimumShare: 0.5)
        #expect(report.shotBandFigures(faceBand).map { abs($0.share - 550.0 / 600) < 1e-9 } == true)
        let worst = try #require(report.worstFraming(fromSeconds: 10))
        #expect(abs(worst.error - 0.3) < 1e-9 && worst.atSeconds == 45 && worst.framedAgainSeconds == 46)

        var criteria = PassCriteria(framingToleranceFraction: 0.1)
        criteria.shotBand = band
        criteria.maximumZoomReversalsPerMinute = 2
        criteria.minimumFaceInPicture = 0.6
        let verdicts = Dictionary(uniqueKeysWithValues: report.verdicts(criteria).map { ($0.criterion, $0.isMet) })
        #expect(verdicts == ["shot_band": false, "zoom_reversals_per_min_max": false, "face_in_picture_min": false])
        criteria.shotBand?.minimumShare = 0.8
        criteria.maximumZoomReversalsPerMinute = 2.1
        criteria.minimumFaceInPicture = 0.5
        #expect(report.verdicts(criteria).allSatisfy { $0.isMet })

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json(criteria: criteria).utf8)) as? [String: Any])
        let zoom = try #require(json["zoom"] as? [String: Any])
        #expect(zoom["magnification_min"] as? Double == 1 && zoom["reversals"] as? Int == 2)
        #expect((zoom["shot_band"] as? [String: Any])?["least"] as? Double == 0.2)
        #expect((zoom["worst_framing_error"] as? [String: Any])?["framed_again_s"] as? Double == 46)
        let series = try #require(json["series"] as? [String: [Any]])
        #expect(series["magnification"]?.count == 600 && series["primary_height"]?[200] as? Double == 0.2)
    }

    @Test func aBandWithoutTheSubjectIsMissedNotMet() {
        var report = RunReport(scenarioName: "empty", seed: 1, toleranceFraction: 0.1)
        for index in 0..<10 { report.record(Self.truth(Double(index) / 10, offset: nil), primary: 1) }
        var criteria = PassCriteria(framingToleranceFraction: 0.1)
        criteria.shotBand = ShotBand(part: .body, lowFraction: 0.3, highFraction: 0.5, fromSeconds: 0, toSeconds: 1, minimumShare: 0)
        criteria.minimumFaceInPicture = 0
        #expect(report.verdicts(criteria).map(\.isMet) == [false, false])
        #expect(report.zoomReversals == 0 && report.leastFaceInPicture == nil)
    }
}
