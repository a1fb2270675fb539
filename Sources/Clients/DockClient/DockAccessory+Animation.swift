import DockVocabulary

extension DockAccessory {
    /// The built-in animations, named as in DockKit's `DockAccessory.Animation`.
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

    /// Plays a built-in animation, relative to where the dock points, and returns when it has
    /// finished (or was replaced by another motion).
    ///
    /// - Parameter motion: The animation.
    /// - Throws: ``DockClientError/remote(name:parameters:)`` when dockd refuses it (another
    ///   client holds control), ``DockClientError/disconnected`` when dockd went away.
    public func animate(motion: Animation) async throws(DockClientError) {
        _ = try await call(.motion(.animate(motion.kind), takeOver: false, waitsForEnd: true))
    }
}
