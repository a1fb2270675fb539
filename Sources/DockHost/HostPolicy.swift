public import DockCore
public import DockProtocol
public import DockTracking

/// The host's whole policy for one accessory, as one pure value: the session with the dock, the
/// motion controller, who holds control, the tracker, the indicator, and what clients are told.
///
/// It is handed the time and each input — the port opened or closed, bytes from the dock, the
/// 30 Hz tick, a client's request, a client gone, a detector's frame — and returns what to do:
/// bytes to write, replies, events, log lines. The daemon's `SessionRunner` only carries those
/// out against its port and clock; the closed-loop evaluation and the tests drive this same type
/// in virtual time, so what they measure is what dockd does.
///
/// Control rules (the README's "Control" and the interface's comments say the same):
/// - A bounded motion (a velocity with a duration, an orientation move, an animation) runs to its
///   end even if its client goes away, unless a later command replaces it; then control goes
///   back to the tracker when tracking is on.
/// - A client that holds control (`acquireControl`, or velocities without a duration) is a dead
///   man's handle: when it goes away the motors are stopped at once and control is released.
/// - `stop` stops the motors and releases control.
/// - A command the dock refuses answers its caller with the refusal and is not sent again; a
///   `motor_stall` is answered with `stop` (which clears the dock's latch), and the tracker
///   holds back until the dock's faults have cleared.
public struct HostPolicy: Sendable {
    /// The settings.
    public private(set) var settings: HostSettings
    /// The session with the dock.
    public private(set) var session: AccessorySession
    /// The motion controller.
    public private(set) var motion = MotionController()
    /// Who may move the dock.
    public private(set) var arbiter: ControlArbiter
    /// The tracker: tracks, subjects, primary, framing.
    public private(set) var pipeline = TrackingPipeline()
    /// The tracker's last step.
    public private(set) var trackingStep: TrackingPipeline.Step?
    /// The limits in force (the dock's, narrowed by settings and clients), once attached.
    public private(set) var limits: MotionLimits?
    /// The serial number of the dock this entry belongs to, once one has attached.
    public private(set) var serialNumber: String?
    /// The dock's active faults, one per fault and axis.
    public private(set) var activeFaults: [FaultReport] = []
    /// Where the subject goes in the frame.
    public private(set) var framingMode = FramingMode.automatic
    /// The part of the image framing may use.
    public private(set) var regionOfInterest = NormalizedRect.fullImage
    /// Subjects a client chose to follow; empty: automatic.
    public private(set) var selectedSubjects: [Int] = []
    /// Frames waiting for the tracker's next tick (the newest 64).
    public private(set) var pendingObservations: [ObservationBatch] = []
    /// Observations accepted from clients so far.
    public private(set) var observationCount = 0
    /// Frames from the in-process camera so far.
    public private(set) var cameraFrameCount = 0
    /// Control ticks so far.
    public private(set) var tickCount = 0

    /// A client's motion in progress.
    struct ClientMotion: Sendable {
        var owner: ClientID
        var isBounded: Bool
        /// The request still waiting for its reply.
        var token: RequestToken?
        var waitsForEnd: Bool
        var result: MotionResult
        /// The frames sent for it (the newest few), to match the dock's answers.
        var sequences: [UInt16] = []
        var startedAt: Duration
    }

    /// Why the tracker holds back.
    enum TrackerHold: Hashable, Sendable {
        /// The dock refused its command; it waits until then (and for the faults to clear).
        case refused(until: Duration)
    }

    private var current: ClientMotion?
    private var trackerSequences: [UInt16] = []
    private var trackerHold: TrackerHold?
    private var isTrackerMoving = false
    private var clientLimits = LimitRequest()
    private var indicator: IndicatorState?
    private var output: [HostAction] = []

    /// Creates the policy with a tracker configured as `pipeline` (its rest settings come from
    /// `settings`); `start(now:)` begins the session.
    public init(settings: HostSettings = HostSettings(), pipeline: TrackingPipeline = TrackingPipeline()) {
        self.settings = settings
        self.pipeline = pipeline
        framingMode = pipeline.framingMode
        regionOfInterest = pipeline.regionOfInterest
        selectedSubjects = pipeline.selection
        session = AccessorySession(configuration: settings.session)
        arbiter = ControlArbiter(isSystemTrackingEnabled: settings.isTrackingEnabled)
        applyRestSettings()
    }

    /// When the shell must call `tick(now:)` at the latest, besides the 30 Hz loop: the next
    /// heartbeat's deadline.
    public var nextDeadline: Duration? { session.heartbeatDeadline }

    // MARK: Inputs

    /// Starts the session: the first attempt to open the port.
    public mutating func start(now: Duration) -> [HostAction] {
        perform(session.start(now: now), now: now)
        return takeOutput()
    }

    /// The port opened.
    public mutating func transportOpened(now: Duration) -> [HostAction] {
        perform(session.transportOpened(now: now), now: now)
        return takeOutput()
    }

    /// Opening the port failed.
    public mutating func transportFailed(reason: String, now: Duration) -> [HostAction] {
        perform(session.transportFailed(reason: reason, now: now), now: now)
        return takeOutput()
    }

    /// The port hung up, reported end of file or an I/O error.
    public mutating func transportClosed(now: Duration) -> [HostAction] {
        perform(session.transportClosed(now: now), now: now)
        return takeOutput()
    }

    /// A device that may be the dock appeared (udev `add`).
    public mutating func deviceAppeared(now: Duration) -> [HostAction] {
        perform(session.deviceAppeared(now: now), now: now)
        return takeOutput()
    }

    /// Bytes arrived from the dock.
    public mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [HostAction] {
        perform(session.bytesReceived(bytes, now: now), now: now)
        return takeOutput()
    }

    /// The heartbeat's deadline came (between control ticks): keep the link alive.
    public mutating func deadlineReached(now: Duration) -> [HostAction] {
        perform(session.tick(now: now), now: now)
        return takeOutput()
    }

    /// One pass of the 30 Hz control loop: the session's timers, the tracker, the motion
    /// controller, the indicator.
    public mutating func tick(now: Duration) -> [HostAction] {
        tickCount += 1
        perform(session.tick(now: now), now: now)
        if case .ready = session.state, let limits {
            track(now: now, limits: limits)
            advanceMotion(now: now, limits: limits)
            answerUnacknowledged(now: now)
            updateIndicator(now: now)
        }
        return takeOutput()
    }

    /// A detector's frame: queued for the next tick (the oldest goes when 64 wait).
    /// `fromCamera` counts it as the in-process camera's rather than a client's.
    public mutating func observationsArrived(_ batch: ObservationBatch, fromCamera: Bool = false) {
        if pendingObservations.count >= 64 { pendingObservations.removeFirst() }
        pendingObservations.append(batch)
        if fromCamera { cameraFrameCount += 1 } else { observationCount += batch.observations.count }
    }

    /// New settings (SIGHUP): limits, tracking and rest; the port stays as it is.
    public mutating func reconfigured(_ settings: HostSettings, now: Duration) -> [HostAction] {
        self.settings = settings
        applyRestSettings()
        if let info = session.info { limits = narrowedLimits(info) }
        if arbiter.isSystemTrackingEnabled != settings.isTrackingEnabled {
            controlChanged(arbiter.setSystemTracking(settings.isTrackingEnabled))
        }
        return takeOutput()
    }

    /// The daemon is stopping (SIGTERM): the motors stop and a waiting caller hears the dock is
    /// going away.
    public mutating func shuttingDown(now: Duration) -> [HostAction] {
        if case .ready = session.state {
            if let waiting = current { fail(waiting, .notReady) }
            stopMotors(now: now, ending: .stopped(byClient: nil))
            log(.notice, "motors stopped")
        }
        motion.reset()
        return takeOutput()
    }

    /// A client went away: a bounded motion of its own plays on; control it held is released
    /// and the motors stop now.
    public mutating func clientDisconnected(_ client: ClientID, now: Duration) -> [HostAction] {
        let hasBoundedMotion = current.map { $0.owner == client && $0.isBounded } ?? false
        let (change, mustStop) = arbiter.clientDisconnected(client, hasBoundedMotion: hasBoundedMotion)
        if mustStop {
            log(.info, "client \(client) held control and went away: stopping")
            stopMotors(now: now, ending: .stopped(byClient: nil))
        }
        controlChanged(change)
        return takeOutput()
    }

    /// A client's request; its reply comes now or, for a motion, once the dock has answered (or
    /// the motion has ended, when the caller waits for that).
    public mutating func requested(_ request: ClientRequest, token: RequestToken, from client: ClientID,
                                   now: Duration) -> [HostAction] {
        switch request {
        case .motion(let motionRequest, let takeOver, let waitsForEnd):
            requestMotion(motionRequest, takeOver: takeOver, waitsForEnd: waitsForEnd, token: token, client: client, now: now)
        case .stop(let takeOver):
            guard case .ready = session.state, limits != nil else { return reply(token, .failure(.notReady)) }
            do {
                let change = try arbiter.stopRequested(by: client, takeOver: takeOver)
                stopMotors(now: now, ending: .stopped(byClient: client))
                controlChanged(change)
                output.append(.reply(token, .done))
            } catch {
                output.append(.reply(token, .failure(.busy(holder: error.holder))))
            }
        case .acquireControl(let takeOver):
            do {
                let change = try arbiter.acquire(by: client, takeOver: takeOver)
                if let current, current.owner != client { stopMotors(now: now, ending: .replaced(byClient: client)) }
                controlChanged(change)
                output.append(.reply(token, .done))
            } catch {
                output.append(.reply(token, .failure(.busy(holder: error.holder))))
            }
        case .releaseControl:
            if let change = arbiter.release(by: client) {
                if current?.owner == client { stopMotors(now: now, ending: .stopped(byClient: client)) }
                controlChanged(change)
            }
            output.append(.reply(token, .done))
        case .setSystemTracking(let enabled):
            controlChanged(arbiter.setSystemTracking(enabled))
            output.append(.reply(token, .done))
        case .setLimits(let request):
            output.append(.reply(token, setLimits(request)))
        case .setFramingMode(let mode):
            framingMode = mode
            pipeline.framingMode = mode
            output.append(.publish(.framing(mode)))
            output.append(.reply(token, .done))
        case .setRegionOfInterest(let region):
            regionOfInterest = region
            pipeline.regionOfInterest = region
            output.append(.reply(token, .done))
        case .selectSubjects(let subjects):
            selectedSubjects = subjects
            pipeline.selection = subjects
            output.append(.reply(token, .done))
        case .selectSubject(let point):
            guard let pose = session.pose(at: now),
                let subject = pipeline.subject(at: point, gimbalYawRadians: pose.yawRadians, gimbalPitchRadians: pose.pitchRadians)
            else { return reply(token, .failure(.noSubjectFound)) }
            selectedSubjects = [subject]
            pipeline.selection = [subject]
            output.append(.reply(token, .subject(subject)))
        case .track(let batch):
            observationsArrived(batch)
            output.append(.reply(token, .done))
        }
        return takeOutput()
    }

    // MARK: Motion requests

    private mutating func requestMotion(_ request: MotionRequest, takeOver: Bool, waitsForEnd: Bool,
                                        token: RequestToken, client: ClientID, now: Duration) {
        guard case .ready = session.state, let limits else {
            output.append(.reply(token, .failure(.notReady)))
            return
        }
        var arbitrated = arbiter
        let change: ControlArbiter.Change?
        do {
            change = try arbitrated.motionRequested(by: client, takeOver: takeOver)
        } catch {
            output.append(.reply(token, .failure(.busy(holder: error.holder))))
            return
        }
        let result: MotionResult
        do {
            result = try motion.handle(request, pose: session.pose(at: now), limits: limits, now: now)
        } catch {
            // Nothing changed hands and nothing was said: the request is refused whole.
            output.append(.reply(token, .failure(.invalid(error))))
            return
        }
        arbiter = arbitrated
        if let previous = current { end(previous, .replaced(byClient: client)) }
        if isTrackerMoving {
            isTrackerMoving = false
            pipeline.controllerInterrupted()
        }
        controlChanged(change)
        let isBounded: Bool
        switch request {
        case .velocity(_, _, let duration): isBounded = duration != nil
        case .orientation, .animate, .stop: isBounded = true
        }
        var started = ClientMotion(owner: client, isBounded: isBounded, token: token, waitsForEnd: waitsForEnd && isBounded,
                                   result: result, startedAt: now)
        for message in result.messages { started.sequences.append(send(message, now: now)) }
        current = started
        if started.sequences.isEmpty { acknowledge(now: now) }
    }

    /// The dock accepted one of the current motion's frames: a caller that does not wait for the
    /// end has its answer.
    private mutating func acknowledge(now: Duration) {
        guard var motion = current, let token = motion.token, !motion.waitsForEnd else { return }
        motion.token = nil
        current = motion
        output.append(.reply(token, .motion(outcome(motion, ending: nil))))
    }

    /// A caller still waiting for the dock's answer after the timeout has its reply anyway: the
    /// dock did not refuse (a lost `ack` is no refusal).
    private mutating func answerUnacknowledged(now: Duration) {
        guard let motion = current, motion.token != nil, !motion.waitsForEnd,
            now - motion.startedAt >= settings.acknowledgementTimeout
        else { return }
        acknowledge(now: now)
    }

    private func outcome(_ motion: ClientMotion, ending: MotionEnding?) -> MotionOutcome {
        MotionOutcome(clampedFields: motion.result.clampedFields, cancelledAnimation: motion.result.cancelledAnimation,
                      ending: ending)
    }

    /// A client's motion is over: its caller (if still waiting) hears how, watchers too, and
    /// control it took by moving goes back.
    private mutating func end(_ motion: ClientMotion, _ ending: MotionEnding) {
        current = nil
        if let token = motion.token { output.append(.reply(token, .motion(outcome(motion, ending: ending)))) }
        // A client streaming velocities replaces its own motion thirty times a second: no news.
        guard ending != .replaced(byClient: motion.owner) else { return }
        output.append(.publish(.motionEnded(owner: motion.owner, ending: ending)))
    }

    /// A client's motion failed: the dock refused it or raised a fault.
    private mutating func fail(_ motion: ClientMotion, _ error: HostError) {
        current = nil
        if let token = motion.token { output.append(.reply(token, .failure(error))) }
        controlChanged(arbiter.motionEnded(for: motion.owner))
    }

    /// Stops the motors now (the client's motion, the tracker's, an animation) and ends the
    /// client's motion with `ending`.
    private mutating func stopMotors(now: Duration, ending: MotionEnding) {
        if let current { end(current, ending) }
        isTrackerMoving = false
        guard case .ready = session.state, let limits else {
            motion.reset()
            return
        }
        let result = try? motion.handle(.stop, pose: session.pose(at: now), limits: limits, now: now)
        for message in result?.messages ?? [.stop] { _ = send(message, now: now) }
    }

    private mutating func advanceMotion(now: Duration, limits: MotionLimits) {
        let (messages, finish) = motion.tick(pose: session.pose(at: now), limits: limits, now: now)
        for message in messages {
            let sequence = send(message, now: now)
            if current != nil { current!.sequences.append(sequence); current!.sequences.suffixInPlace(16) }
            else if isTrackerMoving { recordTrackerSequence(sequence) }
        }
        guard let finish else { return }
        log(.debug, "motion finished: \(finish)")
        if let finished = current {
            end(finished, .completed(finish))
            controlChanged(arbiter.motionEnded(for: finished.owner))
        }
    }

    // MARK: The tracker

    /// The tracker's part of a tick: fuse the frames that arrived (oldest first, each with the
    /// pose at its capture time), predict to now, and — when the tracker holds control, no
    /// animation or move plays, and the dock has no fault — command the dock.
    private mutating func track(now: Duration, limits: MotionLimits) {
        if !pendingObservations.isEmpty {
            pendingObservations.sort { $0.captureTime < $1.captureTime }
            for batch in pendingObservations {
                guard let captured = session.pose(at: batch.captureTime) else { continue }
                pipeline.observe(batch.observations, camera: batch.camera, captureTime: batch.captureTime,
                                 gimbalYawRadians: captured.yawRadians, gimbalPitchRadians: captured.pitchRadians)
            }
            pendingObservations.removeAll(keepingCapacity: true)
        }
        guard let pose = session.pose(at: now) else { return }
        let step = pipeline.step(now: now, gimbalYawRadians: pose.yawRadians, gimbalPitchRadians: pose.pitchRadians)
        trackingStep = step
        guard arbiter.controller == .systemTracker else {
            if isTrackerMoving {
                // Tracking was turned off or a client took control: the tracker lets go.
                isTrackerMoving = false
                pipeline.controllerInterrupted()
                if current == nil, case .velocity = motion.activity { stopMotors(now: now, ending: .stopped(byClient: nil)) }
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
            log(.notice, "tracking resumes")
        }
        guard !isFaulted else { return }
        guard let yaw = step.yawRadiansPerSecond, let pitch = step.pitchRadiansPerSecond else {
            isTrackerMoving = false
            return
        }
        do {
            let result = try motion.handle(.velocity(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch, duration: nil),
                                           pose: pose, limits: limits, now: now)
            isTrackerMoving = true
            for message in result.messages { recordTrackerSequence(send(message, now: now)) }
        } catch {
            log(.debug, "tracker velocity refused: \(error)")
        }
    }

    private mutating func recordTrackerSequence(_ sequence: UInt16) {
        trackerSequences.append(sequence)
        trackerSequences.suffixInPlace(16)
    }

    /// Whether a fault that stops motion is active (a failsafe stop ends with the next frame).
    private var isFaulted: Bool { activeFaults.contains { $0.code != .failsafeStop } }

    /// The indicator shows tracking off (dark), on and looking for a subject (green, blinking
    /// slowly), or on with the subject in frame (green, steady).
    private mutating func updateIndicator(now: Duration) {
        let inFrame = trackingStep?.isSubjectInFrame ?? false
        let wanted = !arbiter.isSystemTrackingEnabled ? IndicatorState(pattern: .off, red: 0, green: 0, blue: 0)
            : inFrame ? IndicatorState(pattern: .solid, red: 0, green: 160, blue: 0)
            : IndicatorState(pattern: .slowBlink, red: 0, green: 160, blue: 0)
        guard wanted != indicator else { return }
        indicator = wanted
        _ = send(.setIndicator(wanted), now: now)
    }

    // MARK: The session's events

    private mutating func perform(_ actions: [SessionAction], now: Duration) {
        for action in actions {
            switch action {
            case .openTransport: output.append(.openTransport)
            case .closeTransport: output.append(.closeTransport)
            case .write(let bytes): output.append(.write(bytes))
            case .emit(let event): handle(event, now: now)
            }
        }
    }

    private mutating func handle(_ event: SessionEvent, now: Duration) {
        switch event {
        case .attached(let info, let isDocked):
            attached(info, isDocked: isDocked, now: now)
        case .docked, .undocked:
            log(.notice, event == .docked ? "camera docked" : "camera undocked")
            output.append(.publish(event == .docked ? .docked : .undocked))
        case .disconnected:
            log(.warning, "disconnected; retrying")
            linkLost()
            output.append(.publish(.disconnected))
        case .connectFailed(let reason, let retryAfter):
            log(.info, "cannot open the port: \(reason); retrying in \(retryAfter)")
        case .versionMismatch(let offered, let supported):
            log(.error, "the dock speaks protocol versions \(supported.lowerBound)...\(supported.upperBound); dockd speaks "
                + "\(offered.lowerBound)...\(offered.upperBound). Update the firmware or dockd.")
        case .failsafeTooShort(let advertised, let minimum):
            log(.error, "the dock's failsafe timeout is \(advertised.wholeMillisecondsDescription) ms, shorter than the "
                + "\(minimum.wholeMillisecondsDescription) ms dockd can keep alive (a frame every quarter of it); refusing "
                + "the dock: give its firmware a longer failsafe timeout (200 ms or more)")
        case .handshakeFailed:
            log(.warning, "the port does not answer as a dock; closing it and retrying")
        case .accessoryReset:
            log(.warning, "the dock reset; opening a new session")
            linkLost()
        case .button(let kind):
            log(.info, "button: \(kind)")
            output.append(.publish(.button(kind)))
            if case .trackingButton(isPressed: true) = kind { controlChanged(arbiter.trackingButtonPressed()) }
        case .fault(let fault):
            faultReported(fault, now: now)
        case .refused(let refusal):
            refused(refusal, now: now)
        case .acknowledged(let ack):
            if let motion = current, motion.token != nil, motion.sequences.contains(ack.sequence) { acknowledge(now: now) }
        case .telemetryStalled:
            log(.warning, "telemetry stalled")
        case .telemetryResumed:
            log(.notice, "telemetry resumed")
        }
    }

    private mutating func attached(_ info: AccessoryInfo, isDocked: Bool, now: Duration) {
        log(.notice, "attached \(info.model) (serial \(info.serialNumber), firmware \(info.firmwareVersion)), "
            + (isDocked ? "docked" : "undocked"))
        output.append(.publish(.attached(info, isDocked: isDocked)))
        if let previous = serialNumber, previous != info.serialNumber {
            // Another dock on this port: it gets the configured settings, not the last dock's,
            // and the tracks (angles in the old dock's frame) go.
            log(.notice, "a different dock (serial \(info.serialNumber), was \(previous)); settings reset")
            clientLimits = LimitRequest()
            pipeline.reset()
            controlChanged(arbiter.setSystemTracking(settings.isTrackingEnabled))
        }
        serialNumber = info.serialNumber
        limits = narrowedLimits(info)
        indicator = nil
        isTrackerMoving = false
        trackerHold = nil
        // Faults the dock announced after its `info` stay: they are the dock's state now.
        guard settings.wakesOnAttach, !isFaulted, let limits else { return }
        do {
            let result = try motion.handle(.animate(.wake), pose: session.pose(at: now), limits: limits, now: now)
            for message in result.messages { _ = send(message, now: now) }
        } catch {
            log(.warning, "could not play wake: \(error)")
        }
    }

    /// The dock went away or reset: motion is forgotten, a waiting caller hears it failed.
    private mutating func linkLost() {
        motion.reset()
        isTrackerMoving = false
        activeFaults.removeAll()
        trackerHold = nil
        if let lost = current { fail(lost, .notReady) }
    }

    private mutating func faultReported(_ fault: FaultReport, now: Duration) {
        let name = fault.code.name + (fault.axis.map { " on \($0.name)" } ?? "")
        log(fault.isActive ? .warning : .notice, "fault \(name) " + (fault.isActive ? "raised" : "cleared"))
        activeFaults.removeAll { $0.code == fault.code && $0.axis == fault.axis }
        if fault.isActive { activeFaults.append(fault) }
        output.append(.publish(.fault(fault)))
        guard fault.isActive, fault.code != .failsafeStop else {
            if !isFaulted, trackerHold == nil, arbiter.controller == .systemTracker, !fault.isActive {
                log(.notice, "the dock's faults have cleared")
            }
            return
        }
        // The dock stopped; a client's motion has failed, and the tracker waits for the fault to
        // clear. A stall is latched until the host sends stop (Protocol/dock-serial.md §8).
        if let failed = current { fail(failed, .dockFault(fault)) }
        isTrackerMoving = false
        if fault.code == .motorStall {
            log(.notice, "sending stop to clear the stall")
            stopMotors(now: now, ending: .stopped(byClient: nil))
            if case .handshaking = session.state { _ = send(.stop, now: now) }  // announced right after info
        } else {
            motion.reset()
        }
    }

    private mutating func refused(_ refusal: Refusal, now: Duration) {
        let command = session.lastRefusedType
        output.append(.publish(.refused(refusal, command: command)))
        let text = "\(refusal.reason.name) (detail \(refusal.detail))"
        if let refusedMotion = current, refusedMotion.sequences.contains(refusal.sequence) {
            // Not sent again: the caller hears the dock's word, and the motion is over.
            log(.warning, "the dock refused client \(refusedMotion.owner)'s command: \(text)")
            motion.reset()
            fail(refusedMotion, .dockRefused(refusal.reason, detail: refusal.detail))
        } else if trackerSequences.contains(refusal.sequence) {
            trackerSequences.removeAll()
            motion.reset()
            isTrackerMoving = false
            if trackerHold == nil {
                log(.warning, "the dock refused the tracker's command: \(text); tracking holds back "
                    + (refusal.reason == .faulted ? "until the fault clears" : "for \(settings.trackerRefusalHold)"))
            }
            trackerHold = .refused(until: now + settings.trackerRefusalHold)
        } else {
            log(.warning, "the dock refused a command: \(text)")
        }
    }

    // MARK: Helpers

    /// Sends a message through the session; returns the frame's sequence number.
    private mutating func send(_ message: Message, now: Duration) -> UInt16 {
        perform(session.send(message, now: now), now: now)
        return session.lastSentSequence ?? 0
    }

    private mutating func setLimits(_ request: LimitRequest) -> HostReply {
        guard let info = session.info, let current = limits else { return .failure(.notReady) }
        do {
            _ = try current.narrowed(by: request)
        } catch {
            return .failure(.invalid(error))
        }
        // Merge with what clients asked before: each given field replaces the earlier request's.
        clientLimits = LimitRequest(
            yawRadians: request.yawRadians ?? clientLimits.yawRadians,
            pitchRadians: request.pitchRadians ?? clientLimits.pitchRadians,
            yawSpeedRadiansPerSecond: request.yawSpeedRadiansPerSecond ?? clientLimits.yawSpeedRadiansPerSecond,
            pitchSpeedRadiansPerSecond: request.pitchSpeedRadiansPerSecond ?? clientLimits.pitchSpeedRadiansPerSecond)
        let narrowed = narrowedLimits(info)
        limits = narrowed
        return .limits(narrowed)
    }

    private mutating func narrowedLimits(_ info: AccessoryInfo) -> MotionLimits {
        var limits = MotionLimits(info: info)
        do {
            limits = try limits.narrowed(by: settings.limits)
        } catch {
            log(.warning, "configured limits do not fit the dock's (\(error)); using the dock's own")
        }
        return (try? limits.narrowed(by: clientLimits)) ?? limits
    }

    private mutating func applyRestSettings() {
        pipeline.restAfter = settings.restAfter
        pipeline.restYawRadians = settings.restYawRadians
        pipeline.restPitchRadians = settings.restPitchRadians
    }

    private mutating func controlChanged(_ change: ControlArbiter.Change?) {
        guard let change else { return }
        log(.info, "control: \(change.from.description) -> \(change.to.description)")
        output.append(.publish(.control(change)))
    }

    private mutating func log(_ level: HostLogLevel, _ text: String) {
        output.append(.log(level, text))
    }

    private mutating func reply(_ token: RequestToken, _ reply: HostReply) -> [HostAction] {
        output.append(.reply(token, reply))
        return takeOutput()
    }

    private mutating func takeOutput() -> [HostAction] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }
}

extension ControlArbiter.Controller: CustomStringConvertible {
    /// How logs and `Watch` name the controller.
    public var description: String {
        switch self {
        case .none: "nobody"
        case .systemTracker: "system tracker"
        case .client(let client, let isExplicit): "client \(client)\(isExplicit ? " (acquired)" : "")"
        case .unattended(let client): "client \(client)'s motion (client gone)"
        }
    }
}

extension Array {
    /// Keeps the last `count` elements.
    mutating func suffixInPlace(_ count: Int) {
        if self.count > count { removeFirst(self.count - count) }
    }
}

extension Duration {
    /// Whole milliseconds, as text.
    var wholeMillisecondsDescription: String {
        let (seconds, attoseconds) = components
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000)"
    }
}
