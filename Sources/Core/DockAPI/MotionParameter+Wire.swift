public import DockLinks

extension MotionParameter {
    /// The parameter's name in `io.dockd.Dock` (`InvalidParameter`'s `parameter`, a motion
    /// result's `clamped`): the API's spelling, kept here with the rest of the wire. A limits
    /// request's ranges are `SetLimits`' `yaw` and `pitch`, and its one `max_speed` sets both
    /// axes' highest speeds.
    public var wireName: String {
        switch self {
        case .yaw: "yaw"
        case .pitch: "pitch"
        case .duration: "duration"
        case .speed: "speed"
        case .yawRange: "yaw"
        case .pitchRange: "pitch"
        case .yawMaximumSpeed, .pitchMaximumSpeed: "max_speed"
        }
    }
}
