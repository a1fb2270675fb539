import DockClient
import DockTracking
import DockVocabulary
import Foundation
import Glibc
import TestSupport
import Testing

@testable import DockctlProgram

/// dockctl's arguments, parsed without side effects.
@Suite(.onTheProcessThreads) struct DockctlParsingTests {
    let environment = ["DOCKD_SOCKET": "/tmp/d.sock"]

    @Test func commandsParse() throws {
        #expect(try Invocation.parse(["status"], environment: environment) == Invocation(action: .status, socket: "/tmp/d.sock"))
        #expect(
            try Invocation.parse(["--socket", "/x", "--json", "list"], environment: [:])
                == Invocation(action: .list, socket: "/x", isJSON: true))
        #expect(
            try Invocation.parse(["--accessory", "stage", "status"], environment: [:])
                == Invocation(action: .status, socket: nil, accessory: "stage"))
        #expect(
            try Invocation.parse(["velocity", "--yaw", "0.5", "--pitch", "-0.1", "--duration", "2"], environment: [:]).action
                == .velocity(yaw: 0.5, pitch: -0.1, duration: 2, takeOver: false, waits: true))
        #expect(
            try Invocation.parse(["velocity", "--yaw", "0.5", "--pitch", "0", "--no-wait"], environment: [:]).action
                == .velocity(yaw: 0.5, pitch: 0, duration: 0.5, takeOver: false, waits: false), "bounded even without --duration")
        #expect(
            try Invocation.parse(["velocity", "--yaw", "0.1"], environment: [:]).action
                == .velocity(yaw: 0.1, pitch: 0, duration: 0.5, takeOver: false, waits: true), "an axis not named stays still")
        #expect(
            try Invocation.parse(["velocity", "--pitch", "-0.2"], environment: [:]).action
                == .velocity(yaw: 0, pitch: -0.2, duration: 0.5, takeOver: false, waits: true))
        #expect(
            try Invocation.parse(["orient", "--pitch", "0.2", "--yaw", "1", "--relative", "--take-over"], environment: [:]).action
                == .orient(yaw: 1, pitch: 0.2, relative: true, duration: nil, speed: nil, takeOver: true, waits: true))
        #expect(try Invocation.parse(["animate", "kapow"], environment: [:]).action == .animate("kapow", takeOver: false, waits: true))
        #expect(
            try Invocation.parse(["animate", "no", "--no-wait"], environment: [:]).action == .animate("no", takeOver: false, waits: false))
        #expect(try Invocation.parse(["track", "off"], environment: [:]).action == .track(false))
        #expect(
            try Invocation.parse(["limits", "--yaw-max", "1"], environment: [:]).action
                == .limits(yawMinimum: nil, yawMaximum: 1, pitchMinimum: nil, pitchMaximum: nil, maximumSpeed: nil))
        #expect(try Invocation.parse(["status", "--json"], environment: [:]).isJSON)
        #expect(try Invocation.parse(["framing", "left"], environment: [:]).action == .framing("left"))
        #expect(
            try Invocation.parse(["roi", "0.1", "0.2", "0.5", "0.6"], environment: [:]).action
                == .regionOfInterest(x: 0.1, y: 0.2, width: 0.5, height: 0.6))
        #expect(try Invocation.parse(["roi", "--clear"], environment: [:]).action == .wholeImage)
        #expect(try Invocation.parse(["select", "3", "7"], environment: [:]).action == .select([3, 7]))
        #expect(try Invocation.parse(["select"], environment: [:]).action == .select([]))
        #expect(try Invocation.parse(["select", "--at", "0.5", "0.4"], environment: [:]).action == .selectAt(x: 0.5, y: 0.4))
    }

    @Test func replayParsesWithItsDefaults() throws {
        #expect(
            try Invocation.parse(["replay", "--mot", "det.txt", "--out", "res.txt", "--size", "1920x1080"], environment: [:]).action
                == .replay(
                    detectionsPath: "det.txt", resultPath: "res.txt",
                    settings: MOTReplay.Settings(imageWidthPixels: 1920, imageHeightPixels: 1080)))
        var settings = MOTReplay.Settings(imageWidthPixels: 640, imageHeightPixels: 480)
        settings.framesPerSecond = 25
        settings.lastFrame = 900
        settings.horizontalFieldOfViewRadians = 90 * .pi / 180
        settings.kind = .face
        settings.includesCoastingTracks = true
        let arguments = [
            "replay", "--include-coasting", "--size", "640x480", "--kind", "face", "--fov", "90", "--frames", "900",
            "--fps", "25", "--out", "r", "--mot", "d",
        ]
        #expect(
            try Invocation.parse(arguments, environment: [:]).action
                == .replay(detectionsPath: "d", resultPath: "r", settings: settings))
        #expect(
            MOTReplay.Settings(imageWidthPixels: 1, imageHeightPixels: 1).horizontalFieldOfViewRadians == 60 * .pi / 180,
            "the documented default field of view")
    }

    @Test func replayTakesEveryTrackerParameter() throws {
        let arguments = [
            "replay", "--mot", "d", "--out", "r", "--size", "640x480", "--time", "--detector-ids", "--confident", "0.45",
            "--birth-confidence", "0.7", "--min-confidence", "0.05", "--min-iou", "0.2", "--min-iou-weak", "0.5",
            "--size-ratio", "1.6", "--gate", "20", "--iou-weight", "0.5", "--coasting-gate", "7", "--coasting-reach", "2", "--confirm-hits",
            "4", "--quick-confirm", "1.5",
            "--tentative-timeout", "0.25", "--coast-after", "0.2", "--coast-timeout", "1.2", "--vouched-coast-timeout", "1.8",
            "--max-tracks", "32",
            "--acceleration-noise", "2", "--acceleration-per-height", "4", "--size-noise", "0.1", "--box-noise", "0.08",
            "--box-noise-floor", "0.002",
            "--min-iou-coasting", "0.3", "--distant-reach", "0.8", "--unpaired-cost", "1.1", "--coasting-rate-window", "0.7",
            "--coasting-acceleration-per-height", "0.5", "--coast-timeout-per-seen", "3",
            "--maneuver-memory", "6", "--maneuver-bias", "0.4", "--maneuver-hold", "0.8", "--reidentification-window", "12",
            "--min-iou-hidden", "0.35", "--hidden-after", "2.5",
        ]
        var settings = MOTReplay.Settings(imageWidthPixels: 640, imageHeightPixels: 480)
        settings.usesDetectorIdentifiers = true
        settings.tracker.confidentThreshold = 0.45
        settings.tracker.birthConfidence = 0.7
        settings.tracker.minimumConfidence = 0.05
        settings.tracker.minimumOverlap = 0.2
        settings.tracker.minimumOverlapUnconfident = 0.5
        settings.tracker.sizeRatioGate = 1.6
        settings.tracker.gate = 20
        settings.tracker.overlapWeight = 0.5
        settings.tracker.coastingGate = 7
        settings.tracker.coastingReach = 2
        settings.tracker.confirmationHits = 4
        settings.tracker.quickConfirmationConfidence = 1.5
        settings.tracker.tentativeTimeout = .milliseconds(250)
        settings.tracker.coastAfter = .milliseconds(200)
        settings.tracker.coastTimeout = .milliseconds(1200)
        settings.tracker.vouchedCoastTimeout = .milliseconds(1800)
        settings.tracker.maximumTracks = 32
        settings.tracker.noise.accelerationNoise = 2
        settings.tracker.accelerationPerHeight = 4
        settings.tracker.noise.sizeNoise = 0.1
        settings.tracker.noise.boxNoise = 0.08
        settings.tracker.noise.boxNoiseFloor = 0.002
        settings.tracker.minimumOverlapCoasting = 0.3
        settings.tracker.distantReach = 0.8
        settings.tracker.unpairedCost = 1.1
        settings.tracker.coastingRateWindow = .milliseconds(700)
        settings.tracker.coastingAccelerationPerHeight = 0.5
        settings.tracker.coastTimeoutPerSeen = 3
        settings.tracker.maneuverMemory = 6
        settings.tracker.maneuverBias = 0.4
        settings.tracker.maneuverHold = .milliseconds(800)
        settings.tracker.reidentificationWindow = .seconds(12)
        settings.tracker.minimumOverlapHidden = 0.35
        settings.tracker.hiddenAfterFrames = 2.5
        #expect(
            try Invocation.parse(arguments, environment: [:]).action
                == .replay(detectionsPath: "d", resultPath: "r", settings: settings, timesTracker: true))
        #expect(settings.isValid)
        // Every option is in the help, with the daemon's default (read from the configuration, so
        // this holds the defaults below to the help).
        let defaults = SubjectTracker.Configuration()
        for (option, value) in [
            ("--confident C", "default: 0.55)"), ("--birth-confidence C", "default: 0.6)"), ("--min-confidence C", "default: 0.1)"),
            ("--min-iou X", "default: 0.1)"), ("--min-iou-weak X", "default: 0.4)"), ("--size-ratio X", "default: 1.8)"),
            ("--gate X", "default: 30)"), ("--iou-weight W", "default: 1)"), ("--coasting-gate X", "default: 5)"),
            ("--coasting-reach R", "default: 1.5)"), ("--confirm-hits N", "default: 3)"), ("--quick-confirm C", "default: 1.8)"),
            ("--tentative-timeout S", "default: 0.3)"), ("--coast-after S", "default: 0.15)"), ("--coast-timeout S", "default: 1.5)"),
            ("--vouched-coast-timeout S", "default: 2)"),
            ("--max-tracks N", "default: 16)"), ("--acceleration-noise A", "default: 3)"), ("--acceleration-per-height K", "default: 2.5)"),
            ("--size-noise S", "default: 0.05)"),
            ("--box-noise F", "default: 0.08)"), ("--box-noise-floor F", "default: 0.003)"), ("--time", "tracker_seconds"),
            ("--detector-ids", "identifiers"),
            ("--min-iou-coasting X", "default: 0.4)"), ("--distant-reach R", "default: 1)"), ("--unpaired-cost U", "default: 1.3)"),
            ("--coasting-rate-window S", "default: 0.5)"), ("--coasting-acceleration-per-height K", "default: 1)"),
            ("--coast-timeout-per-seen R", "default: 4)"), ("--maneuver-memory N", "default: 4)"), ("--maneuver-bias B", "default: 0.3)"),
            ("--maneuver-hold S", "default: 0.5)"),
            ("--reidentification-window S", "default: 30)"), ("--min-iou-hidden X", "default: 0.2)"),
            ("--hidden-after N", "default: 1.5)"),
        ] {
            // The option's line, and the lines its help runs on to (indented past the names).
            let lines = (Invocation.commandHelp("replay") ?? "").split(separator: "\n")
            let line = lines.firstIndex { $0.hasPrefix("  \(option) ") || $0 == "  \(option)" }
                .map { start in
                    ([lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix("      ") }.map { $0.drop { $0 == " " } }).joined(
                        separator: " ")
                }
            #expect(line?.contains(value) == true, "\(option): \(String(describing: line))")
        }
        #expect(
            defaults.confidentThreshold == 0.55 && defaults.birthConfidence == 0.6 && defaults.minimumConfidence == 0.1
                && defaults.minimumOverlap == 0.1 && defaults.minimumOverlapUnconfident == 0.4 && defaults.sizeRatioGate == 1.8
                && defaults.gate == 30 && defaults.overlapWeight == 1 && defaults.coastingGate == 5 && defaults.coastingReach == 1.5
                && defaults.confirmationHits == 3 && defaults.quickConfirmationConfidence == 1.8
                && defaults.tentativeTimeout == .milliseconds(300) && defaults.coastAfter == .milliseconds(150)
                && defaults.coastTimeout == .milliseconds(1500) && defaults.maximumTracks == 16
                && defaults.noise.accelerationNoise == 3 && defaults.accelerationPerHeight == 2.5 && defaults.noise.sizeNoise == 0.05
                && defaults.noise.boxNoise == 0.08
                && defaults.noise.boxNoiseFloor == 0.003 && defaults.minimumOverlapCoasting == 0.4 && defaults.distantReach == 1
                && defaults.unpairedCost == 1.3 && defaults.coastingRateWindow == .milliseconds(500)
                && defaults.coastingAccelerationPerHeight == 1 && defaults.vouchedCoastTimeout == .seconds(2)
                && defaults.coastTimeoutPerSeen == 4
                && defaults.maneuverMemory == 4 && defaults.maneuverBias == 0.3 && defaults.maneuverHold == .milliseconds(500)
                && defaults.minimumOverlapHidden == 0.2 && defaults.hiddenAfterFrames == 1.5,
            "the help's defaults are the code's")
        let base = ["replay", "--mot", "d", "--out", "r", "--size", "2x2"]
        for (extra, message) in [
            (["--confident", "1.5"], "--confident needs a number from 0 to 1, got '1.5'"),
            (["--size-ratio", "1"], "--size-ratio needs a number above 1, at most 1e6, got '1'"),
            (["--gate", "-3"], "--gate needs a number above 0, at most 1e6, got '-3'"),
            (["--hidden-after", "101"], "--hidden-after needs a number from 0 to 100, got '101'"),
            (["--confirm-hits", "0"], "--confirm-hits needs a whole number from 1 to 1000, got '0'"),
            (["--coast-timeout", "0"], "--coast-timeout needs a number above 0, at most 3600, got '0'"),
            (["--max-tracks", "65"], "--max-tracks needs a whole number from 1 to 64, got '65'"),
            (["--box-noise", "nan"], "--box-noise needs a finite number, got 'nan'"),
            (["--quick-confirm", "-1"], "--quick-confirm needs a number from 0 to 1000, got '-1'"),
            (["--min-confidence", "0.6", "--confident", "0.4"], "--min-confidence (0.6) must not be above --confident (0.4)"),
            (["--maneuver-bias", "1"], "--maneuver-bias needs a number from 0, below 1, got '1'"),
            (["--coasting-rate-window", "61"], "--coasting-rate-window needs a number from 0 to 60, got '61'"),
        ] {
            #expect(throws: Invocation.UsageError(message: message, command: "replay"), "\(extra)") {
                try Invocation.parse(base + extra, environment: [:])
            }
        }
    }

    @Test func replayUsageErrorsNameTheOption() {
        let base = ["replay", "--mot", "d", "--out", "r"]
        let cases: [([String], String)] = [
            (["replay", "--out", "r", "--size", "2x2"], "--mot is required: the detection file"),
            (["replay", "--mot", "d", "--size", "2x2"], "--out is required: the result file to write"),
            (base, "--size is required: the image's WxH in pixels, e.g. 1920x1080"),
            (base + ["--size", "1920"], "--size needs WxH in pixels (1 to 100000 each), e.g. 1920x1080, got '1920'"),
            (base + ["--size", "0x10"], "--size needs WxH in pixels (1 to 100000 each), e.g. 1920x1080, got '0x10'"),
            (base + ["--size", "10x10x10"], "--size needs WxH in pixels (1 to 100000 each), e.g. 1920x1080, got '10x10x10'"),
            (base + ["--size", "2x2", "--fps", "0"], "--fps needs a number from 0.01 to 1000, got '0'"),
            (base + ["--size", "2x2", "--fps", "inf"], "--fps needs a finite number, got 'inf'"),
            (base + ["--size", "2x2", "--frames", "0"], "--frames needs a whole number from 1 to 10000000, got '0'"),
            (base + ["--size", "2x2", "--frames", "1.5"], "--frames needs a whole number from 1 to 10000000, got '1.5'"),
            (base + ["--size", "2x2", "--fov", "180"], "--fov needs a number above 0, below 180, got '180'"),
            (base + ["--size", "2x2", "--kind", "car"], "--kind needs one of face, body, object, got 'car'"),
            (base + ["--size", "2x2", "--fast"], "unknown option '--fast'"),
            (base + ["--size"], "--size needs a value"),
        ]
        for (arguments, message) in cases {
            #expect(throws: Invocation.UsageError(message: message, command: "replay"), "\(arguments)") {
                try Invocation.parse(arguments, environment: [:])
            }
        }
    }

    @Test func helpEverywhere() throws {
        guard case .help(let general) = try Invocation.parse(["--help"], environment: [:]).action else {
            Issue.record()
            return
        }
        #expect(general.hasPrefix("dockctl: controls a dock"))
        for command in [
            "status", "watch", "velocity", "orient", "stop", "animate", "track", "limits", "list", "framing", "roi", "select",
            "replay",
        ] {
            guard case .help(let text) = try Invocation.parse([command, "--help"], environment: [:]).action else {
                Issue.record("no help for \(command)")
                continue
            }
            #expect(text.hasPrefix("usage: dockctl \(command)"))
            #expect(general.contains(command))
        }
    }

    /// A socket this user may not use says how to get in, not "is dockd running?".
    @Test func aRefusedSocketSaysHowToJoinGroupDock() {
        let denied = ErrorSentence.describe(
            DockClientError.cannotConnect(path: "/run/dockd/dockd.sock", reason: "connect /run/dockd/dockd.sock: Permission denied"))
        #expect(denied.status == 69)
        #expect(
            denied.sentence
                == "cannot reach dockd at /run/dockd/dockd.sock (permission denied); \(ErrorSentence.permissionHint)")
        let missing = ErrorSentence.describe(
            DockClientError.cannotConnectToAny([
                .cannotConnect(path: "/run/user/7/dockd.sock", reason: "connect /run/user/7/dockd.sock: No such file or directory"),
                .cannotConnect(path: "/run/dockd/dockd.sock", reason: "connect /run/dockd/dockd.sock: Permission denied"),
            ]))
        #expect(missing.sentence.hasSuffix(ErrorSentence.permissionHint), "\(missing.sentence)")
    }

    @Test func usageErrorsNameTheProblem() {
        #expect(throws: Invocation.UsageError(message: "no command given")) { try Invocation.parse([], environment: [:]) }
        #expect(throws: Invocation.UsageError(message: "unknown command 'fly'")) { try Invocation.parse(["fly"], environment: [:]) }
        #expect(
            throws: Invocation.UsageError(
                message: "velocity needs --yaw or --pitch (an axis not named stays still)",
                command: "velocity")
        ) {
            try Invocation.parse(["velocity", "--duration", "1"], environment: [:])
        }
        #expect(throws: Invocation.UsageError(message: "--yaw needs a finite number, got 'nan'", command: "velocity")) {
            try Invocation.parse(["velocity", "--yaw", "nan", "--pitch", "0"], environment: [:])
        }
        #expect(throws: Invocation.UsageError(message: "give --duration or --speed, not both", command: "orient")) {
            try Invocation.parse(["orient", "--yaw", "1", "--pitch", "0", "--duration", "2", "--speed", "0.5"], environment: [:])
        }
        #expect(throws: Invocation.UsageError(message: "'maybe' is not one of on, off", command: "track")) {
            try Invocation.parse(["track", "maybe"], environment: [:])
        }
        #expect(throws: Invocation.UsageError(message: "unknown option '--fast'", command: "stop")) {
            try Invocation.parse(["stop", "--fast"], environment: [:])
        }
    }
}

/// dockctl and the DockKit-shaped client against a running dockd on the simulator.
@Suite(.serialized, .onTheProcessThreads) struct ClientProcessTests {
    /// The dock's pose as `dockctl --json status` reports it.
    static func pose(_ environment: [String: String]) throws -> (yaw: Double, pitch: Double) {
        let child = try ChildProcess("dockctl", ["--json", "status"], environment: environment)
        try child.finishInput("")
        let json = try JSONSerialization.jsonObject(with: Data(try child.finish().output.utf8)) as? [String: Any]
        let pose = (json?["status"] as? [String: Any])?["pose"] as? [String: Any]
        return (pose?["yaw"] as? Double ?? .nan, pose?["pitch"] as? Double ?? .nan)
    }

    /// The README's console examples of motion, run as written, each a one-shot process: the
    /// dock's own reported pose shows it moved as asked.
    @Test func theReadmesMotionExamplesMoveTheDock() throws {
        let (dockd, socket) = try Self.startDaemon()
        let environment = ["DOCKD_SOCKET": socket]
        func dockctl(_ line: String) throws -> (status: Int32, output: String, error: String) {
            let child = try ChildProcess("dockctl", line.split(separator: " ").map(String.init), environment: environment)
            try child.finishInput("")
            return try child.finish()
        }
        let start = try Self.pose(environment)
        let called = ContinuousClock.now
        let turned = try dockctl("velocity --yaw 0.3 --pitch 0 --duration 1")
        let answered = ContinuousClock.now
        #expect(turned.output == "done\n", "\(turned.error)")
        let afterVelocity = try Self.pose(environment)
        // 0.3 rad/s for dockd's second, less a few milliradians coming up to speed; on a loaded
        // machine dockd's tick that ends it may come late, and the dock turns on until then — but
        // never for longer than dockctl took to answer (dockd's simulated dock turns in real time).
        let moved = afterVelocity.yaw - start.yaw
        let longest = max(1, (answered - called) / .seconds(1))
        #expect(
            moved > 0.24 && moved < 0.3 * longest + 0.06,
            "0.3 rad/s for 1 s (answered in \(longest) s): \(start.yaw) -> \(afterVelocity.yaw)")

        let oriented = try dockctl("orient --yaw 1 --pitch 0")
        #expect(oriented.output == "reached\n", "\(oriented.error)")
        #expect(abs(try Self.pose(environment).yaw - 1) < 0.01)

        // kapow tilts up about 0.3 rad and comes back where it began: seen by `dockctl watch`
        // (JSON lines when piped, the status at 10 Hz) while a one-shot `dockctl animate kapow` waits.
        let before = try Self.pose(environment)
        let watch = try ChildProcess("dockctl", ["watch"], environment: environment)
        #expect(watch.waitForOutputLine() != nil, "watching")
        let played = try dockctl("animate kapow")
        #expect(played.output == "done\n", "\(played.error)")
        // Every status since the watch began is in its output, however late this test reads it
        // (the one-shot's start, on a loaded machine, can take seconds of them): read until the
        // animation is over, or 60 s.
        var highest = before.pitch, sawAnimating = false
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard let line = watch.waitForOutputLine(),
                let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let status = event["status"] as? [String: Any]
            else { break }
            if status["motion"] as? String == "animating" { sawAnimating = true }
            highest = max(highest, (status["pose"] as? [String: Any])?["pitch"] as? Double ?? -.infinity)
            if sawAnimating, status["motion"] as? String == "idle" { break }
        }
        watch.signal(SIGKILL)
        #expect(sawAnimating)
        #expect(highest - before.pitch > 0.1, "kapow tilted the dock up: \(before.pitch) -> \(highest)")
        let after = try Self.pose(environment)
        #expect(abs(after.pitch - before.pitch) < 0.01 && abs(after.yaw - before.yaw) < 0.01, "and ended where it began")

        // The README's other two: a clamped orientation, and an animation that does not wait.
        #expect(
            try dockctl("orient --yaw 9 --pitch 0").output
                == "reached; clamped to the limits: yaw to 2.967 rad (170.0°), the end of the dock's yaw range\n")
        let limit = try Self.pose(environment).yaw
        #expect(limit > 2.9 && limit < 3.0, "at the dock's yaw limit (170°): \(limit)")
        // The shake, seen in a watch begun before it (a look now and then could fall between
        // its swings, or after it, when each look took a loaded machine a second).
        let shakeWatch = try ChildProcess("dockctl", ["watch"], environment: environment)
        #expect(shakeWatch.waitForOutputLine() != nil, "watching")
        #expect(try dockctl("animate no --no-wait").output == "ok\n")
        var shook = false
        let shakeDeadline = ContinuousClock.now + .seconds(60)
        while !shook, ContinuousClock.now < shakeDeadline, let line = shakeWatch.waitForOutputLine() {
            let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let yaw = ((event?["status"] as? [String: Any])?["pose"] as? [String: Any])?["yaw"] as? Double
            shook = yaw.map { abs($0 - limit) > 0.05 } ?? false
        }
        shakeWatch.signal(SIGKILL)
        #expect(shook, "no shook the dock after dockctl had returned")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }

    static func startDaemon(scenario: String? = nil, logLevel: String = "info") throws -> (ChildProcess, String) {
        let socket =
            "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockctl-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        var arguments = ["--config", "", "--simulator", "--socket", socket, "--wake-on-attach=false", "--log-level", logLevel]
        if let scenario {
            arguments += [
                "--scenario",
                URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("Scenarios/\(scenario)").path,
            ]
        }
        let dockd = try ChildProcess("dockd", arguments)
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        return (dockd, socket)
    }

    @Test func dockctlDrivesTheDockAndExitsAsDocumented() throws {
        let (dockd, socket) = try Self.startDaemon()
        let environment = ["DOCKD_SOCKET": socket]
        func dockctl(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
            let child = try ChildProcess("dockctl", arguments, environment: environment)
            try child.finishInput("")
            return try child.finish()
        }
        let status = try dockctl(["status"])
        #expect(status.status == 0)
        #expect(status.output.contains("dock:       DK-1 Demo (SIM-0001) on simulator"))
        #expect(status.output.contains("state:      ready, docked"))
        let json = try dockctl(["--json", "status"])
        #expect(json.output.hasPrefix("{\"status\":{"))
        #expect(try dockctl(["velocity", "--yaw", "0.3", "--pitch", "0", "--duration", "1"]).output == "done\n")
        // As a new user types it: the axis not named is 0, and the default half second runs out.
        let yawOnly = try dockctl(["velocity", "--yaw", "0.1"])
        #expect(yawOnly.status == 0 && yawOnly.output == "done\n", "\(yawOnly.error)")
        #expect(
            try dockctl(["orient", "--yaw", "9", "--pitch", "0"]).output
                == "reached; clamped to the limits: yaw to 2.967 rad (170.0°), the end of the dock's yaw range\n")
        #expect(try dockctl(["animate", "no"]).output == "done\n")
        let back = try dockctl(["orient", "--yaw", "0", "--pitch", "0"])
        #expect(back.output == "reached\n", "back to face the room: \(back.output)\(back.error)")
        #expect(try dockctl(["animate", "no", "--no-wait"]).output == "ok\n")
        #expect(try dockctl(["stop"]).output == "ok\n")
        #expect(try dockctl(["track", "on"]).status == 0)
        #expect(try dockctl(["status"]).output.contains("tracking:   on, "))
        #expect(try dockctl(["limits", "--yaw-min", "-1", "--yaw-max", "1"]).output.hasPrefix("yaw -1.0...1.0 rad"))
        #expect(try dockctl(["list"]).output.hasPrefix("default  ready  simulator  SIM-0001  DK-1 Demo"))
        #expect(try dockctl(["--accessory", "default", "status"]).output.contains("tracking:   on, "), "by its name")
        #expect(try dockctl(["--accessory", "SIM-0001", "status"]).status == 0, "by its serial number")
        let stranger = try dockctl(["--accessory", "stage", "status"])
        #expect(stranger.status == 1)
        #expect(stranger.error.contains("dockd has no accessory named stage; dockctl list names the ones it serves"), "\(stranger.error)")
        #expect(try dockctl(["framing", "right"]).output == "ok\n")
        #expect(try dockctl(["status"]).output.contains("framing:    right"))
        #expect(try dockctl(["roi", "0.1", "0.1", "0.8", "0.8"]).output == "ok\n")
        // Past the picture's edge: what is kept is said, and that is what dockd frames within.
        #expect(
            try dockctl(["roi", "0.5", "0.5", "0.8", "0.8"]).output
                == "ok; the region reaches past the picture's edge: kept x 0.5 y 0.5 width 0.5 height 0.5\n")
        let roiStatus = try JSONSerialization.jsonObject(with: Data(try dockctl(["--json", "status"]).output.utf8)) as? [String: Any]
        let region = (roiStatus?["status"] as? [String: Any])?["region_of_interest"] as? [String: Any]
        #expect(region?["width"] as? Double == 0.5 && region?["height"] as? Double == 0.5, "\(region ?? [:])")
        // dockd's own answer is the region in force, cut to the picture.
        let cut = try JSONSerialization.jsonObject(with: Data(try dockctl(["--json", "roi", "0.75", "-0.25", "0.5", "0.5"]).output.utf8))
        let answered = (cut as? [String: Any])?["region"] as? [String: Double]
        #expect(answered == ["x": 0.75, "y": 0, "width": 0.25, "height": 0.25], "\(String(describing: cut))")
        #expect(try dockctl(["roi", "0.1", "0.1", "0.8", "0.8"]).output == "ok\n")
        // A subject that is not tracked: dockd keeps the choice, and dockctl says nobody has that ID.
        let unknown = try dockctl(["select", "999"])
        #expect(unknown.status == 0)
        #expect(
            unknown.output
                == "ok, but no subject tracked now has ID 999; dockd keeps the choice and follows none of them until one appears\n",
            "\(unknown.output)")
        let unknownJSON = try dockctl(["--json", "select", "999"])
        #expect(unknownJSON.output == "{\"untracked\":[999]}\n", "dockd's own answer says so")
        #expect(try dockctl(["select"]).output == "ok\n", "back to choosing automatically")
        let nobody = try dockctl(["select", "--at", "0.02", "0.02"])
        #expect(nobody.status == 1)
        #expect(nobody.error.hasPrefix("dockctl: no tracked subject is at that point of the picture"), "\(nobody.error)")
        // The simulated camera sees the default scene's person: pick them where the status shows
        // them. They sway (0.15 m/s), and a loaded machine can take seconds between the status
        // and the pick: a pick that found nobody there is tried again from a new status, until
        // one is made or a minute has passed.
        var picked: (status: Int32, output: String, error: String)?
        var misses: [String] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while picked == nil, ContinuousClock.now < deadline {
            let json = try JSONSerialization.jsonObject(with: Data(try dockctl(["--json", "status"]).output.utf8)) as? [String: Any]
            let subjects = (json?["status"] as? [String: Any])?["subjects"] as? [[String: Any]] ?? []
            guard let box = subjects.compactMap({ $0["box"] as? [String: Any] }).first,
                let x = box["x"] as? Double, let y = box["y"] as? Double, let width = box["width"] as? Double,
                let height = box["height"] as? Double, (0.05...0.95).contains(x + width / 2), (0.05...0.95).contains(y + height / 2)
            else { continue }
            let pick = try dockctl(["select", "--at", String(x + width / 2), String(y + height / 2)])
            if pick.error.hasPrefix("dockctl: no tracked subject is at that point") {
                misses.append(pick.error)
            } else {
                picked = pick
            }
        }
        let pick = try #require(picked, "a subject in view, picked: \(misses.suffix(3))")
        #expect(pick.output.hasPrefix("following subject "), "\(pick.error)")
        #expect(try dockctl(["status"]).output.contains("primary"), "the status lists the subjects")

        // Beyond the dock's highest speed (π rad/s on the simulated dock), as beyond its range:
        // clamped to the limit, and the answer names it.
        let clamped = try dockctl(["velocity", "--yaw", "25", "--pitch", "0"])
        #expect(clamped.status == 0)
        #expect(clamped.output == "done; clamped to the limits: yaw rate to 3.142 rad/s, the dock's highest speed\n", "\(clamped.error)")
        let usage = try dockctl(["velocity", "--yaw"])
        #expect(usage.status == 64)
        let unreachable = try ChildProcess.run("dockctl", ["--socket", "/nonexistent.sock", "status"])
        #expect(unreachable.status == 69)
        #expect(unreachable.error.hasPrefix("dockctl: cannot reach dockd at /nonexistent.sock"))

        // Piped, watch prints one JSON object per line.
        let watch = try ChildProcess("dockctl", ["watch"], environment: environment)
        let first = try #require(watch.waitForOutputLine())
        let event = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(event["kind"] as? String == "status")
        #expect(watch.waitForOutputLine() != nil)
        watch.signal(SIGKILL)
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
