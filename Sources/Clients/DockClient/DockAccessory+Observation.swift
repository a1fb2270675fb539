import DockVocabulary

extension DockAccessory {
    /// One detection of your detector in one frame, as DockKit's `DockAccessory.Observation`;
    /// its rectangle is a ``VisionRect`` (origin at the bottom left), which the client turns into
    /// dockd's top-left box.
    public struct Observation: Hashable, Sendable {
        /// What was detected.
        public enum ObservationType: String, Hashable, Sendable {
            /// A face.
            case humanFace
            /// A person's body.
            case humanBody
            /// Anything else.
            case object
        }

        /// The detector's own identifier for it, the same in every frame while it follows the
        /// same subject.
        public var identifier: Int
        /// What it is.
        public var type: ObservationType
        /// Where it is, origin at the bottom left.
        public var rect: VisionRect
        /// What it looks like, as your detector describes it (dockd's own addition; DockKit has
        /// none): a vector of 4 to 512 finite numbers — a colour histogram of the torso, an
        /// embedding — that dockd compares by cosine distance to keep a person's identifier
        /// through occlusion and to recognise them when they come back. Every observation a
        /// connection sends with one must use the same length.
        public var appearance: [Float]?

        /// Creates an observation.
        ///
        /// - Parameters:
        ///   - identifier: The detector's identifier for the subject.
        ///   - type: What was detected.
        ///   - rect: Where, origin at the bottom left (``VisionRect/init(topLeft:)`` converts a
        ///     top-left box).
        ///   - appearance: What it looks like, 4 to 512 finite numbers, or nil (see
        ///     ``appearance``).
        public init(identifier: Int, type: ObservationType, rect: VisionRect, appearance: [Float]? = nil) {
            self.identifier = identifier
            self.type = type
            self.rect = rect
            self.appearance = appearance
        }

        /// The observation as dockd takes it: a top-left box.
        var dockd: DockVocabulary.Observation {
            let kind: SubjectKind =
                switch type {
                case .humanFace: .face
                case .humanBody: .body
                case .object: .object
                }
            return DockVocabulary.Observation(kind: kind, box: rect.topLeft, confidence: 1, identifier: identifier, appearance: appearance)
        }
    }
}
