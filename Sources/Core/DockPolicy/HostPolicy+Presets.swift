import DockLinks
import DockLogLevel
import DockTracking
public import DockVocabulary

/// Presets: named poses saved from where the dock points, listed, recalled as a motion like any
/// other, and deleted. The policy keeps them (in the tracking pipeline, where a lost behaviour of
/// `preset:NAME` looks them up); the shell keeps them in a file. A save or a delete makes the new
/// set and asks the shell to store it (`HostAction.storePresets`): only once it is written does
/// it count (`presetsStored`), so a change the disk refuses changes nothing.
///
/// Where the accessory keeps preset memories of its own (`presetMemory`, the numbers
/// `presetNumbers`: a VISCA camera whose profile has them), a save also stores the pose in one —
/// the preset's own if it has one, else the lowest no other preset holds; none when all are taken,
/// and the preset is then a pose only — and a recall is the accessory's own, at its own preset
/// speed, ending `reached` when the pose reads back at the saved one. An accessory that refuses a
/// memory command is not asked again until it attaches anew: a refused recall becomes the saved
/// pose's move, each said in one log line.
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
        var preset = Preset(name: name, yawRadians: pose.yawRadians, pitchRadians: pose.pitchRadians, zoomFraction: zoom)
        if let numbers = presetMemoryNumbers {
            preset.slot = presets.slot(forSaving: name, in: numbers)
            if preset.slot == nil {
                log(
                    .info, "preset '\(name)': the accessory's \(numbers.count) preset memories are taken; kept as a pose only",
                    into: &actions)
            }
        }
        let changed: PresetStore
        do {
            changed = try presets.saving(preset)
        } catch {
            return actions.append(.reply(token, .failure(error.hostError)))
        }
        if let slot = preset.slot {
            let sent = session.send(.storePreset(number: slot), now: now)
            if let id = sent.id { presetMemoryStores[id] = name }
            perform(sent.actions, now: now, into: &actions)
        }
        actions.append(.storePresets(changed, token: token, reply: .preset(preset)))
    }

    /// The accessory's preset memory numbers the presets use now; nil when they use none (it
    /// has none, or it refused one of their commands since it attached).
    var presetMemoryNumbers: ClosedRange<Int>? {
        guard session.capabilities.contains(.presetMemory), !presetMemoryRefused else { return nil }
        return session.presetNumbers
    }

    /// A preset memory command the accessory refused: true when `id` was one (a Memory Set, or
    /// the recall of a client's RecallPreset), which is then dealt with here — the memories are
    /// left alone from now on, and a refused recall becomes the saved pose's move.
    mutating func presetMemoryRefused(
        _ id: CommandID, _ refusal: CommandRefusal, now: Duration, into actions: inout [HostAction]
    ) -> Bool {
        let words = "\(refusal.reason.name) (detail \(refusal.detail))"
        if let name = presetMemoryStores.removeValue(forKey: id) {
            presetMemoryRefused = true
            log(
                .warning,
                "the accessory refused to store preset '\(name)' in its memory: \(words); presets are poses only until it attaches again",
                into: &actions)
            return true
        }
        guard let recall = presetRecall, recall.command == id else { return false }
        presetRecall = nil
        presetMemoryRefused = true
        guard var motion = current, motion.commands.contains(id) else { return true }
        log(.warning, "the accessory refused its preset recall: \(words); going to the saved pose instead", into: &actions)
        let sent = session.send(recall.move, now: now)
        if let moveID = sent.id { motion.commands.append(moveID) }
        current = motion
        perform(sent.actions, now: now, into: &actions)
        return true
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
        // The accessory's own recall where it keeps this preset (it restores the zoom too).
        let slot = preset.slot.flatMap { slot in presetMemoryNumbers?.contains(slot) == true ? slot : nil }
        let before = actions.count
        requestMotion(
            move, takeOver: takeOver, waitsForEnd: waitsForEnd, token: token, client: client, now: now, into: &actions,
            presetSlot: slot)
        let isRefused = actions[before...].contains { action in
            if case .reply(token, .failure) = action { true } else { false }
        }
        let byAccessory = !isRefused && presetRecall != nil
        if !isRefused, !byAccessory, let zoom = preset.zoomFraction, session.zoomFraction(nearest: zoom) != nil {
            _ = send(.zoom(fraction: zoom), now: now, into: &actions)
        }
        log(
            .info,
            "preset '\(name)' recalled by client \(client)"
                + (isRefused ? ": refused" : byAccessory ? " from the accessory's memory \(slot ?? 0)" : ""), into: &actions)
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
