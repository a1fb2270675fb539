import DockCore
import DockHost

/// The built-in animations, named as in DockKit.
public enum Animation: String, CaseIterable, Hashable, Sendable {
    /// A nod.
    case yes
    /// A shake.
    case no
    /// Waking up.
    case wake
    /// A quick tilt that snaps back.
    case kapow

    /// dockd's animation of the same name.
    var kind: AnimationKind { AnimationKind(rawValue: rawValue)! }
}

extension DockAccessory {
    /// Plays a built-in animation; returns when it has finished (or was replaced).
    public func animate(motion: Animation) async throws(DockClientError) {
        _ = try await call(.motion(.animate(motion.kind), takeOver: false, waitsForEnd: true))
    }
}
