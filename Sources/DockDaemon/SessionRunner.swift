public import DockCore
import Synchronization
public import DockProtocol
public import DockTracking
public import DockSystem

/// One accessory in the running daemon: an actor over the pure session, motion controller and
/// control arbiter, with the port's bytes coming in on their own task and a 30 Hz loop on the
/// injected clock. The entry outlives its port: a hang-up closes it and the session reopens it.
public actor SessionRunner {
    /// Why a request from a client was refused.
    public enum RequestError: Error, Hashable, Sendable {
        /// No accessory is in session.
        case notReady
        /// Another client holds control.
        case busy(holder: ClientID)
        /// A parameter is invalid.
        case invalid(MotionError)
        /// No dock with this serial number.
        case noSuchAccessory(String)
    }

    /// The link to the dock.
    public nonisolated let transport: any DockTransport
    private let clock: any DaemonClock
    private let log: Logger
    private var configuration: Configuration

    /// The accessory session.
    public private(set) var session = AccessorySession()
    /// The motion controller.
    public private(set) var motion = MotionController()
    /// Who may move the dock.
    public private(set) var arbiter: ControlArbiter
    /// The limits in force (the accessory's, narrowed by configuration), once attached.
    public private(set) var limits: MotionLimits?
    /// Control-loop ticks so far: the watchdog checks that it grows.
    public private(set) var tickCount = 0
    /// How punctual the control loop is.
    public private(set) var loopStatistics = LoopStatistics()
    /// Its percentiles, worked out at most once a second however often they are read.
    private var loopSummary: (tick: Int, lateness: (p50: Duration, p99: Duration, maximum: Duration)) = (-1, (.zero, .zero, .zero))

    /// The status as of the last tick or the last client request that changed something: read
    /// without waiting for the actor, so a crowd of clients asking for it never delays the loop.
    private nonisolated let snapshot = Mutex<DockStatus?>(nil)
    private var connection: DockConnection?
    private var connectionGeneration = 0
    private var motionOwner: ClientID?
    private var indicator: IndicatorState?
    /// The serial number of the dock this entry belongs to, once one has attached.
    public private(set) var serialNumber: String?
    /// Limits a client narrowed (kept across re-plugs of the same dock).
    private var clientLimits = LimitRequest()
    private var subscribers: [Int: AsyncStream<RunnerEvent>.Continuation] = [:]
    /// Where the subject goes in the frame.
    public private(set) var framingMode = FramingMode.automatic
    /// The part of the image framing may use.
    public private(set) var regionOfInterest = NormalizedRect.fullImage
    /// Subjects a client chose to follow; empty: automatic.
    public private(set) var selectedSubjects: [Int] = []
    /// Observation batches waiting for the tracker's next tick (the newest 64).
    public private(set) var pendingObservations: [ObservationBatch] = []
    /// Observations accepted through the API so far.
    public private(set) var observationCount = 0
    /// Frames from the in-process simulator's camera so far.
    public private(set) var cameraFrameCount = 0
    /// The tracker: tracks, subjects, primary, framing.
    public private(set) var pipeline: TrackingPipeline
    /// The tracker's last tick.
    public private(set) var trackingStep: TrackingPipeline.Step?
    /// Whether the tracker's velocity is what the dock is doing now.
    private var isTrackerMoving = false
    private var nextSubscriber = 0

    /// Creates a runner; `run()` starts it.
    public init(transport: any DockTransport, clock: any DaemonClock, configuration: Configuration, log: Logger) {
        self.transport = transport
        self.clock = clock
        self.configuration = configuration
        self.log = log
        arbiter = ControlArbiter(isSystemTrackingEnabled: configuration.tracking)
        pipeline = TrackingPipeline()
        Self.applyRestSettings(configuration, to: &pipeline)
    }

    private static func applyRestSettings(_ configuration: Configuration, to pipeline: inout TrackingPipeline) {
        pipeline.restAfter = .milliseconds(Int64((configuration.restAfterSeconds * 1000).rounded()))
        pipeline.restYawRadians = configuration.restYawDegrees * .pi / 180
        pipeline.restPitchRadians = configuration.restPitchDegrees * .pi / 180
    }

    /// Runs the session and its 30 Hz loop until the task is cancelled, then stops the motors.
    public func run() async {
        perform(session.start(now: clock.now()))
        var next = clock.now()
        while !Task.isCancelled {
            next += MotionController.tickInterval
            do {
                try await clock.sleep(until: next)
            } catch {
                break
            }
            let now = clock.now()
            loopStatistics.record(late: now - next, interval: MotionController.tickInterval)
            if now - next > .milliseconds(500) {
                log.warning("control loop fell \(now - next) behind; skipping missed ticks")
                next = now
            }
            tick(now: now)
            refreshSnapshot()
        }
        shutdown()
    }

    /// One pass of the control loop.
    private func tick(now: Duration) {
        tickCount += 1
        perform(session.tick(now: now))
        guard case .ready = session.state, let limits else { return }
        track(now: now, limits: limits)
        let (messages, finish) = motion.tick(pose: session.pose(at: now), limits: limits, now: now)
        for message in messages { send(message, now: now) }
        if let finish {
            log.debug("motion finished: \(finish)")
            if let owner = motionOwner, let change = arbiter.motionEnded(for: owner) { logControl(change) }
            motionOwner = nil
        }
        updateIndicator(now: now)
    }

    /// The tracker's part of a tick: fuse the frames that arrived (oldest first, each with the
    /// pose at its capture time), predict to now, and — when system tracking is on, no client
    /// holds control and no animation or move is playing — command the dock.
    private func track(now: Duration, limits: MotionLimits) {
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
                // Tracking was turned off or a client took over: the tracker lets go.
                isTrackerMoving = false
                pipeline.controllerInterrupted()
                if arbiter.controller == .none, case .velocity = motion.activity,
                    let result = try? motion.handle(.stop, pose: pose, limits: limits, now: now)
                {
                    for message in result.messages { send(message, now: now) }
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
        guard let yaw = step.yawRadiansPerSecond, let pitch = step.pitchRadiansPerSecond else {
            isTrackerMoving = false
            return
        }
        do {
            let result = try motion.handle(.velocity(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch, duration: nil),
                                           pose: pose, limits: limits, now: now)
            for message in result.messages { send(message, now: now) }
            isTrackerMoving = true
        } catch {
            log.debug("tracker velocity refused: \(error)")
        }
    }

    /// Stops the motors and closes the port (on SIGTERM, before exit).
    public func shutdown() {
        log.notice(summary)
        if case .ready = session.state {
            send(.stop, now: clock.now())
            log.notice("motors stopped")
        }
        motion.reset()
        connection?.close()
        connection = nil
        connectionGeneration += 1
    }

    /// A matching device appeared: try it now instead of at the next retry.
    public func deviceAppeared() {
        perform(session.deviceAppeared(now: clock.now()))
    }

    /// Applies new settings (SIGHUP): limits and tracking; the port stays as it is.
    public func reconfigure(_ configuration: Configuration) {
        self.configuration = configuration
        Self.applyRestSettings(configuration, to: &pipeline)
        if let info = session.info { limits = narrowedLimits(info) }
        if arbiter.isSystemTrackingEnabled != configuration.tracking,
            let change = arbiter.setSystemTracking(configuration.tracking)
        {
            logControl(change)
        }
    }

    // MARK: Requests from clients

    /// A client asks for motion.
    public func request(_ request: MotionRequest, from client: ClientID, takeOver: Bool = false) throws(RequestError) -> MotionResult {
        let now = clock.now()
        guard case .ready = session.state, let limits else { throw .notReady }
        let previous = arbiter
        do {
            if let change = try arbiter.motionRequested(by: client, takeOver: takeOver) { logControl(change) }
        } catch {
            throw .busy(holder: error.holder)
        }
        do {
            let result = try motion.handle(request, pose: session.pose(at: now), limits: limits, now: now)
            motionOwner = client
            for message in result.messages { send(message, now: now) }
            return result
        } catch {
            arbiter = previous  // nothing half-applied
            throw .invalid(error)
        }
    }

    /// A client went away: if it was moving the dock, the motors stop now.
    public func clientDisconnected(_ client: ClientID) {
        let (change, mustStop) = arbiter.clientDisconnected(client)
        if let change { logControl(change) }
        guard mustStop else { return }
        let now = clock.now()
        if let limits, case .ready = session.state {
            _ = try? motion.handle(.stop, pose: session.pose(at: now), limits: limits, now: now)
            send(.stop, now: now)
        }
        motionOwner = nil
    }

    /// Turns system tracking on or off for a client (as the tracking button does).
    public func setSystemTracking(_ enabled: Bool) {
        if let change = arbiter.setSystemTracking(enabled) { logControl(change) }
    }

    /// A client narrows the limits further; returns the limits now in force.
    public func setLimits(_ request: LimitRequest) throws(RequestError) -> MotionLimits {
        guard let info = session.info, let current = limits else { throw .notReady }
        do {
            _ = try current.narrowed(by: request)
        } catch {
            throw .invalid(error)
        }
        // Merge with what clients asked before: each given field replaces the earlier request's.
        clientLimits = LimitRequest(
            yawRadians: request.yawRadians ?? clientLimits.yawRadians,
            pitchRadians: request.pitchRadians ?? clientLimits.pitchRadians,
            yawSpeedRadiansPerSecond: request.yawSpeedRadiansPerSecond ?? clientLimits.yawSpeedRadiansPerSecond,
            pitchSpeedRadiansPerSecond: request.pitchSpeedRadiansPerSecond ?? clientLimits.pitchSpeedRadiansPerSecond)
        let narrowed = narrowedLimits(info)
        limits = narrowed
        return narrowed
    }

    /// A client takes control until it releases it.
    public func acquireControl(by client: ClientID, takeOver: Bool) throws(RequestError) {
        do {
            if let change = try arbiter.acquire(by: client, takeOver: takeOver) { logControl(change) }
        } catch {
            throw .busy(holder: error.holder)
        }
    }

    /// A client gives control back.
    public func releaseControl(by client: ClientID) {
        if let change = arbiter.release(by: client) { logControl(change) }
    }

    /// Queues a frame's observations from a client for the tracker's next tick (the oldest
    /// batch goes when 64 wait).
    public func track(_ batch: ObservationBatch) {
        enqueue(batch)
        observationCount += batch.observations.count
        // The frame shows in the status at the next tick; its count, at once.
        let count = observationCount
        snapshot.withLock { $0?.observations = count }
    }

    /// Queues a frame from the in-process simulator's camera.
    public func cameraFrame(_ batch: ObservationBatch) {
        enqueue(batch)
        cameraFrameCount += 1
    }

    private func enqueue(_ batch: ObservationBatch) {
        if pendingObservations.count >= 64 { pendingObservations.removeFirst() }
        pendingObservations.append(batch)
    }

    /// Sets where the subject goes in the frame.
    public func setFramingMode(_ mode: FramingMode) {
        framingMode = mode
        pipeline.framingMode = mode
        publish(kind: "framing", detail: mode.rawValue)
    }

    /// Limits framing to a region of the image.
    public func setRegionOfInterest(_ region: NormalizedRect) {
        regionOfInterest = region
        pipeline.regionOfInterest = region
    }

    /// Follows these subjects; an empty list goes back to choosing automatically.
    public func selectSubjects(_ subjects: [Int]) {
        selectedSubjects = subjects
        pipeline.selection = subjects
    }

    /// Follows the subject seen at `point` of the delivered image now; returns its identifier,
    /// or nil (and changes nothing) when nobody is there.
    public func selectSubject(at point: NormalizedPoint) -> Int? {
        guard let pose = session.pose(at: clock.now()),
            let subject = pipeline.subject(at: point, gimbalYawRadians: pose.yawRadians, gimbalPitchRadians: pose.pitchRadians)
        else { return nil }
        selectSubjects([subject])
        return subject
    }

    /// The status as of the last tick or change (at most one tick old); nil before the first.
    public nonisolated var latestStatus: DockStatus? { snapshot.withLock { $0 } }

    /// Takes a new snapshot of the status now (after a client changed something, so that its
    /// next `GetStatus` shows the change).
    public func refreshSnapshot() {
        let status = status()
        snapshot.withLock { $0 = status }
    }

    /// Everything a client may ask about the dock now.
    public func status() -> DockStatus {
        let now = clock.now()
        let state: String
        var isDocked = false
        switch session.state {
        case .disconnected: state = "disconnected"
        case .connecting: state = "connecting"
        case .handshaking: state = "handshaking"
        case .incompatible: state = "incompatible"
        case .ready(let docked):
            state = "ready"
            isDocked = docked
        }
        let motionName: String
        switch motion.activity {
        case .idle: motionName = "idle"
        case .velocity: motionName = "velocity"
        case .moving: motionName = "moving"
        case .animating: motionName = "animating"
        case .settling: motionName = "settling"
        }
        let pose = session.state == .disconnected ? nil : session.pose(at: now)
        let trackerName: String
        switch trackingStep?.activity ?? .idle {
        case .idle: trackerName = "idle"
        case .following: trackerName = "following"
        case .holding: trackerName = "holding"
        case .returning: trackerName = "returning"
        }
        return DockStatus(
            state: state, isDocked: isDocked, info: session.info, device: transport.name,
            pose: pose, limits: limits,
            isTrackingEnabled: arbiter.isSystemTrackingEnabled, framingMode: framingMode, regionOfInterest: regionOfInterest,
            selectedSubjects: selectedSubjects, controller: arbiter.controller, motion: motionName,
            badFrames: session.badFrameCount, reconnects: session.disconnectCount, refusals: session.refusalCount,
            observations: observationCount, cameraFrames: cameraFrameCount,
            subjects: pose.map { pipeline.summaries(gimbalYawRadians: $0.yawRadians, gimbalPitchRadians: $0.pitchRadians, now: now) } ?? [],
            primary: pipeline.primary, tracker: trackerName, isSubjectInFrame: trackingStep?.isSubjectInFrame ?? false,
            loopTicks: loopStatistics.tickCount, loopMissedTicks: loopStatistics.missedTicks, loopLateness: loopLateness())
    }

    /// The loop's lateness percentiles, sorted afresh once a second (every 30 ticks): the snapshot
    /// taken each tick must not add a 1024-sample sort to every tick.
    private func loopLateness() -> (p50: Duration, p99: Duration, maximum: Duration) {
        if loopSummary.tick < 0 || loopStatistics.tickCount - loopSummary.tick >= 30 {
            loopSummary = (loopStatistics.tickCount, loopStatistics.summary())
        }
        return loopSummary.lateness
    }

    /// Starts a stream of events for a watcher.
    public func subscribe() -> (id: Int, events: AsyncStream<RunnerEvent>) {
        let (stream, continuation) = AsyncStream<RunnerEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        nextSubscriber += 1
        subscribers[nextSubscriber] = continuation
        return (nextSubscriber, stream)
    }

    /// Ends a watcher's stream.
    public func unsubscribe(_ id: Int) {
        subscribers.removeValue(forKey: id)?.finish()
    }

    private func publish(_ event: SessionEvent, now: Duration) {
        switch event {
        case .attached(let info, let isDocked):
            publish(kind: "attached", detail: "\(info.model) \(info.serialNumber), \(isDocked ? "docked" : "undocked")")
        case .docked: publish(kind: "docked", detail: "camera mounted")
        case .undocked: publish(kind: "undocked", detail: "camera removed")
        case .disconnected: publish(kind: "disconnected", detail: transport.name)
        case .button(let kind): publish(kind: "button", detail: "\(kind)")
        case .fault(let fault):
            publish(kind: "fault", detail: "\(fault.code.name)\(fault.axis.map { " on \($0.name)" } ?? "") "
                    + (fault.isActive ? "raised" : "cleared"))
        case .refused(let refusal): publish(kind: "refused", detail: "\(refusal.reason.name) detail \(refusal.detail)")
        case .connectFailed, .versionMismatch, .handshakeFailed, .accessoryReset, .telemetryStalled, .telemetryResumed:
            break
        }
    }

    private func publish(kind: String, detail: String) {
        let event = RunnerEvent(time: clock.now(), kind: kind, detail: detail)
        for continuation in subscribers.values { continuation.yield(event) }
    }

    // MARK: The port

    private func perform(_ actions: [SessionAction]) {
        let now = clock.now()
        for action in actions {
            switch action {
            case .openTransport:
                do {
                    let opened = try transport.open()
                    connection = opened
                    connectionGeneration += 1
                    let generation = connectionGeneration
                    Task { [weak self] in
                        for await chunk in opened.incoming {
                            await self?.received(chunk, generation: generation)
                        }
                        await self?.hungUp(generation: generation)
                    }
                    log.info("opened \(transport.name)")
                    perform(session.transportOpened(now: now))
                } catch {
                    perform(session.transportFailed(reason: "\(error)", now: now))
                }
            case .closeTransport:
                connection?.close()
                connection = nil
                connectionGeneration += 1
            case .write(let bytes):
                if connection?.write(bytes) == false { log.debug("write to \(transport.name) failed") }
            case .emit(let event):
                handle(event, now: now)
            }
        }
    }

    private func received(_ chunk: [UInt8], generation: Int) {
        guard generation == connectionGeneration else { return }
        perform(session.bytesReceived(chunk, now: clock.now()))
    }

    private func hungUp(generation: Int) {
        guard generation == connectionGeneration, connection != nil else { return }
        connection = nil
        perform(session.transportClosed(now: clock.now()))
    }

    private func send(_ message: Message, now: Duration) {
        perform(session.send(message, now: now))
    }

    // MARK: Session events

    private func handle(_ event: SessionEvent, now: Duration) {
        publish(event, now: now)
        switch event {
        case .attached(let info, let isDocked):
            log.notice("attached \(info.model) (serial \(info.serialNumber), firmware \(info.firmwareVersion)) on "
                       + "\(transport.name), \(isDocked ? "docked" : "undocked")")
            if let previous = serialNumber, previous != info.serialNumber {
                // Another dock on this port: it gets the configured settings, not the last dock's,
                // and the tracks (angles in the old dock's frame) go.
                log.notice("a different dock (serial \(info.serialNumber), was \(previous)); settings reset")
                clientLimits = LimitRequest()
                pipeline.reset()
                if let change = arbiter.setSystemTracking(configuration.tracking) { logControl(change) }
            }
            serialNumber = info.serialNumber
            limits = narrowedLimits(info)
            indicator = nil
            isTrackerMoving = false
            if configuration.wakeOnAttach, let limits {
                do {
                    let result = try motion.handle(.animate(.wake), pose: session.pose(at: now), limits: limits, now: now)
                    for message in result.messages { send(message, now: now) }
                } catch {
                    log.warning("could not play wake: \(error)")
                }
            }
        case .docked, .undocked:
            log.notice(event == .docked ? "camera docked" : "camera undocked")
        case .disconnected:
            log.warning("\(transport.name) disconnected; retrying")
            motion.reset()
            motionOwner = nil
        case .connectFailed(let reason, let retryAfter):
            log.info("cannot open \(transport.name): \(reason); retrying in \(retryAfter)")
        case .versionMismatch(let offered, let supported):
            log.error("\(transport.name) speaks protocol versions \(supported.lowerBound)...\(supported.upperBound); "
                      + "dockd speaks \(offered.lowerBound)...\(offered.upperBound). Update the firmware or dockd.")
        case .handshakeFailed:
            log.warning("\(transport.name) does not answer as a dock; closing it and retrying")
        case .accessoryReset:
            log.warning("the dock reset; opening a new session")
            motion.reset()
        case .button(let kind):
            log.info("button: \(kind)")
            if case .trackingButton(isPressed: true) = kind, let change = arbiter.trackingButtonPressed() {
                logControl(change)
            }
        case .fault(let fault):
            log.log(fault.isActive ? .warning : .notice, "fault \(fault.code.name)\(fault.axis.map { " on \($0.name)" } ?? "") "
                    + (fault.isActive ? "raised" : "cleared"))
        case .refused(let refusal):
            log.warning("the dock refused a command: \(refusal.reason.name) (detail \(refusal.detail))")
        case .telemetryStalled:
            log.warning("telemetry stalled")
        case .telemetryResumed:
            log.notice("telemetry resumed")
        }
    }

    private func narrowedLimits(_ info: AccessoryInfo) -> MotionLimits {
        let degree = Double.pi / 180
        let request = LimitRequest(
            yawRadians: configuration.yawMinimumDegrees * degree...configuration.yawMaximumDegrees * degree,
            pitchRadians: configuration.pitchMinimumDegrees * degree...configuration.pitchMaximumDegrees * degree,
            yawSpeedRadiansPerSecond: configuration.maximumSpeedDegreesPerSecond * degree,
            pitchSpeedRadiansPerSecond: configuration.maximumSpeedDegreesPerSecond * degree)
        var limits = MotionLimits(info: info)
        do {
            limits = try limits.narrowed(by: request)
        } catch {
            log.warning("configured limits do not fit the dock's (\(error)); using the dock's own")
        }
        return (try? limits.narrowed(by: clientLimits)) ?? limits
    }

    /// The indicator shows tracking off (dark), on and looking for a subject (green, blinking
    /// slowly), or on with the subject in frame (green, steady).
    private func updateIndicator(now: Duration) {
        let inFrame = trackingStep?.isSubjectInFrame ?? false
        let wanted = !arbiter.isSystemTrackingEnabled ? IndicatorState(pattern: .off, red: 0, green: 0, blue: 0)
            : inFrame ? IndicatorState(pattern: .solid, red: 0, green: 160, blue: 0)
            : IndicatorState(pattern: .slowBlink, red: 0, green: 160, blue: 0)
        guard wanted != indicator else { return }
        indicator = wanted
        send(.setIndicator(wanted), now: now)
    }

    private func logControl(_ change: ControlArbiter.Change) {
        let text = "\(describe(change.from)) -> \(describe(change.to))"
        log.info("control: \(text)")
        publish(kind: "control", detail: text)
    }

    private func describe(_ controller: ControlArbiter.Controller) -> String {
        switch controller {
        case .none: "nobody"
        case .systemTracker: "system tracker"
        case .client(let client, let isExplicit): "client \(client)\(isExplicit ? " (acquired)" : "")"
        }
    }

    /// A one-line summary for `STATUS=` and logs.
    public var summary: String {
        let tracking = arbiter.isSystemTrackingEnabled ? "tracking on" : "tracking off"
        switch session.state {
        case .disconnected, .connecting: return "waiting for \(transport.name); \(tracking)"
        case .handshaking: return "handshaking with \(transport.name)"
        case .incompatible: return "\(transport.name) speaks another protocol version"
        case .ready(let isDocked):
            let name = session.info.map { "\($0.model) \($0.serialNumber)" } ?? transport.name
            return "\(name) ready, \(isDocked ? "docked" : "undocked"); \(tracking); bad frames \(session.badFrameCount), "
                + "reconnects \(session.disconnectCount)"
        }
    }
}

/// A snapshot of a dock for clients.
public struct DockStatus: Sendable {
    public var state: String
    public var isDocked: Bool
    public var info: AccessoryInfo?
    public var device: String
    public var pose: Pose?
    public var limits: MotionLimits?
    public var isTrackingEnabled: Bool
    public var framingMode: FramingMode
    public var regionOfInterest: NormalizedRect
    public var selectedSubjects: [Int]
    public var controller: ControlArbiter.Controller
    public var motion: String
    public var badFrames: Int
    public var reconnects: Int
    public var refusals: Int
    public var observations: Int
    /// Frames from the in-process simulator's camera.
    public var cameraFrames: Int
    /// The tracked subjects, with boxes as the camera sees them now.
    public var subjects: [SubjectSummary]
    /// The subject the dock follows.
    public var primary: Int?
    /// What the tracker is doing: idle, following, holding or returning.
    public var tracker: String
    /// Whether the primary subject is seen inside the region of interest.
    public var isSubjectInFrame: Bool
    /// Control-loop ticks since the start.
    public var loopTicks: Int
    /// Ticks missed since the start.
    public var loopMissedTicks: Int
    /// How late the loop's ticks ran after their scheduled times, over the last ~34 s.
    public var loopLateness: (p50: Duration, p99: Duration, maximum: Duration)
}

/// One frame's observations as a client sent them, for the tracker.
public struct ObservationBatch: Sendable {
    public var observations: [Observation]
    public var camera: CameraInformation
    /// When the frame was captured, on the host's monotonic clock.
    public var captureTime: Duration

    public init(observations: [Observation], camera: CameraInformation, captureTime: Duration) {
        self.observations = observations
        self.camera = camera
        self.captureTime = captureTime
    }
}

/// Something a watcher hears of: when, what kind, and a short text.
public struct RunnerEvent: Sendable {
    public var time: Duration
    public var kind: String
    public var detail: String
}
