/// Names one request in flight, so that its reply (which may come later, when the dock has
/// answered or the motion has ended) finds its caller.
public typealias RequestToken = UInt64

/// What a client asks of the host. Every request gets exactly one reply.
public enum ClientRequest: Hashable, Sendable {
    /// Move the dock: a velocity, an orientation or an animation. `waitsForEnd`: reply when a
    /// bounded motion has ended (how it ended), not when the dock has accepted it.
    case motion(MotionRequest, takeOver: Bool, waitsForEnd: Bool)
    /// Stop the dock and release control.
    case stop(takeOver: Bool)
    /// Hold control until released or until the client goes away (a dead man's handle).
    case acquireControl(takeOver: Bool)
    /// Give control back.
    case releaseControl
    /// Turn system tracking on or off.
    case setSystemTracking(Bool)
    /// Narrow the limits further.
    case setLimits(LimitRequest)
    /// Zoom to a fraction (0...1) of the camera's zoom range; not motion, so not arbitrated.
    case setZoom(Double)
    /// Where the subject goes in the frame.
    case setFramingMode(FramingMode)
    /// How large the subject is kept in the picture, by zooming; `off` leaves the zoom alone.
    case setShotSize(ShotSize)
    /// The part of the image framing may use.
    case setRegionOfInterest(NormalizedRect)
    /// Follow these subjects; empty: choose automatically.
    case selectSubjects([Int])
    /// Follow the subject seen at a point of the delivered image.
    case selectSubject(at: NormalizedPoint)
    /// One frame's observations for the tracker.
    case track(ObservationBatch)
    /// Save where the dock points now (and its zoom, where the host drives one) as a preset of
    /// this name, replacing one of the same name; not motion, so not arbitrated.
    case savePreset(name: String)
    /// The presets, in the order they were first saved.
    case listPresets
    /// Go to the preset of this name: a motion like an orientation move, arbitrated as one.
    case recallPreset(name: String, takeOver: Bool, waitsForEnd: Bool)
    /// Forget the preset of this name.
    case deletePreset(name: String)
    /// What the dock does when its subject is lost, and after how long; a nil field stays as it
    /// is (both nil: only the answer, the behaviour in force).
    case setLostBehaviour(after: Duration?, action: LostBehaviour.Action?)
}
