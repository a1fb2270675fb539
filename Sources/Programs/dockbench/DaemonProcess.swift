import DockAPI
import DockClient
import DockSystem
import DockVocabulary
import Foundation
import Glibc

/// A dockd started by the benchmark from beside its own binary, with what /proc says of it.
final class DaemonProcess {
    let process = Process()
    let socket: String

    /// Starts `dockd` with `arguments` (and `--config ""`); `socket` is where its API listens.
    init(_ arguments: [String], socket: String, environment: [String: String] = [:]) throws {
        self.socket = socket
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        process.executableURL = directory.appendingPathComponent("dockd")
        process.arguments = ["--config", "", "--socket", socket, "--log-level", "warning"] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    var identifier: Int32 { process.processIdentifier }

    /// SIGTERM, then waits.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        unlink(socket)
    }

    /// A connection once dockd answers with a ready dock (nil after `seconds`).
    func readyConnection(within seconds: Int = 20) async -> VarlinkConnection? {
        let deadline = MonotonicClock.now() + .seconds(seconds)
        while MonotonicClock.now() < deadline {
            if let candidate = try? VarlinkConnection(path: socket),
                let status = try? await candidate.status(), status.state == .ready
            {
                return candidate
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    var cpuSeconds: Double? { Self.cpuSeconds(of: identifier) }
    var residentMegabytes: Double? { Self.residentMegabytes(of: identifier) }
    var openDescriptors: Int? { Self.openDescriptors(of: identifier) }

    /// User plus system CPU time so far, seconds (/proc/PID/stat fields 14 and 15).
    static func cpuSeconds(of identifier: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(identifier)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command come state (field 3) ...; utime is field 14, stime 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident set size, MiB (VmRSS in /proc/PID/status).
    static func residentMegabytes(of identifier: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(identifier)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }

    /// Threads (Threads in /proc/PID/status).
    static func threads(of identifier: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(identifier)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") })
        else { return nil }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
    }

    /// Open file descriptors (entries of /proc/PID/fd).
    static func openDescriptors(of identifier: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(identifier)/fd"))?.count
    }
}

/// Percentile of sorted samples (nearest rank).
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
}

/// Microseconds in a duration.
func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// A temporary path for a socket or a link.
func temporaryPath(_ name: String) -> String {
    "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockbench-\(getpid())-\(name)"
}
