import DockClient
import DockLogLevel
import DockOptions
import DockSystem
import DockVersion
import DockVision
import Glibc
import VisionService

// The termination signals are blocked before any thread starts, so that only their descriptor
// hears them.
let signals: TerminationSignals
do {
    signals = try TerminationSignals()
} catch {
    standardError("dockd-vision: \(error)")
    exit(1)
}
signal(SIGPIPE, SIG_IGN)

func standardError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[0..<count]
        if bytes.count > 1 << 20 { return nil }
    }
    return String(decoding: bytes, as: UTF8.self)
}

let command: VisionCommand
do {
    command = try VisionCommand.parse(Array(CommandLine.arguments.dropFirst()), readFile: readFile)
} catch {
    standardError("dockd-vision: \(error)")
    if case .usage = error {
        standardError(VisionCommand.usage)
        exit(64)
    }
    exit(78)
}

switch command {
case .help:
    print(VisionCommand.helpText)
case .version:
    print(DockVersion.line(program: "dockd-vision"))
case .completions(let shell):
    print(Completions.script(for: VisionOptions.program, shell: shell), terminator: "")
case .run(let settings, let path):
    var environment: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") { environment[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
        pointer += 1
    }
    let logger = Logger(threshold: LogLevel(name: settings.logLevel) ?? .info, environment: environment, program: "dockd-vision")
    VisionRunner.setThreads(settings.threads)
    let sockets = settings.socket.isEmpty ? DockdSocket.defaultPaths(environment: environment) : [settings.socket]
    logger.notice(
        "dockd-vision \(DockVersion.line(program: "dockd-vision").split(separator: " ").last ?? "") started on \(settings.device)"
            + " with \(path ?? "no settings file"); faces \(settings.faces.rawValue), people \(settings.bodies.rawValue) every "
            + "\(settings.bodyEvery) frames; dockd at \(sockets.joined(separator: " or "))")
    // A benchmark's record of each frame's times (scripts/vision-latency); not a setting.
    var latencyLog: LatencyLog?
    if let latencyPath = environment["DOCKD_VISION_LATENCY_LOG"], !latencyPath.isEmpty {
        do {
            latencyLog = try LatencyLog(path: latencyPath)
        } catch {
            logger.warning("\(error)")
        }
    }
    let feed = DockFeed(
        socketPaths: sockets, accessory: settings.accessory.isEmpty ? nil : settings.accessory,
        turnsTrackingOn: settings.turnsTrackingOn, logger: logger, latencyLog: latencyLog,
        readsFraming: !settings.output.isEmpty && settings.outputView == .framed)
    let runner = VisionRunner(
        settings: settings, feed: feed, logger: logger, notifier: SystemdNotifier(environment: environment), latencyLog: latencyLog)
    let status = runner.run(signals: signals)
    feed.stop()
    latencyLog?.flush()
    logger.notice("dockd-vision stopped after \(runner.counts.frames) frames")
    exit(status)
}
