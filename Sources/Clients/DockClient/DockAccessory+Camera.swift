public import DockVocabulary

/// What dockd adds to DockKit's accessory for a camera operator: the zoom, the shot size it holds
/// by zooming, how fast the tracker turns, what happens when the subject is lost, and presets.
/// Each is one call of the interface (`SetZoom`, `SetShotSize`, `SetFramingSpeed`,
/// `SetLostBehaviour`, `SavePreset`, `ListPresets`, `RecallPreset`, `DeletePreset`), and each
/// refusal comes as ``DockClientError/remote(name:parameters:)`` with dockd's error.
extension DockAccessory {
    /// Zooms to a share of the camera's zoom range: 0 the widest, 1 the longest. Not a motion:
    /// no control is taken.
    ///
    /// - Parameter fraction: 0 to 1.
    /// - Returns: The zoom set, where the camera's own steps put it.
    /// - Throws: ``DockClientError/remote(name:parameters:)``: `NotSupported` (`zoom`) on a dock
    ///   whose zoom dockd cannot drive, `InvalidParameter` outside 0 to 1.
    @discardableResult
    public func setZoom(_ fraction: Double) async throws(DockClientError) -> Double {
        let reply = try await call(.setZoom(fraction))
        guard case .zoom(let set) = reply else { throw .unexpectedReply("SetZoom answered \(reply)") }
        return set
    }

    /// Holds the followed subject at a size in the picture by zooming: head and shoulders, half
    /// body, full body, the selected group, or a share of the picture's height; `ShotSize.off`
    /// leaves the zoom where it is.
    ///
    /// - Throws: ``DockClientError/remote(name:parameters:)``: `InvalidParameter` for a share
    ///   outside `ShotSize.fractionRange`.
    public func setShotSize(_ shot: ShotSize) async throws(DockClientError) {
        _ = try await call(.setShotSize(shot))
    }

    /// Sets how fast and how readily the tracker turns the dock: a profile (`smooth`, `normal`,
    /// `fast`) and numbers overriding it, per axis. A change with nothing in it changes nothing
    /// and answers the speed in force.
    ///
    /// - Returns: The framing speed in force, and as applied to this dock's limits.
    /// - Throws: ``DockClientError/remote(name:parameters:)``: `InvalidParameter` for an unknown
    ///   profile or a number out of range.
    @discardableResult
    public func setFramingSpeed(_ change: FramingSpeedChange = FramingSpeedChange()) async throws(DockClientError)
        -> Dock.FramingSpeedState
    {
        let reply = try await call(.setFramingSpeed(change))
        guard case .framingSpeed(let state) = reply else { throw .unexpectedReply("SetFramingSpeed answered \(reply)") }
        return state
    }

    /// Sets what the dock does once its subject has been lost for a while: hold, go home, go to a
    /// pose or a preset, or zoom out and wait. A nil argument stays as it is; both nil only read
    /// the behaviour in force.
    ///
    /// - Parameters:
    ///   - after: How long the subject is lost first, 0 to `LostBehaviour.longestAfter`.
    ///   - action: What the dock does then.
    /// - Returns: The behaviour in force.
    /// - Throws: ``DockClientError/remote(name:parameters:)``: `InvalidParameter` out of range.
    @discardableResult
    public func setLostBehaviour(after: Duration? = nil, action: LostBehaviour.Action? = nil) async throws(DockClientError)
        -> LostBehaviour
    {
        let reply = try await call(.setLostBehaviour(after: after, action: action))
        guard case .lostBehaviour(let behaviour) = reply else { throw .unexpectedReply("SetLostBehaviour answered \(reply)") }
        return behaviour
    }

    /// Saves where the dock points now (and its zoom, where dockd drives one) as a preset named
    /// `name`, replacing one of that name; kept by dockd across restarts.
    ///
    /// - Returns: The preset saved.
    /// - Throws: ``DockClientError/remote(name:parameters:)``: `InvalidParameter` for a name that is
    ///   empty, too long or not printable text, `NotReady` with no dock ready,
    ///   `PresetsUnavailable` when dockd's presets file cannot be written.
    @discardableResult
    public func savePreset(named name: String) async throws(DockClientError) -> Preset {
        let reply = try await call(.savePreset(name: name))
        guard case .preset(let preset) = reply else { throw .unexpectedReply("SavePreset answered \(reply)") }
        return preset
    }

    /// The presets, in the order they were first saved.
    public func presets() async throws(DockClientError) -> [Preset] {
        let reply = try await call(.listPresets)
        guard case .presets(let presets) = reply else { throw .unexpectedReply("ListPresets answered \(reply)") }
        return presets
    }

    /// Turns the dock to the preset named `name` (and its zoom), and returns once it is there —
    /// a motion like ``setOrientation(_:duration:relative:)``, under the same control rules.
    ///
    /// - Returns: What became of the motion (how it ended, what was clamped).
    /// - Throws: ``DockClientError/remote(name:parameters:)``: `NoSuchPreset`, `Busy` while another
    ///   client holds control (unless `takeOver`), or how the motion was cut short.
    @discardableResult
    public func recallPreset(named name: String, takeOver: Bool = false) async throws(DockClientError) -> Dock.MotionResult {
        let reply = try await call(.recallPreset(name: name, takeOver: takeOver, waitsForEnd: true))
        guard case .motion(let result) = reply else { throw .unexpectedReply("RecallPreset answered \(reply)") }
        return result
    }

    /// Forgets the preset named `name`.
    ///
    /// - Throws: ``DockClientError/remote(name:parameters:)``: `NoSuchPreset`.
    public func deletePreset(named name: String) async throws(DockClientError) {
        _ = try await call(.deletePreset(name: name))
    }
}
