import DockAPI
import DockClient
import DockSystem
import DockVocabulary
import Foundation
import Glibc

/// One dockd serving `count` in-process simulated docks — an `[accessory simN]` section each,
/// every one with system tracking following its simulated camera's scene at 30 Hz — on its one
/// thread: dockd's threads, CPU and RSS, each accessory's control-loop lateness and missed ticks,
/// and each accessory's `GetStatus` round trip while one client asks every accessory ten times a
/// second (issue 41's load figure).
enum ManyAccessoriesBenchmark {
    /// One accessory's figures.
    struct Accessory: Sendable {
        var name: String
        /// GetStatus round trips, µs, sorted.
        var roundTrips: [Double]
        var loop: Dock.Loop
        var subjects: Int
    }

    struct Figures: Sendable {
        var seconds: Double
        var cpuPercent: Double
        var threads: Int
        var residentMegabytes: Double
        var errors: Int
        var accessories: [Accessory]
    }

    /// The settings file: tracking on, and `count` simulated docks.
    static func settings(names: [String]) -> String {
        "tracking = on\nwake-on-attach = false\nstate-dir =\n" + names.map { "[accessory \($0)]\nsimulator = on\n" }.joined()
    }

    static func run(count: Int, seconds: Double) async -> Figures? {
        let names = (1...count).map { "sim\($0)" }
        let file = temporaryPath("accessories.conf")
        guard (try? settings(names: names).write(toFile: file, atomically: true, encoding: .utf8)) != nil else { return nil }
        defer { unlink(file) }
        guard let daemon = try? DaemonProcess(["--config", file], socket: temporaryPath("accessories.sock")),
            let connection = await allReady(daemon, count: count)
        else { return nil }
        defer { daemon.stop() }
        // A moment for every tracker to find its subjects.
        try? await Task.sleep(for: .seconds(2))
        guard let cpuBefore = daemon.cpuSeconds else { return nil }
        let start = MonotonicClock.now()
        let length = Duration.milliseconds(Int64(seconds * 1000))
        var samples = [[Double]](repeating: [], count: count)
        var errors = 0
        var round = start
        while MonotonicClock.now() - start < length {
            for (index, name) in names.enumerated() {
                let sent = MonotonicClock.now()
                do {
                    _ = try await connection.status(accessory: name)
                    samples[index].append(microseconds(MonotonicClock.now() - sent))
                } catch {
                    errors += 1
                }
            }
            round += .milliseconds(100)
            let wait = round - MonotonicClock.now()
            if wait > .zero { try? await Task.sleep(for: wait) }
        }
        let elapsed = microseconds(MonotonicClock.now() - start) / 1e6
        guard let cpuAfter = daemon.cpuSeconds else { return nil }
        var accessories: [Accessory] = []
        for (index, name) in names.enumerated() {
            guard let status = try? await connection.status(accessory: name) else { return nil }
            accessories.append(
                Accessory(name: name, roundTrips: samples[index].sorted(), loop: status.loop, subjects: status.subjects.count))
        }
        return Figures(
            seconds: elapsed, cpuPercent: (cpuAfter - cpuBefore) / elapsed * 100,
            threads: DaemonProcess.threads(of: daemon.identifier) ?? 0, residentMegabytes: daemon.residentMegabytes ?? .nan,
            errors: errors, accessories: accessories)
    }

    /// A connection once every one of the `count` accessories is ready (nil after 30 s).
    private static func allReady(_ daemon: DaemonProcess, count: Int) async -> VarlinkConnection? {
        let deadline = MonotonicClock.now() + .seconds(30)
        var connection: VarlinkConnection?
        while MonotonicClock.now() < deadline {
            if connection == nil { connection = try? VarlinkConnection(path: daemon.socket) }
            if let connection, case .accessories(let list)? = try? await connection.call(.listAccessories),
                list.count == count, list.allSatisfy({ $0.state == .ready })
            {
                return connection
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// The table's rows.
    static func rows(_ figures: Figures) -> [Row] {
        let label = "\(figures.accessories.count) simulated accessories tracking"
        var rows = [
            Row("\(label), \(format(figures.seconds)) s: dockd CPU (% of one core)", value: format(figures.cpuPercent)),
            Row("\(label): dockd threads", value: "\(figures.threads)", target: "1 for the loop"),
            Row("\(label): dockd RSS (MiB)", value: format(figures.residentMegabytes)),
            Row("\(label): GetStatus errors", value: "\(figures.errors)", target: "0"),
        ]
        for accessory in figures.accessories {
            rows.append(Row("\(accessory.name): GetStatus round trip (µs)", accessory.roundTrips))
            rows.append(
                Row(
                    "\(accessory.name): 30 Hz loop lateness (µs; its last 1024 ticks)", samples: min(accessory.loop.ticks, 1024),
                    p50: accessory.loop.latenessP50Seconds * 1e6, p99: accessory.loop.latenessP99Seconds * 1e6,
                    maximum: accessory.loop.latenessMaximumSeconds * 1e6, target: "p99 ≤ 2000"))
            rows.append(
                Row(
                    "\(accessory.name): ticks missed, subjects tracked",
                    value: "\(accessory.loop.missed) of \(accessory.loop.ticks), \(accessory.subjects)"))
        }
        return rows
    }
}
