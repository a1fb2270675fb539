public import DockLinks
public import DockVocabulary

/// What the host's policy is configured with: the daemon's settings that shape behaviour (the
/// daemon maps its configuration file and flags onto this).
public struct HostSettings: Hashable, Sendable {
    /// System tracking on at start (and for a dock that replaces another).
    public var isTrackingEnabled = false
    /// Play `wake` when a dock attaches.
    public var wakesOnAttach = true
    /// Limits narrower than the dock's own (never wider); nil fields keep the dock's.
    public var limits = LimitRequest()
    /// What the dock does when its subject is lost, and after how long (home is the rest pose).
    public var lostBehaviour = LostBehaviour.default
    /// Whether a frame's field of view follows the zoom the accessory had when it was captured:
    /// the camera information a client sends with `Track` is taken as the camera's at its widest
    /// zoom, and narrowed by the magnification the accessory's model or profile gives for the
    /// zoom in the pose history at the capture time (where the link knows both).
    public var fieldOfViewFollowsZoom = true
    /// How large the tracker keeps its subject in the picture by zooming, at start and after a
    /// reload (`off`: the zoom is left alone; an accessory without a zoom dockd drives and whose
    /// optics it knows ignores it: its tracker frames as with `off`).
    public var shotSize = ShotSize.off
    /// The rest pose's yaw, radians.
    public var restYawRadians = 0.0
    /// The rest pose's pitch, radians.
    public var restPitchRadians = 0.0
    /// How long system tracking waits after a client's manual move (a velocity, an orientation,
    /// a preset recalled; not an animation, which ends where it began) before it commands the
    /// dock again: counted from the move's last command or its end, whichever is later; zero:
    /// at once.
    public var manualMovePause: Duration = .seconds(3)
    /// How long a lost subject may come back under its identifier, recognised by the appearance
    /// a client sends with `Track` (the tracker's `reidentificationWindow`; zero: never).
    public var reidentificationWindow: Duration = .seconds(30)
    /// The session's timing and retry settings.
    public var session = AccessorySession.Configuration()
    /// How long a motion request waits for the dock's acknowledgement before its reply goes out
    /// regardless (a lost `ack` is no refusal).
    public var acknowledgementTimeout: Duration = .milliseconds(300)
    /// How long the tracker holds back after the dock refused one of its commands for a reason
    /// other than a fault (faults hold it back until they clear).
    public var trackerRefusalHold: Duration = .seconds(1)

    /// The defaults.
    public init() {}
}
