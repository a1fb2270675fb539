import DockTracking
import Foundation
import Testing

@testable import DockSimulator

/// The report's per-frame series (capture time, framing error, the tracker's primary), the count
/// of primary ID switches, and the JSON that carries them.
@Suite struct RunReportTests {
    /// A frame at `seconds` with subject 1's body centred `offset` right of the image centre, or
    /// without subject 1 in the room.
    static func truth(_ seconds: Double, offset: Double?) -> GroundTruthFrame {
        let parts = offset.map { offset in
            [GroundTruthPart(subjectIdentifier: 1, kind: .body, box: NormalizedRect(x: 0.4 + offset, y: 0.2, width: 0.2, height: 0.6),
                             inFrameFraction: 1, visibleFraction: 1, wasReported: true)]
        } ?? []
        return GroundTruthFrame(captureTime: .milliseconds(Int64((seconds * 1000).rounded())), yawRadians: 0, pitchRadians: 0,
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
                if !withTracker || seconds < 1 { .unknown }
                else if isAway { .none }
                else if seconds < 6 { .subject(3) }
                else { .subject(7) }
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
        for key in ["scenario", "seed", "frames", "primary_frames", "framing_error", "framing_tolerance",
                    "primary_in_tolerance_share", "primary_id_switches", "dock_frames", "faults", "criteria", "passed"] {
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
}
