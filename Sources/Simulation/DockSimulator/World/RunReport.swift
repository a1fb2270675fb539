import DockNumbers
import DockProtocol
public import DockVocabulary

/// The score of a run, from its ground truth: how well the primary subject was framed, how many
/// times the tracker's primary changed — its ID, and the true person behind it —, how still the
/// dock was held while the subject sat still, and how the faults were survived. `docksim
/// --report` writes it as JSON.
public struct RunReport: Sendable {
    /// The scenario's name.
    public var scenarioName: String
    /// The run's seed.
    public var seed: UInt64
    /// The framing tolerance, in normalised image units.
    public var toleranceFraction: Double
    /// Frames captured.
    public private(set) var frameCount = 0
    /// Per frame with the primary subject in the room: the distance of its box centre from the
    /// image centre, in normalised image units, capped at 1 (also when it is behind the camera).
    public private(set) var framingErrors: [Double] = []
    /// Switches of the primary subject's ID in the tracker's output, from one ID to another (losing
    /// it and finding it again under the same ID is not a switch); nil when no tracker output was
    /// seen (docksim without `--camera`, or dockd never answered).
    public var primaryIDSwitches: Int?
    /// Switches of the true person behind the tracker's primary subject: frames in which the
    /// primary's box belongs to another person (or object) of the scenario than the last frame in
    /// which it could be told (see `person(behind:in:)`); nil when the tracker's boxes were never
    /// known. This sees what ID switches cannot: an identifier handed from one person to another.
    public private(set) var primaryPersonSwitches: Int?
    /// Every frame captured, in order: its capture time, framing error and the tracker's primary.
    public private(set) var frames: [FrameRecord] = []
    /// What docksim's camera app did over dockd's API; nil without `--camera`.
    public var cameraApp: CameraAppCounts?
    /// The faults injected and how they went.
    public var faults: [FaultRecord] = []
    /// Each time the primary subject came back into the picture after being out of it (out of
    /// the room, or out of the camera's view) for at least `returnAbsenceSeconds`: when it was
    /// back (its body at least `inPictureFraction` inside the image), and when it was framed
    /// again (within the tolerance, or, beyond the end of the pan range, with the camera at that
    /// end: as near as it can be framed). A return not yet framed when the subject leaves the
    /// picture again stays open: it is framed late, not returned twice.
    public private(set) var returns: [ReturnRecord] = []
    /// Good and bad frames the dock received from the host.
    public var dockGoodFrames = 0
    /// Runs the dock received that were not good frames.
    public var dockBadFrames = 0

    /// Starts an empty report.
    public init(scenarioName: String, seed: UInt64, toleranceFraction: Double) {
        self.scenarioName = scenarioName
        self.seed = seed
        self.toleranceFraction = toleranceFraction
    }

    /// Scores one frame.
    ///
    /// - Parameters:
    ///   - truth: the frame's ground truth.
    ///   - primary: the scenario's primary subject, if any.
    ///   - tracker: what the tracker said its primary subject was when the frame was captured.
    ///   - trackerBox: the tracker's primary subject's box in the delivered image at about the
    ///     frame's capture time, when known; it tells which true person the primary is.
    public mutating func record(
        _ truth: GroundTruthFrame, primary: Int?, tracker: TrackerPrimary = .unknown,
        trackerBox: NormalizedRect? = nil
    ) {
        frameCount += 1
        let error = framingError(truth, primary: primary)
        if let error { framingErrors.append(error) }
        recordReturn(truth, primary: primary, error: error)
        var trackerPrimary: Int?
        switch tracker {
        case .unknown:
            break
        case .none:
            primaryIDSwitches = primaryIDSwitches ?? 0
        case .subject(let identifier):
            let switched = lastTrackerPrimary.map { $0 != identifier } ?? false
            primaryIDSwitches = (primaryIDSwitches ?? 0) + (switched ? 1 : 0)
            lastTrackerPrimary = identifier
            trackerPrimary = identifier
        }
        var person: Int?
        if case .subject = tracker {
            primaryPersonSwitches = primaryPersonSwitches ?? 0
            if let trackerBox, let found = Self.person(behind: trackerBox, in: truth) {
                if let lastPerson, lastPerson != found { primaryPersonSwitches! += 1 }
                lastPerson = found
                person = found
            }
        } else if case .none = tracker {
            primaryPersonSwitches = primaryPersonSwitches ?? 0
        }
        var record = FrameRecord(
            captureSeconds: truth.captureTime.secondsValue, framingError: error,
            trackerPrimary: trackerPrimary, truePerson: person)
        record.magnification = truth.magnification
        if let primary, truth.presentSubjects.contains(primary) {
            let parts = truth.parts.filter { $0.subjectIdentifier == primary }
            let face = parts.first { $0.kind == .face }
            record.primaryBodyHeight = parts.first { $0.kind != .face }?.box.height
            record.primaryFaceHeight = face?.box.height
            record.faceInPicture = face?.inFrameFraction ?? 0
        }
        frames.append(record)
        let isStill = primary.map { truth.presentSubjects.contains($0) && truth.stillSubjects.contains($0) } ?? false
        poses.append(
            PoseRecord(
                yawRadians: truth.yawRadians, pitchRadians: truth.pitchRadians, isPrimaryStill: isStill,
                commands: truth.velocityCommands))
    }

    /// The true subject a tracker's box shows: the scenario subject whose part (body, face or
    /// object) overlaps it most, by intersection over union, when that overlap is at least 0.3
    /// and beats every other subject's by at least 0.1; nil when the box shows nobody clearly.
    public static func person(behind box: NormalizedRect, in truth: GroundTruthFrame) -> Int? {
        var best: (subject: Int, overlap: Double)?
        var runnerUp = 0.0
        for part in truth.parts {
            let overlap = part.box.intersectionOverUnion(box)
            if let current = best, current.subject == part.subjectIdentifier {
                best = (current.subject, max(current.overlap, overlap))
            } else if overlap > (best?.overlap ?? 0) {
                runnerUp = max(runnerUp, best?.overlap ?? 0)
                best = (part.subjectIdentifier, overlap)
            } else {
                runnerUp = max(runnerUp, overlap)
            }
        }
        guard let best, best.overlap >= 0.3, best.overlap - runnerUp >= 0.1 else { return nil }
        return best.subject
    }

    /// How long the primary subject must have been out of the picture for its coming back to count
    /// as a return, seconds (a walker the dock lags behind for a moment does not return).
    public static let returnAbsenceSeconds = 1.0
    /// The share of the primary's body (or object) that must be inside the image for it to be in
    /// the picture: the detector's default `min_visible`.
    public static let inPictureFraction = 0.5
    /// How near an end of its pan range the camera must be to stand at it, radians (1°).
    public static let endStopMarginRadians = 0.0175

    /// Notes the primary subject leaving and coming back into the picture, and being framed.
    private mutating func recordReturn(_ truth: GroundTruthFrame, primary: Int?, error: Double?) {
        guard let primary else { return }
        let seconds = truth.captureTime.secondsValue
        let parts = truth.parts.filter { $0.subjectIdentifier == primary }
        let part = parts.first { $0.kind != .face } ?? parts.first
        let isInPicture = truth.presentSubjects.contains(primary) && (part?.inFrameFraction ?? 0) >= Self.inPictureFraction
        // Framed: within the tolerance, or as near as the pan range allows — the camera at the
        // end of its pan range on the subject's side (it can turn no further towards them).
        var isFramed = error.map { $0 <= toleranceFraction } ?? false
        if isInPicture, !isFramed, let part, let range = truth.yawRangeRadians {
            isFramed =
                (truth.yawRadians >= range.upperBound - Self.endStopMarginRadians && part.bearingRadians > truth.yawRadians)
                || (truth.yawRadians <= range.lowerBound + Self.endStopMarginRadians && part.bearingRadians < truth.yawRadians)
        }
        if let last = returns.indices.last, returns[last].framedSeconds == nil, isFramed {
            returns[last].framedSeconds = seconds
        }
        guard isInPicture else { return }
        if let lastInPicture, seconds - lastInPicture >= Self.returnAbsenceSeconds,
            returns.last.map({ $0.framedSeconds != nil }) ?? true
        {
            returns.append(ReturnRecord(backSeconds: seconds, framedSeconds: isFramed ? seconds : nil))
        }
        lastInPicture = seconds
    }

    /// When the primary subject was last in the picture, seconds.
    private var lastInPicture: Double?
    /// The person the tracker's primary was last seen to be, for counting person switches.
    private var lastPerson: Int?
    /// Where the camera pointed in each frame, and the commands so far, for the stillness figures.
    private var poses: [PoseRecord] = []

    private struct PoseRecord: Sendable {
        var yawRadians: Double
        var pitchRadians: Double
        var isPrimaryStill: Bool
        var commands: VelocityCommandCounts
    }

    /// How long the subject must have been still before its frames count for the stillness
    /// figures: the dock is given that long to settle on it (the subject is judged still once it
    /// has not moved for half a second, so this is 2.5 s after it stopped).
    public static let stillSettleSeconds = 2.0

    /// The window of the moving mean the jitter is measured about, seconds.
    public static let jitterWindowSeconds = 1.0

    /// How still the dock was held while the primary subject was still.
    public struct Stillness: Hashable, Sendable {
        /// Seconds counted: frames with the primary still for at least `stillSettleSeconds`.
        public var seconds: Double
        /// Velocity commands per second that turned an axis the other way, in those seconds.
        public var commandReversalsPerSecond: Double
        /// Root mean square of the camera's angle about its mean over the second around each
        /// frame, degrees (yaw and pitch together): 0 for a dock held perfectly still, the
        /// amplitude of a dock that hunts back and forth; a single smooth correction adds little.
        public var jitterRMSDegrees: Double
        /// Share of the velocity commands in those seconds that asked for motion.
        public var movingCommandShare: Double?
    }

    /// The stillness figures; nil when the primary subject was never still long enough.
    public var stillness: Stillness? {
        var seconds = 0.0, reversals = 0, commands = 0, moving = 0
        var squares = 0.0, count = 0
        var index = 0
        while index < poses.count {
            guard poses[index].isPrimaryStill else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < poses.count, poses[end + 1].isPrimaryStill { end += 1 }
            // The stretch index...end is still; count it from stillSettleSeconds on.
            let start = frames[index].captureSeconds + Self.stillSettleSeconds
            if let first = (index...end).first(where: { frames[$0].captureSeconds >= start }), first < end {
                let range = first...end
                seconds += frames[end].captureSeconds - frames[first].captureSeconds
                reversals += poses[end].commands.reversals - poses[first].commands.reversals
                commands += poses[end].commands.commands - poses[first].commands.commands
                moving += poses[end].commands.movingCommands - poses[first].commands.movingCommands
                // Jitter: the camera's angle about its own mean over the `jitterWindowSeconds`
                // around each frame (within the still stretch) — what is left after the slow part
                // of its motion, a settling move, is taken out.
                var low = index, high = index
                for frame in range {
                    let time = frames[frame].captureSeconds, half = Self.jitterWindowSeconds / 2
                    while frames[low].captureSeconds < time - half { low += 1 }
                    while high < end, frames[high + 1].captureSeconds <= time + half { high += 1 }
                    let n = Double(high - low + 1)
                    let meanYaw = (low...high).map { poses[$0].yawRadians }.reduce(0, +) / n
                    let meanPitch = (low...high).map { poses[$0].pitchRadians }.reduce(0, +) / n
                    let dy = poses[frame].yawRadians - meanYaw, dp = poses[frame].pitchRadians - meanPitch
                    squares += dy * dy + dp * dp
                    count += 1
                }
            }
            index = end + 1
        }
        guard seconds > 0, count > 0 else { return nil }
        return Stillness(
            seconds: seconds, commandReversalsPerSecond: Double(max(0, reversals)) / seconds,
            jitterRMSDegrees: (squares / Double(count)).squareRoot() * 180 / .pi,
            movingCommandShare: commands > 0 ? Double(moving) / Double(commands) : nil)
    }

    /// The last primary ID the tracker reported, for counting switches.
    private var lastTrackerPrimary: Int?

    /// The distance of the primary's box centre (its body, or the object; else its face) from the
    /// image centre, capped at 1; 1 when it is in the room but not in front of the camera; nil
    /// when it is not in the room or there is none.
    private func framingError(_ truth: GroundTruthFrame, primary: Int?) -> Double? {
        guard let primary, truth.presentSubjects.contains(primary) else { return nil }
        let parts = truth.parts.filter { $0.subjectIdentifier == primary }
        guard let part = parts.first(where: { $0.kind != .face }) ?? parts.first else { return 1 }
        let dx = part.box.center.x - 0.5, dy = part.box.center.y - 0.5
        return min(1, (dx * dx + dy * dy).squareRoot())
    }

    /// The share of primary-present frames framed within the tolerance; nil without such frames.
    public var inToleranceShare: Double? {
        framingErrors.isEmpty
            ? nil
            : Double(framingErrors.filter { $0 <= toleranceFraction }.count) / Double(framingErrors.count)
    }

    /// Mean, 95th percentile, maximum and root mean square of the framing error.
    public var framingStatistics: (mean: Double, p95: Double, maximum: Double, rms: Double)? {
        guard !framingErrors.isEmpty else { return nil }
        let sorted = framingErrors.sorted()
        let count = Double(sorted.count)
        let p95 = sorted[min(sorted.count - 1, Int((0.95 * count).rounded(.up)) - 1)]
        let rms = (sorted.map { $0 * $0 }.reduce(0, +) / count).squareRoot()
        return (sorted.reduce(0, +) / count, p95, sorted.last!, rms)
    }

    /// The least change of the zoom's magnification, as a ratio, that counts towards a reversal:
    /// steps finer than this are the zoom settling, not turning.
    public static let zoomReversalRatio = 0.01

    /// Times the zoom turned from zooming in to zooming out or back over the run, by the
    /// magnification at each frame's capture time, changes under `zoomReversalRatio` apart not
    /// counted.
    public var zoomReversals: Int {
        var count = 0, direction = 0, anchor = frames.first?.magnification ?? 1
        for frame in frames {
            let ratio = frame.magnification / anchor
            guard abs(ratio - 1) >= Self.zoomReversalRatio else { continue }
            let now = ratio > 1 ? 1 : -1
            if direction != 0, now != direction { count += 1 }
            direction = now
            anchor = frame.magnification
        }
        return count
    }

    /// `zoomReversals` per minute of the run (from the first frame to the last); nil with fewer
    /// than two frames.
    public var zoomReversalsPerMinute: Double? {
        guard let first = frames.first, let last = frames.last, last.captureSeconds > first.captureSeconds else { return nil }
        return Double(zoomReversals) * 60 / (last.captureSeconds - first.captureSeconds)
    }

    /// The least share of the primary subject's face inside the picture over the frames with it
    /// in the room (0 when its face was behind the camera); nil without such frames.
    public var leastFaceInPicture: Double? { frames.compactMap(\.faceInPicture).min() }

    /// How the primary subject's size was held in `band`: the share of the counted frames (from
    /// `band.fromSeconds` to `band.toSeconds`, the subject in the room) with its part's height within the band, the
    /// least and greatest height among them, and the first frame in the band at all; nil without
    /// counted frames.
    public func shotBandFigures(_ band: ShotBand) -> (share: Double, least: Double, greatest: Double, firstInBandSeconds: Double?)? {
        func height(_ frame: FrameRecord) -> Double? {
            guard frame.faceInPicture != nil else { return nil }
            return (band.part == .face ? frame.primaryFaceHeight : frame.primaryBodyHeight) ?? 0
        }
        let counted = frames.filter { (band.fromSeconds...band.toSeconds).contains($0.captureSeconds) }.compactMap(height)
        guard !counted.isEmpty else { return nil }
        let within = counted.filter { (band.lowFraction...band.highFraction).contains($0) }.count
        let first = frames.first { height($0).map { (band.lowFraction...band.highFraction).contains($0) } ?? false }
        return (Double(within) / Double(counted.count), counted.min()!, counted.max()!, first?.captureSeconds)
    }

    /// The greatest framing error from `seconds` on (the worst off-centre), when it was, and the
    /// first frame after it with the primary within the tolerance again (nil: never, by the end);
    /// nil without frames with the primary subject from `seconds` on.
    public func worstFraming(fromSeconds seconds: Double) -> (error: Double, atSeconds: Double, framedAgainSeconds: Double?)? {
        let counted = frames.filter { $0.captureSeconds >= seconds && $0.framingError != nil }
        guard let worst = counted.max(by: { $0.framingError! < $1.framingError! }) else { return nil }
        let again = counted.first { $0.captureSeconds > worst.captureSeconds && $0.framingError! <= toleranceFraction }
        return (worst.framingError!, worst.captureSeconds, again?.captureSeconds)
    }

    /// Each pass criterion of the scenario that applies, with whether this run meets it.
    public func verdicts(_ criteria: PassCriteria) -> [(criterion: String, isMet: Bool, detail: String)] {
        var verdicts: [(String, Bool, String)] = []
        if let minimum = criteria.minimumPrimaryInFrameShare {
            let share = inToleranceShare ?? 0
            verdicts.append(("primary_in_frame_min", share >= minimum, "\(fixed(share)) ≥ \(fixed(minimum))"))
        }
        if let maximum = criteria.maximumPrimaryIDSwitches {
            let switches = primaryIDSwitches
            verdicts.append(
                (
                    "primary_id_switches_max", switches.map { $0 <= maximum } ?? false,
                    "\(switches.map(String.init) ?? "unknown") ≤ \(maximum)"
                ))
        }
        if let maximum = criteria.maximumPrimaryPersonSwitches {
            let switches = primaryPersonSwitches
            verdicts.append(
                (
                    "primary_person_switches_max", switches.map { $0 <= maximum } ?? false,
                    "\(switches.map(String.init) ?? "unknown") ≤ \(maximum)"
                ))
        }
        if let maximum = criteria.maximumStillReversalsPerSecond {
            let value = stillness?.commandReversalsPerSecond
            verdicts.append(
                (
                    "still_reversals_per_s_max", value.map { $0 <= maximum } ?? false,
                    "\(value.map(fixed) ?? "never still") ≤ \(fixed(maximum))"
                ))
        }
        if let maximum = criteria.maximumStillJitterDegrees {
            let value = stillness?.jitterRMSDegrees
            verdicts.append(
                (
                    "still_jitter_deg_max", value.map { $0 <= maximum } ?? false,
                    "\(value.map(fixed) ?? "never still") ≤ \(fixed(maximum))"
                ))
        }
        if let maximum = criteria.maximumReconnectSeconds {
            for fault in faults where fault.kind != "host_silence" {
                let after = fault.recoveredAfterSeconds
                verdicts.append(
                    (
                        "reconnect_max_s", after.map { $0 <= maximum } ?? false,
                        "\(fault.kind) at \(fixed(fault.startSeconds)) s: \(after.map(fixed) ?? "never") ≤ \(fixed(maximum))"
                    ))
            }
        }
        if let maximum = criteria.maximumReframeSeconds {
            verdicts.append(("reframe_max_s", !returns.isEmpty, "returns into the picture: \(returns.count) ≥ 1"))
            for record in returns {
                let after = record.framedSeconds.map { $0 - record.backSeconds }
                verdicts.append(
                    (
                        "reframe_max_s", after.map { $0 <= maximum } ?? false,
                        "back in the picture at \(fixed(record.backSeconds)) s, framed \(after.map(fixed) ?? "never") s later ≤ \(fixed(maximum))"
                    ))
            }
        }
        if let band = criteria.shotBand {
            let part = band.part == .face ? "face" : "body"
            if let figures = shotBandFigures(band) {
                verdicts.append(
                    (
                        "shot_band", figures.share >= band.minimumShare,
                        "\(fixed(figures.share)) of frames \(fixed(band.fromSeconds))–\(fixed(band.toSeconds)) s with the \(part) "
                            + "\(fixed(band.lowFraction))–"
                            + "\(fixed(band.highFraction)) of the height ≥ \(fixed(band.minimumShare)) (heights \(fixed(figures.least))–"
                            + "\(fixed(figures.greatest)), first in the band at \(figures.firstInBandSeconds.map(fixed) ?? "never") s)"
                    ))
            } else {
                verdicts.append(
                    ("shot_band", false, "no frames with the primary subject \(fixed(band.fromSeconds))–\(fixed(band.toSeconds)) s"))
            }
        }
        if let maximum = criteria.maximumZoomReversalsPerMinute {
            let value = zoomReversalsPerMinute
            verdicts.append(
                (
                    "zoom_reversals_per_min_max", value.map { $0 <= maximum } ?? false,
                    "\(value.map(fixed) ?? "no frames") ≤ \(fixed(maximum)) (\(zoomReversals) reversals)"
                ))
        }
        if let minimum = criteria.minimumFaceInPicture {
            let value = leastFaceInPicture
            verdicts.append(
                (
                    "face_in_picture_min", value.map { $0 >= minimum } ?? false,
                    "\(value.map(fixed) ?? "never in the room") ≥ \(fixed(minimum))"
                ))
        }
        if let maximum = criteria.maximumSilenceStopSeconds {
            for fault in faults where fault.kind == "host_silence" {
                let after = fault.stoppedAfterSeconds
                verdicts.append(
                    (
                        "silence_stop_max_s", after.map { $0 <= maximum } ?? false,
                        "stopped \(after.map(fixed) ?? "never") s after silence began ≤ \(fixed(maximum))"
                    ))
            }
        }
        return verdicts
    }

    /// The report as a JSON document (the format is in `docs/simulator.md`).
    public func json(criteria: PassCriteria) -> String {
        var lines: [String] = ["{"]
        lines.append("  \"scenario\": \(quoted(scenarioName)),")
        lines.append("  \"seed\": \(seed),")
        lines.append("  \"frames\": \(frameCount),")
        lines.append("  \"primary_frames\": \(framingErrors.count),")
        if let statistics = framingStatistics {
            lines.append(
                "  \"framing_error\": {\"mean\": \(fixed(statistics.mean)), \"p95\": \(fixed(statistics.p95)), "
                    + "\"max\": \(fixed(statistics.maximum)), \"rms\": \(fixed(statistics.rms))},")
        } else {
            lines.append("  \"framing_error\": null,")
        }
        lines.append("  \"framing_tolerance\": \(fixed(toleranceFraction)),")
        lines.append("  \"primary_in_tolerance_share\": \(inToleranceShare.map(fixed) ?? "null"),")
        lines.append("  \"primary_id_switches\": \(primaryIDSwitches.map(String.init) ?? "null"),")
        lines.append("  \"primary_person_switches\": \(primaryPersonSwitches.map(String.init) ?? "null"),")
        if let stillness {
            lines.append(
                "  \"still\": {\"seconds\": \(fixed(stillness.seconds)), "
                    + "\"command_reversals_per_s\": \(fixed(stillness.commandReversalsPerSecond)), "
                    + "\"jitter_rms_deg\": \(fixed(stillness.jitterRMSDegrees)), "
                    + "\"moving_command_share\": \(stillness.movingCommandShare.map(fixed) ?? "null")},")
        } else {
            lines.append("  \"still\": null,")
        }
        let returnEntries = returns.map { record in
            "{\"back_s\": \(fixed(record.backSeconds)), \"framed_s\": \(record.framedSeconds.map(fixed) ?? "null")}"
        }
        lines.append("  \"returns\": [" + returnEntries.joined(separator: ", ") + "],")
        lines.append("  \"dock_frames\": {\"good\": \(dockGoodFrames), \"bad\": \(dockBadFrames)},")
        let magnifications = frames.map(\.magnification)
        var zoom =
            "  \"zoom\": {\"magnification_min\": \(fixed(magnifications.min() ?? 1)), "
            + "\"magnification_max\": \(fixed(magnifications.max() ?? 1)), \"reversals\": \(zoomReversals), "
            + "\"reversals_per_min\": \(zoomReversalsPerMinute.map(fixed) ?? "null"), "
            + "\"face_in_picture_min\": \(leastFaceInPicture.map(fixed) ?? "null")"
        if let band = criteria.shotBand, let figures = shotBandFigures(band) {
            zoom +=
                ", \"shot_band\": {\"share\": \(fixed(figures.share)), \"least\": \(fixed(figures.least)), "
                + "\"greatest\": \(fixed(figures.greatest)), \"first_in_band_s\": \(figures.firstInBandSeconds.map(fixed) ?? "null")}"
        }
        if let worst = worstFraming(fromSeconds: criteria.shotBand?.fromSeconds ?? 0) {
            zoom +=
                ", \"worst_framing_error\": {\"error\": \(fixed(worst.error)), \"at_s\": \(fixed(worst.atSeconds)), "
                + "\"framed_again_s\": \(worst.framedAgainSeconds.map(fixed) ?? "null")}"
        }
        lines.append(zoom + "},")
        let faultEntries = faults.map { fault in
            "    {\"kind\": \(quoted(fault.kind)), \"start_s\": \(fixed(fault.startSeconds)), "
                + "\"end_s\": \(fixed(fault.endSeconds)), "
                + "\"recovered_after_s\": \(fault.recoveredAfterSeconds.map(fixed) ?? "null"), "
                + "\"stopped_after_s\": \(fault.stoppedAfterSeconds.map(fixed) ?? "null"), "
                + "\"survived\": \(fault.isSurvived)}"
        }
        lines.append("  \"faults\": [" + (faultEntries.isEmpty ? "]," : "\n" + faultEntries.joined(separator: ",\n") + "\n  ],"))
        let verdictEntries = verdicts(criteria).map { verdict in
            "    {\"criterion\": \(quoted(verdict.criterion)), \"met\": \(verdict.isMet), \"detail\": \(quoted(verdict.detail))}"
        }
        lines.append("  \"criteria\": [" + (verdictEntries.isEmpty ? "]," : "\n" + verdictEntries.joined(separator: ",\n") + "\n  ],"))
        lines.append("  \"passed\": \(verdicts(criteria).allSatisfy(\.isMet)),")
        if let cameraApp {
            lines.append(
                "  \"camera_app\": {\"batches\": \(cameraApp.batches), \"sent\": \(cameraApp.sent), "
                    + "\"refused\": \(cameraApp.refused), \"dropped\": \(cameraApp.dropped), "
                    + "\"status_samples\": \(cameraApp.statusSamples)},")
        } else {
            lines.append("  \"camera_app\": null,")
        }
        lines.append("  \"series\": {")
        lines.append("    \"capture_s\": [" + frames.map { fixed($0.captureSeconds) }.joined(separator: ", ") + "],")
        lines.append("    \"framing_error\": [" + frames.map { $0.framingError.map(fixed) ?? "null" }.joined(separator: ", ") + "],")
        lines.append("    \"primary_id\": [" + frames.map { $0.trackerPrimary.map(String.init) ?? "null" }.joined(separator: ", ") + "],")
        lines.append("    \"primary_person\": [" + frames.map { $0.truePerson.map(String.init) ?? "null" }.joined(separator: ", ") + "],")
        lines.append("    \"magnification\": [" + frames.map { fixed($0.magnification) }.joined(separator: ", ") + "],")
        lines.append("    \"primary_height\": [" + frames.map { $0.primaryBodyHeight.map(fixed) ?? "null" }.joined(separator: ", ") + "]")
        lines.append("  }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The primary subject coming back into the picture, and being framed again.
public struct ReturnRecord: Hashable, Sendable {
    /// The capture time of the first frame with the subject back in the picture, seconds.
    public var backSeconds: Double
    /// The capture time of the first frame from then on with the subject within the framing
    /// tolerance, seconds; nil: not framed again by the end of the run.
    public var framedSeconds: Double?

    /// How long it took to frame the subject again, seconds; nil when it never was.
    public var secondsToFrame: Double? { framedSeconds.map { $0 - backSeconds } }
}

/// What a tracker said about its primary subject when a frame was captured.
public enum TrackerPrimary: Hashable, Sendable {
    /// Nothing is known: no tracker is followed, or it has not answered.
    case unknown
    /// The tracker has no primary subject.
    case none
    /// The tracker's primary subject has this ID.
    case subject(Int)
}

/// One camera frame as a report keeps it, for plots and for readers of the JSON.
public struct FrameRecord: Hashable, Sendable {
    /// When the frame was captured, seconds of simulation time.
    public var captureSeconds: Double
    /// The framing error, normalised image units; nil when the primary subject is not in the room.
    public var framingError: Double?
    /// The tracker's primary subject ID; nil when it had none or was not known.
    public var trackerPrimary: Int?
    /// The scenario subject behind the tracker's primary (`RunReport.person(behind:in:)`); nil
    /// when it had none, its box was not known, or it showed nobody clearly.
    public var truePerson: Int?
    /// How many times the camera's zoom magnified the picture (1: widest, or no zoom).
    public var magnification = 1.0
    /// The primary subject's true body (or object) height, as a share of the picture's; nil when
    /// it is not in the room or not in front of the camera.
    public var primaryBodyHeight: Double?
    /// The primary subject's true face height, as a share of the picture's; nil as for the body.
    public var primaryFaceHeight: Double?
    /// The share of the primary subject's face inside the picture (0 when it is behind the
    /// camera); nil when the subject is not in the room.
    public var faceInPicture: Double?

    /// Creates a frame record.
    public init(captureSeconds: Double, framingError: Double?, trackerPrimary: Int?, truePerson: Int? = nil) {
        self.captureSeconds = captureSeconds
        self.framingError = framingError
        self.trackerPrimary = trackerPrimary
        self.truePerson = truePerson
    }
}

/// What docksim's camera app did over dockd's API during a run.
public struct CameraAppCounts: Hashable, Sendable {
    /// Detection batches the simulation delivered.
    public var batches: Int
    /// Batches dockd accepted through `Track`.
    public var sent: Int
    /// Batches dockd refused with an error.
    public var refused: Int
    /// Batches not sent: dockd was unreachable, or the queue to it was full.
    public var dropped: Int
    /// `GetStatus` replies read to follow the tracker's primary subject.
    public var statusSamples: Int

    /// Creates the counts.
    public init(batches: Int, sent: Int, refused: Int, dropped: Int, statusSamples: Int) {
        self.batches = batches
        self.sent = sent
        self.refused = refused
        self.dropped = dropped
        self.statusSamples = statusSamples
    }
}

private func fixed(_ value: Double) -> String {
    let scaled = (value * 10_000).rounded() / 10_000
    return scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
}

private func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20:
            result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
