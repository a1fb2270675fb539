public import DockProtocol
public import DockVocabulary

/// Where a link with an accessory is, whatever its protocol:
///
///     disconnected → connecting → handshaking → ready(docked | undocked)
public enum AccessoryLinkState: Hashable, Sendable {
    /// No port; the link says when the next attempt is due.
    case disconnected
    /// The shell is opening the port.
    case connecting
    /// The port is open and the link is finding out what is on it.
    case handshaking
    /// In session with the accessory.
    case ready(isDocked: Bool)
    /// The accessory is not one the host can run (a protocol version it does not speak, a
    /// failsafe too short to keep alive); idle until the port closes.
    case incompatible
}

/// What an accessory can and cannot do, as the host adapts to it: a protocol that lacks
/// something shows here, never as a special case in the host's policy.
public struct AccessoryCapabilities: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    /// Creates the set from its raw bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The accessory stops its motors by itself when the host goes quiet; without it the host
    /// is the only dead man's handle (a host that dies leaves the motors running).
    public static let failsafe = AccessoryCapabilities(rawValue: 1 << 0)
    /// A velocity command carries a time-to-live the accessory honours.
    public static let velocityTimeToLive = AccessoryCapabilities(rawValue: 1 << 1)
    /// The accessory sends its pose by itself at a fixed rate; without it the host polls.
    public static let telemetryStream = AccessoryCapabilities(rawValue: 1 << 2)
    /// Speeds are continuous; without it they come in steps (the host rounds to one).
    public static let continuousSpeeds = AccessoryCapabilities(rawValue: 1 << 3)
    /// Moves to an absolute orientation.
    public static let orientationMoves = AccessoryCapabilities(rawValue: 1 << 4)
    /// Has buttons (tracking, shutter, flip...) and reports them.
    public static let buttons = AccessoryCapabilities(rawValue: 1 << 5)
    /// Senses whether a camera is mounted.
    public static let dockSensor = AccessoryCapabilities(rawValue: 1 << 6)
    /// Has an indicator light the host may set.
    public static let indicator = AccessoryCapabilities(rawValue: 1 << 7)
    /// Has a zoom the host may drive.
    public static let zoom = AccessoryCapabilities(rawValue: 1 << 8)
    /// Reports faults (stalls, over-temperature) as they happen.
    public static let faultReports = AccessoryCapabilities(rawValue: 1 << 9)
    /// Keeps presets of its own that the host can recall (`AccessoryCommand.recallPreset`: a
    /// Pelco-D head's Go To Preset, a VISCA camera's Memory Recall). Where the link also lists
    /// `presetNumbers` (a VISCA camera whose profile counts memories), dockd's presets are stored
    /// in them too and recalled by the accessory; elsewhere they are stored poses it moves to.
    public static let presetMemory = AccessoryCapabilities(rawValue: 1 << 10)
    /// The picture does not move with the pose: the accessory's pan, tilt and zoom are a crop
    /// of a fixed camera's picture (`DigitalSession`), so what a client observes in the picture is
    /// at pose zero and magnification 1, whatever the pose and zoom at capture time.
    public static let fixedPicture = AccessoryCapabilities(rawValue: 1 << 11)

    /// Every capability with its name, in the order status lists them.
    public static let named: [(name: String, capability: AccessoryCapabilities)] = [
        ("failsafe", .failsafe), ("velocity_ttl", .velocityTimeToLive), ("telemetry_stream", .telemetryStream),
        ("continuous_speeds", .continuousSpeeds), ("orientation_moves", .orientationMoves), ("buttons", .buttons),
        ("dock_sensor", .dockSensor), ("indicator", .indicator), ("zoom", .zoom), ("fault_reports", .faultReports),
        ("preset_memory", .presetMemory), ("fixed_picture", .fixedPicture),
    ]

    /// The names of the capabilities in the set, in `named` order.
    public var names: [String] { Self.named.filter { contains($0.capability) }.map(\.name) }
}

/// The host's side of one accessory, whatever protocol it speaks: the one contract that the
/// host's policy drives. `AccessorySession` (dock-serial), `VISCASession` (Sony VISCA on a
/// serial line, UDP or TCP), `UVCSession` (a UVC webcam's V4L2 controls), `PelcoDSession` (a
/// Pelco-D head on RS-485) and `DigitalSession` (a crop of a fixed camera's picture) implement it.
///
/// A link is a pure state machine: it is handed the time and what happened to its port, and
/// returns actions for its shell (open, write, close, report). Its `LinkLifecycle` keeps where
/// it is, the backoff and the counters; the link keeps its protocol's conversation. Commands
/// come in as `AccessoryCommand`s — velocity with a time-to-live, a move to an orientation,
/// stop, the indicator, zoom, a preset — which say what the host wants, not how a wire spells
/// it: `send` returns the command's `CommandID` with its actions, and what the accessory makes
/// of it comes back as `SessionEvent.answered(id, .accepted | .refused(reason) | .ended)`.
/// What a protocol lacks shows in `capabilities`, never as a special case in the host.
public protocol AccessoryLink: Sendable {
    /// Where the link is, what the accessory said it is, the reconnect backoff and the counters:
    /// the part every protocol shares.
    var lifecycle: LinkLifecycle { get }
    /// What the accessory can and cannot do.
    var capabilities: AccessoryCapabilities { get }
    /// The protocol the link speaks.
    var accessoryProtocol: AccessoryProtocol { get }
    /// When the shell must call `tick(now:)` at the latest, besides its 30 Hz loop; nil when
    /// nothing is due.
    var nextDeadline: Duration? { get }
    /// The serial speed to open the port at next; nil: the transport's own setting.
    var baudRate: Int? { get }

    /// The accessory's pose at `time` on the host's clock: interpolated between samples, or
    /// extrapolated a little past the newest; nil when none is known near enough.
    func pose(at time: Duration) -> Pose?
    /// How old the newest pose sample is at `now`; nil when there is none.
    func poseAge(at now: Duration) -> Duration?

    /// Starts the link: the first attempt to open the port.
    mutating func start(now: Duration) -> [SessionAction]
    /// The port is open.
    mutating func transportOpened(now: Duration) -> [SessionAction]
    /// Opening the port failed.
    mutating func transportFailed(reason: String, now: Duration) -> [SessionAction]
    /// The port reported end of file, an I/O error or a hang-up.
    mutating func transportClosed(now: Duration) -> [SessionAction]
    /// A device that may be this accessory appeared (udev `add`).
    mutating func deviceAppeared(now: Duration) -> [SessionAction]
    /// Bytes arrived from the port (for a datagram transport, one datagram).
    mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [SessionAction]
    /// Time passes: retries, keep-alives, polls, timeouts.
    mutating func tick(now: Duration) -> [SessionAction]
    /// Gives the accessory a command, while it is in session.
    ///
    /// - Returns: the command's identity, which its answers (`SessionEvent.answered`) name, with
    ///   the actions for the shell; `SentCommand.dropped` out of session. A command the link
    ///   cannot carry is answered `refused(.unsupported)`, never trapped on.
    mutating func send(_ command: AccessoryCommand, now: Duration) -> SentCommand
    /// Where the accessory's zoom goes for `fraction` (0 widest … 1 longest), once its own
    /// steps have rounded it; nil when this link drives no zoom now (a dock-serial dock's zoom
    /// is a button it reports, not a motor the host drives).
    func zoomFraction(nearest fraction: Double) -> Double?
    /// How many times the picture is magnified at `fraction` of the zoom's range (1 at the
    /// widest), from the camera's model or profile; nil when not known.
    func magnification(atZoomFraction fraction: Double) -> Double?
    /// The numbers the host may store presets under (`AccessoryCommand.storePreset`) and recall
    /// them by; nil when the link keeps none the host writes.
    var presetNumbers: ClosedRange<Int>? { get }
    /// Where the crop window is at `time` in the fixed camera's picture, for a link whose pan, tilt
    /// and zoom are one (`fixedPicture`; normalised, the camera's own picture); nil for any other.
    func cropWindow(at time: Duration) -> NormalizedRect?
}

extension AccessoryLink {
    /// Where the link is.
    public var state: AccessoryLinkState { lifecycle.state }
    /// What the accessory is — identity and limits — once it has said (kept while disconnected).
    public var info: AccessoryInfo? { lifecycle.info }
    /// Runs received that were not good frames or packets.
    public var badFrameCount: Int { lifecycle.badFrameCount }
    /// Times the link was lost.
    public var disconnectCount: Int { lifecycle.disconnectCount }
    /// Commands the accessory refused.
    public var refusalCount: Int { lifecycle.refusalCount }
    /// Whether the pose has stopped arriving while ready.
    public var isTelemetryStalled: Bool { lifecycle.isTelemetryStalled }
    /// When the next attempt to open the port is due, while disconnected.
    public var reconnectAt: Duration? { lifecycle.reconnectAt }

    /// No zoom the host can drive: nil.
    public func zoomFraction(nearest fraction: Double) -> Double? { nil }
    /// No zoom optics known: nil.
    public func magnification(atZoomFraction fraction: Double) -> Double? { nil }
    /// No preset memory the host writes: nil.
    public var presetNumbers: ClosedRange<Int>? { nil }
    /// No crop: the picture moves with the pose.
    public func cropWindow(at time: Duration) -> NormalizedRect? { nil }
}
