import DockAPI
import DockClient
import DockJSON
import DockNumbers
import DockOptions
import DockSockets
import DockSystem
import DockVersion
import DockVocabulary
import Glibc

func printError(_ message: String) {
    StandardError.write(message + "\n")
}

/// dockctl, the command-line client: one program of dockd's binary
/// (`Sources/Programs/dockd/main.swift`), and the `dockctl` executable of the build.
public enum DockctlMain {
    /// Runs dockctl with `arguments` (without the program's name), and exits with its status.
    public static func run(_ arguments: [String]) -> Never {
        // dockd going away mid-call gives an error message because DockClient sends with MSG_NOSIGNAL;
        // SIGPIPE keeps its default whatever dockctl inherited, so that `dockctl watch | head` ends when
        // head does instead of writing to a closed pipe for ever.
        signal(SIGPIPE, SIG_DFL)

        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments, environment: ProcessEnvironment.current())
        } catch {
            printError("dockctl: \(error.message)")
            printError(
                error.command.flatMap { Invocation.commandHelp($0)?.split(separator: "\n").first.map(String.init) } ?? Invocation.usage)
            exit(ErrorSentence.usage)
        }
        if case .help(let text) = invocation.action {
            print(text)
            exit(0)
        }
        if case .completions(let shell) = invocation.action {
            print(Completions.script(for: CommandTable.program, shell: shell), terminator: "")
            exit(0)
        }
        if case .version = invocation.action {
            print(DockVersion.line(program: "dockctl"))
            exit(0)
        }
        if case .replay(let detectionsPath, let resultPath, let settings, let timesTracker) = invocation.action {
            exit(
                replay(
                    detectionsPath: detectionsPath, resultPath: resultPath, settings: settings, isJSON: invocation.isJSON,
                    timesTracker: timesTracker))
        }
        // No --socket or DOCKD_SOCKET: a normal user's own dockd first, then the system's.
        let socketPaths = invocation.socket.map { [$0] } ?? DockdSocket.defaultPaths(environment: ProcessEnvironment.current())

        Task.detached {
            exit(await perform(invocation, socketPaths: socketPaths))
        }
        while true { sleep(3600) }
    }
}

/// A usage that only shows itself once dockd has answered (a limit half given before a dock
/// attached); exits like a refusal (``ErrorSentence/refused``).
struct Refused: Error, CustomStringConvertible {
    var description: String
}

/// Runs the command; returns the exit status.
func perform(_ invocation: Invocation, socketPaths: [String]) async -> Int32 {
    do {
        let connection = try VarlinkConnection.connect(toFirstOf: socketPaths).connection
        let call: DockCall
        var check = LimitCheck()
        var limits: Dock.Limits?
        switch invocation.action {
        case .help, .version, .completions, .replay:
            return 0  // all handled before any connection
        case .status:
            call = .getStatus
        case .list:
            call = .listAccessories
        case .watch:
            return await watch(connection, accessory: invocation.accessory, isJSON: invocation.isJSON)
        case .velocity(var yaw, var pitch, let duration, let takeOver, let waits):
            limits = try await connection.status(accessory: invocation.accessory).limits
            if let limits {
                yaw = check.rate(yaw, axis: .yaw, limit: limits.yawSpeedRadiansPerSecond)
                pitch = check.rate(pitch, axis: .pitch, limit: limits.pitchSpeedRadiansPerSecond)
            }
            // Always with a duration: a one-shot client's velocity must be bounded, or it would
            // stop the moment dockctl exits (a velocity without one holds control).
            call = .host(
                .motion(
                    .velocity(
                        yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch,
                        duration: .seconds(min(max(duration, -1e9), 1e9))),
                    takeOver: takeOver, waitsForEnd: waits))
        case .orient(var yaw, var pitch, let relative, let duration, let speed, let takeOver, let waits):
            limits = try await connection.status(accessory: invocation.accessory).limits
            // A relative move's target depends on where the dock is when dockd moves it: dockd
            // clamps that one, and its answer names what it clamped.
            if let limits, !relative {
                yaw = check.angle(yaw, axis: .yaw, range: limits.yawRadians)
                pitch = check.angle(pitch, axis: .pitch, range: limits.pitchRadians)
            }
            let pace: OrientationPace
            switch (duration, speed) {
            case (let seconds?, nil): pace = .duration(.seconds(min(max(seconds, -1e9), 1e9)))
            case (nil, let speed?):
                let fastest = limits.map { max($0.yawSpeedRadiansPerSecond, $0.pitchSpeedRadiansPerSecond) }
                pace = .maximumSpeed(fastest.map { check.speed(speed, limit: $0) } ?? speed)
            case (nil, nil): pace = .fastest
            case (_?, _?): preconditionFailure("the parser refuses --duration with --speed")
            }
            call = .host(
                .motion(
                    .orientation(yawRadians: yaw, pitchRadians: pitch, isRelative: relative, pace: pace),
                    takeOver: takeOver, waitsForEnd: waits))
        case .stop(let takeOver):
            call = .host(.stop(takeOver: takeOver))
        case .animate(let name, let takeOver, let waits):
            call = .host(.motion(.animate(AnimationKind(rawValue: name)!), takeOver: takeOver, waitsForEnd: waits))
        case .framing(let mode):
            call = .host(.setFramingMode(FramingMode(rawValue: mode)!))
        case .regionOfInterest(let x, let y, let width, let height):
            // dockd cuts what lies past the picture's edge, and answers the region in force.
            call = .host(.setRegionOfInterest(NormalizedRect(x: x, y: y, width: width, height: height)))
        case .wholeImage:
            call = .host(.setRegionOfInterest(.fullImage))
        case .select(let subjects):
            call = .host(.selectSubjects(subjects))
        case .selectAt(let x, let y):
            call = .host(.selectSubject(at: NormalizedPoint(x: x, y: y)))
        case .zoom(let fraction):
            call = .host(.setZoom(fraction))
        case .shot(let shot):
            call = .host(.setShotSize(shot))
        case .savePreset(let name):
            call = .host(.savePreset(name: name))
        case .listPresets:
            call = .host(.listPresets)
        case .recallPreset(let name, let takeOver, let waits):
            call = .host(.recallPreset(name: name, takeOver: takeOver, waitsForEnd: waits))
        case .deletePreset(let name):
            call = .host(.deletePreset(name: name))
        case .lost(let seconds, let action):
            call = .host(.setLostBehaviour(after: seconds.flatMap { Duration.fromSeconds($0) }, action: action))
        case .speed(let change):
            call = .host(.setFramingSpeed(change))
        case .track(let enabled):
            call = .host(.setSystemTracking(enabled))
        case .limits(let yawMinimum, let yawMaximum, let pitchMinimum, let pitchMaximum, let maximumSpeed):
            // An end not given stays where it is: the current limits fill it in.
            var current: Dock.Limits?
            if [yawMinimum, yawMaximum, pitchMinimum, pitchMaximum].contains(where: { $0 != nil }) {
                current = try await connection.status(accessory: invocation.accessory).limits
            }
            func range(_ option: String, _ low: Double?, _ high: Double?, _ now: ClosedRange<Double>?) throws -> ClosedRange<Double>? {
                guard low != nil || high != nil else { return nil }
                guard let lower = low ?? now?.lowerBound, let upper = high ?? now?.upperBound else {
                    throw Refused(
                        description: "no dock is attached, so its limits are not known: give both \(option)-min and \(option)-max")
                }
                guard lower <= upper else { throw Refused(description: "\(option)-min \(lower) is above \(option)-max \(upper)") }
                return lower...upper
            }
            call = .host(
                .setLimits(
                    LimitRequest(
                        yawRadians: try range("--yaw", yawMinimum, yawMaximum, current?.yawRadians),
                        pitchRadians: try range("--pitch", pitchMinimum, pitchMaximum, current?.pitchRadians),
                        yawSpeedRadiansPerSecond: maximumSpeed, pitchSpeedRadiansPerSecond: maximumSpeed)))
        }
        let parameters = try await connection.send(call.encoded(accessory: invocation.accessory))
        let reply: Dock.Reply
        do {
            reply = try call.method.map { method throws(ReplyError) in try Dock.Reply(method, parameters: parameters) } ?? .done
        } catch {
            throw DockClientError.invalidReply(error)
        }
        if invocation.isJSON {
            print(JSONValue.object(parameters).serialized)
        } else {
            switch invocation.action {
            case .select(let subjects):
                guard case .selection(let untracked) = reply else { preconditionFailure("SelectSubjects answers with its selection") }
                print(Presentation.selection(subjects, untracked: untracked))
            case .regionOfInterest(let x, let y, let width, let height):
                guard case .region(let kept) = reply else { preconditionFailure("SetRegionOfInterest answers with its region") }
                print(Presentation.region(asked: NormalizedRect(x: x, y: y, width: width, height: height), kept: kept))
            case .velocity, .orient:
                guard case .motion(let result) = reply else { preconditionFailure("a motion answers with its result") }
                check.reported(result.clamped, limits: limits)
                print(Presentation.motion(result, clamped: check.notes))
            case .limits(let yawMinimum, let yawMaximum, let pitchMinimum, let pitchMaximum, let maximumSpeed):
                guard case .limits(let kept) = reply else { preconditionFailure("SetLimits answers with the limits") }
                check.narrowed(
                    yaw: (yawMinimum, yawMaximum), pitch: (pitchMinimum, pitchMaximum), maximumSpeed: maximumSpeed, kept: kept)
                print(
                    Presentation.limitsText(kept)
                        + (check.notes.isEmpty ? "" : "; clamped to the limits: " + check.notes.joined(separator: ", ")))
            default:
                print(Presentation.describe(reply))
            }
        }
        // A motion that did not run to its end (replaced, stopped) is not a success for a script.
        if case .motion(let result) = reply, let ended = result.ended, !ended.isSuccess { return ErrorSentence.refused }
        return 0
    } catch {
        return failed(error, isJSON: invocation.isJSON)
    }
}

/// Says what went wrong in a sentence (with `--json`, also dockd's named error as it came, on
/// standard output), and returns the exit status for it.
func failed(_ error: any Error, isJSON: Bool) -> Int32 {
    let (sentence, status) = ErrorSentence.describe(error)
    if isJSON, let json = ErrorSentence.json(error) { print(json) }
    printError("dockctl: \(sentence)" + (sentence.hasSuffix(".") || sentence.hasSuffix("?") ? "" : "."))
    return status
}

func watch(_ connection: VarlinkConnection, accessory: String?, isJSON: Bool) async -> Int32 {
    let isTerminal = isatty(1) == 1 && !isJSON
    var recent: [String] = []
    var statuses: [(name: String, status: Dock.Status)] = []
    do {
        for try await parameters in connection.stream(DockCall.watch.encoded(accessory: accessory)) {
            if !isTerminal {
                // Piped: each event as dockd sent it.
                guard let event = DockMethod.watch.replyField.flatMap({ parameters[$0] }) else { continue }
                print(event.serialized)
                fflush(nil)
                continue
            }
            guard case .event(let event) = try Dock.Reply(.watch, parameters: parameters) else { continue }
            Presentation.heard(event, statuses: &statuses, recent: &recent)
            print("\u{1B}[H\u{1B}[2J" + Presentation.live(statuses, recent: recent), terminator: "")
            fflush(nil)
        }
        return 0
    } catch {
        return failed(error, isJSON: isJSON)
    }
}
