public import DockProtocol

/// Something a session reports to the daemon (and, through it, to clients' `Watch`).
public enum SessionEvent: Hashable, Sendable {
    /// A handshake completed: the accessory, its limits, and whether a camera is mounted.
    case attached(AccessoryInfo, isDocked: Bool)
    /// A camera was mounted.
    case docked
    /// The camera was removed.
    case undocked
    /// The link is gone (end of file, I/O error, hang-up); the session will try again.
    case disconnected
    /// Opening the port failed; the session will try again after `retryAfter`.
    case connectFailed(reason: String, retryAfter: Duration)
    /// The accessory speaks no protocol version we offer; nothing more happens until it is
    /// re-plugged.
    case versionMismatch(offered: ClosedRange<UInt8>, supported: ClosedRange<UInt8>)
    /// The accessory does not answer `hello` as a dock would; the port is closed and retried.
    case handshakeFailed
    /// The accessory reset (it refused a command as `not_ready`); a new handshake follows.
    case accessoryReset
    /// A button went down or up, or the zoom rocker moved.
    case button(AccessoryEvent.Kind)
    /// A fault was raised or cleared.
    case fault(FaultReport)
    /// A command the link was given (`AccessoryLink.send`) was accepted, refused or ended.
    case answered(CommandID, CommandAnswer)
    /// The accessory's failsafe timeout is shorter than the host can keep alive: the session
    /// refuses the accessory (idle until the port closes) rather than run it unsafely.
    case failsafeTooShort(advertised: Duration, minimum: Duration)
    /// Telemetry stopped arriving while the session is up.
    case telemetryStalled
    /// Telemetry arrives again.
    case telemetryResumed
}

/// What a session asks its shell to do.
public enum SessionAction: Hashable, Sendable {
    /// Open the port.
    case openTransport
    /// Close the port.
    case closeTransport
    /// Write these bytes to the port.
    case write([UInt8])
    /// Report an event.
    case emit(SessionEvent)
}
