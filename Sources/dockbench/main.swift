import DockAPI
import DockClient
import DockSystem
import Foundation
import Glibc

// dockbench: measures dockd as a user runs it. It starts dockd (found beside this binary) on the
// in-process simulator with a temporary socket, and times the API. Medians and percentiles come
// from one run; the machine is shared, so compare figures from the same run, not across runs.
//
//   swift run -c release dockbench [--json] [--calls N]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        usage: dockbench [--json] [--calls N]

        Measures the tracker's cost per frame with 1, 5 and 16 subjects (each seen as a body and a
        face) and its heap allocations; scores its framing against a PID on the newest raw
        detection on the crossing, group and dropout scenarios (virtual time; run from the
        repository so Simulator/Scenarios is found); then starts dockd on the simulated dock and
        measures the GetStatus round trip over the Varlink socket (N calls, default 5000):
        medians, 99th percentiles and maxima, in microseconds. --json prints one JSON object
        instead of the tables.
        """)
    exit(0)
}
let isJSON = arguments.contains("--json")
let calls: Int
if let index = arguments.firstIndex(of: "--calls") {
    guard index + 1 < arguments.count, let count = Int(arguments[index + 1]), count > 0 else {
        FileHandle.standardError.write(Data("dockbench: --calls needs a positive whole number\n".utf8))
        exit(64)
    }
    calls = count
} else {
    calls = 5000
}

guard TrackerBenchmark.allocationCounterWorks else {
    FileHandle.standardError.write(Data("dockbench: the allocation counter does not count; cannot check the tracker\n".utf8))
    exit(1)
}
let qualityRows: [TrackingQuality.Row]
if let scenarios = TrackingQuality.directory() {
    do {
        qualityRows = try TrackingQuality.measure(in: scenarios)
    } catch {
        FileHandle.standardError.write(Data("dockbench: cannot run the scenarios in \(scenarios.path): \(error)\n".utf8))
        exit(1)
    }
} else {
    FileHandle.standardError.write(Data("dockbench: Simulator/Scenarios not found (run from the repository); tracking quality skipped\n".utf8))
    qualityRows = []
}
let trackerFigures = [1, 5, 16].map { subjects in (subjects, TrackerBenchmark.measure(subjects: subjects, frames: calls >= 1000 ? 3000 : 300)) }
let pipelineFigures = TrackerBenchmark.measure(subjects: 5, frames: calls >= 1000 ? 3000 : 300, wholePipeline: true)

let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
let socket = "/tmp/dockbench-\(getpid()).sock"
let daemon = Process()
daemon.executableURL = directory.appendingPathComponent("dockd")
daemon.arguments = ["--config", "", "--simulator", "--socket", socket, "--log-level", "warning", "--wake-on-attach=false", "--simulator-camera=false"]
do {
    try daemon.run()
} catch {
    FileHandle.standardError.write(Data("dockbench: cannot start \(daemon.executableURL!.path): \(error)\n".utf8))
    exit(1)
}
defer { daemon.terminate() }

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)]
}

Task.detached { [calls, isJSON, socket, daemon, trackerFigures, pipelineFigures, qualityRows] in
    // Wait for the socket and a ready dock.
    var connection: VarlinkConnection?
    let deadline = MonotonicClock.now() + .seconds(20)
    while MonotonicClock.now() < deadline {
        if let candidate = try? VarlinkConnection(path: socket),
            let reply = try? await candidate.call("io.dockd.Dock.GetStatus"),
            reply["status"]?["state"]?.stringValue == "ready"
        {
            connection = candidate
            break
        }
        try? await Task.sleep(for: .milliseconds(20))
    }
    guard let connection else {
        FileHandle.standardError.write(Data("dockbench: dockd did not become ready\n".utf8))
        daemon.terminate()
        exit(1)
    }
    for _ in 0..<200 { _ = try? await connection.call("io.dockd.Dock.GetStatus") }  // warm up
    var samples: [Double] = []
    samples.reserveCapacity(calls)
    for _ in 0..<calls {
        let start = MonotonicClock.now()
        _ = try? await connection.call("io.dockd.Dock.GetStatus")
        let elapsed = MonotonicClock.now() - start
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    let median = percentile(samples, 0.5), p99 = percentile(samples, 0.99), maximum = samples.last!
    func format(_ value: Double) -> String { String((value * 10).rounded() / 10) }
    if isJSON {
        let tracker = trackerFigures.map { "\"\($0.0)\":{\"p50\":\(format($0.1.p50)),\"p99\":\(format($0.1.p99)),\"allocations\":\($0.1.allocations)}" }.joined(separator: ",")
        print("{\"tracker_us_per_frame\":{\(tracker)},"
              + "\"pipeline_us_per_frame\":{\"5\":{\"p50\":\(format(pipelineFigures.p50)),\"p99\":\(format(pipelineFigures.p99)),\"allocations\":\(pipelineFigures.allocations)}},"
              + "\"getstatus_round_trip_us\":{\"calls\":\(calls),\"p50\":\(format(median)),\"p99\":\(format(p99)),\"max\":\(format(maximum))},"
              + "\"tracking_quality\":\(TrackingQuality.json(qualityRows))}")
    } else {
        print("| measurement | samples | p50 | p99 | max |")
        print("|---|---|---|---|---|")
        for (subjects, figures) in trackerFigures {
            print("| tracker, \(subjects) subject\(subjects == 1 ? "" : "s") / \(2 * subjects) observations (µs per frame) | \(calls >= 1000 ? 3000 : 300) | \(format(figures.p50)) | \(format(figures.p99)) | |")
        }
        let allocations = trackerFigures.map { "\($0.1.allocations)" }.joined(separator: " / ")
        print("| tracker heap allocations in those frames (1 / 5 / 16 subjects) | | \(allocations) | | |")
        print("| whole pipeline (tracker, fusion, primary, framing), 5 subjects (µs per frame) | \(calls >= 1000 ? 3000 : 300) | \(format(pipelineFigures.p50)) | \(format(pipelineFigures.p99)) | |")
        print("| whole pipeline heap allocations in those frames | | \(pipelineFigures.allocations) | | |")
        print("| Varlink GetStatus round trip (µs) | \(calls) | \(format(median)) | \(format(p99)) | \(format(maximum)) |")
        if !qualityRows.isEmpty {
            print("\nTracking quality (virtual time, centre framing; settled: frames from \(TrackingQuality.settledFrom) on)\n")
            print(TrackingQuality.table(qualityRows))
        }
    }
    daemon.terminate()
    daemon.waitUntilExit()
    unlink(socket)
    exit(0)
}
while true { sleep(3600) }
