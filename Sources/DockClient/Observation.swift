import DockTracking

/// One detection, as DockKit's `DockAccessory.Observation`: **its rectangle has Vision's origin,
/// the bottom left** (y grows upwards); the client turns it into dockd's top-left boxes.
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

    /// The detector's own identifier for it.
    public var identifier: Int
    /// What it is.
    public var type: ObservationType
    /// Where it is, origin at the bottom left.
    public var rect: Rect

    /// Creates an observation.
    public init(identifier: Int, type: ObservationType, rect: Rect) {
        self.identifier = identifier
        self.type = type
        self.rect = rect
    }

    /// The observation as dockd takes it: a top-left box.
    var dockd: DockTracking.Observation {
        let kind: SubjectKind = switch type {
        case .humanFace: .face
        case .humanBody: .body
        case .object: .object
        }
        let topLeft = NormalizedRect(x: rect.x, y: 1 - rect.y - rect.height, width: rect.width, height: rect.height)
        return DockTracking.Observation(kind: kind, box: topLeft, confidence: 1, identifier: identifier)
    }
}
