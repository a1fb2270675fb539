/// What the host asks an accessory to do, in the contract's own terms: SI units, whatever the
/// protocol. A link turns each into its own protocol's bytes; what its protocol cannot do it
/// emulates (a time-to-live the host keeps, speeds rounded to the protocol's steps) or refuses
/// by name (`CommandRefusal.Reason.unsupported`), as its `capabilities` say beforehand.
///
/// The host's motion controller builds angles on a 1 µrad grid and rates on a 1 µrad/s grid
/// (what the finest protocol carries), so every link is sent the same numbers.
public enum AccessoryCommand: Hashable, Sendable {
    /// Turn at these rates until a newer velocity comes or `timeToLive` (1 ms to 5 s) runs out;
    /// then the accessory stops by itself (`velocityTimeToLive`) or the link stops it.
    case velocity(yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double, timeToLive: Duration)
    /// Go to an absolute orientation, radians from the home pose.
    case move(yawRadians: Double, pitchRadians: Double, pace: MovePace)
    /// Decelerate both axes to a standstill.
    case stop
    /// Show this on the indicator light (`indicator`).
    case indicator(IndicatorLight)
    /// Zoom to `fraction` of the way from the widest (0) to the longest (1), linear in the
    /// accessory's own zoom units (`zoom`; `AccessoryLink.zoomFraction(nearest:)` says where
    /// the accessory's steps put it).
    case zoom(fraction: Double)
    /// Go to a position the accessory has stored under `number` (Pelco-D's Go To Preset, on a
    /// head whose pose the link can read; VISCA's Memory Recall where the profile has memories;
    /// every other link refuses it as `unsupported`).
    case recallPreset(number: Int)
    /// Store where the accessory points now (and its zoom) under `number`, one of its
    /// `AccessoryLink.presetNumbers` (VISCA's Memory Set; every other link refuses it as
    /// `unsupported`).
    case storePreset(number: Int)

    /// A command's kind, named as clients read it in a refusal.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// `velocity`.
        case velocity = "set_velocity"
        /// `move`.
        case move = "move_to"
        /// `stop`.
        case stop = "stop"
        /// `indicator`.
        case indicator = "set_indicator"
        /// `zoom`.
        case zoom = "set_zoom"
        /// `recallPreset`.
        case recallPreset = "recall_preset"
        /// `storePreset`.
        case storePreset = "store_preset"

        /// The kind's name (`set_velocity`, `move_to`...).
        public var name: String { rawValue }
    }

    /// The command's kind.
    public var kind: Kind {
        switch self {
        case .velocity: .velocity
        case .move: .move
        case .stop: .stop
        case .indicator: .indicator
        case .zoom: .zoom
        case .recallPreset: .recallPreset
        case .storePreset: .storePreset
        }
    }
}

/// How fast an orientation move goes.
public enum MovePace: Hashable, Sendable {
    /// Both axes arrive together after this long (1 ms to 60 s).
    case duration(Duration)
    /// Each axis moves at up to this speed, rad/s (positive; the accessory's own maximum caps it).
    case maximumSpeed(radiansPerSecond: Double)
}

/// What the indicator light shows: a pattern and a colour (an accessory with a single-colour
/// light shows any colour but black as its own).
public struct IndicatorLight: Hashable, Sendable {
    /// What the light does.
    public enum Pattern: Hashable, Sendable, CaseIterable {
        /// Dark.
        case off
        /// Steadily lit.
        case solid
        /// On and off once a second.
        case slowBlink
        /// On and off four times a second.
        case fastBlink
        /// Fading up and down once every two seconds.
        case pulse
    }

    /// The pattern shown.
    public var pattern: Pattern
    /// Red intensity, 0–255.
    public var red: UInt8
    /// Green intensity, 0–255.
    public var green: UInt8
    /// Blue intensity, 0–255.
    public var blue: UInt8

    /// A light showing `pattern` in this colour.
    public init(pattern: Pattern, red: UInt8, green: UInt8, blue: UInt8) {
        self.pattern = pattern
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// Names one command a link was given, so that the answers can say which: the link numbers its
/// commands itself and an identity comes round again only after 65,536 more (a dock-serial link
/// uses the frame's sequence number, which it shares with its own keep-alives).
public struct CommandID: Hashable, Sendable, CustomStringConvertible {
    /// The number.
    public var rawValue: UInt16

    /// The identity numbered `rawValue`.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public var description: String { "#\(rawValue)" }
}

/// A command a link was given: the identity its answers will name, and what the shell must do
/// now — which may already hold the answer (a drive the accessory already runs is in force at
/// once), so the identity comes before the actions are carried out.
public struct SentCommand: Hashable, Sendable {
    /// The command's identity; nil when the link is not in session and dropped the command
    /// (nothing will answer it).
    public var id: CommandID?
    /// What the shell does now.
    public var actions: [SessionAction]

    /// A command sent as `id`, with `actions` for the shell.
    public init(id: CommandID?, actions: [SessionAction]) {
        self.id = id
        self.actions = actions
    }

    /// A command dropped: out of session, nothing goes out and nothing will answer.
    public static let dropped = SentCommand(id: nil, actions: [])
}

/// What became of a command, as its link reports it (`SessionEvent.answered`). A motion command
/// still waiting for the line when a newer one replaces it is never answered; the host answers
/// its caller once a newer one is, or after its own timeout.
public enum CommandAnswer: Hashable, Sendable {
    /// The command is in force: the accessory acknowledged it (dock-serial's `ack`, VISCA's ACK,
    /// a V4L2 control write that returned), or it needed nothing on the wire (a drive the
    /// accessory already runs, a target the link steps itself); on a protocol that confirms
    /// nothing, once its bytes are written.
    case accepted
    /// The accessory, or the link, will not carry it out.
    case refused(CommandRefusal)
    /// The accessory has carried the command out (VISCA's Completion); it may come with no
    /// `accepted` before it, and then says that too.
    case ended
}

/// A command the accessory or its link refused, and why.
public struct CommandRefusal: Hashable, Sendable {
    /// Why a command is refused; each reason's `name` is the one clients read.
    public enum Reason: Hashable, Sendable, CaseIterable {
        /// The accessory does not know the command, or its protocol has no such thing
        /// (`unknown_message`).
        case unsupported
        /// The command reached the accessory malformed (`wrong_length`).
        case malformed
        /// A value is outside what the accessory takes, or the axis limits (`out_of_range`).
        case outOfRange
        /// A fault (a stalled motor, a failed control write) blocks it (`faulted`).
        case faulted
        /// The accessory speaks no protocol version the link offers (`unsupported_version`).
        case unsupportedVersion

        /// The reason's name for clients.
        public var name: String {
            switch self {
            case .unsupported: "unknown_message"
            case .malformed: "wrong_length"
            case .outOfRange: "out_of_range"
            case .faulted: "faulted"
            case .unsupportedVersion: "unsupported_version"
            }
        }
    }

    /// Why.
    public var reason: Reason
    /// The protocol's own code, for a person reading the log (dock-serial's detail, VISCA's
    /// error code, a V4L2 errno); 0 when there is none.
    public var detail: UInt16
    /// What was refused; nil for a frame the link sent on its own (a keep-alive).
    public var command: AccessoryCommand.Kind?

    /// A refusal of `command` for `reason`.
    public init(reason: Reason, detail: UInt16 = 0, command: AccessoryCommand.Kind?) {
        self.reason = reason
        self.detail = detail
        self.command = command
    }
}
