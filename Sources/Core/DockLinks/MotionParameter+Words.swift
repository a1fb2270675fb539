public import DockVocabulary

extension MotionParameter: CustomStringConvertible {
    /// The parameter in words, for logs (the API spells it on the wire: `wireName`).
    public var description: String {
        switch self {
        case .yaw: "yaw"
        case .pitch: "pitch"
        case .duration: "duration"
        case .speed: "speed"
        case .yawRange: "yaw range"
        case .pitchRange: "pitch range"
        case .yawMaximumSpeed: "highest yaw speed"
        case .pitchMaximumSpeed: "highest pitch speed"
        }
    }
}
