public import DockLinks
public import DockLogLevel
public import DockProtocol
public import DockVocabulary

/// What the host's policy asks its shell to do.
public enum HostAction: Hashable, Sendable {
    /// Open the port.
    case openTransport
    /// Close the port.
    case closeTransport
    /// Write these bytes to the port.
    case write([UInt8])
    /// Answer the request named by the token.
    case reply(RequestToken, HostReply)
    /// Tell watchers.
    case publish(HostEvent)
    /// Write a line to the log.
    case log(LogLevel, String)
    /// Write these presets to the presets file, whole and atomically; once written, hand them to
    /// the policy (`presetsStored`) and answer the request with `reply`. When they cannot be
    /// written, answer `presetsUnavailable` instead and keep the presets as they were.
    case storePresets(PresetStore, token: RequestToken, reply: HostReply)
}

/// Something watchers hear of.
public enum HostEvent: Hashable, Sendable {
    /// A dock attached: what it is, and whether a camera is mounted.
    case attached(AccessoryInfo, isDocked: Bool)
    /// A camera was mounted.
    case docked
    /// The camera was removed.
    case undocked
    /// The link to the dock is gone; the host retries.
    case disconnected
    /// A button went down or up, or the zoom rocker moved.
    case button(AccessoryEvent.Kind)
    /// A fault was raised or cleared.
    case fault(FaultReport)
    /// The dock refused a command (of this kind, when it was one).
    case refused(CommandRefusal)
    /// Control changed hands.
    case control(ControlArbiter.Change)
    /// The framing mode changed.
    case framing(FramingMode)
    /// A client's motion ended (completed, replaced or stopped; refusals and faults come as
    /// their own events).
    case motionEnded(owner: ClientID, ending: MotionEnding)
}
