import DockNumbers
import DockOptions
import DockTracking
import DockVocabulary

/// dockctl's command line, declared once: the general help, each command's help, the parser and
/// the shell completions (`dockctl --completions SHELL`) are all read from this table.
enum CommandTable {
    // Global options, before the command.
    static let socket = Option("--socket", .file, placeholder: "PATH", help: "dockd's socket (see SOCKET below)")
    static let json = Option("--json", help: "print dockd's replies as JSON")
    static let accessory = Option(
        "--accessory", .text, placeholder: "NAME",
        help: "the accessory to address, by name or serial number (dockctl list); needed when dockd serves several")
    static let help = Option("--help", help: "show the help (of a command: dockctl COMMAND --help)", aliases: ["-h"])
    static let version = Option("--version", help: "print dockctl's version")
    static let completions = Option(
        "--completions", .choice(Completions.Shell.allCases.map(\.rawValue)), placeholder: "SHELL",
        help: "print the completion script for bash, zsh or fish")

    // Options that several commands share.
    static let takeOver = Option("--take-over", help: "take control from a client that holds it")
    static let noWait = Option("--no-wait", help: "return once the dock has accepted it, not when it has ended")
    static let commandHelp = Option("--help", help: "show the command's help", aliases: ["-h"])

    // velocity
    static let yawRate = Option("--yaw", .number(.finite), placeholder: "R", help: "yaw rate, rad/s (> 0 pans right)", defaultText: "0")
    static let pitchRate = Option("--pitch", .number(.finite), placeholder: "R", help: "pitch rate, rad/s (> 0 tilts up)", defaultText: "0")
    static let velocityDuration = Option("--duration", .number(.finite), placeholder: "S", help: "seconds to turn for", defaultText: "0.5")
    // orient
    static let yaw = Option("--yaw", .number(.finite), placeholder: "R", help: "yaw, radians (> 0 right of home)")
    static let pitch = Option("--pitch", .number(.finite), placeholder: "R", help: "pitch, radians (> 0 above home)")
    static let relative = Option("--relative", help: "relative to where the dock is")
    static let moveDuration = Option("--duration", .number(.finite), placeholder: "S", help: "arrive in S seconds")
    static let speed = Option("--speed", .number(.finite), placeholder: "R", help: "move at up to R rad/s")
    // limits
    static let yawMinimum = Option("--yaw-min", .number(.finite), placeholder: "R", help: "lowest yaw, radians")
    static let yawMaximum = Option("--yaw-max", .number(.finite), placeholder: "R", help: "highest yaw, radians")
    static let pitchMinimum = Option("--pitch-min", .number(.finite), placeholder: "R", help: "lowest pitch, radians")
    static let pitchMaximum = Option("--pitch-max", .number(.finite), placeholder: "R", help: "highest pitch, radians")
    static let maximumSpeed = Option("--max-speed", .number(.finite), placeholder: "R", help: "highest speed on either axis, rad/s")
    // lost
    static let lostAfter = Option(
        "--after", .number(NumberRange(0...3600)), placeholder: "S",
        help: "seconds it looks where the subject was lost before the action")
    static let lostAction = Option(
        "--action", .text, placeholder: "ACTION",
        help: "hold, home, zoom-out, pose:YAW,PITCH (degrees) or preset:NAME")
    // speed
    static let speedYawMaximum = Option(
        "--yaw-max-speed", .number(.finite), placeholder: "R", help: "the tracker's highest yaw rate, rad/s")
    static let speedYawAcceleration = Option(
        "--yaw-accel", .number(.finite), placeholder: "A", help: "the tracker's yaw acceleration limit, rad/s²")
    static let speedYawDeadBand = Option(
        "--yaw-dead-band", .number(.finite), placeholder: "R", help: "the least yaw error that starts a correction, radians")
    static let speedPitchMaximum = Option(
        "--pitch-max-speed", .number(.finite), placeholder: "R", help: "the tracker's highest pitch rate, rad/s")
    static let speedPitchAcceleration = Option(
        "--pitch-accel", .number(.finite), placeholder: "A", help: "the tracker's pitch acceleration limit, rad/s²")
    static let speedPitchDeadBand = Option(
        "--pitch-dead-band", .number(.finite), placeholder: "R", help: "the least pitch error that starts a correction, radians")
    // roi, select
    static let clear = Option("--clear", help: "frame the whole image again")
    static let at = Option("--at", help: "the subject at the point X Y instead of by ID")
    // replay
    static let detections = Option(
        "--mot", .file, placeholder: "DET",
        help: "the detections, one per line: frame,id,x,y,w,h,conf,... (pixels from the top left)")
    static let results = Option(
        "--out", .file, placeholder: "RESULT",
        help: "the results to write (replaced): frame,id,x,y,w,h,conf,-1,-1,-1, confirmed tracks only")
    static let size = Option("--size", .text, placeholder: "WxH", help: "the image's size in pixels, e.g. 1920x1080")
    static let fps = Option(
        "--fps", .number(NumberRange(MOTReplay.Settings.minimumFramesPerSecond...MOTReplay.Settings.maximumFramesPerSecond)),
        placeholder: "N", help: "frames per second", defaultText: "30")
    static let frames = Option(
        "--frames", .wholeNumber(1...MOTFormat.maximumFrame), placeholder: "N",
        help: "the last frame to step through (default: the last in DET)")
    static let fieldOfView = Option(
        "--fov", .number(NumberRange(lowerBound: 0, upperBound: 180, excludesLowerBound: true, excludesUpperBound: true)),
        placeholder: "DEG", help: "the camera's horizontal field of view, degrees", defaultText: "60")
    static let kind = Option(
        "--kind", .choice(SubjectKind.allCases.map(\.rawValue)), placeholder: "K", help: "what the boxes are",
        defaultText: "body")
    static let includeCoasting = Option("--include-coasting", help: "also write tracks unseen for a moment, at their predicted place")
    static let time = Option("--time", help: "also print the tracker's own time (tracker_seconds with --json)")
    static let detectorIdentifiers = Option("--detector-ids", help: "take DET's ids (when not negative) as the detector's own identifiers")

    static let program = ProgramSpec(
        name: "dockctl",
        globalOptions: [socket, accessory, json, help, version, completions],
        commands: [
            CommandSpec(
                "status", summary: "the dock's state, pose, limits, controller and counters",
                description: "Prints the dock's state, pose, limits, controller and counters."),
            CommandSpec(
                "watch", summary: "live view of events and status (JSON lines when piped)",
                description:
                    "Shows events and the status as they come; on a terminal a live view, piped one JSON object per line. Ctrl-C ends it."),
            CommandSpec(
                "velocity", summary: "turn at a rate for a while (an axis not named stays still)",
                options: [yawRate, pitchRate, velocityDuration, takeOver, noWait],
                description: """
                    Turns the dock at R rad/s (yaw > 0 pans right, pitch > 0 tilts up; an axis not named stays still, \
                    naming neither is a usage error) for S seconds, then stops it. Waits until the motion has ended and \
                    says how; the motion runs to its end even if dockctl is interrupted.
                    """),
            CommandSpec(
                "orient", summary: "move to an orientation (radians)",
                options: [yaw, pitch, relative, moveDuration, speed, takeOver, noWait],
                usage: "orient --yaw R --pitch R [--relative] [--duration S | --speed R] [--take-over] [--no-wait]",
                description: """
                    Moves the dock to an orientation in radians, absolute or relative to where it is, as fast as it \
                    can unless --duration or --speed (not both) says otherwise. Waits until it has arrived and says so.
                    """),
            CommandSpec(
                "stop", summary: "stop the dock", options: [takeOver],
                description: "Stops the dock, cancels any motion or animation, and releases control (to the tracker when tracking is on)."),
            CommandSpec(
                "animate", summary: "play an animation", arguments: AnimationKind.allCases.map(\.rawValue).joined(separator: "|"),
                words: AnimationKind.allCases.map(\.rawValue), options: [takeOver, noWait],
                description: "Plays a built-in animation from where the dock is, and waits until it has finished."),
            CommandSpec(
                "track", summary: "turn system tracking on or off", arguments: "on|off", words: ["on", "off"],
                description: "Turns system tracking on or off."),
            CommandSpec(
                "limits", summary: "narrow the limits (no options: show them)",
                options: [yawMinimum, yawMaximum, pitchMinimum, pitchMaximum, maximumSpeed],
                description: """
                    Narrows the limits (never beyond the dock's own; an end not given stays where it is) and prints \
                    the limits in force.
                    """),
            CommandSpec(
                "list", summary: "the accessories dockd serves",
                description:
                    "Lists the accessories dockd serves, one a line: the name --accessory takes, its state, where dockd looks for it, and what is attached there."
            ),
            CommandSpec(
                "framing", summary: "where the subject sits in the frame",
                arguments: FramingMode.allCases.map(\.rawValue).joined(separator: "|"), words: FramingMode.allCases.map(\.rawValue),
                description: "Chooses where the subject sits in the frame."),
            CommandSpec(
                "roi", summary: "frame within a region (0...1 from the top left)", arguments: "X Y W H", options: [clear],
                usage: "roi X Y W H | dockctl roi --clear",
                description: """
                    Limits framing to a region of the image (normalised 0...1, origin top left); dockd keeps the part \
                    inside the picture, and the answer says what region is in force.
                    """),
            CommandSpec(
                "select", summary: "follow these subjects (none: automatic), or the one at a point", arguments: "[ID...]",
                options: [at], usage: "select [ID...] | dockctl select --at X Y",
                description: """
                    Follows the subjects with these IDs (none: choose automatically), or the subject at a point of the \
                    image. An ID no subject has now is kept (a subject of that ID may yet appear), and the answer says so.
                    """),
            CommandSpec(
                "zoom", summary: "zoom to Z of the camera's range (0 widest, 1 longest)", arguments: "Z",
                description: """
                    Zooms a camera that has a zoom dockd can drive (a UVC webcam's zoom_absolute) to Z, from 0 (the \
                    widest) to 1 (the longest), and prints the zoom set once the camera's step has rounded it. A dock \
                    without such a zoom refuses (NotSupported).
                    """),
            CommandSpec(
                "shot", summary: "hold the subject at a shot size by zooming (off: leave the zoom alone)",
                arguments: "SIZE", words: ShotSize.names,
                description: """
                    Holds the subject at a shot size by zooming while the tracker frames it: head (head and \
                    shoulders), half (half body), full (full body), group (the selected subjects together), a \
                    share of the picture's height for the subject's box (0.05 to 1), or off (the zoom is left \
                    alone). Needs a zoom dockd drives and whose magnification it knows (the camera model's table); \
                    other docks refuse (NotSupported).
                    """),
            CommandSpec(
                "preset", summary: "save, list, recall or delete named poses", arguments: "save|list|recall|delete [NAME]",
                words: ["save", "list", "recall", "delete"], options: [takeOver, noWait],
                usage: "preset save NAME | list | recall NAME [--take-over] [--no-wait] | delete NAME",
                description: """
                    save NAME keeps where the dock points now (and its zoom, where dockd drives one) under NAME, \
                    replacing a preset of that name; list prints the presets; recall NAME moves the dock there like \
                    orient (the same control rules; waits until it has arrived and says so); delete NAME forgets it. \
                    A name is 1 to 32 characters of printable text. dockd keeps them across restarts in its state \
                    directory.
                    """),
            CommandSpec(
                "lost", summary: "what the dock does when its subject is lost (no options: show it)",
                options: [lostAfter, lostAction],
                description: """
                    Sets what the dock does once its subject has been lost for S seconds: hold, go home (the rest \
                    pose), turn to pose:YAW,PITCH (degrees) or to preset:NAME, or zoom-out; until dockd restarts or \
                    reloads its settings (lost-after-s and lost-action in dockd.conf keep it). Prints the behaviour \
                    in force.
                    """),
            CommandSpec(
                "speed", summary: "how fast and how readily the tracker turns the dock (nothing given: show it)",
                arguments: "[" + FramingSpeed.Profile.allCases.map(\.rawValue).joined(separator: "|") + "]",
                words: FramingSpeed.Profile.allCases.map(\.rawValue),
                options: [
                    speedYawMaximum, speedYawAcceleration, speedYawDeadBand, speedPitchMaximum, speedPitchAcceleration,
                    speedPitchDeadBand,
                ],
                description: """
                    Sets the tracker's speed profile — smooth (a lecture: slow, gentle, a wide dead band), normal (the \
                    default) or fast (sport) — and any of its numbers (each option overrides the profile's; without a \
                    profile, the numbers in force), until dockd restarts or reloads its settings (framing-speed and \
                    the framing-yaw-* and framing-pitch-* keys in dockd.conf keep it). The tracker never asks more \
                    speed or acceleration than the dock advertises. Prints the speed in force and as applied.
                    """),
            CommandSpec(
                "replay", summary: "run the tracker offline over MOTChallenge detections (no dockd)",
                options: [detections, results, size, fps, frames, fieldOfView, kind, includeCoasting, time, detectorIdentifiers]
                    + TrackerOption.all.map(\.option),
                usage: "replay --mot DET --out RESULT --size WxH [OPTIONS] [TRACKER OPTIONS]",
                description: """
                    Runs the tracker offline over a MOTChallenge detection file, as if a still camera had delivered it, \
                    and writes the tracks as MOTChallenge results sorted by frame and id; needs no dockd. Prints how \
                    many frames, tracks and boxes it wrote (--json: as a JSON object). The tracker options default to \
                    the daemon's settings (README "The tracker" says what each does). Exit status: 65 when DET cannot \
                    be read or has a malformed line (the message names the line and the field), 1 when RESULT cannot \
                    be written.
                    """),
        ],
        commonOptions: [commandHelp, json])
}
