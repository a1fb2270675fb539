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

    /// How long dockd's framing stands: dockd answers every 100 ms while it takes Track calls, so
    /// a framing a second old is dockd's no longer (away, or not hearing from this service).
    public static let freshness = Duration.seconds(1)

    /// The source for a frame dequeued at `now`, from dockd's newest framing (nil: none read).
    public static func choose(_ framing: TrackerFraming?, now: Duration) -> FramedCropSource {
        guard let framing, now - framing.time < freshness else { return .own }
        if let crop = framing.crop { return .accessory(crop) }
        return .tracker(framing)
    }
}
