import DockTracking

/// Where the subject sits in the frame, as DockKit's `FramingMode`.
public enum FramingMode: String, CaseIterable, Hashable, Sendable {
    /// dockd chooses.
    case automatic
    /// In the centre.
    case center
    /// In the left third.
    case left
    /// In the right third.
    case right

    /// dockd's framing mode of the same name.
    init(_ mode: DockTracking.FramingMode) { self.init(rawValue: mode.rawValue)! }

    /// This mode as dockd's.
    var dockd: DockTracking.FramingMode { DockTracking.FramingMode(rawValue: rawValue)! }
}
