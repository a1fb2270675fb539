import DockEvaluation
import DockSimulator
import DockTracking
import DockVocabulary
import Foundation

/// How well the tracker frames, against the baseline PID, on the simulator's crossing, group,
/// dropout, occluder, still and late-box scenarios — in virtual time, so the figures are the same on every machine and run.
enum TrackingQuality {
    /// The scenarios compared, by file name.
    static let scenarios = ["crossing", "group-of-four", "dropout-latency", "occluder-in-front", "still-noisy", "late-walk"]
    /// Frames before this are the first slew onto the subject, the same for any pointer held to
    /// the dock's speed and acceleration; "settled" figures start here.
    static let settledFrom = Duration.seconds(2)

    struct Row {
        var scenario: String
        var pointer: String
        var result: ClosedLoop.Result
    }

    /// Where the example scenarios are: `Scenarios` under the working directory, else
    /// under the package that built this binary (`.build/<triple>/<configuration>/dockbench`).
    static func directory() -> URL? {
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("Scenarios") }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("crossing.json").path) }
    }

    static func measure(in directory: URL) throws -> [Row] {
        var rows: [Row] = []
        for name in scenarios {
            let text = try String(contentsOf: directory.appendingPathComponent(name + ".json"), encoding: .utf8)
            let scenario = try Scenario.parse(text)
            var pipeline = TrackingPipeline()
            pipeline.framingMode = .center
            var tracker = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
            var baseline = ClosedLoop(scenario: scenario, pointer: .baseline(BaselinePID()))
            rows.append(Row(scenario: name, pointer: "tracker", result: tracker.run()))
            rows.append(Row(scenario: name, pointer: "baseline PID", result: baseline.run()))
        }
        return rows
    }

    static func percent(_ value: Double) -> String { String(Int((value * 100).rounded())) + " %" }
    static func fixed(_ value: Double) -> String { String((value * 1000).rounded() / 1000) }

    static func table(_ rows: [Row]) -> String {
        var lines = [
            "| scenario | pointer | in tolerance (all / settled) | RMS framing error (all / settled) | primary ID switches | person switches | follows the primary | still: reversals/s, jitter |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            let result = row.result
            let switches = row.pointer == "tracker" ? String(result.primaryIDSwitches) : "–"
            lines.append(
                "| \(row.scenario) | \(row.pointer) | \(percent(result.inToleranceShare())) / "
                    + "\(percent(result.inToleranceShare(from: settledFrom))) | \(fixed(result.rmsFramingError())) / "
                    + "\(fixed(result.rmsFramingError(from: settledFrom))) | \(switches) | \(result.followedPersonSwitches) | "
                    + "\(percent(result.followsPrimaryShare)) | \(still(result)) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Command reversals a second and RMS jitter (degrees) while the subject was still, or "–".
    static func still(_ result: ClosedLoop.Result) -> String {
        guard let still = result.report.stillness else { return "–" }
        return "\(fixed(still.commandReversalsPerSecond)), \(fixed(still.jitterRMSDegrees))°"
    }

    static func json(_ rows: [Row]) -> String {
        let entries = rows.map { row in
            let result = row.result
            return "{\"scenario\":\"\(row.scenario)\",\"pointer\":\"\(row.pointer)\","
                + "\"in_tolerance\":\(fixed(result.inToleranceShare())),\"in_tolerance_settled\":\(fixed(result.inToleranceShare(from: settledFrom))),"
                + "\"rms\":\(fixed(result.rmsFramingError())),\"rms_settled\":\(fixed(result.rmsFramingError(from: settledFrom))),"
                + "\"primary_id_switches\":\(row.pointer == "tracker" ? String(result.primaryIDSwitches) : "null"),"
                + "\"person_switches\":\(result.followedPersonSwitches),\"follows_primary\":\(fixed(result.followsPrimaryShare)),"
                + "\"still_reversals_per_s\":\(result.report.stillness.map { fixed($0.commandReversalsPerSecond) } ?? "null"),"
                + "\"still_jitter_deg\":\(result.report.stillness.map { fixed($0.jitterRMSDegrees) } ?? "null")}"
        }
        return "[" + entries.joined(separator: ",") + "]"
    }
}
