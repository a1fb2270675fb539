import DockLinks
import DockLogLevel
import DockTracking
public import DockVocabulary

/// Presets: named poses saved from where the dock points, listed, recalled as a motion like any
/// other, and deleted. The policy keeps them (in the tracking pipeline, where a lost behaviour of
/// `preset:NAME` looks them up); the shell keeps them in a file. A save or a delete makes the new
/// set and asks the shell to store it (`HostAction.storePresets`): only once it is written does
/// it count (`presetsStored`), so a change the disk refuses changes nothing.
extension HostPolicy {
    /// The presets, in the order they were first saved.
    public var presets: PresetStore { pipeline.presets }

    /// The presets read from the file at start.
    public mutating func presetsLoaded(_ store: PresetStore) {
        pipeline.presets = store
        presetsRefusal = nil
    }

    /// The presets file could not be read (`reason`, with its line): dockd runs without presets
    /// and refuses to save or delete any, so that the file is never written over before a person
    /// has looked at it.
    public mutating func presetsDamaged(file: String, reason: String) {
        pipeline.presets = PresetStore()
        presetsRefusal = .presetsUnavailable(
            file: file, reason: "could not be read (\(reason)); mend or remove it and restart dockd")
    }

    /// The shell wrote `store` to the file: it is now the one in force.
    public mutating func presetsStored(_ store: PresetStore) {
        pipeline.presets = store
    }

    /// Saves where the dock points now (and its zoom, where the host drives one) under `name`.
    mutating func savePreset(_ name: String, token: RequestToken, now: Duration, into actions: inout [HostAction]) {
        if let presetsRefusal { return actions.append(.reply(token, .failure(presetsRefusal))) }
        guard case .ready = session.state, let pose = session.pose(at: now) else {
            return actions.append(.reply(token, .failure(.notReady)))
        }
        // The zoom only where the host drives one: a zoom it cannot set again is no part of the
        // pose it can go back to.
        let zoom = pose.zoomFraction.flatMap { session.zoomFraction(nearest: $0) }
        let preset = Preset(name: name, yawRadians: pose.yawRadians, pitchRadians: pose.pitchRadians, zoomFraction: zoom)
        do {
            actions.append(.storePresets(try presets.saving(preset), token: token, reply: .preset(preset)))
        } catch {
            actions.append(.reply(token, .failure(error.hostError)))
        }
    }

    /// Forgets the preset called `name`.
    mutating func deletePreset(_ name: String, token: RequestToken, into actions: inout [HostAction]) {
        if let presetsRefusal { return actions.append(.reply(token, .failure(presetsRefusal))) }
        do {
            actions.append(.storePresets(try presets.deleting(name), token: token, reply: .done))
        } catch {
            actions.append(.reply(token, .failure(error.hostError)))
        }
    }

    /// Goes to the preset called `name`: an orientation move like `SetOrientation`'s, at the
    /// dock's fastest, under the same control rules and with the same answers (clamped, how it
    /// ended); then its zoom, where it has one the host drives.
    mutating func recallPreset(
        _ name: String, takeOver: Bool, waitsForEnd: Bool, token: RequestToken, client: ClientID, now: Duration,
        into actions: inout [HostAction]
    ) {
        guard let preset = presets.preset(named: name) else {
            return actions.append(.reply(token, .failure(.noSuchPreset(name))))
        }
        let move = MotionRequest.orientation(
            yawRadians: preset.yawRadians, pitchRadians: preset.pitchRadians, isRelative: false, pace: .fastest)
        let before = actions.count
        requestMotion(move, takeOver: takeOver, waitsForEnd: waitsForEnd, token: token, client: client, now: now, into: &actions)
        let isRefused = actions[before...].contains { action in
            if case .reply(token, .failure) = action { true } else { false }
        }
        if !isRefused, let zoom = preset.zoomFraction, session.zoomFraction(nearest: zoom) != nil {
            _ = send(.zoom(fraction: zoom), now: now, into: &actions)
        }
        log(.info, "preset '\(name)' recalled by client \(client)" + (isRefused ? ": refused" : ""), into: &actions)
    }
}

extension PresetError {
    /// The named error that says so: a bad name is the `name` parameter's; a bad pose cannot
    /// come from a client (the pose is the dock's) but is the `name`'s preset's all the same.
    var hostError: HostError {
        switch self {
        case .invalidName(_, let reason): .invalidParameter("name", reason: reason)
        case .invalidPose(_, let reason): .invalidParameter("name", reason: reason)
        case .duplicateName(let name): .invalidParameter("name", reason: "'\(name)' is given twice")
        case .noSuchPreset(let name): .noSuchPreset(name)
        case .tooMany: .invalidParameter("name", reason: "\(self)")
        }
    }
}
