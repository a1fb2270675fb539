import DockLinks
import DockLogLevel
import DockProtocol
import DockTracking
import DockVocabulary

/// The tracker's part of each tick, and the indicator.
extension HostPolicy {

    /// The tracker's part of a tick: fuse the frames that arrived (oldest first, each with the
    /// pose at its capture time), predict to now, and — when the tracker holds control, no
    /// animation or move plays, and the dock has no fault — command the dock.
    mutating func track(now: Duration, limits: MotionLimits, into actions: inout [HostAction]) {
        if !pendingObservations.isEmpty {
            pendingObservations.sort { $0.captureTime < $1.captureTime }
            let isPictureFixed = session.capabilities.contains(.fixedPicture)
            for batch in pendingObservations {
                if isPictureFixed {
                    // The picture does not turn with the pose (a crop of a fixed camera's): what
                    // was observed is in the whole picture, at pose zero and magnification 1; the
                    // framing sees the crop, narrowed by the zoom in force.
                    let crop = session.pose(at: now)?.zoomFraction.flatMap { session.magnification(atZoomFraction: $0) }
                    pipeline.observeFixedPicture(
                        batch.observations, camera: batch.camera, captureTime: batch.captureTime, cropMagnification: crop ?? 1)
                    continue
                }
                guard let captured = session.pose(at: batch.captureTime) else { continue }
                // The field of view the frame was taken with: the client's, at the widest zoom,
                // narrowed by the zoom the accessory had at capture time.
                var camera = batch.camera
                var magnification = 1.0
                if settings.fieldOfViewFollowsZoom, let zoom = captured.zoomFraction,
                    let zoomed = session.magnification(atZoomFraction: zoom)
                {
                    camera = camera.zoomed(by: zoomed)
                    magnification = zoomed
                }
                pipeline.observe(
                    batch.observations, camera: camera, captureTime: batch.captureTime,
                    gimbalYawRadians: captured.yawRadians, gimbalPitchRadians: captured.pitchRadians,
                    magnification: magnification)
            }
            pendingObservations.removeAll(keepingCapacity: true)
        }
        guard let pose = session.pose(at: now) else { return }
        let step = pipeline.step(
            now: now, gimbalYawRadians: pose.yawRadians, gimbalPitchRadians: pose.pitchRadians,
            accessoryAccelerationRadiansPerSecondSquared: (
                limits.yawAccelerationRadiansPerSecondSquared, limits.pitchAccelerationRadiansPerSecondSquared
            ),
            accessorySpeedRadiansPerSecond: (limits.yawSpeedRadiansPerSecond, limits.pitchSpeedRadiansPerSecond),
            isAccelerationAdvertised: session.accessoryProtocol.advertisesAcceleration,
            zoom: arbiter.controller == .systemTracker ? zoomOptics(pose: pose) : nil,
            accessoryYawSpeedRadiansPerSecond: limits.yawSpeedRadiansPerSecond)
        trackingStep = step
        if current?.pausesTracking == true { lastManualMoveAt = now }
        guard arbiter.controller == .systemTracker else {
            if isTrackerMoving {
                // Tracking was turned off or a client took control: the tracker lets go.
                isTrackerMoving = false
                pipeline.controllerInterrupted()
                if current == nil, case .velocity = motion.activity {
                    stopMotors(now: now, ending: .stopped(byClient: nil), into: &actions)
                }
            }
            return
        }
        switch motion.activity {
        case .animating, .moving:
            return
        case .idle, .velocity, .settling:
            break
        }
        if case .refused(let until) = trackerHold {
            guard now >= until, !isFaulted else { return }
            trackerHold = nil
            log(.notice, "tracking resumes", into: &actions)
        }
        guard !isFaulted else { return }
        if let moved = lastManualMoveAt {
            guard now - moved >= settings.manualMovePause else {
                // A person moved the dock by hand: the tracker keeps tracking but leaves the dock
                // where they put it for a while, its controller held at rest — where the dock
                // is once the move has ended — so that it starts from there, without a jump.
                pipeline.controllerInterrupted()
                isTrackerMoving = false
                return
            }
            lastManualMoveAt = nil
            log(.info, "tracking resumes after a manual move", into: &actions)
        }
        if step.zoomsOut {
            // The lost behaviour's zoom out, where the accessory can zoom; elsewhere it holds.
            if session.zoomFraction(nearest: 0) != nil {
                log(.info, "subject lost: zooming out", into: &actions)
                _ = send(.zoom(fraction: 0), now: now, into: &actions)
            } else {
                log(.notice, "subject lost: the accessory cannot zoom out; holding", into: &actions)
            }
        }
        if let magnification = step.magnification { holdShot(magnification: magnification, now: now, into: &actions) }
        if let name = step.missingPreset {
            log(.warning, "subject lost: no preset '\(name)' for lost-action preset:\(name); holding", into: &actions)
        }
        if let zoom = step.zoomFraction, session.zoomFraction(nearest: zoom) != nil {
            // A preset's zoom, as the lost behaviour turns to it.
            _ = send(.zoom(fraction: zoom), now: now, into: &actions)
        }
        guard let yaw = step.yawRadiansPerSecond, let pitch = step.pitchRadiansPerSecond else {
            isTrackerMoving = false
            return
        }
        do {
            let result = try motion.handle(
                .velocity(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch, duration: nil),
                pose: pose, limits: limits, now: now)
            isTrackerMoving = true
            for command in result.commands {
                if let id = send(command, now: now, into: &actions) { recordTrackerCommand(id) }
            }
        } catch {
            log(.debug, "tracker velocity refused: \(error)", into: &actions)
        }
    }

    mutating func recordTrackerCommand(_ id: CommandID) {
        trackerCommands.append(id)
        trackerCommands.suffixInPlace(16)
    }

    /// Whether a fault that stops motion is active (a failsafe stop ends with the next frame).
    var isFaulted: Bool { activeFaults.contains { $0.code != .failsafeStop } }

    /// The indicator shows tracking off (dark), on and looking for a subject (green, blinking
    /// slowly), or on with the subject in frame (green, steady).
    /// An accessory without one is left alone.
    mutating func updateIndicator(now: Duration, into actions: inout [HostAction]) {
        guard session.capabilities.contains(.indicator) else { return }
        let inFrame = trackingStep?.isSubjectInFrame ?? false
        let wanted =
            !arbiter.isSystemTrackingEnabled
            ? IndicatorLight(pattern: .off, red: 0, green: 0, blue: 0)
            : inFrame
                ? IndicatorLight(pattern: .solid, red: 0, green: 160, blue: 0)
                : IndicatorLight(pattern: .slowBlink, red: 0, green: 160, blue: 0)
        guard wanted != indicator else { return }
        indicator = wanted
        _ = send(.indicator(wanted), now: now, into: &actions)
    }
}
