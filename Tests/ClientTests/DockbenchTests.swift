import Foundation
import TestSupport
import Testing

/// dockbench runs end to end (its figures belong in BENCHMARKS.md, never in assertions).
@Suite(.onTheProcessThreads) struct DockbenchTests {
    @Test func aShortRunPrintsItsFigures() throws {
        let run = try ChildProcess.run("dockbench", ["--json", "--calls", "50"])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let figures = try #require(json["getstatus_round_trip_us"] as? [String: Any])
        #expect(figures["calls"] as? Int == 50)
        let p50 = try #require(figures["p50"] as? Double), p99 = try #require(figures["p99"] as? Double)
        #expect(p50 > 0 && p50 <= p99, "percentiles in order")
        let tracker = try #require(json["tracker_us_per_frame"] as? [String: Any])
        #expect(Set(tracker.keys) == ["1", "5", "16"], "tracker cost for 1, 5 and 16 subjects")
        for (subjects, value) in tracker {
            // The count itself is a release-build figure (a debug build boxes values the optimiser
            // keeps on the stack), so only its presence is checked here.
            let entry = try #require(value as? [String: Any], "\(subjects)")
            #expect(entry["allocations"] is Int, "\(subjects) subjects: heap allocations counted")
        }
        let pipeline = try #require((json["pipeline_us_per_frame"] as? [String: Any])?["5"] as? [String: Any])
        #expect(pipeline["allocations"] is Int && (pipeline["p50"] as? Double ?? 0) > 0, "the whole pipeline is timed too")
        let quality = try #require(json["tracking_quality"] as? [[String: Any]])
        #expect(quality.count == 12, "tracker and baseline on six scenarios (three of them a real room's)")
        for row in quality where row["pointer"] as? String == "tracker" {
            // A still subject framed perfectly rounds to an RMS of 0: at least not negative.
            let rms = try #require(row["rms_settled"] as? Double)
            #expect(rms >= 0 && rms < 0.05, "\(row["scenario"] ?? "?"): settled RMS \(rms)")
        }
        let serial = try #require(json["setvelocity_to_serial_us"] as? [String: Any])
        #expect((serial["calls"] as? Int ?? 0) >= 20 && (serial["p50"] as? Double ?? 0) > 0, "SetVelocity reached the line: \(serial)")
        let ready = try #require(json["ready_ms"] as? [String: Any])
        #expect((ready["runs"] as? Int ?? 0) > 0 && (ready["p50"] as? Double ?? 0) > 0, "dockd reported READY=1: \(ready)")
        let tracking = try #require(json["tracking"] as? [String: Any])
        // Two seconds of Track calls at 30 a second: how many of the five people dockd has
        // confirmed by the end depends on how many calls a loaded machine got out (none, in a
        // full swift test beside other work), so only that the calls went through is asserted.
        #expect((0...5).contains(tracking["subjects"] as? Int ?? -1), "at most five people tracked from Track: \(tracking)")
        #expect((tracking["track_calls"] as? Int ?? 0) > 0, "Track calls were made: \(tracking)")
        #expect(tracking["track_errors"] as? Int == 0 && (tracking["ticks"] as? Int ?? 0) > 0)
        #expect((tracking["cpu_percent"] as? Double ?? -1) >= 0 && ((tracking["rss_mb"] as? [String: Any])?["end"] as? Double ?? 0) > 0)
        let simulator = try #require(json["simulator"] as? [String: Any])
        #expect(
            (simulator["idle_cpu_percent"] as? Double ?? -1) >= 0 && (simulator["tracking_cpu_percent"] as? Double ?? -1) >= 0,
            "dockd --simulator's CPU, idle and tracking: \(simulator)")
        let usage = try ChildProcess.run("dockbench", ["--calls", "zero"])
        #expect(usage.status == 64)
    }

    /// The soak's whole machinery for 15 s through the real path: dockd tracking, the dock
    /// unplugged and re-plugged, a holder killed with SIGKILL, vanishing clients and garbage; the
    /// JSON it writes has a sample every 3 s with dockd's figures and no error it cannot explain.
    @Test func manyAccessoriesRunOnOneDockdThread() throws {
        let run = try ChildProcess.run("dockbench", ["--accessories", "2", "--seconds", "1"])
        #expect(run.status == 0, "\(run.error)")
        let rows = run.output.split(separator: "\n").map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        func value(_ name: String) -> String? { rows.first { $0.first?.hasSuffix(name) == true }.map { $0[2] } }
        #expect(value("dockd threads") == "1", "one dockd thread serves both: \(run.output)")
        #expect(value("GetStatus errors") == "0")
        for name in ["sim1", "sim2"] {
            let samples = rows.first { $0.first == "\(name): GetStatus round trip (µs)" }.map { Int($0[1]) ?? 0 } ?? 0
            #expect(samples >= 1, "\(name) answered: \(run.output)")
            #expect(value("\(name): ticks missed, subjects tracked")?.contains(" of ") == true, "\(run.output)")
        }
    }

    @Test func aShortSoakWritesItsSamplesAndPlot() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("soak-test-\(ProcessInfo.processInfo.processIdentifier)")
            .path
        defer {
            try? FileManager.default.removeItem(atPath: prefix + ".json")
            try? FileManager.default.removeItem(atPath: prefix + ".svg")
        }
        let run = try ChildProcess.run("dockbench", ["--soak", "0.25", "--soak-sample", "3", "--soak-output", prefix])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: prefix + ".json"))) as? [String: Any])
        let samples = try #require(json["samples"] as? [[String: Any]])
        #expect(samples.count == 5, "a sample every 3 s for 15 s: \(samples.count)")
        for sample in samples {
            #expect((sample["rss_mib"] as? Double ?? 0) > 1, "dockd's RSS read: \(sample)")
            #expect((sample["descriptors"] as? Int ?? 0) >= 3 && (sample["threads"] as? Int ?? 0) >= 1, "\(sample)")
            #expect((sample["late_p99_us"] as? Double ?? -1) >= 0, "the loop's lateness from GetStatus: \(sample)")
            // How many: the soak's figures (a loaded machine gets fewer out), not this test's.
            #expect((sample["calls"] as? Int ?? 0) > 0, "Track calls and the churning clients answered: \(sample)")
        }
        let last = try #require(samples.last)
        #expect((last["unplugs"] as? Int ?? 0) >= 1 && (last["dock_reconnects"] as? Int ?? 0) >= 1, "dockd saw the dock go: \(last)")
        #expect(
            (last["holders_killed"] as? Int ?? 0) >= 1 && (json["holders_held"] as? Int ?? 0) >= 1,
            "holders took control and were killed: \(last), \(json["holders_held"] ?? "?")")
        #expect((last["vanished"] as? Int ?? 0) >= 1 && (last["garbage"] as? Int ?? 0) >= 1, "\(last)")
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 0, "no error the soak cannot explain: \(json["unexplained"] ?? "?")")
        #expect((json["unexplained"] as? [String])?.isEmpty == true)
        let plot = try String(contentsOfFile: prefix + ".svg", encoding: .utf8)
        #expect(plot.hasPrefix("<svg") && plot.components(separatedBy: "<polyline").count == 6, "four panels, five series")
        try FileManager.default.removeItem(atPath: prefix + ".svg")
        #expect(try ChildProcess.run("dockbench", ["--soak-plot", prefix]).status == 0)
        #expect(try String(contentsOfFile: prefix + ".svg", encoding: .utf8) == plot, "drawn again from the JSON alone, the same")
        #expect(try ChildProcess.run("dockbench", ["--soak", "-1"]).status == 64)
    }
}
