public import DockCore
public import DockHost
import Synchronization
public import DockTracking
public import DockSystem

/// One accessory in the running daemon: the shell around the pure `HostPolicy`. It feeds the
/// policy the time and what happens — bytes from the port (read on a task of their own), the
/// 30 Hz tick and the heartbeat's deadlines on the injected clock, clients' requests — and
/// carries out what the policy returns: open, write and close the port, answer callers, tell
/// watchers, log. It holds no policy of its own.
public actor SessionRunner {
    /// The link to the dock.
    public nonisolated let transport: any DockTransport
    private let clock: any DaemonClock
    private let log: Logger
    /// The host's policy.
    public private(set) var policy: HostPolicy
    /// How punctual the control loop is.
    public private(set) var loopStatistics = LoopStatistics()
    /// The status as of the last tick or request: read without waiting for the actor, so a crowd
    /// of clients asking for it never delays the loop.
    private nonisolated let snapshot = Mutex<DockStatus?>(nil)
    private var connection: DockConnection?
    private var generation = 0
    private var callers: [RequestToken: AsyncStream<HostReply>.Continuation] = [:]
    private var nextToken: RequestToken = 0
    /// Where `Watch` streams get the policy's events.
    public nonisolated let watchers = WatcherList()
    /// When the loop wakes next, and when the side timer does (`wakeEarlierIfDue`).
    private var (loopWake, timerWake): (Duration, Duration?) = (.zero, nil)

    /// Creates a runner over `link` (a dock-serial session when nil); `run()` starts it.
    public init(transport: any DockTransport, clock: any DaemonClock, settings: HostSettings, log: Logger,
                link: (any AccessoryLink)? = nil) {
        self.transport = transport
        self.clock = clock
        self.log = log
        policy = HostPolicy(settings: settings, link: link)
    }

    /// Runs the session: the 30 Hz loop, woken earlier when a heartbeat falls due between ticks,
    /// until the task is cancelled; then stops the motors.
    public func run() async {
        perform(policy.start(now: clock.now()))
        var nextTick = clock.now() + MotionController.tickInterval
        while !Task.isCancelled {
            loopWake = min(nextTick, policy.nextDeadline ?? nextTick)
            guard (try? await clock.sleep(until: loopWake)) != nil else { break }
            let now = clock.now()
            guard now >= nextTick else {
                perform(policy.deadlineReached(now: now))
                continue
            }
            loopStatistics.record(late: now - nextTick, interval: MotionController.tickInterval)
            if now - nextTick > .milliseconds(500) {
                log.warning("control loop fell \(now - nextTick) behind; skipping missed ticks")
                nextTick = now
            }
            nextTick += MotionController.tickInterval
            perform(policy.tick(now: now))
            refreshSnapshot()
        }
        shutdown()
    }

    /// Stops the motors and closes the port (on SIGTERM, before exit).
    public func shutdown() {
        log.notice(summary)
        perform(policy.shuttingDown(now: clock.now()))
        for caller in callers.values { caller.finish() }  // no reply: the callers hear NotReady
        callers.removeAll()
        connection?.close()
        connection = nil
        generation += 1
    }

    /// A matching device appeared: try it now instead of at the next retry.
    public func deviceAppeared() { perform(policy.deviceAppeared(now: clock.now())) }

    /// Applies new settings (SIGHUP); the port stays as it is.
    public func reconfigure(_ settings: HostSettings) { perform(policy.reconfigured(settings, now: clock.now())) }

    /// A client's request, handed to the policy now; the stream yields its reply when it comes
    /// (for a motion, once the dock has answered, or once the motion has ended if the caller
    /// waits) and then finishes — with no element if dockd shuts down first.
    public func submit(_ request: ClientRequest, from client: ClientID) -> AsyncStream<HostReply> {
        nextToken += 1
        let (reply, caller) = AsyncStream<HostReply>.makeStream()
        callers[nextToken] = caller
        perform(policy.requested(request, token: nextToken, from: client, now: clock.now()))
        // A frame shows in the status at the next tick; its count at once (not a new snapshot per
        // frame: clients send 30 to 60 a second).
        let count = policy.observationCount
        if case .track = request { snapshot.withLock { $0?.observations = count } } else { refreshSnapshot() }
        return reply
    }

    /// A client's request; returns the policy's reply when it comes.
    public func request(_ request: ClientRequest, from client: ClientID) async -> HostReply {
        await submit(request, from: client).first { _ in true } ?? .failure(.notReady)
    }

    /// A client went away.
    public func clientDisconnected(_ client: ClientID) { perform(policy.clientDisconnected(client, now: clock.now())) }

    /// A frame from the in-process simulator's camera.
    public func cameraFrame(_ batch: ObservationBatch) { policy.observationsArrived(batch, fromCamera: true) }

    /// The status as of the last tick or change (at most one tick old); nil before the first.
    public nonisolated var latestStatus: DockStatus? { snapshot.withLock { $0 } }
    /// The serial number of the dock this entry belongs to, once one has attached.
    public var serialNumber: String? { policy.serialNumber }
    /// The control ticks so far: the watchdog checks that they grow.
    public var tickCount: Int { policy.tickCount }
    /// A one-line summary for `STATUS=` and logs.
    public var summary: String { policy.summary(device: transport.name) }

    /// Everything a client may ask about the dock now, with the loop's figures.
    public func status() -> DockStatus {
        var status = policy.status(now: clock.now(), device: transport.name)
        let figures = loopStatistics.summary(refreshingEvery: 30)  // sorted once a second, not per snapshot
        status.loopTicks = loopStatistics.tickCount
        status.loopMissedTicks = loopStatistics.missedTicks
        status.loopLateness = LoopLateness(p50: figures.p50, p99: figures.p99, maximum: figures.maximum)
        return status
    }

    private func refreshSnapshot() { snapshot.withLock { [status = status()] in $0 = status } }

    // MARK: Carrying out the policy's actions

    private func perform(_ actions: [HostAction]) {
        for action in actions {
            switch action {
            case .openTransport: open()
            case .closeTransport:
                connection?.close()
                connection = nil
                generation += 1
            case .write(let bytes):
                if connection?.write(bytes) == false { log.debug("write to \(transport.name) failed") }
            case .reply(let token, let reply):
                if let caller = callers.removeValue(forKey: token) {
                    caller.yield(reply)
                    caller.finish()
                }
            case .publish(let event):
                if !watchers.isEmpty { watchers.publish(WatchItem(time: clock.now(), event: event, status: status())) }
            case .log(let level, let text):
                log.log(Logger.Level(level), text)
            }
        }
        wakeEarlierIfDue()
    }

    private func open() {
        do {
            let speed = policy.session.baudRate
            let opened = try speed.map { speed throws(SystemError) in try transport.open(baudRate: speed) } ?? transport.open()
            connection = opened
            generation += 1
            let current = generation
            Task { [weak self] in
                for await chunk in opened.incoming { await self?.received(chunk, generation: current) }
                await self?.hungUp(generation: current)
            }
            log.info("opened \(transport.name)" + (speed.map { " at \($0) baud" } ?? ""))
            perform(policy.transportOpened(now: clock.now()))
        } catch {
            perform(policy.transportFailed(reason: "\(error)", now: clock.now()))
        }
    }

    private func received(_ chunk: [UInt8], generation: Int) {
        if generation == self.generation { perform(policy.bytesReceived(chunk, now: clock.now())) }
    }

    private func hungUp(generation: Int) {
        guard generation == self.generation, connection != nil else { return }
        connection = nil
        perform(policy.transportClosed(now: clock.now()))
    }

    /// The loop sleeps until its next tick or heartbeat; when a heartbeat falls due before the
    /// loop wakes (a new session with a short failsafe: deadlines closer than the 30 Hz tick), a
    /// timer of its own keeps it, and each such deadline sets the next.
    private func wakeEarlierIfDue() {
        guard let deadline = policy.nextDeadline, deadline < min(loopWake, timerWake ?? loopWake) else { return }
        timerWake = deadline
        Task { [weak self, clock] in
            try? await clock.sleep(until: deadline)
            await self?.deadlineReached()
        }
    }

    private func deadlineReached() {
        timerWake = nil
        perform(policy.deadlineReached(now: clock.now()))
    }
}
