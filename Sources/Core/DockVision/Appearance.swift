/// A person's appearance as dockd-vision sends it: a hue-saturation histogram of the torso, of
/// unit length, so the tracker's cosine distance compares colours, not sizes. The same feature
/// as `examples/detect_video.py --appearance` (8 hues x 4 saturations), so the figures of
/// `scripts/video-reid` carry over: brightness is left out, so a shadow changes it little.
public enum Appearance {
    /// Hue bins.
    public static let hueBins = 8
    /// Saturation bins.
    public static let saturationBins = 4

    /// The part of a person's box the histogram is taken over: the middle half across, from 20 %
    /// to 55 % of its height down (the shirt; the face and the legs change more).
    public static func torso(of box: PixelBox) -> PixelBox {
        PixelBox(x: box.x + box.width * 0.25, y: box.y + box.height * 0.2, width: box.width * 0.5, height: box.height * 0.35)
    }

    /// The histogram scaled to unit length; nil when it is empty (a torso with no colour in it,
    /// too dark or too grey) or not finite: no appearance is sent then.
    public static func descriptor(histogram: [Float]) -> [Float]? {
        var sum: Float = 0
        for value in histogram {
            guard value.isFinite, value >= 0 else { return nil }
            sum += value * value
        }
        guard sum > 0 else { return nil }
        let length = sum.squareRoot()
        return histogram.map { $0 / length }
    }
}
