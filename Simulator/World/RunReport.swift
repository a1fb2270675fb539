import DockProtocol
import DockTracking

/// The score of a run, from its ground truth: how well the primary subject was framed, how many
/// times the tracker's primary changed, and how the faults were survived. `docksim --report`
/// writes it as JSON.
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
    /// Every frame captured, in order: its capture time, framing error and the tracker's primary.
    public private(set) var frames: [FrameRecord] = []
    /// What docksim's camera app did over dockd's API; nil without `--camera`.
    public var cameraApp: CameraAppCounts?
    /// The faults injected and how they went.
    public var faults: [FaultRecord] = []
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
    public mutating func record(_ truth: GroundTruthFrame, primary: Int?, tracker: TrackerPrimary = .unknown) {
        frameCount += 1
        let error = framingError(truth, primary: primary)
        if let error { framingErrors.append(error) }
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
        frames.append(FrameRecord(captureSeconds: truth.captureTime.secondsValue, framingError: error,
                                  trackerPrimary: trackerPrimary))
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
        framingErrors.isEmpty ? nil
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

    /// Each pass criterion of the scenario that applies, with whether this run meets it.
    public func verdicts(_ criteria: PassCriteria) -> [(criterion: String, isMet: Bool, detail: String)] {
        var verdicts: [(String, Bool, String)] = []
        if let minimum = criteria.minimumPrimaryInFrameShare {
            let share = inToleranceShare ?? 0
            verdicts.append(("primary_in_frame_min", share >= minimum, "\(fixed(share)) ≥ \(fixed(minimum))"))
        }
        if let maximum = criteria.maximumPrimaryIDSwitches {
            let switches = primaryIDSwitches
            verdicts.append(("primary_id_switches_max", switches.map { $0 <= maximum } ?? false,
                             "\(switches.map(String.init) ?? "unknown") ≤ \(maximum)"))
        }
        if let maximum = criteria.maximumReconnectSeconds {
            for fault in faults where fault.kind != "host_silence" {
                let after = fault.recoveredAfterSeconds
                verdicts.append(("reconnect_max_s", after.map { $0 <= maximum } ?? false,
                                 "\(fault.kind) at \(fixed(fault.startSeconds)) s: \(after.map(fixed) ?? "never") ≤ \(fixed(maximum))"))
            }
        }
        if let maximum = criteria.maximumSilenceStopSeconds {
            for fault in faults where fault.kind == "host_silence" {
                let after = fault.stoppedAfterSeconds
                verdicts.append(("silence_stop_max_s", after.map { $0 <= maximum } ?? false,
                                 "stopped \(after.map(fixed) ?? "never") s after silence began ≤ \(fixed(maximum))"))
            }
        }
        return verdicts
    }

    /// The report as a JSON document (the format is in `Simulator/README.md`).
    public func json(criteria: PassCriteria) -> String {
        var lines: [String] = ["{"]
        lines.append("  \"scenario\": \(quoted(scenarioName)),")
        lines.append("  \"seed\": \(seed),")
        lines.append("  \"frames\": \(frameCount),")
        lines.append("  \"primary_frames\": \(framingErrors.count),")
        if let statistics = framingStatistics {
            lines.append("  \"framing_error\": {\"mean\": \(fixed(statistics.mean)), \"p95\": \(fixed(statistics.p95)), "
                         + "\"max\": \(fixed(statistics.maximum)), \"rms\": \(fixed(statistics.rms))},")
        } else {
            lines.append("  \"framing_error\": null,")
        }
        lines.append("  \"framing_tolerance\": \(fixed(toleranceFraction)),")
        lines.append("  \"primary_in_tolerance_share\": \(inToleranceShare.map(fixed) ?? "null"),")
        lines.append("  \"primary_id_switches\": \(primaryIDSwitches.map(String.init) ?? "null"),")
        lines.append("  \"dock_frames\": {\"good\": \(dockGoodFrames), \"bad\": \(dockBadFrames)},")
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
            lines.append("  \"camera_app\": {\"batches\": \(cameraApp.batches), \"sent\": \(cameraApp.sent), "
                         + "\"refused\": \(cameraApp.refused), \"dropped\": \(cameraApp.dropped), "
                         + "\"status_samples\": \(cameraApp.statusSamples)},")
        } else {
            lines.append("  \"camera_app\": null,")
        }
        lines.append("  \"series\": {")
        lines.append("    \"capture_s\": [" + frames.map { fixed($0.captureSeconds) }.joined(separator: ", ") + "],")
        lines.append("    \"framing_error\": [" + frames.map { $0.framingError.map(fixed) ?? "null" }.joined(separator: ", ") + "],")
        lines.append("    \"primary_id\": [" + frames.map { $0.trackerPrimary.map(String.init) ?? "null" }.joined(separator: ", ") + "]")
        lines.append("  }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
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

    /// Creates a frame record.
    public init(captureSeconds: Double, framingError: Double?, trackerPrimary: Int?) {
        self.captureSeconds = captureSeconds
        self.framingError = framingError
        self.trackerPrimary = trackerPrimary
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
        case _ where scalar.value < 0x20: result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
