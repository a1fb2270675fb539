import DockAPI
import DockClient
import DockJSON
import DockSystem
import DockVocabulary
import Foundation
import Glibc
import SimulatedSerialDock
import Synchronization

/// The soak (`dockbench --soak MINUTES`): dockd tracks five people at 30 fps (Track over the
/// socket, as TrackingLoadBenchmark sends them) from a dock on a pseudo-terminal, while
/// - the dock is unplugged every `plugged` and re-plugged `unplugged` later (the pty closed and the
///   link dockd opens removed, then a new pty behind the same link, as docksim's unplug fault);
/// - clients connect, call (GetStatus, ListAccessories) and vanish, some mid-`Watch`, some before
///   reading their answer;
/// - a child process takes control and holds it as a dead man's handle until it is killed with
///   SIGKILL (SoakHolder);
/// - garbage arrives on the socket: random bytes, with and without the NUL that ends a message,
///   and now and then more than 64 KiB without one.
/// Every `sampleSeconds` it notes dockd's RSS, descriptors and threads (/proc), the loop's
/// lateness and missed ticks (GetStatus), and the errors the clients met that none of this
/// explains; at the end it writes PREFIX.json and PREFIX.svg.
enum Soak {
    struct Options {
        var minutes: Double
        var sampleSeconds: Double = 10
        var output: String = "soak"
        var plugged: Duration = .seconds(6)
        var unplugged: Duration = .seconds(2)
        var holderEvery: Duration = .seconds(4)
        var holderFor: Duration = .milliseconds(1500)
    }

    /// What the clients met; shared by the tasks and the chaos thread.
    final class Tally: Sendable {
        struct Counts {
            var calls = 0, errors = 0, expectedErrors = 0, holdersKilled = 0, holdersHeld = 0, vanished = 0, garbage = 0, unplugs = 0
        }
        let counts = Mutex(Counts())
        let unexpected = Mutex<[String]>([])
        let samples = Mutex<[SoakSample]>([])
        let running = Atomic<Bool>(true)
        let start = MonotonicClock.now()

        var seconds: Double { microseconds(MonotonicClock.now() - start) / 1e6 }

        /// Notes a call's outcome: an error the soak explains (the dock unplugged, control held by
        /// another) or one it does not, which is kept with when and where it happened.
        func note(_ error: DockClientError?, during what: String) {
            guard let error else { return counts.withLock { $0.calls += 1 } }
            if Self.isExplained(error) {
                counts.withLock { $0.expectedErrors += 1 }
            } else {
                failure("\(what): \(error)")
            }
        }

        static func isExplained(_ error: DockClientError) -> Bool {
            switch error.failure {
            case .notReady?, .noSuchAccessory?, .busy?: true
            default: false
            }
        }

        /// Counts an unexplained failure, and keeps what it was (the first 100).
        func failure(_ text: String) {
            counts.withLock { $0.errors += 1 }
            let line = "\(decimal(seconds)) s: \(text)"
            unexpected.withLock { if $0.count < 100 { $0.append(line) } }
        }

        func add(_ change: (inout Counts) -> Void) { counts.withLock { change(&$0) } }
    }

    static func run(_ options: Options) async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let link = temporaryPath("soak-dock")
        let chaos = Chaos(link: link, options: options)
        guard chaos.plug() else {
            FileHandle.standardError.write(Data("dockbench: cannot open a pseudo-terminal for the dock\n".utf8))
            return 1
        }
        guard let daemon = try? DaemonProcess(["--device", link, "--tracking"], socket: temporaryPath("soak.sock")),
            let feeder = await daemon.readyConnection()
        else {
            chaos.unplug()
            FileHandle.standardError.write(Data("dockbench: dockd did not start or become ready\n".utf8))
            return 1
        }
        let tally = Tally()
        let socket = daemon.socket, identifier = daemon.identifier
        let end = MonotonicClock.now() + .milliseconds(Int64(options.minutes * 60_000))
        chaos.start(socket: socket, tally: tally)

        let sampleSeconds = options.sampleSeconds
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await feed(feeder, socket: socket, until: end, tally: tally) }
            group.addTask { await churn(socket: socket, until: end, tally: tally) }
            group.addTask {
                await sample(socket: socket, identifier: identifier, every: sampleSeconds, until: end, tally: tally)
            }
        }
        tally.running.store(false, ordering: .relaxed)
        chaos.finish()
        let isRunning = daemon.process.isRunning
        daemon.stop()
        if !isRunning { tally.failure("dockd exited during the soak (status \(daemon.process.terminationStatus))") }

        let taken = tally.samples.withLock { $0 }
        let unexpected = tally.unexpected.withLock { $0 }
        let counts = tally.counts.withLock { $0 }
        guard let summary = SoakSummary(taken) else {
            FileHandle.standardError.write(Data("dockbench: the soak took no sample\n".utf8))
            return 1
        }
        let json =
            "{\"minutes\":\(decimal(options.minutes, places: 3)),\"sample_seconds\":\(decimal(options.sampleSeconds)),"
            + "\"holders_held\":\(counts.holdersHeld),\"summary\":\(summary.json),"
            + "\"unexplained\":[\(unexpected.map { JSONValue.string($0).serialized }.joined(separator: ","))],"
            + "\"samples\":[\n\(taken.map(\.json).joined(separator: ",\n"))\n]}\n"
        do {
            try Data(json.utf8).write(to: URL(fileURLWithPath: options.output + ".json"))
        } catch {
            FileHandle.standardError.write(Data("dockbench: cannot write \(options.output).json: \(error)\n".utf8))
            return 1
        }
        // The plot is drawn from the JSON as written, so --soak-plot draws the same again.
        guard replot(options.output) == 0 else { return 1 }
        print(
            table([
                Row("samples, every \(decimal(options.sampleSeconds)) s", value: "\(summary.samples)"),
                Row(
                    "RSS first / last half min–max (MiB)",
                    value:
                        "\(decimal(summary.residentFirst, places: 2)) / \(decimal(summary.residentLastHalfMinimum, places: 2))–\(decimal(summary.residentLastHalfMaximum, places: 2))",
                    target: "≤ 20, flat"),
                Row("RSS slope over the last half (MiB per hour)", value: decimal(summary.residentLastHalfSlopePerHour, places: 3)),
                Row("descriptors low–high", value: "\(summary.descriptorsMinimum)–\(summary.descriptorsMaximum)", target: "flat"),
                Row("threads low–high", value: "\(summary.threadsMinimum)–\(summary.threadsMaximum)", target: "flat"),
                Row(
                    "loop lateness p99 worst / max (µs)",
                    value: "\(decimal(summary.latenessP99Maximum)) / \(decimal(summary.latenessMaximum))"),
                Row("missed ticks", value: "\(summary.missedTicks)"),
                Row("calls; errors the soak explains (unplugged, busy)", value: "\(summary.calls); \(summary.expectedErrors)"),
                Row("unexplained errors", value: "\(counts.errors)", target: "0"),
                Row(
                    "unplugs; holders killed (of them holding); vanished; garbage",
                    value: "\(counts.unplugs); \(counts.holdersKilled) (\(counts.holdersHeld)); \(counts.vanished); \(counts.garbage)"),
            ]))
        print("wrote \(options.output).json and \(options.output).svg")
        for line in unexpected.prefix(10) { print("unexplained: \(line)") }
        return 0
    }

    /// The plot's title and subtitle.
    static func titles(minutes: Double, errors: Int, last: SoakSample) -> (String, String) {
        (
            "dockd soak: \(decimal(minutes)) min, \(errors) unexplained errors",
            "5 people at 30 fps; \(last.unplugs) unplugs, \(last.holdersKilled) holders SIGKILLed, \(last.vanished) clients vanished, "
                + "\(last.garbage) garbage"
        )
    }

    /// `--soak-plot PREFIX`: draws PREFIX.svg again from PREFIX.json (a run's figures with a newer
    /// plot).
    static func replot(_ prefix: String) -> Int32 {
        guard let data = FileManager.default.contents(atPath: prefix + ".json"),
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let minutes = document["minutes"] as? Double, let rows = document["samples"] as? [[String: Any]], !rows.isEmpty
        else {
            FileHandle.standardError.write(Data("dockbench: \(prefix).json is not a soak's figures\n".utf8))
            return 1
        }
        func number(_ row: [String: Any], _ key: String) -> Double { (row[key] as? Double) ?? (row[key] as? Int).map(Double.init) ?? .nan }
        func whole(_ row: [String: Any], _ key: String) -> Int { (row[key] as? Int) ?? 0 }
        let samples = rows.map { row in
            SoakSample(
                seconds: number(row, "t"), residentMebibytes: number(row, "rss_mib"), descriptors: whole(row, "descriptors"),
                threads: whole(row, "threads"), latenessP50Microseconds: number(row, "late_p50_us"),
                latenessP99Microseconds: number(row, "late_p99_us"), latenessMaximumMicroseconds: number(row, "late_max_us"),
                missedTicks: whole(row, "missed_ticks"), calls: whole(row, "calls"), errors: whole(row, "errors"),
                expectedErrors: whole(row, "expected_errors"), holdersKilled: whole(row, "holders_killed"),
                vanished: whole(row, "vanished"), garbage: whole(row, "garbage"), unplugs: whole(row, "unplugs"),
                dockReconnects: whole(row, "dock_reconnects"))
        }
        let errors = (document["unexplained"] as? [Any])?.count ?? samples.reduce(0) { $0 + $1.errors }
        let (title, subtitle) = titles(minutes: minutes, errors: errors, last: samples.last!)
        do {
            try Data(SoakPlot.svg(samples, title: title, subtitle: subtitle).utf8).write(to: URL(fileURLWithPath: prefix + ".svg"))
        } catch {
            FileHandle.standardError.write(Data("dockbench: cannot write \(prefix).svg: \(error)\n".utf8))
            return 1
        }
        return 0
    }

    /// The camera app: five people at 30 fps over one connection, reconnecting if it is lost.
    static func feed(_ first: VarlinkConnection, socket: String, until end: Duration, tally: Tally) async {
        var connection: VarlinkConnection? = first
        var next = MonotonicClock.now()
        let start = next
        while next < end {
            if connection == nil {
                do { connection = try VarlinkConnection(path: socket) } catch { tally.note(error, during: "Track connect") }
            }
            if let current = connection {
                let now = MonotonicClock.now()
                let batch = ObservationBatch(
                    observations: TrackingLoadBenchmark.observations(at: microseconds(now - start) / 1e6),
                    camera: TrackingLoadBenchmark.camera, captureTime: now)
                do {
                    _ = try await current.call(.host(.track(batch)))
                    tally.note(nil, during: "Track")
                } catch {
                    tally.note(error, during: "Track")
                    if !Tally.isExplained(error) { connection = nil }
                }
            }
            next += .nanoseconds(33_333_333)
            try? await Task.sleep(until: .now + (next - MonotonicClock.now()), clock: .continuous)
        }
    }

    /// Clients that connect, call and vanish: five times a second a new connection asks
    /// GetStatus and ListAccessories and is dropped, or opens `Watch`, reads three events and is
    /// dropped mid-stream.
    static func churn(socket: String, until end: Duration, tally: Tally) async {
        var round = 0
        while MonotonicClock.now() < end {
            round += 1
            do {
                let connection = try VarlinkConnection(path: socket)
                if round % 2 == 0 {
                    _ = try await connection.status()
                    tally.note(nil, during: "GetStatus")
                    _ = try await connection.call(.listAccessories)
                    tally.note(nil, during: "ListAccessories")
                } else {
                    var events = 0
                    for try await _ in connection.events() {
                        events += 1
                        if events == 3 { break }
                    }
                    tally.note(nil, during: "Watch")
                }
                tally.add { $0.vanished += 1 }
            } catch let error as DockClientError {
                tally.note(error, during: round % 2 == 0 ? "GetStatus/ListAccessories" : "Watch")
            } catch {
                tally.failure("Watch: \(error)")
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Every `seconds`, what /proc and GetStatus say of dockd.
    static func sample(socket: String, identifier: Int32, every seconds: Double, until end: Duration, tally: Tally) async {
        var connection: VarlinkConnection?
        var missedBefore: Int?
        var countsBefore = Tally.Counts()
        var next = MonotonicClock.now()
        while true {
            next += .milliseconds(Int64(seconds * 1000))
            guard next <= end + .milliseconds(200) else { return }
            try? await Task.sleep(until: .now + (next - MonotonicClock.now()), clock: .continuous)
            guard let resident = DaemonProcess.residentMegabytes(of: identifier),
                let descriptors = DaemonProcess.openDescriptors(of: identifier),
                let threads = DaemonProcess.threads(of: identifier)
            else {
                tally.failure("dockd's /proc entry is gone")
                return
            }
            var status: Dock.Status?
            do {
                if connection == nil { connection = try VarlinkConnection(path: socket) }
                status = try await connection?.status()
            } catch {
                tally.note(error, during: "GetStatus (sampler)")
                connection = nil
            }
            let loop = status?.loop
            let counts = tally.counts.withLock { $0 }
            let missed = loop.map { $0.missed - (missedBefore ?? $0.missed) } ?? 0
            if let loop { missedBefore = loop.missed }
            let taken = SoakSample(
                seconds: tally.seconds, residentMebibytes: resident, descriptors: descriptors, threads: threads,
                latenessP50Microseconds: (loop?.latenessP50Seconds ?? .nan) * 1e6,
                latenessP99Microseconds: (loop?.latenessP99Seconds ?? .nan) * 1e6,
                latenessMaximumMicroseconds: (loop?.latenessMaximumSeconds ?? .nan) * 1e6, missedTicks: missed,
                calls: counts.calls - countsBefore.calls, errors: counts.errors - countsBefore.errors,
                expectedErrors: counts.expectedErrors - countsBefore.expectedErrors, holdersKilled: counts.holdersKilled,
                vanished: counts.vanished, garbage: counts.garbage, unplugs: counts.unplugs,
                dockReconnects: status?.counters.reconnects ?? -1)
            tally.samples.withLock { $0.append(taken) }
            countsBefore = counts
        }
    }
}
