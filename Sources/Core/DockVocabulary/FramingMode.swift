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

extension FramingMode {
    /// The point of a frame (each coordinate 0...1 of it) where the subject's box centre sits: the
    /// middle, a third from either side, or — automatic — centred across with `headroom` above a
    /// box of `height` (a share of the frame's height) that leaves room for it. The one rule the
    /// motors' framing and the vision service's crop both follow.
    public func placement(ofHeight height: Double, headroom: Double) -> NormalizedPoint {
        switch self {
        case .center: NormalizedPoint(x: 0.5, y: 0.5)
        case .left: NormalizedPoint(x: 1.0 / 3, y: 0.5)
        case .right: NormalizedPoint(x: 2.0 / 3, y: 0.5)
        case .automatic: NormalizedPoint(x: 0.5, y: height < 1 - headroom ? headroom + height / 2 : 0.5)
        }
    }
}
