/// What a detector found in one video frame: the input of the tracker.

/// The kinds of subject a detector reports.
public enum SubjectKind: String, CaseIterable, Hashable, Sendable {
    /// A human face.
    case face
    /// A human body (a person seen whole or in part).
    case body
    /// Anything else the app chose to follow.
    case object
}

/// One detection in one frame.
public struct Observation: Hashable, Sendable {
    /// What was detected.
    public var kind: SubjectKind
    /// Where, in the delivered image's normalised coordinates.
    public var box: NormalizedRect
    /// The detector's confidence, 0...1.
    public var confidence: Double
    /// The detector's own identifier for what it saw, when it tracks too (nil when it sends none):
    /// a track keeps preferring boxes with the identifier it was last given.
    public var identifier: Int?
    /// What the subject looks like, as the client's own feature (a colour histogram, an embedding:
    /// 4 to 512 finite values, the same length in every observation of one client), or nil. The
    /// tracker compares two by their cosine distance (`AppearanceGallery`), so its scale does not
    /// matter.
    public var appearance: [Float]?

    /// Creates an observation.
    public init(kind: SubjectKind, box: NormalizedRect, confidence: Double, identifier: Int? = nil, appearance: [Float]? = nil) {
        self.kind = kind
        self.box = box
        self.confidence = confidence
        self.identifier = identifier
        self.appearance = appearance
    }
}
