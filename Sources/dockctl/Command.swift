import DockTracking

/// What dockctl was asked to do, parsed without side effects.
struct Invocation: Equatable {
    enum Action: Equatable {
        case help(String)
        case version
        case status
        case watch
        case velocity(yaw: Double, pitch: Double, duration: Double, takeOver: Bool, waits: Bool)
        case orient(yaw: Double, pitch: Double, relative: Bool, duration: Double?, speed: Double?, takeOver: Bool, waits: Bool)
        case stop(takeOver: Bool)
        case animate(String, takeOver: Bool, waits: Bool)
        case track(Bool)
        case limits(yawMinimum: Double?, yawMaximum: Double?, pitchMinimum: Double?, pitchMaximum: Double?, maximumSpeed: Double?)
        case devices
        case framing(String)
        case regionOfInterest(x: Double, y: Double, width: Double, height: Double)
        case wholeImage
        case select([Int])
        case selectAt(x: Double, y: Double)
        case zoom(Double)
        /// Runs the tracker offline over the MOTChallenge detections in one file, writing the
        /// tracks to another; needs no dockd.
        /// `timesTracker`: the summary also says how long the tracker took (`--time`).
        case replay(detectionsPath: String, resultPath: String, settings: MOTReplay.Settings, timesTracker: Bool = false)
    }

    var action: Action
    var socket: String?
    var isJSON = false

    struct UsageError: Error, Equatable {
        var message: String
        var command: String?
    }

    static let usage = "usage: dockctl [--socket PATH] [--json] COMMAND [OPTIONS]   (dockctl --help)"

    static let help = """
        dockctl: controls a dock through dockd's API (Protocol/io.dockd.Dock.varlink).

        \(usage)

        commands:
          status                                  the dock's state, pose, limits, controller and counters
          watch                                   live view of events and status (JSON lines when piped)
          velocity [--yaw R] [--pitch R] [--duration S] [--take-over] [--no-wait]
                                                  turn at R rad/s (yaw > 0 right, pitch > 0 up) for S s (0.5)
          orient --yaw R --pitch R [--relative] [--duration S | --speed R] [--take-over] [--no-wait]
                                                  move to an orientation (radians)
          stop [--take-over]                      stop the dock
          animate yes|no|wake|kapow [--take-over] [--no-wait]
                                                  play an animation
          track on|off                            turn system tracking on or off
          limits [--yaw-min R] [--yaw-max R] [--pitch-min R] [--pitch-max R] [--max-speed R]
                                                  narrow the limits (radians, rad/s); no options: show them
          devices                                 the docks dockd knows
          framing automatic|center|left|right     where the subject sits in the frame
          roi X Y W H | roi --clear               frame within a region (0...1 from the top left; cut to the picture)
          select [ID...] | select --at X Y        follow these subjects (none: automatic), or the one at a point
          zoom Z                                  zoom to Z of the camera's range (0 widest, 1 longest)
          replay --mot DET --out RESULT --size WxH [--fps N] [--frames N] [--fov DEG] [--kind K] [--include-coasting] [--time] [...]
                                                  run the tracker offline over MOTChallenge detections (no dockd)

        options:
          --socket PATH   dockd's socket (default: $DOCKD_SOCKET; else, for a normal user,
                          $XDG_RUNTIME_DIR/dockd.sock (or /tmp/dockd-UID/dockd.sock without
                          XDG_RUNTIME_DIR) and then /run/dockd/dockd.sock; for root the latter)
          --json          print dockd's replies as JSON
          --help          this help, or a command's (dockctl COMMAND --help)
          --version       print dockctl's version

        Exit status: 0 on success, 1 when dockd refuses or cannot be reached, 64 on a usage error,
        65 when replay's detection file cannot be read or is malformed.
        """

    static let replayHelp = """
        usage: dockctl replay --mot DET --out RESULT --size WxH [--fps N] [--frames N] [--fov DEG] [--kind face|body|object] [--include-coasting] [--time] [--detector-ids] [TRACKER OPTIONS]

        Runs the tracker offline over a MOTChallenge detection file, as if a still camera had
        delivered it, and writes the tracks as MOTChallenge results; needs no dockd.

          --mot DET            detections, one per line: frame,id,x,y,w,h,conf,... (pixels from the
                               top left, frames from 1, id ignored; a frame without detections has no line)
          --out RESULT         where to write the results (replaced): frame,id,x,y,w,h,conf,-1,-1,-1,
                               sorted by frame and id, confirmed tracks only, conf 1
          --size WxH           the image's size in pixels, e.g. 1920x1080
          --fps N              frames per second (default 30)
          --frames N           the last frame to step through (default: the last frame in DET)
          --fov DEG            the camera's horizontal field of view in degrees (default 60)
          --kind K             what the boxes are: face, body or object (default body)
          --include-coasting   also write tracks unseen for a moment, at their predicted place
          --time               also print the tracker's own time (tracker_seconds with --json)
          --detector-ids       take DET's ids (when not negative) as the detector's own identifiers

        Tracker options (the daemon's defaults in brackets; README "The tracker" says what each does):
          --confident C        boxes at least this confident are matched first and start tracks [0.55]
          --birth-confidence C the least confidence of a box that starts a track [0.6]
          --min-confidence C   boxes below this are ignored [0.1]
          --min-iou X          the least IoU of a confident box with a track's expected box [0.1]
          --min-iou-coasting X  ... with a coasting track's (farther ones: --coasting-gate) [0.4]
          --min-iou-weak X     the least IoU of an unconfident box with a confirmed track's [0.4]
          --size-ratio X       the most a box's width or height may differ from the expected, as a ratio [1.8]
          --gate X             the squared Mahalanobis distance gate [30]
          --coasting-gate X    a coasting track may take a box it does not overlap within this gate (0: never) [5]
          --coasting-reach R   ... and only within R of its box's sizes of where it was expected [1.5]
          --distant-reach R    a confirmed track may take a box it does not overlap within R of its sizes [1]
          --iou-weight W       a pair's cost is d²/gate + W × (1 − IoU) [1]
          --unpaired-cost U    leaving a track and a box unpaired costs U (plus W where nothing overlaps) [1.3]
          --confirm-hits N     hits that confirm a new track [3]
          --quick-confirm C    confirm from the second hit once the hits' confidences add up to C [1.8]
          --tentative-timeout S  seconds a new track may go unseen before it is dropped [0.3]
          --coast-after S      seconds unseen before a confirmed track coasts (is no longer written) [0.15]
          --coast-timeout S    seconds a coasting track lives unseen [1.5]
          --coast-timeout-per-seen R  ... at most R times as long as it was seen (0: no such limit) [4]
          --vouched-coast-timeout S  ... or, while weak boxes it overlaps vouch for it, up to S [2]
          --coasting-rate-window S  a missed track walks on at the pace of about its last S of boxes (0: its filter's rate) [0.5]
          --reidentification-window S  seconds a lost track may come back under its id by its appearance [30]
                               (the descriptor after DET's tenth field; 0: never)
          --max-tracks N       the most tracks at once, 1 to 64 [16]
          --acceleration-noise A  the most angular acceleration noise of a track, rad/s² [3]
          --acceleration-per-height K  a track's acceleration noise per radian of its height [2.5]
                               (0: every track gets --acceleration-noise)
          --coasting-acceleration-per-height K  ... while it coasts (0: as above) [1]
          --maneuver-memory N  ... rising towards --acceleration-noise while its last N or so [4]
                               boxes fall on one side of where it expected them (0: never)
          --maneuver-bias B    ... from when their mean makes up this share of their mean square [0.3]
          --maneuver-hold S    ... and, once raised, comes down over about S seconds (0: at once) [0.5]
          --size-noise S       the random walk of its angular size, rad/√s [0.05]
          --box-noise F        a box's error as a fraction of its size [0.08]
          --box-noise-floor F  the least error of a box coordinate, image units [0.003]

        Prints how many frames, tracks and boxes it wrote (--json: as a JSON object).
        Exit status: 0 on success, 64 on a usage error, 65 when DET cannot be read or has a malformed
        line (the message names the line and the field), 1 when RESULT cannot be written.
        """

    static func commandHelp(_ command: String) -> String? {
        let lines: [String: String] = [
            "status": "usage: dockctl status\n\nPrints the dock's state, pose, limits, controller and counters.",
            "watch": "usage: dockctl watch\n\nShows events and the status as they come; on a terminal a live view, piped one JSON object per line. Ctrl-C ends it.",
            "velocity": "usage: dockctl velocity [--yaw R] [--pitch R] [--duration S] [--take-over] [--no-wait]\n\nTurns the dock at R rad/s (yaw > 0 pans right, pitch > 0 tilts up; an axis not named stays still) for S seconds (default 0.5), then stops it. Waits until the motion has ended and says how (--no-wait: once the dock has accepted it); the motion runs to its end even if dockctl is interrupted.",
            "orient": "usage: dockctl orient --yaw R --pitch R [--relative] [--duration S | --speed R] [--take-over] [--no-wait]\n\nMoves the dock to an orientation in radians, absolute or relative to where it is. Waits until it has arrived and says so (--no-wait: once the dock has accepted the move).",
            "stop": "usage: dockctl stop [--take-over]\n\nStops the dock, cancels any motion or animation, and releases control (to the tracker when tracking is on).",
            "animate": "usage: dockctl animate yes|no|wake|kapow [--take-over] [--no-wait]\n\nPlays a built-in animation from where the dock is, and waits until it has finished (--no-wait: once it has started).",
            "track": "usage: dockctl track on|off\n\nTurns system tracking on or off.",
            "limits": "usage: dockctl limits [--yaw-min R] [--yaw-max R] [--pitch-min R] [--pitch-max R] [--max-speed R]\n\nNarrows the limits (never beyond the dock's own) and prints the limits in force.",
            "devices": "usage: dockctl devices\n\nLists the docks dockd knows.",
            "framing": "usage: dockctl framing automatic|center|left|right\n\nChooses where the subject sits in the frame.",
            "roi": "usage: dockctl roi X Y W H | dockctl roi --clear\n\nLimits framing to a region of the image (normalised 0...1, origin top left); the part past the picture's edge is cut off, and the answer says what was kept. --clear frames the whole image.",
            "select": "usage: dockctl select [ID...] | dockctl select --at X Y\n\nFollows the subjects with these IDs (none: choose automatically), or the subject at a point of the image. An ID no subject has now is kept (a subject of that ID may yet appear), and the answer says so.",
            "zoom": "usage: dockctl zoom Z\n\nZooms a camera that has a zoom dockd can drive (a UVC webcam's zoom_absolute) to Z, from 0 (the widest) to 1 (the longest), linear in the camera's own units, and prints the zoom set once the camera's step has rounded it. A dock without such a zoom refuses (NotSupported).",
            "replay": replayHelp,
        ]
        return lines[command]
    }

    /// Parses the arguments after the program name; `environment` supplies `DOCKD_SOCKET`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Invocation {
        var rest = arguments[...]
        var socket = environment["DOCKD_SOCKET"]
        var isJSON = false
        while let first = rest.first, first.hasPrefix("-") {
            rest = rest.dropFirst()
            switch first {
            case "-h", "--help": return Invocation(action: .help(help), socket: socket)
            case "--version": return Invocation(action: .version, socket: socket)
            case "--json": isJSON = true
            case "--socket":
                guard let path = rest.first else { throw UsageError(message: "--socket needs a path") }
                socket = path
                rest = rest.dropFirst()
            default: throw UsageError(message: "unknown option '\(first)'")
            }
        }
        guard let command = rest.first else { throw UsageError(message: "no command given") }
        var options = Array(rest.dropFirst())
        if options.contains("--help") || options.contains("-h") {
            guard let text = commandHelp(command) else { throw UsageError(message: "unknown command '\(command)'") }
            return Invocation(action: .help(text), socket: socket)
        }
        if options.contains("--json") {
            isJSON = true
            options.removeAll { $0 == "--json" }
        }
        var parser = OptionParser(options, command: command)
        let action: Action
        switch command {
        case "status": action = .status
        case "watch": action = .watch
        case "devices": action = .devices
        case "velocity":
            // An axis not named stays still; naming neither is a slip, not a request to hold.
            let yaw = try parser.number("--yaw"), pitch = try parser.number("--pitch")
            guard yaw != nil || pitch != nil else {
                throw UsageError(message: "velocity needs --yaw or --pitch (an axis not named stays still)", command: command)
            }
            action = .velocity(yaw: yaw ?? 0, pitch: pitch ?? 0,
                               duration: try parser.number("--duration") ?? 0.5, takeOver: parser.flag("--take-over"),
                               waits: !parser.flag("--no-wait"))
        case "orient":
            action = .orient(yaw: try parser.required("--yaw"), pitch: try parser.required("--pitch"),
                             relative: parser.flag("--relative"), duration: try parser.number("--duration"),
                             speed: try parser.number("--speed"), takeOver: parser.flag("--take-over"),
                             waits: !parser.flag("--no-wait"))
        case "stop": action = .stop(takeOver: parser.flag("--take-over"))
        case "animate":
            let name = try parser.word(["yes", "no", "wake", "kapow"], what: "animation")
            action = .animate(name, takeOver: parser.flag("--take-over"), waits: !parser.flag("--no-wait"))
        case "track": action = .track(try parser.word(["on", "off"], what: "on or off") == "on")
        case "limits":
            action = .limits(yawMinimum: try parser.number("--yaw-min"), yawMaximum: try parser.number("--yaw-max"),
                             pitchMinimum: try parser.number("--pitch-min"), pitchMaximum: try parser.number("--pitch-max"),
                             maximumSpeed: try parser.number("--max-speed"))
        case "framing":
            action = .framing(try parser.word(["automatic", "center", "left", "right"], what: "a framing mode"))
        case "roi":
            if parser.flag("--clear") {
                action = .wholeImage
            } else {
                let values = try parser.numbers(4, what: "X Y W H")
                action = .regionOfInterest(x: values[0], y: values[1], width: values[2], height: values[3])
            }
        case "select":
            if parser.flag("--at") {
                let values = try parser.numbers(2, what: "X Y")
                action = .selectAt(x: values[0], y: values[1])
            } else {
                action = .select(try parser.identifiers())
            }
        case "zoom":
            action = .zoom(try parser.numbers(1, what: "Z")[0])
        case "replay":
            action = try parser.replay()
        default:
            throw UsageError(message: "unknown command '\(command)'")
        }
        try parser.finish()
        return Invocation(action: action, socket: socket, isJSON: isJSON)
    }
}

/// Takes options out of a command's arguments; whatever is left over is a usage error.
struct OptionParser {
    private var arguments: [String]
    let command: String

    init(_ arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    mutating func flag(_ name: String) -> Bool {
        guard let index = arguments.firstIndex(of: name) else { return false }
        arguments.remove(at: index)
        return true
    }

    mutating func number(_ name: String) throws(Invocation.UsageError) -> Double? {
        guard let index = arguments.firstIndex(of: name) else { return nil }
        guard index + 1 < arguments.count else { throw Invocation.UsageError(message: "\(name) needs a number", command: command) }
        let text = arguments[index + 1]
        guard let value = Double(text), value.isFinite else {
            throw Invocation.UsageError(message: "\(name) needs a finite number, got '\(text)'", command: command)
        }
        arguments.removeSubrange(index...index + 1)
        return value
    }

    mutating func required(_ name: String) throws(Invocation.UsageError) -> Double {
        guard let value = try number(name) else { throw Invocation.UsageError(message: "\(name) is required", command: command) }
        return value
    }

    mutating func word(_ choices: [String], what: String) throws(Invocation.UsageError) -> String {
        guard let index = arguments.firstIndex(where: { !$0.hasPrefix("-") }) else {
            throw Invocation.UsageError(message: "\(command) needs \(what == "animation" ? "an animation: " + choices.joined(separator: ", ") : what)", command: command)
        }
        let word = arguments.remove(at: index)
        guard choices.contains(word) else {
            throw Invocation.UsageError(message: "'\(word)' is not one of \(choices.joined(separator: ", "))", command: command)
        }
        return word
    }

    /// `count` numbers given as plain arguments.
    mutating func numbers(_ count: Int, what: String) throws(Invocation.UsageError) -> [Double] {
        let words = arguments.filter { !$0.hasPrefix("--") }
        guard words.count >= count else { throw Invocation.UsageError(message: "\(command) needs \(what)", command: command) }
        var values: [Double] = []
        for word in words.prefix(count) {
            guard let value = Double(word), value.isFinite else {
                throw Invocation.UsageError(message: "'\(word)' is not a finite number", command: command)
            }
            values.append(value)
            arguments.remove(at: arguments.firstIndex(of: word)!)
        }
        return values
    }

    /// The remaining plain arguments as subject IDs.
    mutating func identifiers() throws(Invocation.UsageError) -> [Int] {
        var identifiers: [Int] = []
        for word in arguments where !word.hasPrefix("-") {
            guard let value = Int(word), value >= 0 else {
                throw Invocation.UsageError(message: "'\(word)' is not a subject ID", command: command)
            }
            identifiers.append(value)
        }
        arguments.removeAll { !$0.hasPrefix("-") }
        return identifiers
    }

    /// The value after option `name`, or nil when the option is not given.
    mutating func string(_ name: String) throws(Invocation.UsageError) -> String? {
        guard let index = arguments.firstIndex(of: name) else { return nil }
        guard index + 1 < arguments.count else { throw Invocation.UsageError(message: "\(name) needs a value", command: command) }
        let value = arguments[index + 1]
        arguments.removeSubrange(index...index + 1)
        return value
    }

    /// The whole number after option `name` within `range`, or nil when the option is not given.
    mutating func wholeNumber(_ name: String, in range: ClosedRange<Int>) throws(Invocation.UsageError) -> Int? {
        guard let text = try string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw Invocation.UsageError(message: "\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'",
                                        command: command)
        }
        return value
    }

    /// `replay`'s options.
    mutating func replay() throws(Invocation.UsageError) -> Invocation.Action {
        func usage(_ message: String) -> Invocation.UsageError { Invocation.UsageError(message: message, command: command) }
        guard let detections = try string("--mot") else { throw usage("--mot is required: the detection file") }
        guard let result = try string("--out") else { throw usage("--out is required: the result file to write") }
        guard let size = try string("--size") else { throw usage("--size is required: the image's WxH in pixels, e.g. 1920x1080") }
        let sides = size.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]), (1...100_000).contains(width),
            (1...100_000).contains(height)
        else { throw usage("--size needs WxH in pixels (1 to 100000 each), e.g. 1920x1080, got '\(size)'") }
        var settings = MOTReplay.Settings(imageWidthPixels: width, imageHeightPixels: height)
        if let fps = try number("--fps") {
            let range = MOTReplay.Settings.minimumFramesPerSecond...MOTReplay.Settings.maximumFramesPerSecond
            guard range.contains(fps) else {
                throw usage("--fps needs frames per second from \(range.lowerBound) to \(range.upperBound), got '\(fps)'")
            }
            settings.framesPerSecond = fps
        }
        settings.lastFrame = try wholeNumber("--frames", in: 1...MOTFormat.maximumFrame)
        if let degrees = try number("--fov") {
            guard degrees > 0, degrees < 180 else { throw usage("--fov needs degrees above 0 and below 180, got '\(degrees)'") }
            settings.horizontalFieldOfViewRadians = degrees * .pi / 180
        }
        if let kind = try string("--kind") {
            guard let parsed = SubjectKind(rawValue: kind) else {
                throw usage("--kind needs one of face, body, object, got '\(kind)'")
            }
            settings.kind = parsed
        }
        settings.includesCoastingTracks = flag("--include-coasting")
        let timesTracker = flag("--time")
        settings.usesDetectorIdentifiers = flag("--detector-ids")
        try trackerOptions(&settings.tracker)
        return .replay(detectionsPath: detections, resultPath: result, settings: settings, timesTracker: timesTracker)
    }

    /// The tracker's options of `replay`, each checked against its range.
    mutating func trackerOptions(_ tracker: inout SubjectTracker.Configuration) throws(Invocation.UsageError) {
        func usage(_ message: String) -> Invocation.UsageError { Invocation.UsageError(message: message, command: command) }
        func positive(_ name: String, above lower: Double = 0) throws(Invocation.UsageError) -> Double? {
            guard let value = try number(name) else { return nil }
            guard value > lower, value <= 1e6 else { throw usage("\(name) needs a number above \(lower) (at most 1e6), got '\(value)'") }
            return value
        }
        func ranged(_ name: String, _ range: ClosedRange<Double>, _ what: String = "a number") throws(Invocation.UsageError) -> Double? {
            guard let value = try number(name) else { return nil }
            guard range.contains(value) else {
                func text(_ bound: Double) -> String { bound == 1e6 ? "1e6" : bound == bound.rounded() ? String(Int(bound)) : String(bound) }
                throw usage("\(name) needs \(what) from \(text(range.lowerBound)) to \(text(range.upperBound)), got '\(value)'")
            }
            return value
        }
        func fraction(_ name: String) throws(Invocation.UsageError) -> Double? { try ranged(name, 0...1) }
        func duration(_ seconds: Double) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }
        func seconds(_ name: String) throws(Invocation.UsageError) -> Duration? {
            guard let value = try number(name) else { return nil }
            guard value > 0, value <= 3600 else { throw usage("\(name) needs seconds above 0 (at most 3600), got '\(value)'") }
            return duration(value)
        }
        /// Seconds in `range`, 0 allowed where the range starts there (a rule switched off).
        func seconds(_ name: String, _ range: ClosedRange<Double>) throws(Invocation.UsageError) -> Duration? {
            try ranged(name, range, "seconds").map(duration)
        }
        if let value = try fraction("--confident") { tracker.confidentThreshold = value }
        if let value = try fraction("--birth-confidence") { tracker.birthConfidence = value }
        if let value = try fraction("--min-confidence") { tracker.minimumConfidence = value }
        if let value = try fraction("--min-iou") { tracker.minimumOverlap = value }
        if let value = try fraction("--min-iou-coasting") { tracker.minimumOverlapCoasting = value }
        if let value = try fraction("--min-iou-weak") { tracker.minimumOverlapUnconfident = value }
        if let value = try positive("--size-ratio", above: 1) { tracker.sizeRatioGate = value }
        if let value = try positive("--gate") { tracker.gate = value }
        if let value = try ranged("--coasting-gate", 0...1e6) { tracker.coastingGate = value }
        if let value = try ranged("--coasting-reach", 0...1e6) { tracker.coastingReach = value }
        if let value = try positive("--unpaired-cost") { tracker.unpairedCost = value }
        if let value = try ranged("--distant-reach", 0...1e6) { tracker.distantReach = value }
        if let value = try ranged("--iou-weight", 0...1000) { tracker.overlapWeight = value }
        if let value = try wholeNumber("--confirm-hits", in: 1...1000) { tracker.confirmationHits = value }
        if let value = try ranged("--quick-confirm", 0...1000) { tracker.quickConfirmationConfidence = value }
        if let value = try seconds("--tentative-timeout") { tracker.tentativeTimeout = value }
        if let value = try seconds("--coast-after") { tracker.coastAfter = value }
        if let value = try seconds("--coast-timeout") { tracker.coastTimeout = value }
        if let value = try ranged("--coast-timeout-per-seen", 0...1000) { tracker.coastTimeoutPerSeen = value }
        if let value = try seconds("--vouched-coast-timeout") { tracker.vouchedCoastTimeout = value }
        if let value = try seconds("--coasting-rate-window", 0...60) { tracker.coastingRateWindow = value }
        if let value = try seconds("--reidentification-window", 0...3600) { tracker.reidentificationWindow = value }
        if let value = try wholeNumber("--max-tracks", in: 1...64) { tracker.maximumTracks = value }
        if let value = try positive("--acceleration-noise") { tracker.noise.accelerationNoise = value }
        if let value = try ranged("--acceleration-per-height", 0...1000) { tracker.accelerationPerHeight = value }
        if let value = try ranged("--coasting-acceleration-per-height", 0...1000) { tracker.coastingAccelerationPerHeight = value }
        if let value = try ranged("--maneuver-memory", 0...1000) { tracker.maneuverMemory = value }
        if let value = try ranged("--maneuver-bias", 0...0.99) { tracker.maneuverBias = value }
        if let value = try seconds("--maneuver-hold", 0...60) { tracker.maneuverHold = value }
        if let value = try positive("--size-noise") { tracker.noise.sizeNoise = value }
        if let value = try positive("--box-noise") { tracker.noise.boxNoise = value }
        if let value = try positive("--box-noise-floor") { tracker.noise.boxNoiseFloor = value }
        guard tracker.minimumConfidence <= tracker.confidentThreshold else {
            throw usage("--min-confidence (\(tracker.minimumConfidence)) must not be above --confident (\(tracker.confidentThreshold))")
        }
    }

    func finish() throws(Invocation.UsageError) {
        if let extra = arguments.first {
            throw Invocation.UsageError(message: "unexpected '\(extra)' for \(command)", command: command)
        }
    }
}
