public import DockVocabulary

/// A box in a picture's pixels, origin at the top left.
public struct PixelBox: Hashable, Sendable {
    /// Left edge, pixels.
    public var x: Double
    /// Top edge, pixels.
    public var y: Double
    /// Width, pixels.
    public var width: Double
    /// Height, pixels.
    public var height: Double

    /// Creates a box.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The box cut to a picture of `width` x `height`; nil when nothing of it is left, or it is not finite.
    public func clipped(width pictureWidth: Double, height pictureHeight: Double) -> PixelBox? {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        let left = max(0, x), top = max(0, y)
        let right = min(pictureWidth, x + width), bottom = min(pictureHeight, y + height)
        guard right > left, bottom > top else { return nil }
        return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The fraction of the union the two boxes share (intersection over union).
    public func overlap(_ other: PixelBox) -> Double {
        let width = min(x + self.width, other.x + other.width) - max(x, other.x)
        let height = min(y + self.height, other.y + other.height) - max(y, other.y)
        guard width > 0, height > 0 else { return 0 }
        let shared = width * height
        return shared / (self.width * self.height + other.width * other.height - shared)
    }
}

/// What a detector's raw score is, so that it can be turned into the 0...1 confidence `Track` takes.
public enum ScoreScale: Hashable, Sendable {
    /// A cascade's count of neighbouring hits n: 1 / (1 + e^(−n / 2)) (3 → 0.82, 10 → 0.99).
    case cascadeNeighbours
    /// HOG's SVM margin s: 1 / (1 + e^(−3 (s − 0.5))) (0.5 → 0.5, 1 → 0.82), as `examples/detect_video.py`.
    case hogMargin
    /// Already a probability (a network's score), clamped to 0...1.
    case probability

    /// The confidence of a raw score; 0 for one that is not finite.
    public func confidence(_ score: Double) -> Double {
        guard score.isFinite else { return 0 }
        switch self {
        case .cascadeNeighbours: return 1 / (1 + exp(-score / 2))
        case .hogMargin: return 1 / (1 + exp(-3 * (score - 0.5)))
        case .probability: return min(1, max(0, score))
        }
    }
}

/// One thing a detector found in one frame, in the pixels of the picture it looked at.
public struct Detection: Hashable, Sendable {
    /// A face or a body.
    public var kind: SubjectKind
    /// Where.
    public var box: PixelBox
    /// How sure, 0...1.
    public var confidence: Double
    /// What it looks like (a colour histogram of unit length), for bodies when asked for.
    public var appearance: [Float]?

    /// Creates a detection.
    public init(kind: SubjectKind, box: PixelBox, confidence: Double, appearance: [Float]? = nil) {
        self.kind = kind
        self.box = box
        self.confidence = confidence
        self.appearance = appearance
    }
}

#if canImport(Glibc)
    import Glibc
#endif
