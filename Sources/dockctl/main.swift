import DockAPI
import DockClient
import DockVersion
import Foundation
import Glibc

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

// dockd going away mid-call must give an error message, not a silent death by SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let invocation: Invocation
do {
    invocation = try Invocation.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    printError("dockctl: \(error.message)")
    printError(error.command.flatMap { Invocation.commandHelp($0)?.split(separator: "\n").first.map(String.init) } ?? Invocation.usage)
    exit(64)
}
if case .help(let text) = invocation.action {
    print(text)
    exit(0)
}
if case .version = invocation.action {
    print(DockVersion.line(program: "dockctl"))
    exit(0)
}
if case .replay(let detectionsPath, let resultPath, let settings, let timesTracker) = invocation.action {
    exit(replay(detectionsPath: detectionsPath, resultPath: resultPath, settings: settings, isJSON: invocation.isJSON,
                timesTracker: timesTracker))
}
// No --socket or DOCKD_SOCKET: a normal user's own dockd first, then the system's.
let socketPaths = invocation.socket.map { [$0] } ?? DockdSocket.defaultPaths(environment: ProcessInfo.processInfo.environment)

/// Runs the command; returns the exit status.
func run() async -> Int32 {
    do {
        let connection = try VarlinkConnection.connect(toFirstOf: socketPaths).connection
        let method: DockMethod
        var parameters: [String: JSONValue] = [:]
        switch invocation.action {
        case .help, .version, .replay:
            return 0   // all handled before any connection
        case .status:
            method = .getStatus
        case .devices:
            method = .listAccessories
        case .watch:
            return await watch(connection)
        case .velocity(let yaw, let pitch, let duration, let takeOver, let waits):
            // Always with a duration: a one-shot client's velocity must be bounded, or it would
            // stop the moment dockctl exits (a velocity without one holds control).
            method = .setVelocity
            parameters = ["yaw": .number(yaw), "pitch": .number(pitch), "take_over": .bool(takeOver), "wait": .bool(waits),
                          "duration": .number(duration)]
        case .orient(let yaw, let pitch, let relative, let duration, let speed, let takeOver, let waits):
            method = .setOrientation
            parameters = ["yaw": .number(yaw), "pitch": .number(pitch), "relative": .bool(relative), "take_over": .bool(takeOver),
                          "wait": .bool(waits)]
            if let duration { parameters["duration"] = .number(duration) }
            if let speed { parameters["speed"] = .number(speed) }
        case .stop(let takeOver):
            method = .stop
            parameters = ["take_over": .bool(takeOver)]
        case .animate(let name, let takeOver, let waits):
            method = .animate
            parameters = ["animation": .string(name), "take_over": .bool(takeOver), "wait": .bool(waits)]
        case .framing(let mode):
            method = .setFramingMode
            parameters = ["mode": .string(mode)]
        case .regionOfInterest(let x, let y, let width, let height):
            method = .setRegionOfInterest
            parameters = ["region": .object(["x": .number(x), "y": .number(y), "width": .number(width), "height": .number(height)])]
        case .wholeImage:
            method = .setRegionOfInterest
        case .select(let subjects):
            method = .selectSubjects
            parameters = ["subjects": .array(subjects.map { .integer(Int64($0)) })]
        case .selectAt(let x, let y):
            method = .selectSubjectAt
            parameters = ["point": .object(["x": .number(x), "y": .number(y)])]
        case .zoom(let fraction):
            method = .setZoom
            parameters = ["zoom": .number(fraction)]
        case .track(let enabled):
            method = .setSystemTracking
            parameters = ["enabled": .bool(enabled)]
        case .limits(let yawMinimum, let yawMaximum, let pitchMinimum, let pitchMaximum, let maximumSpeed):
            let status = try await connection.call(DockMethod.getStatus.qualifiedName)
            func range(_ axis: String, _ low: Double?, _ high: Double?) -> JSONValue? {
                guard low != nil || high != nil, case .object(let limits)? = status["status"]?["limits"],
                    case .object(let current)? = limits[axis]
                else { return nil }
                return .object(["min": .number(low ?? current["min"]?.doubleValue ?? 0),
                                "max": .number(high ?? current["max"]?.doubleValue ?? 0)])
            }
            method = .setLimits
            if let yaw = range("yaw", yawMinimum, yawMaximum) { parameters["yaw"] = yaw }
            if let pitch = range("pitch", pitchMinimum, pitchMaximum) { parameters["pitch"] = pitch }
            if let maximumSpeed { parameters["max_speed"] = .number(maximumSpeed) }
        }
        let reply = try await connection.call(method.qualifiedName, parameters)
        print(invocation.isJSON ? JSONValue.object(reply).serialized : Presentation.describe(method, reply))
        // A motion that did not run to its end (replaced, stopped) is not a success for a script.
        if let ended = reply["result"]?["ended"],
            ended["how"]?.stringValue != "completed" || ended["finish"]?.stringValue == "timed_out"
        {
            return 1
        }
        return 0
    } catch {
        printError("dockctl: \(error)")
        return 1
    }
}

func watch(_ connection: VarlinkConnection) async -> Int32 {
    let isTerminal = isatty(1) == 1 && !invocation.isJSON
    var recent: [String] = []
    do {
        for try await reply in connection.stream(DockMethod.watch.qualifiedName) {
            guard case .object(let event)? = reply["event"] else { continue }
            if !isTerminal {
                print(JSONValue.object(event).serialized)
                fflush(nil)
                continue
            }
            if event["kind"]?.stringValue != "status" {
                recent.append("\(event["kind"]?.stringValue ?? "?"): \(event["detail"]?.stringValue ?? "")")
                recent = Array(recent.suffix(8))
            }
            if case .object(let status)? = event["status"] {
                print("\u{1B}[H\u{1B}[2J" + Presentation.live(status, recent: recent), terminator: "")
                fflush(nil)
            }
        }
        return 0
    } catch {
        printError("dockctl: \(error)")
        return 1
    }
}

Task.detached {
    exit(await run())
}
while true { sleep(3600) }
