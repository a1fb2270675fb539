import DockAPI
import DockClient
import DockSystem
import DockVocabulary

/// `dockd --simulator` as a user starts it (`scripts/run`): the in-process dock and its camera,
/// nobody calling. Its CPU (utime + stime from /proc/PID/stat) over `seconds` idle, then over
/// `seconds` while system tracking follows the simulated camera's scene — the dock's physics,
/// its firmware model and the camera all run inside dockd, so all of it is counted.
enum SimulatorBenchmark {
    struct Figures: Sendable {
        /// Seconds of each phase, as measured.
        var idleSeconds: Double
        var trackingSeconds: Double
        /// dockd's CPU, percent of one core.
        var idlePercent: Double
        var trackingPercent: Double
        /// Subjects the tracker followed at the end of the tracking phase.
        var subjects: Int
        /// Resident set size at the end of the idle phase and at the end, MiB.
        var residentIdle: Double
        var residentEnd: Double
    }

    static func run(seconds: Double) async -> Figures? {
        // No wake animation at attach: the idle phase measures the dock at rest, not its first 2 s.
        guard
            let daemon = try? DaemonProcess(["--simulator", "--wake-on-attach=false"], socket: temporaryPath("simulator.sock")),
            let connection = await daemon.readyConnection()
        else { return nil }
        defer { daemon.stop() }
        // A moment for the attach's own work (handshake, first telemetry) to pass.
        try? await Task.sleep(for: .milliseconds(500))
        guard let idle = await cpuPercent(of: daemon, over: seconds),
            let residentIdle = daemon.residentMegabytes,
            (try? await connection.call(.host(.setSystemTracking(true)))) != nil
        else { return nil }
        try? await Task.sleep(for: .milliseconds(500))
        guard let tracking = await cpuPercent(of: daemon, over: seconds) else { return nil }
        let subjects = (try? await connection.status())?.subjects.count ?? 0
        return Figures(
            idleSeconds: idle.seconds, trackingSeconds: tracking.seconds, idlePercent: idle.percent,
            trackingPercent: tracking.percent, subjects: subjects, residentIdle: residentIdle,
            residentEnd: daemon.residentMegabytes ?? 0)
    }

    /// dockd's CPU over about `seconds` of wall time, in which the benchmark only sleeps.
    private static func cpuPercent(of daemon: DaemonProcess, over seconds: Double) async -> (seconds: Double, percent: Double)? {
        guard let before = daemon.cpuSeconds else { return nil }
        let start = MonotonicClock.now()
        try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        guard let after = daemon.cpuSeconds else { return nil }
        let elapsed = microseconds(MonotonicClock.now() - start) / 1e6
        return (elapsed, (after - before) / elapsed * 100)
    }
}
