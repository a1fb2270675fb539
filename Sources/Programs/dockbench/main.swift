import DockAPI
import DockClient
import DockOptions
import DockSystem
import DockVersion
import Foundation
import Glibc

// dockbench: measures the tracker and dockd as a user runs them, and prints one table. Medians and
// percentiles come from one run; the machine is shared, so compare figures from the same run, not
// across runs. dockd is started from beside this binary.
//
//   swift run -c release dockbench [--json] [--calls N]
//   swift run -c release dockbench --tracker
//   swift run -c release dockbench --load [--seconds S] [--json]
//   swift run -c release dockbench --simulator [--seconds S] [--json]
//   swift run -c release dockbench --accessories N [--seconds S]
//   swift run -c release dockbench --soak MINUTES [--soak-output PREFIX] [--soak-sample SECONDS]

let arguments: ParsedOptions
do {
    arguments = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(
        Data(
            "dockbench: \(error.message)\nusage: dockbench [--json] [--calls N] | --tracker | --load [--seconds S] [--json] | --simulator [--seconds S] [--json] | --accessories N [--seconds S] | --soak MINUTES [--soak-output PREFIX] [--soak-sample SECONDS]\n"
                .utf8))
    exit(64)
}
if arguments.flag(BenchOptions.version) {
    print(DockVersion.line(program: "dockbench"))
    exit(0)
}
if arguments.flag(BenchOptions.help) {
    print(
        """
        usage: dockbench [--json] [--calls N]
               dockbench --tracker
               dockbench --load [--seconds S] [--json]
               dockbench --simulator [--seconds S] [--json]
               dockbench --accessories N [--seconds S]
               dockbench --soak MINUTES [--soak-output PREFIX] [--soak-sample SECONDS]
               dockbench --soak-plot PREFIX
               dockbench --version

        Measures, in one run: the tracker's cost per frame with 1, 5 and 16 subjects (each seen as
        a body and a face, every box jittered as a detector's, seeded) and its heap allocations, and the whole tracking pipeline's; how well it
        frames against a PID on the newest raw detection on the crossing, group, dropout,
        occluder-in-front, still-noisy and late-walk scenarios, with person switches and, while
        the subject is still, command reversals and jitter (virtual time; run from the
        repository so Scenarios is found); the
        time from starting dockd to READY=1; the GetStatus round trip over the Varlink socket (N
        calls, default 5000); SetVelocity to its frame on the serial line (dockd on a
        pseudo-terminal whose other end runs the simulated firmware); and, while dockd tracks five
        people sent at 30 frames a second, its CPU and memory and the 30 Hz loop's lateness; and
        dockd --simulator's CPU (the in-process dock and its camera), 15 s idle and 15 s while
        system tracking follows its scene. Medians, 99th percentiles and maxima. --json prints
        one JSON object instead of the tables.

        --tracker measures the tracker's and the pipeline's cost only (a few seconds).

        --load runs the load test instead: five people tracked at 30 fps, 64 clients each making
        100 GetStatus calls a second and 8 Watch streams, for S seconds (default 60), and reports
        errors, round trips, missed control ticks, loop lateness, CPU and memory, beside the same
        figures without the clients.

        --simulator measures only dockd --simulator: its CPU and RSS, S seconds idle and S seconds
        tracking its scene (default 15 each), and its start to READY=1 (20 starts).

        --accessories runs one dockd serving N in-process simulated docks (an [accessory NAME]
        section each), all tracking their scenes, for S seconds (default 30) while one client asks
        each for its status ten times a second: dockd's CPU, threads and RSS, and each accessory's
        GetStatus round trips, loop lateness and missed ticks.

        --soak runs dockd for MINUTES (a decimal: 0.2 is 12 s) tracking five people at 30 fps
        from a dock on a pseudo-terminal that is unplugged for 2 s every 6 s, while clients
        connect, call and vanish (some mid-Watch, some before reading the answer), a child
        process holding control is killed with SIGKILL every 4 s, and garbage arrives on the
        socket every second. Every SECONDS (default 10) it samples dockd's RSS, descriptors and
        threads, the loop's lateness and missed ticks, and the errors the clients met that none
        of this explains; it writes PREFIX.json and PREFIX.svg (default PREFIX: soak) and prints
        a summary. --soak-plot draws PREFIX.svg again from PREFIX.json.

        options:
        \(HelpText.optionList(BenchOptions.all))
        """)
    exit(0)
}
let isJSON = arguments.flag(BenchOptions.json)
let calls = arguments.wholeNumber(BenchOptions.calls) ?? 5000
let loadSeconds = arguments.wholeNumber(BenchOptions.seconds) ?? 60
let simulatorSeconds = arguments.wholeNumber(BenchOptions.seconds) ?? 15

func format(_ value: Double) -> String { value.isFinite ? String((value * 10).rounded() / 10) : "–" }
/// A number for JSON: one decimal, or null when there is none.
func number(_ value: Double) -> String { value.isFinite ? String((value * 10).rounded() / 10) : "null" }

/// One row of the table: what, how many samples, median, 99th percentile, maximum, target.
struct Row {
    var name: String
    var samples: String
    var p50: String
    var p99: String
    var maximum: String
    var target: String

    init(_ name: String, samples: Int? = nil, _ sorted: [Double], target: String = "") {
        self.name = name
        self.samples = samples.map(String.init) ?? String(sorted.count)
        p50 = format(percentile(sorted, 0.5))
        p99 = format(percentile(sorted, 0.99))
        maximum = format(sorted.last ?? .nan)
        self.target = target
    }

    init(_ name: String, samples: Int, p50: Double, p99: Double, maximum: Double, target: String = "") {
        self.name = name
        self.samples = String(samples)
        self.p50 = format(p50)
        self.p99 = format(p99)
        self.maximum = format(maximum)
        self.target = target
    }

    init(_ name: String, value: String, target: String = "") {
        self.name = name
        samples = ""
        p50 = value
        p99 = ""
        maximum = ""
        self.target = target
    }

    var line: String { "| \(name) | \(samples) | \(p50) | \(p99) | \(maximum) | \(target) |" }
}

func table(_ rows: [Row]) -> String {
    (["| measurement | samples | p50 | p99 | max | target |", "|---|---|---|---|---|---|"] + rows.map(\.line)).joined(separator: "\n")
}

func json(_ figures: TrackingLoadBenchmark.Figures) -> String {
    "{\"seconds\":\(number(figures.seconds)),\"cpu_percent\":\(number(figures.cpuPercent)),"
        + "\"rss_mb\":{\"start\":\(number(figures.residentStart)),\"end\":\(number(figures.residentEnd)),\"max\":\(number(figures.residentMaximum))},"
        + "\"ticks\":\(figures.ticks),\"missed_ticks\":\(figures.missedTicks),"
        + "\"loop_late_us\":{\"p50\":\(number(figures.lateP50)),\"p99\":\(number(figures.lateP99)),\"max\":\(number(figures.lateMaximum))},"
        + "\"track_calls\":\(figures.trackCalls),\"track_errors\":\(figures.trackErrors),\"requests\":\(figures.requests),"
        + "\"request_errors\":\(figures.requestErrors),\"round_trip_us\":{\"p50\":\(number(figures.roundTripP50)),\"p99\":\(number(figures.roundTripP99))},"
        + "\"watch_events\":\(figures.watchEvents),\"subjects\":\(figures.subjects),"
        + "\"descriptors\":{\"start\":\(figures.descriptorsStart),\"end\":\(figures.descriptorsEnd)}}"
}

func json(_ figures: SimulatorBenchmark.Figures) -> String {
    "{\"idle_seconds\":\(number(figures.idleSeconds)),\"idle_cpu_percent\":\(number(figures.idlePercent)),"
        + "\"tracking_seconds\":\(number(figures.trackingSeconds)),\"tracking_cpu_percent\":\(number(figures.trackingPercent)),"
        + "\"subjects\":\(figures.subjects),\"rss_mb\":\(number(figures.residentEnd)),\"idle_rss_mb\":\(number(figures.residentIdle))}"
}

func simulatorRows(_ figures: SimulatorBenchmark.Figures) -> [Row] {
    [
        Row(
            "dockd --simulator idle, \(format(figures.idleSeconds)) s: CPU (% of one core)", value: format(figures.idlePercent),
            target: "≤ 1"),
        Row(
            "dockd --simulator tracking its scene, \(format(figures.trackingSeconds)) s: CPU (% of one core), subjects",
            value: "\(format(figures.trackingPercent)), \(figures.subjects)", target: "≤ 1.5"),
        Row(
            "dockd --simulator RSS, idle / tracking (MiB)", value: "\(format(figures.residentIdle)) / \(format(figures.residentEnd))",
            target: "≤ 25"),
    ]
}

func loadRows(_ label: String, _ figures: TrackingLoadBenchmark.Figures, cpuTarget: String = "≤ 2") -> [Row] {
    [
        Row("\(label): dockd CPU (% of one core)", value: format(figures.cpuPercent), target: cpuTarget),
        Row(
            "\(label): dockd RSS, start / end / max (MiB)",
            value: "\(format(figures.residentStart)) / \(format(figures.residentEnd)) / \(format(figures.residentMaximum))", target: "≤ 25"),
        Row(
            "\(label): 30 Hz loop lateness (µs; dockd's last 1024 ticks)", samples: min(figures.ticks, 1024), p50: figures.lateP50,
            p99: figures.lateP99, maximum: figures.lateMaximum, target: "p99 ≤ 2000"),
        Row("\(label): control ticks missed", value: "\(figures.missedTicks) of \(figures.ticks)", target: "0"),
        Row(
            "\(label): Track calls (errors), subjects tracked", value: "\(figures.trackCalls) (\(figures.trackErrors)), \(figures.subjects)"
        ),
    ]
}

Task.detached {
    if let socket = arguments.text(BenchOptions.soakHolder) {
        await SoakHolder.run(socket: socket)
    }
    if let prefix = arguments.text(BenchOptions.soakPlot) {
        exit(Soak.replot(prefix))
    }
    if let minutes = arguments.number(BenchOptions.soak) {
        var options = Soak.Options(minutes: minutes)
        options.output = arguments.text(BenchOptions.soakOutput) ?? options.output
        options.sampleSeconds = arguments.number(BenchOptions.soakSample) ?? options.sampleSeconds
        exit(await Soak.run(options))
    }
    if arguments.flag(BenchOptions.simulator) {
        guard let figures = await SimulatorBenchmark.run(seconds: Double(simulatorSeconds)) else {
            FileHandle.standardError.write(Data("dockbench: dockd --simulator did not start or become ready\n".utf8))
            exit(1)
        }
        // And start → READY=1, which is dockd --simulator's too (ReadyBenchmark).
        let ready = ReadyBenchmark.measure(runs: 20)
        if isJSON {
            print(
                "{\"simulator\":\(json(figures)),\"ready_ms\":{\"runs\":\(ready.count),\"p50\":\(number(percentile(ready, 0.5))),"
                    + "\"p99\":\(number(percentile(ready, 0.99))),\"max\":\(number(ready.last ?? .nan))}}")
        } else {
            print(table(simulatorRows(figures) + [Row("dockd --simulator: start → READY=1 (ms)", ready, target: "≤ 150")]))
        }
        exit(0)
    }
    if let count = arguments.wholeNumber(BenchOptions.accessories) {
        guard
            let figures = await ManyAccessoriesBenchmark.run(
                count: count, seconds: Double(arguments.wholeNumber(BenchOptions.seconds) ?? 30))
        else {
            FileHandle.standardError.write(Data("dockbench: dockd did not start or its accessories did not become ready\n".utf8))
            exit(1)
        }
        print(table(ManyAccessoriesBenchmark.rows(figures)))
        exit(0)
    }
    if arguments.flag(BenchOptions.load) {
        guard let quiet = await TrackingLoadBenchmark.run(seconds: Double(loadSeconds) / 4),
            let loaded = await TrackingLoadBenchmark.run(seconds: Double(loadSeconds), clients: 64, requestsPerSecond: 100, watchers: 8)
        else {
            FileHandle.standardError.write(Data("dockbench: dockd did not start or become ready\n".utf8))
            exit(1)
        }
        if isJSON {
            print("{\"quiet\":\(json(quiet)),\"loaded\":\(json(loaded))}")
        } else {
            var rows = loadRows("tracking only, \(format(quiet.seconds)) s", quiet)
            rows += loadRows("under load, \(format(loaded.seconds)) s", loaded)
            rows.append(
                Row("under load: GetStatus calls (errors)", value: "\(loaded.requests) (\(loaded.requestErrors))", target: "0 errors"))
            rows.append(
                Row(
                    "under load: GetStatus round trip (µs)", samples: loaded.requests - loaded.requestErrors,
                    p50: loaded.roundTripP50, p99: loaded.roundTripP99, maximum: loaded.roundTripMaximum))
            rows.append(Row("under load: Watch events received", value: "\(loaded.watchEvents)"))
            rows.append(
                Row("under load: dockd file descriptors, start / end", value: "\(loaded.descriptorsStart) / \(loaded.descriptorsEnd)"))
            print(table(rows))
        }
        exit(0)
    }

    guard TrackerBenchmark.allocationCounterWorks else {
        FileHandle.standardError.write(Data("dockbench: the allocation counter does not count; cannot check the tracker\n".utf8))
        exit(1)
    }
    let frames = calls >= 1000 ? 3000 : 300
    let trackerFigures = [1, 5, 16].map { subjects in (subjects, TrackerBenchmark.measure(subjects: subjects, frames: frames)) }
    let pipelineFigures = TrackerBenchmark.measure(subjects: 5, frames: frames, wholePipeline: true)
    let appearanceFigures = TrackerBenchmark.measure(subjects: 5, frames: frames, appearance: true)
    var trackerRows = trackerFigures.map { subjects, figures in
        Row(
            "tracker, \(subjects) subject\(subjects == 1 ? "" : "s") / \(2 * subjects) jittered observations (µs per frame)",
            samples: frames,
            p50: figures.p50, p99: figures.p99, maximum: figures.maximum, target: subjects == 5 ? "p50 ≤ 6" : "")
    }
    trackerRows.append(
        Row(
            "the boxes' jitter (standard deviations, of the box's size)",
            value:
                "centre \(Int(TrackerBenchmark.centreJitter * 100)) %, width and height \(Int(TrackerBenchmark.sizeJitter * 100)) %, seed \(TrackerBenchmark.seed)"
        ))
    trackerRows.append(
        Row(
            "tracker heap allocations in those frames (1 / 5 / 16 subjects)",
            value: trackerFigures.map { "\($0.1.allocations)" }.joined(separator: " / "), target: "0"))
    trackerRows.append(
        Row(
            "tracker, 5 subjects, bodies with 32-value appearance descriptors (µs per frame)", samples: frames,
            p50: appearanceFigures.p50, p99: appearanceFigures.p99, maximum: appearanceFigures.maximum))
    trackerRows.append(
        Row(
            "tracker heap allocations in those frames, with descriptors", value: "\(appearanceFigures.allocations)",
            target: "0"))
    trackerRows.append(
        Row(
            "whole pipeline, 5 subjects (µs per frame)", samples: frames, p50: pipelineFigures.p50, p99: pipelineFigures.p99,
            maximum: pipelineFigures.maximum))
    trackerRows.append(Row("whole pipeline heap allocations in those frames", value: "\(pipelineFigures.allocations)", target: "0"))
    if arguments.flag(BenchOptions.tracker) && !isJSON {
        print(table(trackerRows), terminator: "")
        exit(0)
    }
    var qualityRows: [TrackingQuality.Row] = []
    if let scenarios = TrackingQuality.directory() {
        do {
            qualityRows = try TrackingQuality.measure(in: scenarios)
        } catch {
            FileHandle.standardError.write(Data("dockbench: cannot run the scenarios in \(scenarios.path): \(error)\n".utf8))
            exit(1)
        }
    } else {
        FileHandle.standardError.write(
            Data("dockbench: Scenarios not found (run from the repository); tracking quality skipped\n".utf8))
    }
    let ready = ReadyBenchmark.measure(runs: calls >= 1000 ? 20 : 3)

    // GetStatus round trip, on the simulated dock without its camera (comparable with earlier runs).
    guard
        let daemon = try? DaemonProcess(
            ["--simulator", "--wake-on-attach=false", "--simulator-camera=false"],
            socket: temporaryPath("status.sock")),
        let connection = await daemon.readyConnection()
    else {
        FileHandle.standardError.write(Data("dockbench: dockd did not start or become ready\n".utf8))
        exit(1)
    }
    // The round trip as it comes, without reading the reply into values.
    let getStatus = DockCall.getStatus.encoded()
    for _ in 0..<200 { _ = try? await connection.send(getStatus) }  // warm up
    var roundTrips: [Double] = []
    roundTrips.reserveCapacity(calls)
    for _ in 0..<calls {
        let start = MonotonicClock.now()
        _ = try? await connection.send(getStatus)
        roundTrips.append(microseconds(MonotonicClock.now() - start))
    }
    roundTrips.sort()
    daemon.stop()

    let serial = await SerialLatencyBenchmark.measure(calls: calls >= 1000 ? 1000 : max(calls, 20))
    guard let tracking = await TrackingLoadBenchmark.run(seconds: calls >= 1000 ? 20 : 2) else {
        FileHandle.standardError.write(Data("dockbench: dockd did not start or become ready for the tracking run\n".utf8))
        exit(1)
    }
    guard let simulator = await SimulatorBenchmark.run(seconds: calls >= 1000 ? 15 : 1) else {
        FileHandle.standardError.write(Data("dockbench: dockd --simulator did not start or become ready\n".utf8))
        exit(1)
    }

    if isJSON {
        let tracker = trackerFigures.map {
            "\"\($0.0)\":{\"p50\":\(number($0.1.p50)),\"p99\":\(number($0.1.p99)),\"allocations\":\($0.1.allocations)}"
        }
        .joined(separator: ",")
        print(
            "{\"tracker_us_per_frame\":{\(tracker)},"
                + "\"pipeline_us_per_frame\":{\"5\":{\"p50\":\(number(pipelineFigures.p50)),\"p99\":\(number(pipelineFigures.p99)),\"allocations\":\(pipelineFigures.allocations)}},"
                + "\"getstatus_round_trip_us\":{\"calls\":\(calls),\"p50\":\(number(percentile(roundTrips, 0.5))),\"p99\":\(number(percentile(roundTrips, 0.99))),\"max\":\(number(roundTrips.last ?? .nan))},"
                + "\"setvelocity_to_serial_us\":{\"calls\":\(serial.count),\"p50\":\(number(percentile(serial, 0.5))),\"p99\":\(number(percentile(serial, 0.99))),\"max\":\(number(serial.last ?? .nan))},"
                + "\"ready_ms\":{\"runs\":\(ready.count),\"p50\":\(number(percentile(ready, 0.5))),\"p99\":\(number(percentile(ready, 0.99))),\"max\":\(number(ready.last ?? .nan))},"
                + "\"tracking\":\(json(tracking)),\"simulator\":\(json(simulator)),"
                + "\"tracking_quality\":\(TrackingQuality.json(qualityRows))}")
    } else {
        var rows = trackerRows
        rows.append(Row("Varlink GetStatus round trip (µs)", roundTrips, target: "p99 ≤ 200"))
        rows.append(Row("SetVelocity → its frame on the serial line (µs)", serial, target: "p99 ≤ 2000"))
        rows.append(Row("start → READY=1 (ms)", ready, target: "≤ 150"))
        rows += loadRows("tracking 5 people at 30 fps, \(format(tracking.seconds)) s", tracking, cpuTarget: "≤ 1")
        rows += simulatorRows(simulator)
        print(table(rows))
        if !qualityRows.isEmpty {
            print("\nTracking quality (virtual time, centre framing; settled: frames from \(TrackingQuality.settledFrom) on)\n")
            print(TrackingQuality.table(qualityRows))
        }
    }
    exit(0)
}
while true { sleep(3600) }
