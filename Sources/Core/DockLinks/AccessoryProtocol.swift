/// The protocols dockd speaks with an accessory: a closed set, parsed from its name once, where
/// `--protocol` (dockd's or docksim's) is read, and switched on exhaustively after that.
public enum AccessoryProtocol: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// dockd's own serial protocol (`Protocol/dock-serial.md`).
    case dockSerial = "dock-serial"
    /// Sony VISCA PTZ cameras, on a serial line, UDP or TCP (`Protocol/visca.md`).
    case visca
    /// UVC PTZ webcams, through their V4L2 controls (`Protocol/uvc.md`).
    case uvc
    /// Pelco-D pan-tilt heads on an RS-485 line (`Protocol/pelco-d.md`).
    case pelcoD = "pelco-d"
    /// A digital pan-tilt-zoom: a crop window in a fixed camera's picture, no wire
    /// (`Protocol/digital.md`).
    case digital

    /// Whether an accessory on this protocol says its own acceleration: a dock's hello does
    /// (`Protocol/dock-serial.md`), and a digital crop keeps the one it advertises exactly; VISCA,
    /// UVC and Pelco-D report none, and the acceleration in their limits is dockd's assumption
    /// (the link's `accelerationRadiansPerSecondSquared`), which the tracker plans its stops with
    /// but does not narrow its commands to.
    public var advertisesAcceleration: Bool { self == .dockSerial || self == .digital }

    /// Whether an accessory on this protocol is at the other end of a wire (a serial line, a
    /// network, a webcam's controls) that docksim can emulate; a digital crop has none: it is
    /// dockd's own.
    public var hasWire: Bool { self != .digital }

    /// The protocol's name, as `--protocol` takes it and status shows it.
    public var name: String { rawValue }

    /// The protocol named `name`; nil for a name that is none of them.
    public init?(name: String) { self.init(rawValue: name) }

    /// Every protocol's name, in declaration order, for help texts and errors.
    public static var names: [String] { allCases.map(\.name) }

    public var description: String { name }
}
