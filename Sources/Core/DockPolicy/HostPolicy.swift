public import DockLinks
import DockLogLevel
import DockNumbers
public import DockProtocol
public import DockTracking
public import DockVocabulary

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
    public internal(set) var settings: HostSettings
    /// The link with the accessory, whatever its protocol (the one contract the policy drives).
    public internal(set) var session: any AccessoryLink
    /// The motion controller.
    public internal(set) var motion = MotionController()
    /// Who may move the dock.
    public internal(set) var arbiter: ControlArbiter
    /// The tracker: tracks, subjects, primary, framing.
    public internal(set) var pipeline = TrackingPipeline()
    /// The tracker's last step.
    public internal(set) var trackingStep: TrackingPipeline.Step?
    /// The limits in force (the dock's, narrowed by settings and clients), once attached.
    public internal(set) var limits: MotionLimits?
    /// The serial number of the dock this entry belongs to, once one has attached.
    public internal(set) var serialNumber: String?
    /// The dock's active faults, one per fault and axis.
    public internal(set) var activeFaults: [FaultReport] = []
    /// Where the subject goes in the frame (the pipeline's: it frames by it).
    public var framingMode: FramingMode { pipeline.framingMode }
    /// The part of the image framing may use (the pipeline's).
    public var regionOfInterest: NormalizedRect { pipeline.regionOfInterest }
    /// Subjects a client chose to follow; empty: automatic (the pipeline's).
    public var selectedSubjects: [Int] { pipeline.selection }
    /// Frames waiting for the tracker's next tick (the newest 64).
    public internal(set) var pendingObservations: [ObservationBatch] = []
    /// Observations accepted from clients so far.
    public internal(set) var observationCount = 0
    /// Frames from the in-process camera so far.
    public internal(set) var cameraFrameCount = 0
    /// Control ticks so far (the watchdog checks that they grow).
    public var tickCount: Int { loopStatistics.tickCount }

    /// A client's motion in progress.
    struct ClientMotion: Sendable {
        var owner: ClientID
        var isBounded: Bool
        /// The request still waiting for its reply.
        var token: RequestToken?
        var waitsForEnd: Bool
        var result: MotionResult
        /// The commands given for it (the newest few), to match the dock's answers.
        var commands: [CommandID] = []
        var startedAt: Duration
        /// A manual move (not an animation): tracking waits `manualMovePause` after it.
        var pausesTracking = false
    }

    /// Why the tracker holds back.
    enum TrackerHold: Hashable, Sendable {
        /// The dock refused its command; it waits until then (and for the faults to clear).
        case refused(until: Duration)
    }

    var current: ClientMotion?
    /// The tracker's commands (the newest few), to match the dock's answers.
    var trackerCommands: [CommandID] = []
    var trackerHold: TrackerHold?
    var isTrackerMoving = false
    var clientLimits = LimitRequest()
    var indicator: IndicatorLight?
    /// Stalls in a row (each within 5 s of the last), and when the last was.
    var stallStreak = (count: 0, at: Duration.zero)
    /// The length of the appearance descriptors each client has sent (see `acceptsAppearance`).
    var appearanceLengths: [ClientID: Int] = [:]
    /// The zoom the shot size last sent, and when (`HostPolicy+Shot`).
    var shotZoomSent: (fraction: Double, at: Duration)?
    /// Why presets cannot be saved or deleted (the file was found damaged); nil when they can.
    var presetsRefusal: HostError?
    /// The accessory refused a preset memory command since it attached: its memories are not
    /// used again until it attaches anew.
    var presetMemoryRefused = false
    /// The accessory's preset recall in flight for a client's RecallPreset: its command, and the
    /// stored pose's move that goes instead if the accessory refuses it.
    var presetRecall: PresetRecall?
    /// Memory Set commands in flight: command → the preset's name.
    var presetMemoryStores: [CommandID: String] = [:]
    /// When a client's manual move last commanded the dock or was last in progress; the tracker
    /// waits `settings.manualMovePause` after it. Nil: no move since tracking was last turned on.
    public internal(set) var lastManualMoveAt: Duration?

    /// Creates the policy over `link` (a dock-serial session configured by `settings` when nil),
    /// with a tracker configured as `pipeline` (its rest settings come from `settings`);
    /// `start(now:)` begins the session.
    public init(
        settings: HostSettings = HostSettings(), pipeline: TrackingPipeline = TrackingPipeline(),
        link: (any AccessoryLink)? = nil
    ) {
        self.settings = settings
        self.pipeline = pipeline
        session = link ?? AccessorySession(configuration: settings.session)
        arbiter = ControlArbiter(isSystemTrackingEnabled: settings.isTrackingEnabled)
        applyPipelineSettings()
    }

    /// When the next 30 Hz control tick is due.
    public internal(set) var nextTickAt = Duration.zero
    /// How punctual the control ticks were: each one's lateness after `nextTickAt`, and the
    /// ticks missed outright.
    public internal(set) var loopStatistics = LoopStatistics()

    /// When the policy wants to be woken next (`woke(now:)`): the next control tick, or the
    /// link's next deadline (a heartbeat, a poll, a reply's timeout) when that comes first. The
    /// shell keeps no schedule of its own: after any input it sets its one timer to this.
    public var nextWake: Duration { min(nextTickAt, session.nextDeadline ?? nextTickAt) }

    // MARK: Inputs

    /// Starts the session: the first attempt to open the port.
    public mutating func start(now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        nextTickAt = now + MotionController.tickInterval
        perform(session.start(now: now), now: now, into: &actions)
        return actions
    }

    /// The port opened.
    public mutating func transportOpened(now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        perform(session.transportOpened(now: now), now: now, into: &actions)
        return actions
    }

    /// Opening the port failed.
    public mutating func transportFailed(reason: String, now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        perform(session.transportFailed(reason: reason, now: now), now: now, into: &actions)
        return actions
    }

    /// The port hung up, reported end of file or an I/O error.
    public mutating func transportClosed(now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        perform(session.transportClosed(now: now), now: now, into: &actions)
        return actions
    }

    /// A device that may be the dock appeared (udev `add`).
    public mutating func deviceAppeared(now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        perform(session.deviceAppeared(now: now), now: now, into: &actions)
        return actions
    }

    /// Bytes arrived from the dock.
    public mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        perform(session.bytesReceived(bytes, now: now), now: now, into: &actions)
        return actions
    }

    /// The time the policy asked for (`nextWake`) has come, or passed: the control tick when it
    /// is due, else the link's deadline that fell between two ticks (a heartbeat). A loop more
    /// than 500 ms behind skips the ticks it missed instead of running them back to back.
    public mutating func woke(now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        guard now >= nextTickAt else {
            perform(session.tick(now: now), now: now, into: &actions)
            return actions
        }
        loopStatistics.record(late: now - nextTickAt, interval: MotionController.tickInterval)
        if now - nextTickAt > Self.skipsMissedTicksAfter {
            log(.warning, "control loop fell \(now - nextTickAt) behind; skipping missed ticks", into: &actions)
            nextTickAt = now
        }
        nextTickAt += MotionController.tickInterval
        tick(now: now, into: &actions)
        return actions
    }

    /// The control loop's figures for the status: its ticks, the ticks it missed, and their
    /// lateness over the last thousand or so, sorted again at most once a second (30 ticks), not
    /// for every status a crowd of clients asks for.
    public mutating func loop() -> Dock.Loop {
        let figures = loopStatistics.summary(refreshingEvery: 30)
        return Dock.Loop(
            ticks: loopStatistics.tickCount, missed: loopStatistics.missedTicks, latenessP50Seconds: figures.p50.secondsValue,
            latenessP99Seconds: figures.p99.secondsValue, latenessMaximumSeconds: figures.maximum.secondsValue)
    }

    /// How far behind the control loop may fall before it skips the ticks it missed.
    public static let skipsMissedTicksAfter = Duration.milliseconds(500)

    /// One pass of the 30 Hz control loop: the session's timers, the tracker, the motion
    /// controller, the indicator.
    private mutating func tick(now: Duration, into actions: inout [HostAction]) {
        perform(session.tick(now: now), now: now, into: &actions)
        if case .ready = session.state, let limits {
            track(now: now, limits: limits, into: &actions)
            advanceMotion(now: now, limits: limits, into: &actions)
            answerUnacknowledged(now: now, into: &actions)
            updateIndicator(now: now, into: &actions)
        }
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
        var actions: [HostAction] = []
        self.settings = settings
        applyPipelineSettings()
        if let info = session.info { limits = narrowedLimits(info, into: &actions) }
        if arbiter.isSystemTrackingEnabled != settings.isTrackingEnabled {
            controlChanged(arbiter.setSystemTracking(settings.isTrackingEnabled), into: &actions)
        }
        return actions
    }

    /// The daemon is stopping (SIGTERM): the motors stop and a waiting caller hears the dock is
    /// going away.
    public mutating func shuttingDown(now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        if case .ready = session.state {
            if let waiting = current { fail(waiting, .notReady, into: &actions) }
            stopMotors(now: now, ending: .stopped(byClient: nil), into: &actions)
            log(.notice, "motors stopped", into: &actions)
        }
        motion.reset()
        return actions
    }

    /// A client went away: a bounded motion of its own plays on; control it held is released
    /// and the motors stop now.
    public mutating func clientDisconnected(_ client: ClientID, now: Duration) -> [HostAction] {
        var actions: [HostAction] = []
        appearanceLengths[client] = nil
        let hasBoundedMotion = current.map { $0.owner == client && $0.isBounded } ?? false
        let (change, mustStop) = arbiter.clientDisconnected(client, hasBoundedMotion: hasBoundedMotion)
        if mustStop {
            log(.info, "client \(client) held control and went away: stopping", into: &actions)
            stopMotors(now: now, ending: .stopped(byClient: nil), into: &actions)
        }
        controlChanged(change, into: &actions)
        return actions
    }

    /// A client's request; its reply comes now or, for a motion, once the dock has answered (or
    /// the motion has ended, when the caller waits for that).
    public mutating func requested(
        _ request: ClientRequest, token: RequestToken, from client: ClientID,
        now: Duration
    ) -> [HostAction] {
        var actions: [HostAction] = []
        switch request {
        case .motion(let motionRequest, let takeOver, let waitsForEnd):
            requestMotion(
                motionRequest, takeOver: takeOver, waitsForEnd: waitsForEnd, token: token, client: client, now: now, into: &actions)
        case .stop(let takeOver):
            // Releases control even with no dock in session (there is nothing to stop then).
            do {
                let change = try arbiter.stopRequested(by: client, takeOver: takeOver)
                stopMotors(now: now, ending: .stopped(byClient: client), into: &actions)
                controlChanged(change, into: &actions)
                actions.append(.reply(token, .done))
            } catch {
                actions.append(.reply(token, .failure(.busy(holder: error.holder))))
            }
        case .acquireControl(let takeOver):
            do {
                let change = try arbiter.acquire(by: client, takeOver: takeOver)
                if let current, current.owner != client { stopMotors(now: now, ending: .replaced(byClient: client), into: &actions) }
                controlChanged(change, into: &actions)
                actions.append(.reply(token, .done))
            } catch {
                actions.append(.reply(token, .failure(.busy(holder: error.holder))))
            }
        case .releaseControl:
            if let change = arbiter.release(by: client) {
                if current?.owner == client { stopMotors(now: now, ending: .stopped(byClient: client), into: &actions) }
                controlChanged(change, into: &actions)
            }
            actions.append(.reply(token, .done))
        case .setSystemTracking(let enabled):
            if enabled != arbiter.isSystemTrackingEnabled {
                log(.notice, "tracking \(enabled ? "on" : "off") (client \(client))", into: &actions)
                // Turned on on purpose: tracking starts now, not after an earlier manual move's pause.
                if enabled { lastManualMoveAt = nil }
            }
            controlChanged(arbiter.setSystemTracking(enabled), into: &actions)
            actions.append(.reply(token, .done))
        case .setLimits(let request):
            let answer = setLimits(request, into: &actions)
            actions.append(.reply(token, answer))
        case .setZoom(let fraction):
            guard case .ready = session.state else {
                actions.append(.reply(token, .failure(.notReady)))
                return actions
            }
            guard let zoomed = session.zoomFraction(nearest: fraction) else {
                actions.append(.reply(token, .failure(.notSupported("zoom"))))
                return actions
            }
            _ = send(.zoom(fraction: fraction), now: now, into: &actions)
            actions.append(.reply(token, .zoom(zoomed)))
        case .setFramingMode(let mode):
            pipeline.framingMode = mode
            actions.append(.publish(.framing(mode)))
            actions.append(.reply(token, .done))
        case .setShotSize(let shot):
            actions.append(.reply(token, setShotSize(shot, client: client, into: &actions)))
        case .setRegionOfInterest(let region):
            // The part past the picture's edge is cut off (the API takes any region that overlaps
            // the picture), and the answer says what is in force; a region inside is kept exactly.
            let isInside = region.x >= 0 && region.y >= 0 && region.maxX <= 1 && region.maxY <= 1
            let kept = isInside ? region : region.intersection(.fullImage) ?? .fullImage
            pipeline.regionOfInterest = kept
            actions.append(.reply(token, .region(kept)))
        case .selectSubjects(let subjects):
            pipeline.selection = subjects
            let tracked = Set(pipeline.subjects.map(\.identifier))
            actions.append(.reply(token, .selection(untracked: subjects.filter { !tracked.contains($0) })))
        case .selectSubject(let point):
            guard let pose = session.pose(at: now),
                let subject = pipeline.subject(at: point, gimbalYawRadians: pose.yawRadians, gimbalPitchRadians: pose.pitchRadians)
            else {
                actions.append(.reply(token, .failure(.noSubjectFound)))
                return actions
            }
            pipeline.selection = [subject]
            actions.append(.reply(token, .subject(subject)))
        case .track(let batch):
            guard acceptsAppearance(batch, token: token, from: client, into: &actions) else { return actions }
            observationsArrived(batch)
            actions.append(.reply(token, .done))
        case .savePreset(let name):
            savePreset(name, token: token, now: now, into: &actions)
        case .listPresets:
            actions.append(.reply(token, .presets(presets.presets)))
        case .recallPreset(let name, let takeOver, let waitsForEnd):
            recallPreset(name, takeOver: takeOver, waitsForEnd: waitsForEnd, token: token, client: client, now: now, into: &actions)
        case .deletePreset(let name):
            deletePreset(name, token: token, into: &actions)
        case .setLostBehaviour(let after, let action):
            if let after { settings.lostBehaviour.after = after }
            if let action { settings.lostBehaviour.action = action }
            applyPipelineSettings()
            if after != nil || action != nil {
                let behaviour = settings.lostBehaviour
                log(.notice, "lost behaviour: \(behaviour.action.setting) after \(behaviour.after) (client \(client))", into: &actions)
            }
            actions.append(.reply(token, .lostBehaviour(settings.lostBehaviour)))
        case .setFramingSpeed(let change):
            setFramingSpeed(change, token: token, client: client, into: &actions)
        }
        return actions
    }

    // MARK: Helpers

    /// Gives the accessory a command; returns its identity (nil: dropped, out of session).
    mutating func send(_ command: AccessoryCommand, now: Duration, into actions: inout [HostAction]) -> CommandID? {
        let sent = session.send(command, now: now)
        perform(sent.actions, now: now, into: &actions)
        return sent.id
    }

    mutating func setLimits(_ request: LimitRequest, into actions: inout [HostAction]) -> HostReply {
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
        let narrowed = narrowedLimits(info, into: &actions)
        limits = narrowed
        return .limits(narrowed)
    }

    mutating func narrowedLimits(_ info: AccessoryInfo, into actions: inout [HostAction]) -> MotionLimits {
        var limits = MotionLimits(info: info)
        do {
            limits = try limits.narrowed(by: settings.limits)
        } catch {
            log(.warning, "configured limits do not fit the dock's (\(error)); using the dock's own", into: &actions)
        }
        return (try? limits.narrowed(by: clientLimits)) ?? limits
    }

    /// Gives the tracking pipeline the settings it takes from the host's: the rest pose, what to
    /// do when the subject is lost and when, the framing speed, and the re-identification window.
    mutating func applyPipelineSettings() {
        pipeline.reidentificationWindow = settings.reidentificationWindow
        pipeline.lostBehaviour = settings.lostBehaviour
        pipeline.framingSpeed = settings.framingSpeed
        pipeline.restYawRadians = settings.restYawRadians
        pipeline.restPitchRadians = settings.restPitchRadians
        pipeline.shotSize = settings.shotSize
    }

    mutating func controlChanged(_ change: ControlArbiter.Change?, into actions: inout [HostAction]) {
        guard let change else { return }
        // A client's motion taking and giving back control is every dockctl command: at debug. The
        // tracker gaining or losing it is what a person reading the log wants to know.
        let involvesTracker = change.from == .systemTracker || change.to == .systemTracker
        log(involvesTracker ? .info : .debug, "control: \(change.from.description) -> \(change.to.description)", into: &actions)
        actions.append(.publish(.control(change)))
    }

    mutating func log(_ level: LogLevel, _ text: String, into actions: inout [HostAction]) {
        actions.append(.log(level, text))
    }

}
