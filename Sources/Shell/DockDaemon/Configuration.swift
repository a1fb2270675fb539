public import DockLinks
import DockLogLevel
import DockNumbers
import DockOptions
import DockTracking
public import DockVocabulary

/// The daemon's settings, from `/etc/dockd/dockd.conf` (`key = value` lines, `#` comments) and
/// from flags: every key is also a flag (`--key value`, `--key=value`, or `--key` alone for a
/// Boolean), and flags win over the file.
public struct Configuration: Hashable, Sendable {
    /// A fixed serial device (a USB serial port or a pseudo-terminal); empty: discover by USB IDs.
    public var device = ""
    /// Run the in-process simulated dock instead of a serial device.
    public var simulator = false
    /// The scenario the in-process simulator plays; empty: the built-in scene.
    public var scenario = ""
    /// Serial speed, baud.
    public var baud = 115_200
    /// The dock's USB vendor ID, hexadecimal (discovery).
    public var vendorID = "1209"
    /// The dock's USB product ID, hexadecimal (discovery).
    public var productID = "d0c0"
    /// Only this USB serial number (discovery); empty: any.
    public var serialNumber = ""
    /// System tracking on at start.
    public var tracking = false
    /// Play `wake` when the accessory attaches; nil: as ``wakesOnAttachByDefault`` says for its
    /// protocol (a desk dock does, a camera whose picture someone may be watching does not).
    public var wakeOnAttach: Bool?

    /// Whether `wake` plays on attach when `wake-on-attach` is not set: for a dock-serial dock
    /// only. A VISCA camera, a UVC webcam and a Pelco-D head carry a picture that may be in a
    /// call or on a recording, where a swing of ±45° at attach is unwelcome.
    public var wakesOnAttachByDefault: Bool { accessoryProtocol == .dockSerial }

    /// Whether `wake` plays on attach, set or by default.
    public var wakesOnAttach: Bool { wakeOnAttach ?? wakesOnAttachByDefault }
    /// How long the dock looks where it lost its subject before `lostAction`, seconds.
    public var lostAfterSeconds = 5.0  // LostBehaviour.default.after; a test holds the two equal
    /// What the dock does once its subject has been lost for `lostAfterSeconds`.
    public var lostAction = LostBehaviour.default.action
    /// How fast and how readily the tracker turns the dock: a profile's name.
    public var framingSpeed = FramingSpeed.Profile.normal
    /// The tracker's highest yaw rate, degrees per second; nil: the profile's.
    public var framingYawMaximumDegreesPerSecond: Double?
    /// The tracker's yaw acceleration limit, degrees per second squared; nil: the profile's.
    public var framingYawAccelerationDegreesPerSecondSquared: Double?
    /// The least yaw error that starts a correction, degrees; nil: the profile's.
    public var framingYawDeadBandDegrees: Double?
    /// The tracker's highest pitch rate, degrees per second; nil: the profile's.
    public var framingPitchMaximumDegreesPerSecond: Double?
    /// The tracker's pitch acceleration limit, degrees per second squared; nil: the profile's.
    public var framingPitchAccelerationDegreesPerSecondSquared: Double?
    /// The least pitch error that starts a correction, degrees; nil: the profile's.
    public var framingPitchDeadBandDegrees: Double?
    /// How large the tracker keeps its subject in the picture by zooming.
    public var shotSize = ShotSize.off
    /// How long system tracking leaves the dock alone after a client's manual move, seconds.
    public var manualPauseSeconds = 3.0
    /// The rest pose's yaw, degrees.
    public var restYawDegrees = 0.0
    /// The rest pose's pitch, degrees.
    public var restPitchDegrees = 0.0
    /// How long a person who was lost may come back under their identifier, recognised by the
    /// appearance a client sends with `Track`, seconds; 0: never.
    public var reidentificationWindowSeconds = 30.0
    /// Feed the in-process simulator's camera to the tracker (with `simulator`).
    public var simulatorCamera = true
    /// Narrowed yaw range, degrees (the dock's own limits still apply).
    public var yawMinimumDegrees = -180.0
    /// Narrowed yaw range, degrees.
    public var yawMaximumDegrees = 180.0
    /// Narrowed pitch range, degrees.
    public var pitchMinimumDegrees = -90.0
    /// Narrowed pitch range, degrees.
    public var pitchMaximumDegrees = 90.0
    /// Highest speed on either axis, degrees per second.
    public var maximumSpeedDegreesPerSecond = 360.0
    /// `error`, `warning`, `notice`, `info` or `debug`.
    public var logLevel = "info"
    /// The protocol the accessory speaks (`--protocol`: `dock-serial`, `visca`, `uvc`, `pelco-d` or
    /// `digital`).
    public var accessoryProtocol = AccessoryProtocol.dockSerial
    /// The VISCA camera's profile: a built-in name or a JSON file.
    public var profile = "generic"
    /// A network VISCA camera, `udp:HOST:PORT`, `udp-raw:HOST:PORT` or `tcp:HOST:PORT`; empty:
    /// the serial device.
    public var visca = ""
    /// A VISCA camera's serial speed; 0: probe the profile's speeds in turn.
    public var viscaBaud = 0
    /// A UVC webcam's model: a built-in name (`Protocol/uvc`) or a JSON file.
    public var uvcModel = "generic"
    /// A Pelco-D head's address on the bus, 1–255.
    public var pelcoDAddress = 1
    /// A Pelco-D head's serial speed, baud.
    public var pelcoDBaud = 2400
    /// A Pelco-D head's pan speed at step 0x3F, degrees per second.
    public var pelcoDPanDegreesPerSecond = 60.0
    /// A Pelco-D head's tilt speed at step 0x3F, degrees per second.
    public var pelcoDTiltDegreesPerSecond = 30.0
    /// The exponent of a Pelco-D head's speed curve (1: the steps are evenly spaced).
    public var pelcoDSpeedExponent = 1.0
    /// Whether the Pelco-D head answers the position queries.
    public var pelcoDPositionQueries = false
    /// How long the Pelco-D head's lens takes from wide to tele, seconds; 0: no zoom dockd drives.
    public var pelcoDZoomSeconds = 0.0
    /// The fixed camera's horizontal field of view that a digital pan-tilt-zoom crops, degrees.
    public var digitalFieldOfViewDegrees = 78.0
    /// The fixed camera's picture, `W:H` or a number.
    public var digitalAspect = "16:9"
    /// The digital zoom's longest magnification.
    public var digitalMaximumZoom = 3.0
    /// The fastest the digital crop turns, degrees per second.
    public var digitalMaximumDegreesPerSecond = 90.0
    /// The zoom the digital crop starts at, 0 (the whole picture) to 1 (the longest).
    public var digitalStartZoom = 0.0
    /// The control API's socket (unless systemd passes one); empty: no API. This is root's
    /// default; ``init(effectiveUserID:environment:)`` gives a normal user's.
    public var socket = "/run/dockd/dockd.sock"
    /// Where dockd keeps what it must remember across restarts (its presets); empty: nowhere,
    /// presets last until it stops. This is root's default; ``init(effectiveUserID:environment:)``
    /// gives systemd's `$STATE_DIRECTORY` or a normal user's.
    public var stateDirectory = "/var/lib/dockd"
    /// The `[accessory NAME]` sections of the configuration file, in its order; none: the top
    /// level is the one accessory (``accessorySettings()`` makes each accessory's settings).
    public var sections: [AccessorySection] = []

    /// Creates the defaults.
    public init() {}

    /// One key: its name, what it means, and how to read and show it.
    struct Key: Sendable {
        let name: String
        let help: String
        let isBoolean: Bool
        let read: @Sendable (inout Configuration, String) -> String?
        let show: @Sendable (Configuration) -> String
    }

    /// The re-identification window's range, the tracker's own.
    static let reidentificationWindowRange: ClosedRange<Double> = {
        let range = SubjectTracker.Configuration.Ranges.reidentificationWindowSeconds
        return range.lowerBound...range.upperBound
    }()

    /// The widest dead band a key may set, degrees (`FramingSpeed.widestDeadBandRadians`).
    static let widestDeadBandDegrees = FramingSpeed.widestDeadBandRadians * 180 / .pi

    static let keys: [Key] = [
        text(
            "device",
            "the accessory's device: the serial port of a dock, a VISCA camera or a Pelco-D head (a tty or a "
                + "pseudo-terminal), or a UVC webcam's /dev/videoN; empty: find it (a dock by its USB IDs, a webcam "
                + "by its pan/tilt controls)", \.device),
        flag("simulator", "run the in-process simulated dock instead of a serial device", \.simulator),
        text("scenario", "scenario file for the in-process simulator; empty: one person standing in front of it", \.scenario),
        integer("baud", "serial speed in baud", \.baud, 1200...4_000_000),
        hex("vendor-id", "the dock's USB vendor ID, 4 hex digits", \.vendorID),
        hex("product-id", "the dock's USB product ID, 4 hex digits", \.productID),
        text("serial-number", "accept only the dock with this USB serial number; empty: any", \.serialNumber),
        flag("tracking", "system tracking on at start", \.tracking),
        optionalFlag(
            "wake-on-attach",
            "play the wake animation when the accessory attaches; empty: a dock-serial dock does, "
                + "a VISCA camera, a UVC webcam or a Pelco-D head does not (its picture may be in a call)", \.wakeOnAttach),
        number(
            "lost-after-s", "seconds the dock looks where it lost its subject before it does what lost-action says",
            \.lostAfterSeconds, 0...3600),
        Key(
            name: "lost-action",
            help: "what the dock does once its subject has been lost for lost-after-s: hold, home (the rest pose), "
                + "pose:YAW,PITCH (degrees) or zoom-out (where the accessory zooms; elsewhere it holds)",
            isBoolean: false,
            read: { configuration, value in
                do {
                    configuration.lostAction = try LostBehaviour.Action(setting: value)
                    return nil
                } catch {
                    return "\(error)"
                }
            }, show: { $0.lostAction.setting }),
        choice(
            "framing-speed",
            "how fast and how readily the tracker turns the dock: smooth (a lecture: slow, gentle, a wide dead band), "
                + "normal or fast (sport); the framing-yaw-* and framing-pitch-* keys override its numbers", \.framingSpeed),
        optionalNumber(
            "framing-yaw-max-deg-s", "the tracker's highest yaw rate (degrees per second); empty: framing-speed's",
            \.framingYawMaximumDegreesPerSecond, 0.001...100_000),
        optionalNumber(
            "framing-yaw-accel-deg-s2", "the tracker's yaw acceleration limit (degrees per second squared); empty: framing-speed's",
            \.framingYawAccelerationDegreesPerSecondSquared, 0.001...1_000_000),
        optionalNumber(
            "framing-yaw-dead-band-deg", "the least yaw error that starts a correction (degrees); empty: framing-speed's",
            \.framingYawDeadBandDegrees, 0...widestDeadBandDegrees),
        optionalNumber(
            "framing-pitch-max-deg-s", "the tracker's highest pitch rate (degrees per second); empty: framing-speed's",
            \.framingPitchMaximumDegreesPerSecond, 0.001...100_000),
        optionalNumber(
            "framing-pitch-accel-deg-s2",
            "the tracker's pitch acceleration limit (degrees per second squared); empty: framing-speed's",
            \.framingPitchAccelerationDegreesPerSecondSquared, 0.001...1_000_000),
        optionalNumber(
            "framing-pitch-dead-band-deg", "the least pitch error that starts a correction (degrees); empty: framing-speed's",
            \.framingPitchDeadBandDegrees, 0...widestDeadBandDegrees),
        Key(
            name: "shot-size",
            help: "how large the tracker keeps its subject in the picture by zooming: head, half, full, group, a share "
                + "of the picture's height (0.05 to 1) or off (the zoom left alone; an accessory without a zoom dockd "
                + "drives and knows the optics of ignores it)",
            isBoolean: false,
            read: { configuration, value in
                do {
                    configuration.shotSize = try ShotSize(setting: value)
                    return nil
                } catch {
                    return "\(error)"
                }
            }, show: { $0.shotSize.setting }),
        number(
            "manual-pause-s",
            "seconds tracking leaves the dock where a client's move (velocity, orientation, preset) put it, after "
                + "the move's last command or its end; 0: tracking takes over at once", \.manualPauseSeconds, 0...3600),
        number("rest-yaw-deg", "the rest pose's yaw (degrees)", \.restYawDegrees, -720...720),
        number("rest-pitch-deg", "the rest pose's pitch (degrees)", \.restPitchDegrees, -720...720),
        number(
            "reidentification-window-s",
            "seconds a person who was lost may come back under their identifier, recognised by the appearance "
                + "sent with Track; 0: never", \.reidentificationWindowSeconds, reidentificationWindowRange),
        flag("simulator-camera", "with --simulator, feed the simulated camera's detections to the tracker", \.simulatorCamera),
        number("yaw-min-deg", "narrow the yaw range (degrees; never wider than the dock's)", \.yawMinimumDegrees, -720...720),
        number("yaw-max-deg", "narrow the yaw range (degrees)", \.yawMaximumDegrees, -720...720),
        number("pitch-min-deg", "narrow the pitch range (degrees)", \.pitchMinimumDegrees, -720...720),
        number("pitch-max-deg", "narrow the pitch range (degrees)", \.pitchMaximumDegrees, -720...720),
        number("max-speed-deg-s", "highest speed on either axis (degrees per second)", \.maximumSpeedDegreesPerSecond, 0.1...2000),
        choice("log-level", "error, warning, notice, info or debug", \.logLevel, LogLevel.allCases.map(\.name)),
        choice(
            "protocol",
            "what the accessory speaks: dock-serial, visca (a Sony VISCA PTZ camera), uvc (a PTZ webcam "
                + "on /dev/videoN), pelco-d (a Pelco-D pan-tilt head on RS-485) or digital (a crop of a fixed "
                + "camera's picture, no device)", \.accessoryProtocol),
        text(
            "profile", "the VISCA camera's profile: generic, sony-evi-d100, telycam-tlc-700 (built in), or a JSON file",
            \.profile),
        text(
            "visca",
            "a network VISCA camera: udp:HOST:PORT (Sony's VISCA over IP, port 52381), udp-raw:HOST:PORT "
                + "(no header; PTZOptics 1259) or tcp:HOST:PORT (PTZOptics 5678); implies --protocol visca; empty: --device",
            \.visca),
        integer(
            "visca-baud", "a VISCA camera's serial speed; 0: try the profile's speeds in turn (9600, 115200, 38400)",
            \.viscaBaud, 0...4_000_000),
        text(
            "uvc-model",
            "the UVC webcam's model: generic, obsbot-tiny, insta360-link, logitech-c920 (built in), or a JSON file",
            \.uvcModel),
        integer("pelco-d-address", "the Pelco-D head's address on the bus (its DIP switches)", \.pelcoDAddress, 1...255),
        integer("pelco-d-baud", "the Pelco-D head's serial speed in baud (2400 and 9600 are usual)", \.pelcoDBaud, 1200...4_000_000),
        number(
            "pelco-d-pan-deg-s", "the Pelco-D head's pan speed at step 0x3F (degrees per second; measure it)",
            \.pelcoDPanDegreesPerSecond, 0.1...1000),
        number(
            "pelco-d-tilt-deg-s", "the Pelco-D head's tilt speed at step 0x3F (degrees per second; measure it)",
            \.pelcoDTiltDegreesPerSecond, 0.1...1000),
        number(
            "pelco-d-speed-exponent",
            "the curve of the Pelco-D head's speed steps: step s turns at (s/63)^EXPONENT of the fastest; 1: even steps",
            \.pelcoDSpeedExponent, 0.2...5),
        flag(
            "pelco-d-position-queries",
            "the Pelco-D head answers position queries (51/53); without, dockd reckons its pose from the speeds sent",
            \.pelcoDPositionQueries),
        number(
            "pelco-d-zoom-seconds",
            "how long the Pelco-D head's lens takes from wide to tele with tele held (seconds); 0: no zoom dockd drives",
            \.pelcoDZoomSeconds, 0...60),
        number(
            "digital-fov-deg", "the horizontal field of view of the fixed camera a digital pan-tilt-zoom crops (degrees)",
            \.digitalFieldOfViewDegrees, 10...170),
        text("digital-aspect", "the fixed camera's picture, WIDTH:HEIGHT (16:9) or a number", \.digitalAspect),
        number(
            "digital-max-zoom",
            "the digital zoom's longest magnification: where the crop would be upscaled (a 4K camera framed into 1080p: 2)",
            \.digitalMaximumZoom, 1.1...16),
        number(
            "digital-max-deg-s", "the fastest the digital crop turns (degrees per second)", \.digitalMaximumDegreesPerSecond,
            1...1000),
        number(
            "digital-start-zoom",
            "the zoom the digital crop starts at, 0 (the whole picture: it cannot pan) to 1 (digital-max-zoom)",
            \.digitalStartZoom, 0...1),
        text("socket", "the control API's Unix socket (mode 0660) unless systemd passes one; empty: no API", \.socket),
        text(
            "state-dir",
            "where dockd keeps its presets (presets.json; simulator-presets.json with --simulator); the default is "
                + "$STATE_DIRECTORY under systemd, else /var/lib/dockd for root, else $XDG_STATE_HOME/dockd "
                + "(~/.local/state/dockd); empty: presets are forgotten when dockd stops", \.stateDirectory),
    ]

    /// Why settings were refused: where (file and line, or the flag) and what is wrong.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// `FILE:LINE` or `--flag`.
        public var location: String
        /// What is wrong.
        public var message: String
        public var description: String { "\(location): \(message)" }
    }

    /// Applies the `key = value` lines of a configuration file; from the first `[accessory NAME]`
    /// line on, each line belongs to the section above it (``sections``).
    public mutating func apply(fileText: String, path: String) throws(Error) {
        var isInSection = false
        // Lines end at every LF scalar: split as Characters, CRLF would be one Character and a
        // CRLF file one long line.
        for (index, scalars) in fileText.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // A comment starts at the first "#" scalar (by Character, `#` before a combining mark
            // would not start one).
            let line = Substring(scalars.prefix { $0 != "#" }).trimmingWhitespace()
            guard !line.isEmpty else { continue }
            let location = "\(path):\(index + 1)"
            if line.hasPrefix("[") {
                try startSection(line, location: location)
                isInSection = true
                continue
            }
            // The first "=" scalar, not Character: one followed by a combining mark (`=\u{359}`)
            // is a single Character that `firstIndex(of: "=")` does not see (the fuzzer's find).
            let scalars = line.unicodeScalars
            guard let equals = scalars.firstIndex(of: "=") else {
                throw Error(location: location, message: "expected 'key = value', got '\(line)'")
            }
            let name = Substring(scalars[..<equals]).trimmingWhitespace()
            let value = Substring(scalars[scalars.index(after: equals)...]).trimmingWhitespace()
            if isInSection {
                try addSectionLine(name, value, location: location)
            } else {
                try set(name, value, location: location)
            }
        }
    }

    /// Applies flags; returns the arguments that are not settings (such as `--help`), in order.
    public mutating func apply(flags: [String]) throws(Error) -> [String] {
        var rest: [String] = []
        var index = 0
        while index < flags.count {
            let argument = flags[index]
            index += 1
            guard argument.hasPrefix("--") else {
                rest.append(argument)
                continue
            }
            // `--scenario=\u{359}x` is `scenario` set to `\u{359}x`, as the settings written back say.
            var (name, value) = OptionParser.splitAtEquals(String(argument.dropFirst(2)))
            guard let key = Self.keys.first(where: { $0.name == name }) else {
                rest.append(argument)
                continue
            }
            if value == nil {
                if key.isBoolean, index >= flags.count || !["true", "false"].contains(flags[index]) {
                    value = "true"
                } else {
                    guard index < flags.count else { throw Error(location: "--\(name)", message: "needs a value") }
                    value = flags[index]
                    index += 1
                }
            }
            try set(name, value!, location: "--\(name)")
        }
        return rest
    }

    mutating func set(_ name: String, _ value: String, location: String) throws(Error) {
        // dockd 0.2's name, kept so that a settings file written for it still starts dockd: it
        // meant "hold this long, then turn to the rest pose".
        if name == "rest-after-s" {
            try set("lost-after-s", value, location: location)
            try set("lost-action", "home", location: location)
            return
        }
        guard let key = Self.keys.first(where: { $0.name == name }) else {
            throw Error(location: location, message: "unknown setting '\(name)' (dockd --help lists them)")
        }
        if let problem = key.read(&self, value) {
            throw Error(location: location, message: "\(name): \(problem)")
        }
    }

    /// Checks what single keys cannot: ranges given as pairs.
    public func validated() throws(Error) -> Configuration {
        guard yawMinimumDegrees < yawMaximumDegrees else {
            throw Error(location: "yaw-min-deg", message: "must be below yaw-max-deg")
        }
        guard pitchMinimumDegrees < pitchMaximumDegrees else {
            throw Error(location: "pitch-min-deg", message: "must be below pitch-max-deg")
        }
        guard !(simulator && !device.isEmpty) else {
            throw Error(location: "simulator", message: "choose either a device or the simulator")
        }
        var checked = self
        if !visca.isEmpty {
            guard ViscaAddress(visca) != nil else {
                throw Error(location: "visca", message: "must be udp:HOST:PORT, udp-raw:HOST:PORT or tcp:HOST:PORT, got '\(visca)'")
            }
            guard device.isEmpty, !simulator else {
                throw Error(location: "visca", message: "choose one of a network camera, a device and the simulator")
            }
            checked.accessoryProtocol = .visca
        }
        guard viscaBaud == 0 || viscaBaud >= 1200 else {
            throw Error(location: "visca-baud", message: "must be 0 (probe) or from 1200 to 4000000, got \(viscaBaud)")
        }
        switch checked.accessoryProtocol {
        case .dockSerial:
            break
        case .uvc:
            guard !simulator else {
                throw Error(
                    location: "protocol",
                    message: "the in-process simulator is a dock-serial dock; run docksim "
                        + "--protocol uvc for an emulated webcam")
            }
            do {
                _ = try checked.uvcCameraModel()
            } catch {
                throw Error(location: "uvc-model", message: "\(error)")
            }
        case .visca:
            guard !simulator else {
                throw Error(
                    location: "protocol",
                    message: "the in-process simulator is a dock-serial dock; run docksim "
                        + "--protocol visca for a simulated VISCA camera")
            }
            do {
                _ = try checked.viscaProfile()
            } catch {
                throw Error(location: "profile", message: "\(error)")
            }
        case .pelcoD:
            guard !simulator else {
                throw Error(
                    location: "protocol",
                    message: "the in-process simulator is a dock-serial dock; run docksim "
                        + "--protocol pelco-d for an emulated Pelco-D head")
            }
        case .digital:
            guard !simulator else {
                throw Error(
                    location: "protocol", message: "the in-process simulator is a dock-serial dock; a digital crop needs no simulator")
            }
            guard device.isEmpty else {
                throw Error(location: "device", message: "a digital crop has no device: its picture is the vision service's camera")
            }
            _ = try checked.digitalAspectRatio()
        }
        if !checked.sections.isEmpty { _ = try checked.accessorySettings() }
        return checked
    }

    /// The settings as `dockd --help` lists them: flag, meaning, default (from `defaults`).
    public static func helpLines(defaults: Configuration = Configuration()) -> [String] {
        keys.map { key in
            let shown = key.show(defaults)
            let flag = "--\(key.name)" + (key.isBoolean ? "" : " VALUE")
            return "  " + flag.padding(to: 26) + " " + key.help + " [" + (shown.isEmpty ? "empty" : shown) + "]"
        }
    }
}

private func text(_ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, String> & Sendable) -> Configuration.Key {
    Configuration.Key(
        name: name, help: help, isBoolean: false,
        read: {
            $0[keyPath: path] = $1
            return nil
        },
        show: { $0[keyPath: path] })
}

private func flag(_ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, Bool> & Sendable) -> Configuration.Key {
    Configuration.Key(
        name: name, help: help, isBoolean: true,
        read: { configuration, value in
            switch value {
            case "true", "yes", "on", "1": configuration[keyPath: path] = true
            case "false", "no", "off", "0": configuration[keyPath: path] = false
            default: return "must be true or false, got '\(value)'"
            }
            return nil
        }, show: { String($0[keyPath: path]) })
}

/// A Boolean that may be left unset (nil: a default that depends on other settings): an empty
/// value unsets it, and it shows as empty then.
private func optionalFlag(_ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, Bool?> & Sendable)
    -> Configuration.Key
{
    Configuration.Key(
        name: name, help: help, isBoolean: true,
        read: { configuration, value in
            switch value {
            case "true", "yes", "on", "1": configuration[keyPath: path] = true
            case "false", "no", "off", "0": configuration[keyPath: path] = false
            case "": configuration[keyPath: path] = nil
            default: return "must be true or false (or empty: the default), got '\(value)'"
            }
            return nil
        }, show: { $0[keyPath: path].map(String.init) ?? "" })
}

private func integer(
    _ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, Int> & Sendable,
    _ range: ClosedRange<Int>
) -> Configuration.Key {
    Configuration.Key(
        name: name, help: help, isBoolean: false,
        read: { configuration, value in
            guard let number = Int(value) else { return "must be a whole number, got '\(value)'" }
            guard range.contains(number) else { return "must be from \(range.lowerBound) to \(range.upperBound), got \(number)" }
            configuration[keyPath: path] = number
            return nil
        }, show: { String($0[keyPath: path]) })
}

private func number(
    _ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, Double> & Sendable,
    _ range: ClosedRange<Double>
) -> Configuration.Key {
    Configuration.Key(
        name: name, help: help, isBoolean: false,
        read: { configuration, value in
            guard let number = Double(value), number.isFinite else { return "must be a finite number, got '\(value)'" }
            guard range.contains(number) else { return "must be from \(range.lowerBound) to \(range.upperBound), got \(value)" }
            configuration[keyPath: path] = number
            return nil
        }, show: { String($0[keyPath: path]) })
}

/// A number that may be left unset (nil: a default that depends on other settings): an empty
/// value unsets it, and it shows as empty then.
private func optionalNumber(
    _ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, Double?> & Sendable,
    _ range: ClosedRange<Double>
) -> Configuration.Key {
    Configuration.Key(
        name: name, help: help, isBoolean: false,
        read: { configuration, value in
            guard !value.isEmpty else {
                configuration[keyPath: path] = nil
                return nil
            }
            guard let number = Double(value), number.isFinite else { return "must be a finite number (or empty), got '\(value)'" }
            guard range.contains(number) else { return "must be from \(range.lowerBound) to \(range.upperBound), got \(value)" }
            configuration[keyPath: path] = number
            return nil
        }, show: { $0[keyPath: path].map { String($0) } ?? "" })
}

private func hex(_ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, String> & Sendable) -> Configuration.Key {
    Configuration.Key(
        name: name, help: help, isBoolean: false,
        read: { configuration, value in
            guard value.count == 4, UInt16(value, radix: 16) != nil else { return "must be 4 hex digits, got '\(value)'" }
            configuration[keyPath: path] = value.lowercased()
            return nil
        }, show: { $0[keyPath: path] })
}

/// A key whose values are a closed enum's names: parsed into the enum here, once.
private func choice<Value: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, Value> & Sendable
) -> Configuration.Key where Value.RawValue == String {
    choice(name, help, path, Value.allCases.map(\.rawValue), parse: Value.init(rawValue:), show: \.rawValue)
}

/// A key whose values are one of `choices`, kept as the text.
private func choice(
    _ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, String> & Sendable,
    _ choices: [String]
) -> Configuration.Key {
    choice(name, help, path, choices, parse: { choices.contains($0) ? $0 : nil }, show: { $0 })
}

private func choice<Value: Sendable>(
    _ name: String, _ help: String, _ path: any WritableKeyPath<Configuration, Value> & Sendable, _ choices: [String],
    parse: @escaping @Sendable (String) -> Value?, show: @escaping @Sendable (Value) -> String
) -> Configuration.Key {
    Configuration.Key(
        name: name, help: help, isBoolean: false,
        read: { configuration, value in
            guard let parsed = parse(value) else { return "must be one of \(choices.joined(separator: ", ")), got '\(value)'" }
            configuration[keyPath: path] = parsed
            return nil
        }, show: { show($0[keyPath: path]) })
}

extension StringProtocol {
    /// Without the spaces, tabs and CRs at either end, scalar by scalar: a space that a combining
    /// mark follows is one Character with it, and is trimmed all the same (the mark kept).
    func trimmingWhitespace() -> String {
        func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\r" }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    func padding(to width: Int) -> String {
        count >= width ? String(self) : String(self) + String(repeating: " ", count: width - count)
    }
}
