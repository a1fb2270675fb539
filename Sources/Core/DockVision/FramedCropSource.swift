public import DockVocabulary

/// Where the framed picture's crop comes from for a frame.
public enum FramedCropSource: Hashable, Sendable {
    /// dockd's accessory is a crop of this picture (a digital pan-tilt-zoom): this window, as
    /// dockd holds it.
    case accessory(NormalizedRect)
    /// dockd's tracker's framing, which this service's `CropFramer` follows.
    case tracker(TrackerFraming)
    /// dockd is away: this service's own choice of person.
    case own

    /// The source for a frame, from dockd's framing while it is dockd's (`DockFeed.currentFraming`;
    /// nil: dockd is away).
    public static func choose(_ framing: TrackerFraming?) -> FramedCropSource {
        guard let framing else { return .own }
        if let crop = framing.crop { return .accessory(crop) }
        return .tracker(framing)
    }
}
