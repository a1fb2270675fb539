import DockAPI
import DockVocabulary

extension DockAccessory {
    /// One subject dockd tracks, as DockKit's `DockAccessory.TrackedPerson` and `TrackedObject`:
    /// identifier, what it is, its rectangle (a ``VisionRect``, origin at the bottom left; nil when
    /// it is behind the camera), its saliency rank (1 = most salient), and whether the dock
    /// follows it.
    public struct TrackedSubject: Hashable, Sendable {
        /// What a subject is.
        public enum SubjectType: String, Hashable, Sendable {
            /// A person (dockd's body).
            case person
            /// A face.
            case face
            /// Anything else.
            case object
        }

        /// dockd's identifier for it, stable while it is tracked.
        public var identifier: Int
        /// What it is.
        public var type: SubjectType
        /// Its rectangle, origin at the bottom left; nil when it is behind the camera.
        public var rect: VisionRect?
        /// 1 for the most salient subject, 2 for the next...
        public var saliencyRank: Int
        /// Whether the dock follows it.
        public var isPrimary: Bool

        /// The subject as dockd's status reports it, its top-left box turned into a ``VisionRect``.
        init(_ summary: SubjectSummary) {
            identifier = summary.identifier
            type =
                switch summary.kind {
                case .body: .person
                case .face: .face
                case .object: .object
                }
            rect = summary.box.map(VisionRect.init(topLeft:))
            saliencyRank = summary.saliencyRank
            isPrimary = summary.isPrimary
        }
    }
}
