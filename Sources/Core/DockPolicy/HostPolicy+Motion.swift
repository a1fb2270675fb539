import DockLinks
import DockLogLevel
import DockProtocol
import DockTracking
import DockVocabulary

/// Clients' motions: accepted, answered once the dock has, ended (completed, replaced, stopped)
/// or failed (refused, faulted), with control following.
extension HostPolicy {

    mutating func requestMotion(
        _ request: MotionRequest, takeOver: Bool, waitsForEnd: Bool,
        token: RequestToken, client: ClientID, now: Duration, into actions: inout [HostAction],
        presetSlot: Int? = nil
    ) {
        guard case .ready = session.state, let limits else {
            actions.append(.reply(token, .failure(.notReady)))
            return
        }
        var arbitrated = arbiter
        let change: ControlArbiter.Change?
        do {
            change = try arbitrated.motionRequested(by: client, takeOver: takeOver)
        } catch {
            actions.append(.reply(token, .failure(.busy(holder: error.holder))))
            return
        }
        let result: MotionResult
        do {
            result = try motion.handle(request, pose: session.pose(at: now), limits: limits, now: now)
        } catch {
            // Nothing changed hands and nothing was said: the request is refused whole.
            actions.append(.reply(token, .failure(.invalid(error))))
            return
        }
        arbiter = arbitrated
        if let previous = current { end(previous, .replaced(byClient: client), into: &actions) }
        if isTrackerMoving {
            isTrackerMoving = false
            pipeline.controllerInterrupted()
        }
        controlChanged(change, into: &actions)
        let isBounded: Bool
        switch request {
        case .velocity(_, _, let duration): isBounded = duration != nil
        case .orientation, .animate, .stop: isBounded = true
        }
        // The motion is current, and each command's identity noted, before the link's actions
        // are carried out: a link may answer at once (a UVC webcam already at the speed asked, a
        // stepped target).
        current = ClientMotion(
            owner: client, isBounded: isBounded, token: token, waitsForEnd: waitsForEnd && isBounded,
            result: result, startedAt: now)
        switch request {
        case .velocity, .orientation:
            current?.pausesTracking = true
            lastManualMoveAt = now
        case .animate, .stop: break
        }
        presetRecall = nil
        for command in result.commands {
            // A preset the accessory keeps: its own recall goes instead of the move, and the move
            // ends as any does, when the pose reads back at the target (or by its deadline).
            if let presetSlot, case .move = command {
                let sent = session.send(.recallPreset(number: presetSlot), now: now)
                if let id = sent.id {
                    current?.commands.append(id)
                    presetRecall = PresetRecall(command: id, move: command)
                }
                perform(sent.actions, now: now, into: &actions)
                continue
            }
            let sent = session.send(command, now: now)
            if let id = sent.id { current?.commands.append(id) }
            perform(sent.actions, now: now, into: &actions)
        }
        // Already there (a move to where the dock rests): it ended as it began, and no later tick
        // would say so.
        if let finish = result.finished, let started = current {
            log(.debug, "motion finished at once: \(finish)", into: &actions)
            end(started, .completed(finish), into: &actions)
            controlChanged(arbiter.motionEnded(for: client), into: &actions)
            return
        }
        if current?.commands.isEmpty == true { acknowledge(now: now, into: &actions) }
    }

    /// The dock accepted one of the current motion's frames: a caller that does not wait for the
    /// end has its answer.
    mutating func acknowledge(now: Duration, into actions: inout [HostAction]) {
        guard var motion = current, let token = motion.token, !motion.waitsForEnd else { return }
        motion.token = nil
        current = motion
        actions.append(.reply(token, .motion(outcome(motion, ending: nil))))
    }

    /// A caller still waiting for the dock's answer after the timeout has its reply anyway: the
    /// dock did not refuse (a lost `ack` is no refusal).
    mutating func answerUnacknowledged(now: Duration, into actions: inout [HostAction]) {
        guard let motion = current, motion.token != nil, !motion.waitsForEnd,
            now - motion.startedAt >= settings.acknowledgementTimeout
        else { return }
        acknowledge(now: now, into: &actions)
    }

    func outcome(_ motion: ClientMotion, ending: MotionEnding?) -> MotionOutcome {
        MotionOutcome(
            clampedFields: motion.result.clampedFields, cancelledAnimation: motion.result.cancelledAnimation,
            ending: ending)
    }

    /// A client's motion is over: its caller (if still waiting) hears how, watchers too, and
    /// control it took by moving goes back.
    mutating func end(_ motion: ClientMotion, _ ending: MotionEnding, into actions: inout [HostAction]) {
        current = nil
        // A caller that waits hears how it ended; one that only wanted it accepted, that it was.
        if let token = motion.token {
            actions.append(.reply(token, .motion(outcome(motion, ending: motion.waitsForEnd ? ending : nil))))
        }
        // A client streaming velocities replaces its own motion thirty times a second: no news.
        guard ending != .replaced(byClient: motion.owner) else { return }
        actions.append(.publish(.motionEnded(owner: motion.owner, ending: ending)))
    }

    /// A client's motion failed: the dock refused it or raised a fault.
    mutating func fail(_ motion: ClientMotion, _ error: HostError, into actions: inout [HostAction]) {
        current = nil
        if let token = motion.token { actions.append(.reply(token, .failure(error))) }
        controlChanged(arbiter.motionEnded(for: motion.owner), into: &actions)
    }

    /// Stops the motors now (the client's motion, the tracker's, an animation) and ends the
    /// client's motion with `ending`.
    mutating func stopMotors(now: Duration, ending: MotionEnding, into actions: inout [HostAction]) {
        if let current { end(current, ending, into: &actions) }
        isTrackerMoving = false
        guard case .ready = session.state, let limits else {
            motion.reset()
            return
        }
        let result = try? motion.handle(.stop, pose: session.pose(at: now), limits: limits, now: now)
        for command in result?.commands ?? [.stop] { _ = send(command, now: now, into: &actions) }
    }

    mutating func advanceMotion(now: Duration, limits: MotionLimits, into actions: inout [HostAction]) {
        let (commands, finish) = motion.tick(pose: session.pose(at: now), limits: limits, now: now)
        for command in commands {
            guard let id = send(command, now: now, into: &actions) else { continue }
            if current != nil {
                current!.commands.append(id)
                current!.commands.suffixInPlace(16)
            } else if isTrackerMoving {
                recordTrackerCommand(id)
            }
        }
        guard let finish else { return }
        log(.debug, "motion finished: \(finish)", into: &actions)
        if let finished = current {
            end(finished, .completed(finish), into: &actions)
            controlChanged(arbiter.motionEnded(for: finished.owner), into: &actions)
        }
    }
}
