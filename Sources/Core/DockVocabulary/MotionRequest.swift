/// What a client (or the tracker) asks the dock to do.
public enum MotionRequest: Hashable, Sendable {
    /// Turn at these rates (rad/s) for `duration`, or for the default time-to-live when nil.
    case velocity(yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double, duration: Duration?)
    /// Go to an orientation (radians), absolute or relative to the current pose.
    case orientation(yawRadians: Double, pitchRadians: Double, isRelative: Bool, pace: OrientationPace)
    /// Decelerate to a standstill.
    case stop
    /// Play a built-in animation.
    case animate(AnimationKind)
}

/// How fast an orientation move goes.
public enum OrientationPace: Hashable, Sendable {
    /// Arrive after this long.
    case duration(Duration)
    /// Move each axis at up to this speed, rad/s.
    case maximumSpeed(Double)
    /// Move as fast as the limits allow.
    case fastest
}

/// The built-in animations (DockLinks plays each as a trajectory relative to the pose where it
/// starts).
public enum AnimationKind: String, CaseIterable, Hashable, Sendable {
    /// Nod: two dips of the pitch.
    case yes
    /// Shake: two swings of the yaw.
    case no
    /// Wake up: sink, rise a little past the start, glance aside, settle.
    case wake
    /// A quick tilt up that snaps back with a damped wobble.
    case kapow
}
