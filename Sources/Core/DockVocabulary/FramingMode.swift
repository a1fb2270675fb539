/// Where the tracker puts the primary subject in the frame.
public enum FramingMode: String, CaseIterable, Hashable, Sendable {
    /// The tracker chooses: one subject centred with headroom, a selected group framed together.
    case automatic
    /// The subject at the middle of the frame.
    case center
    /// The subject on the left third.
    case left
    /// The subject on the right third.
    case right
}
