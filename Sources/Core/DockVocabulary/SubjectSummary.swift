/// One subject as clients see it (in `Watch` and `GetStatus`).
public struct SubjectSummary: Hashable, Sendable {
    /// The subject's identifier, stable while it is tracked.
    public var identifier: Int
    /// Face, body (a person) or object.
    public var kind: SubjectKind
    /// Its box in the delivered image now; nil when it is behind the camera.
    public var box: NormalizedRect?
    /// Whether it is the subject the dock follows.
    public var isPrimary: Bool
    /// 1 for the most salient subject, 2 for the next, and so on.
    public var saliencyRank: Int
    /// Whether it was not seen in the last frames (its place is predicted).
    public var isCoasting: Bool

    /// Creates a summary.
    public init(identifier: Int, kind: SubjectKind, box: NormalizedRect?, isPrimary: Bool, saliencyRank: Int, isCoasting: Bool) {
        self.identifier = identifier
        self.kind = kind
        self.box = box
        self.isPrimary = isPrimary
        self.saliencyRank = saliencyRank
        self.isCoasting = isCoasting
    }
}
