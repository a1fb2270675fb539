/// Which way a pan-tilt drive turns the pan axis: the `PP` byte of `8x 01 06 01 VV WW PP TT FF`.
public enum PanDirection: UInt8, Hashable, Sendable, CaseIterable {
    /// Pan left (anticlockwise seen from above; dockd's negative yaw).
    case left = 1
    /// Pan right (clockwise seen from above; dockd's positive yaw).
    case right = 2
    /// Hold the pan axis still.
    case stop = 3

    /// The direction's name in the vectors.
    public var name: String {
        switch self {
        case .left: "left"
        case .right: "right"
        case .stop: "stop"
        }
    }
}

/// Which way a pan-tilt drive turns the tilt axis: the `TT` byte of `8x 01 06 01 VV WW PP TT FF`.
public enum TiltDirection: UInt8, Hashable, Sendable, CaseIterable {
    /// Tilt up (dockd's positive pitch).
    case up = 1
    /// Tilt down (dockd's negative pitch).
    case down = 2
    /// Hold the tilt axis still.
    case stop = 3

    /// The direction's name in the vectors.
    public var name: String {
        switch self {
        case .up: "up"
        case .down: "down"
        case .stop: "stop"
        }
    }
}
