import DockLinks
import DockLogLevel
import DockProtocol
import DockTracking
import DockVocabulary

/// What the session reports of the dock: attach, loss, buttons, faults, refusals, acknowledgements.
extension HostPolicy {

    mutating func perform(_ sessionActions: [SessionAction], now: Duration, into actions: inout [HostAction]) {
        for action in sessionActions {
            switch action {
            case .openTransport: actions.append(.openTransport)
            case .closeTransport: actions.append(.closeTransport)
            case .write(let bytes): actions.append(.write(bytes))
            case .emit(let event): handle(event, now: now, into: &actions)
            }
        }
    }

    mutating func handle(_ event: SessionEvent, now: Duration, into actions: inout [HostAction]) {
        switch event {
        case .attached(let info, let isDocked):
            attached(info, isDocked: isDocked, now: now, into: &actions)
        case .docked, .undocked:
            log(.notice, event == .docked ? "camera docked" : "camera undocked", into: &actions)
            actions.append(.publish(event == .docked ? .docked : .undocked))
        case .disconnected:
            log(.warning, "disconnected; retrying", into: &actions)
            linkLost(into: &actions)
            actions.append(.publish(.disconnected))
        case .connectFailed(let reason, let retryAfter):
            log(.info, "cannot open the \(session.accessoryProtocol.deviceNoun): \(reason); retrying in \(retryAfter)", into: &actions)
        case .versionMismatch(let offered, let supported):
            log(
                .error,
                "the dock speaks protocol versions \(supported.lowerBound)...\(supported.upperBound); dockd speaks "
                    + "\(offered.lowerBound)...\(offered.upperBound). Update the firmware or dockd.", into: &actions)
        case .failsafeTooShort(let advertised, let minimum):
            let (dock, least) = (advertised.wholeMilliseconds ?? 0, minimum.wholeMilliseconds ?? 0)
            log(
                .error,
                "the dock's failsafe timeout is \(dock) ms, shorter than the \(least) ms dockd can keep alive; refusing "
                    + "the dock: give its firmware a failsafe timeout of at least \(least) ms (200 ms or more is recommended)",
                into: &actions)
        case .handshakeFailed:
            log(.warning, "the port does not answer as a dock; closing it and retrying", into: &actions)
        case .accessoryReset:
            log(.warning, "the dock reset; opening a new session", into: &actions)
            linkLost(into: &actions)
        case .button(let kind):
            log(.info, "button: \(kind.words)", into: &actions)
            actions.append(.publish(.button(kind)))
            if case .trackingButton(isPressed: true) = kind {
                controlChanged(arbiter.trackingButtonPressed(), into: &actions)
                if arbiter.isSystemTrackingEnabled { lastManualMoveAt = nil }  // turned on: at once
            }
        case .fault(let fault):
            faultReported(fault, now: now, into: &actions)
        case .answered(let id, .accepted), .answered(let id, .ended):
            if let motion = current, motion.token != nil, motion.commands.contains(id) { acknowledge(now: now, into: &actions) }
        case .answered(let id, .refused(let refusal)):
            refused(id, refusal, now: now, into: &actions)
        case .telemetryStalled:
            log(.warning, "telemetry stalled", into: &actions)
        case .telemetryResumed:
            log(.notice, "telemetry resumed", into: &actions)
        }
    }

    mutating func attached(_ info: AccessoryInfo, isDocked: Bool, now: Duration, into actions: inout [HostAction]) {
        log(
            .notice,
            "attached \(info.model) (serial \(info.serialNumber), firmware \(info.firmwareVersion)), "
                + (isDocked ? "docked" : "undocked"), into: &actions)
        actions.append(.publish(.attached(info, isDocked: isDocked)))
        if let previous = serialNumber, previous != info.serialNumber {
            // Another dock on this port: it gets the configured settings, not the last dock's,
            // and the tracks (angles in the old dock's frame) go.
            log(.notice, "a different dock (serial \(info.serialNumber), was \(previous)); settings reset", into: &actions)
            clientLimits = LimitRequest()
            pipeline.reset()
            controlChanged(arbiter.setSystemTracking(settings.isTrackingEnabled), into: &actions)
        }
        serialNumber = info.serialNumber
        limits = narrowedLimits(info, into: &actions)
        indicator = nil
        isTrackerMoving = false
        trackerHold = nil
        // Faults the dock announced after its `info` stay: they are the dock's state now.
        guard settings.wakesOnAttach, !isFaulted, let limits else { return }
        do {
            let result = try motion.handle(.animate(.wake), pose: session.pose(at: now), limits: limits, now: now)
            for command in result.commands { _ = send(command, now: now, into: &actions) }
            log(.notice, "playing wake (wake-on-attach)", into: &actions)
        } catch {
            log(.warning, "could not play wake: \(error)", into: &actions)
        }
    }

    /// The dock went away or reset: motion is forgotten, a waiting caller hears it failed.
    mutating func linkLost(into actions: inout [HostAction]) {
        presetMemoryRefused = false
        presetRecall = nil
        presetMemoryStores.removeAll()
        motion.reset()
        isTrackerMoving = false
        activeFaults.removeAll()
        trackerHold = nil
        if let lost = current { fail(lost, .notReady, into: &actions) }
    }

    mutating func faultReported(_ fault: FaultReport, now: Duration, into actions: inout [HostAction]) {
        let name = fault.code.name + (fault.axis.map { " on \($0.name)" } ?? "")
        log(fault.isActive ? .warning : .notice, "fault \(name) " + (fault.isActive ? "raised" : "cleared"), into: &actions)
        activeFaults.removeAll { $0.code == fault.code && $0.axis == fault.axis }
        if fault.isActive { activeFaults.append(fault) }
        actions.append(.publish(.fault(fault)))
        guard fault.isActive, fault.code != .failsafeStop else {
            if !isFaulted, trackerHold == nil, arbiter.controller == .systemTracker, !fault.isActive {
                log(.notice, "the dock's faults have cleared", into: &actions)
            }
            return
        }
        // The dock stopped; a client's motion has failed, and the tracker waits for the fault to
        // clear. A stall is latched until the host sends stop (Protocol/dock-serial.md §8).
        if let failed = current { fail(failed, .dockFault(fault), into: &actions) }
        isTrackerMoving = false
        if fault.code == .motorStall {
            log(.notice, "sending stop to clear the stall", into: &actions)
            stopMotors(now: now, ending: .stopped(byClient: nil), into: &actions)
            if case .handshaking = session.state { _ = send(.stop, now: now, into: &actions) }  // announced right after info
            // A stall that comes back means its cause remains: the tracker waits longer each time
            // (0.25 s, doubling to 4 s) rather than drive the same motor into it again at once.
            stallStreak = (now - stallStreak.at < .seconds(5) ? stallStreak.count + 1 : 1, now)
            let wait = Duration.milliseconds(250) * (1 << min(stallStreak.count - 1, 4))
            trackerHold = .refused(until: now + wait)
        } else {
            motion.reset()
        }
    }

    mutating func refused(_ id: CommandID, _ refusal: CommandRefusal, now: Duration, into actions: inout [HostAction]) {
        actions.append(.publish(.refused(refusal)))
        if presetMemoryRefused(id, refusal, now: now, into: &actions) { return }
        let text = "\(refusal.reason.name) (detail \(refusal.detail))"
        if let refusedMotion = current, refusedMotion.commands.contains(id) {
            // Not sent again: the caller hears the dock's word, and the motion is over.
            log(.warning, "the dock refused client \(refusedMotion.owner)'s command: \(text)", into: &actions)
            motion.reset()
            fail(refusedMotion, .dockRefused(refusal.reason, detail: refusal.detail), into: &actions)
        } else if trackerCommands.contains(id) {
            trackerCommands.removeAll()
            motion.reset()
            isTrackerMoving = false
            if trackerHold == nil {
                log(
                    .warning,
                    "the dock refused the tracker's command: \(text); tracking holds back "
                        + (refusal.reason == .faulted ? "until the fault clears" : "for \(settings.trackerRefusalHold)"), into: &actions)
            }
            trackerHold = .refused(until: now + settings.trackerRefusalHold)
        } else {
            log(.warning, "the dock refused a command: \(text)", into: &actions)
        }
    }
}
