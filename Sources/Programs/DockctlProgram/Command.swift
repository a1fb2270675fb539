import DockOptions
import DockTracking
import DockVocabulary

/// What dockctl was asked to do, parsed without side effects.
struct Invocation: Equatable {
    enum Action: Equatable {
        case help(String)
        case version
        /// Print the completion script for a shell.
        case completions(Completions.Shell)
        case status
        case watch
        case velocity(yaw: Double, pitch: Double, duration: Double, takeOver: Bool, waits: Bool)
        case orient(yaw: Double, pitch: Double, relative: Bool, duration: Double?, speed: Double?, takeOver: Bool, waits: Bool)
        case stop(takeOver: Bool)
        case animate(String, takeOver: Bool, waits: Bool)
        case track(Bool)
        case limits(yawMinimum: Double?, yawMaximum: Double?, pitchMinimum: Double?, pitchMaximum: Double?, maximumSpeed: Double?)
        /// List the accessories dockd serves.
        case list
        case framing(String)
        case regionOfInterest(x: Double, y: Double, width: Double, height: Double)
        case wholeImage
        case select([Int])
        case selectAt(x: Double, y: Double)
        case zoom(Double)
        case shot(ShotSize)
        /// `preset save NAME`.
        case savePreset(String)
        /// `preset list`.
        case listPresets
        /// `preset recall NAME`.
        case recallPreset(String, takeOver: Bool, waits: Bool)
        /// `preset delete NAME`.
        case deletePreset(String)
        /// `lost`: the action as a setting spells it (nil fields stay as they are).
        case lost(afterSeconds: Double?, action: LostBehaviour.Action?)
        /// `speed`: a profile and the numbers overriding it (nil fields stay as they are).
        case speed(FramingSpeedChange)
        /// Runs the tracker offline over the MOTChallenge detections in one file, writing the
        /// tracks to another; needs no dockd.
        /// `timesTracker`: the summary also says how long the tracker took (`--time`).
        case replay(detectionsPath: String, resultPath: String, settings: MOTReplay.Settings, timesTracker: Bool = false)
    }

    var action: Action
    var socket: String?
    var isJSON = false
    /// The accessory every call names (`--accessory`); nil: dockd's only one.
    var accessory: String? = nil

    struct UsageError: Error, Equatable {
        var message: String
        var command: String?
    }

    static let usage = "usage: dockctl [--socket PATH] [--accessory NAME] [--json] COMMAND [OPTIONS]   (dockctl --help)"

    /// The general help: every command of the table with its usage and summary, then the global options.
    static var help: String {
        let table = CommandTable.program
        return """
            dockctl: controls a dock through dockd's API (Protocol/io.dockd.Dock.varlink).

            \(usage)

            commands:
            \(HelpText.rows(table.commands.map { ($0.usage, $0.summary) }, column: 44))

            options:
            \(HelpText.optionList(table.globalOptions, column: 24))

            SOCKET: --socket, else $DOCKD_SOCKET; else, for a normal user, $XDG_RUNTIME_DIR/dockd.sock (or
            /tmp/dockd-UID/dockd.sock without XDG_RUNTIME_DIR) and then /run/dockd/dockd.sock; for root the latter.

            Exit status: 0 done; 1 refused by dockd or the dock (the message says what and why; --json
            also prints dockd's named error), or a motion that did not run to its end; 64 a usage error
            (dockctl asked dockd nothing); 65 replay's detection file unreadable or malformed; 69 dockd
            cannot be reached. A number beyond the dock's limits (dockctl status shows them) is clamped
            to the limit, and the answer names it.
            """
    }

    /// A command's own help, from its declaration; nil for an unknown command.
    static func commandHelp(_ command: String) -> String? {
        CommandTable.program.command(command).map { HelpText.command($0, program: "dockctl") }
    }

    /// Parses the arguments after the program name; `environment` supplies `DOCKD_SOCKET`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Invocation {
        let table = CommandTable.program
        var socket = environment["DOCKD_SOCKET"]
        // The global options run up to the first word that is not one of them or its value: the command.
        var commandAt: Int?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard OptionParser.isOption(argument) else {
                commandAt = index
                break
            }
            let takesValue = table.globalOptions.contains { $0.takesValue && ([$0.name] + $0.aliases).contains(argument) }
            index += takesValue ? 2 : 1
        }
        let global: ParsedOptions
        do throws(OptionError) {
            global = try OptionParser.parse(arguments[..<(commandAt ?? arguments.count)], options: table.globalOptions)
        } catch {
            throw UsageError(message: error.message)
        }
        if global.flag(CommandTable.help) { return Invocation(action: .help(help), socket: socket) }
        if global.flag(CommandTable.version) { return Invocation(action: .version, socket: socket) }
        if let shell = global.choice(CommandTable.completions, as: Completions.Shell.self) {
            return Invocation(action: .completions(shell), socket: socket)
        }
        socket = global.text(CommandTable.socket) ?? socket
        var isJSON = global.flag(CommandTable.json)
        guard let commandAt else { throw UsageError(message: "no command given") }
        let command = arguments[commandAt]
        guard let spec = table.command(command) else { throw UsageError(message: "unknown command '\(command)'") }
        let rest = arguments[(commandAt + 1)...]
        if rest.contains("--help") || rest.contains("-h") {
            return Invocation(action: .help(HelpText.command(spec, program: "dockctl")), socket: socket)
        }
        let parsed: ParsedOptions
        do throws(OptionError) {
            parsed = try OptionParser.parse(rest, options: spec.options + table.commonOptions)
        } catch {
            throw UsageError(message: error.message, command: command)
        }
        isJSON = isJSON || parsed.flag(CommandTable.json)
        let action = try action(command, parsed)
        return Invocation(action: action, socket: socket, isJSON: isJSON, accessory: global.text(CommandTable.accessory))
    }

    /// The command's action from its checked options and words.
    private static func action(_ command: String, _ parsed: ParsedOptions) throws(UsageError) -> Action {
        typealias T = CommandTable
        func usage(_ message: String) -> UsageError { UsageError(message: message, command: command) }
        var words = parsed.words[...]
        /// The next plain word, one of `choices`.
        func word(_ choices: [String], what: String) throws(UsageError) -> String {
            guard let word = words.popFirst() else { throw usage("\(command) needs \(what)") }
            guard choices.contains(word) else { throw usage("'\(word)' is not one of \(choices.joined(separator: ", "))") }
            return word
        }
        /// The next `count` plain words as finite numbers.
        func numbers(_ count: Int, what: String) throws(UsageError) -> [Double] {
            guard words.count >= count else { throw usage("\(command) needs \(what)") }
            var values: [Double] = []
            for _ in 0..<count {
                let word = words.popFirst()!
                guard let value = Double(word), value.isFinite else { throw usage("'\(word)' is not a finite number") }
                values.append(value)
            }
            return values
        }
        let action: Action
        switch command {
        case "status": action = .status
        case "watch": action = .watch
        case "list": action = .list
        case "velocity":
            // An axis not named stays still; naming neither is a slip, not a request to hold.
            let yaw = parsed.number(T.yawRate), pitch = parsed.number(T.pitchRate)
            guard yaw != nil || pitch != nil else { throw usage("velocity needs --yaw or --pitch (an axis not named stays still)") }
            action = .velocity(
                yaw: yaw ?? 0, pitch: pitch ?? 0, duration: parsed.number(T.velocityDuration) ?? 0.5,
                takeOver: parsed.flag(T.takeOver), waits: !parsed.flag(T.noWait))
        case "orient":
            guard let yaw = parsed.number(T.yaw) else { throw usage("--yaw is required") }
            guard let pitch = parsed.number(T.pitch) else { throw usage("--pitch is required") }
            guard !(parsed.has(T.moveDuration) && parsed.has(T.speed)) else { throw usage("give --duration or --speed, not both") }
            action = .orient(
                yaw: yaw, pitch: pitch, relative: parsed.flag(T.relative), duration: parsed.number(T.moveDuration),
                speed: parsed.number(T.speed), takeOver: parsed.flag(T.takeOver), waits: !parsed.flag(T.noWait))
        case "stop": action = .stop(takeOver: parsed.flag(T.takeOver))
        case "animate":
            let names = AnimationKind.allCases.map(\.rawValue)
            action = .animate(
                try word(names, what: "an animation: " + names.joined(separator: ", ")),
                takeOver: parsed.flag(T.takeOver), waits: !parsed.flag(T.noWait))
        case "track": action = .track(try word(["on", "off"], what: "on or off") == "on")
        case "limits":
            action = .limits(
                yawMinimum: parsed.number(T.yawMinimum), yawMaximum: parsed.number(T.yawMaximum),
                pitchMinimum: parsed.number(T.pitchMinimum), pitchMaximum: parsed.number(T.pitchMaximum),
                maximumSpeed: parsed.number(T.maximumSpeed))
        case "framing":
            action = .framing(try word(FramingMode.allCases.map(\.rawValue), what: "a framing mode"))
        case "roi":
            if parsed.flag(T.clear) {
                action = .wholeImage
            } else {
                let values = try numbers(4, what: "X Y W H")
                action = .regionOfInterest(x: values[0], y: values[1], width: values[2], height: values[3])
            }
        case "select":
            if parsed.flag(T.at) {
                let values = try numbers(2, what: "X Y")
                action = .selectAt(x: values[0], y: values[1])
            } else {
                var identifiers: [Int] = []
                while let word = words.popFirst() {
                    guard let value = Int(word), value >= 0 else { throw usage("'\(word)' is not a subject ID") }
                    identifiers.append(value)
                }
                action = .select(identifiers)
            }
        case "zoom":
            action = .zoom(try numbers(1, what: "Z")[0])
        case "shot":
            guard let word = words.popFirst() else { throw usage("shot needs a shot size: head, half, full, group, off or a share") }
            do {
                action = .shot(try ShotSize(setting: word))
            } catch {
                throw usage("\(error)")
            }
        case "preset":
            let verb = try word(["save", "list", "recall", "delete"], what: "save, list, recall or delete")
            func name() throws(UsageError) -> String {
                guard let name = words.popFirst() else { throw usage("preset \(verb) needs a NAME") }
                do {
                    try PresetStore.checkName(name)
                } catch {
                    throw usage("\(error)")
                }
                return name
            }
            switch verb {
            case "save": action = .savePreset(try name())
            case "recall": action = .recallPreset(try name(), takeOver: parsed.flag(T.takeOver), waits: !parsed.flag(T.noWait))
            case "delete": action = .deletePreset(try name())
            default: action = .listPresets
            }
            if verb != "recall", parsed.flag(T.takeOver) || parsed.flag(T.noWait) {
                throw usage("--take-over and --no-wait go with preset recall only")
            }
        case "lost":
            var lostAction: LostBehaviour.Action?
            if let text = parsed.text(T.lostAction) {
                do {
                    lostAction = try LostBehaviour.Action(setting: text)
                } catch {
                    throw usage("--action: \(error)")
                }
            }
            action = .lost(afterSeconds: parsed.number(T.lostAfter), action: lostAction)
        case "speed":
            var profile: String?
            if !words.isEmpty {
                profile = try word(FramingSpeed.Profile.allCases.map(\.rawValue), what: "a profile")
            }
            action = .speed(
                FramingSpeedChange(
                    profile: profile, yawMaximumSpeed: parsed.number(T.speedYawMaximum),
                    yawAcceleration: parsed.number(T.speedYawAcceleration), yawDeadBand: parsed.number(T.speedYawDeadBand),
                    pitchMaximumSpeed: parsed.number(T.speedPitchMaximum), pitchAcceleration: parsed.number(T.speedPitchAcceleration),
                    pitchDeadBand: parsed.number(T.speedPitchDeadBand)))
        case "replay":
            action = try replay(parsed, usage: usage)
        default:
            preconditionFailure("'\(command)' is in the command table but has no action")
        }
        if let extra = words.first { throw usage("unexpected '\(extra)' for \(command)") }
        return action
    }

    /// `replay`'s action: its files and image, and the tracker's settings from `TrackerOptions`.
    private static func replay(_ parsed: ParsedOptions, usage: (String) -> UsageError) throws(UsageError) -> Action {
        typealias T = CommandTable
        guard let detections = parsed.text(T.detections) else { throw usage("--mot is required: the detection file") }
        guard let result = parsed.text(T.results) else { throw usage("--out is required: the result file to write") }
        guard let size = parsed.text(T.size) else { throw usage("--size is required: the image's WxH in pixels, e.g. 1920x1080") }
        let sides = size.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]), (1...100_000).contains(width),
            (1...100_000).contains(height)
        else { throw usage("--size needs WxH in pixels (1 to 100000 each), e.g. 1920x1080, got '\(size)'") }
        var settings = MOTReplay.Settings(imageWidthPixels: width, imageHeightPixels: height)
        if let fps = parsed.number(T.fps) { settings.framesPerSecond = fps }
        settings.lastFrame = parsed.wholeNumber(T.frames)
        if let degrees = parsed.number(T.fieldOfView) { settings.horizontalFieldOfViewRadians = degrees * .pi / 180 }
        if let kind = parsed.choice(T.kind, as: SubjectKind.self) { settings.kind = kind }
        settings.includesCoastingTracks = parsed.flag(T.includeCoasting)
        settings.usesDetectorIdentifiers = parsed.flag(T.detectorIdentifiers)
        for tracker in TrackerOption.all {
            if let value = parsed.number(tracker.option) { tracker.apply(&settings.tracker, value) }
        }
        guard settings.tracker.minimumConfidence <= settings.tracker.confidentThreshold else {
            throw usage(
                "--min-confidence (\(settings.tracker.minimumConfidence)) must not be above --confident (\(settings.tracker.confidentThreshold))"
            )
        }
        return .replay(detectionsPath: detections, resultPath: result, settings: settings, timesTracker: parsed.flag(T.time))
    }
}
