public import DockLinks
import DockLogLevel
public import DockPolicy
public import DockSystem
public import DockVocabulary

/// One accessory in the running daemon: the shell around the pure `HostPolicy`, on the daemon's
/// event loop. It feeds the policy the loop's time and what happens — bytes from the link, the
/// 30 Hz tick and the heartbeat's deadlines (one loop timer, set to whichever comes first),
/// clients' requests — and carries out what the policy returns: open, write and close the link,
/// answer callers, tell the watcher, log. It holds no policy of its own, and, like everything on
/// the loop, is used from the loop's thread only.
public final class SessionRunner {
    /// The link to the dock.
    public let transport: any DockTransport
    private let loop: any EventLoop
    private let log: Logger
    /// The host's policy.
    public private(set) var policy: HostPolicy
    /// How punctual the control loop is.
    public var loopStatistics: LoopStatistics { inspect { $0.loopStatistics } }
    /// The status as of the last tick, request or event (at most one tick old), so a crowd of
    /// clients asking for it costs one status a tick, not one each.
    public var latestStatus: Dock.Status {
        if let snapshot { return snapshot }
        let status = status()
        snapshot = status
        return status
    }
    private var snapshot: Dock.Status? {
        didSet { statusVersion &+= 1 }
    }
    /// Changes whenever ``latestStatus`` may have: what is made from the status (its encoded
    /// reply) can be kept until this moves.
    public private(set) var statusVersion = 0
    private var connection: (any DockConnection)?
    private var generation = 0
    private var callers: [RequestToken: (HostReply) -> Void] = [:]
    private var nextToken: RequestToken = 0
    /// Who hears the policy's events, as `Watch` says them (the API server, while anybody
    /// watches); nil for nobody, so that no status is made for an event nobody reads.
    public var watcher: ((Dock.Event) -> Void)?
    /// The one timer the session keeps, set to when the policy wants to be woken.
    private var wake: (timer: LoopTimer, at: Duration)?
    private var isRunning = false
    /// Where the presets are kept; nil: in memory only, until dockd stops.
    public let presetFile: PresetFile?

    /// Creates a runner over `link` (a dock-serial session when nil), keeping its presets in
    /// `presetFile` (nil: in memory only); `start()` starts it.
    public init(
        transport: any DockTransport, loop: any EventLoop, settings: HostSettings, log: Logger,
        link: (any AccessoryLink)? = nil, presetFile: PresetFile? = nil
    ) {
        self.transport = transport
        self.loop = loop
        self.log = log
        self.presetFile = presetFile
        policy = HostPolicy(settings: settings, link: link)
    }

    /// Starts the session: the presets read, the link opened and the 30 Hz loop run, woken
    /// earlier when a heartbeat falls due between ticks, until ``shutdown()``. A presets file
    /// that cannot be read is named in the log with what is wrong, and dockd runs without
    /// presets, refusing to write over it.
    public func start() {
        isRunning = true
        if let presetFile {
            do {
                let store = try presetFile.load()
                policy.presetsLoaded(store)
                log.info("\(store.presets.count) preset\(store.presets.count == 1 ? "" : "s") from \(presetFile.path)")
            } catch {
                log.error("cannot read the presets: \(error); running without presets, and saving none over the file")
                policy.presetsDamaged(file: error.path, reason: error.reason)
            }
        }
        perform(policy.start(now: loop.now))
    }

    /// Stops the motors and closes the link (on SIGTERM, before exit); callers still waiting
    /// hear `NotReady`.
    public func shutdown() {
        guard isRunning else { return }
        isRunning = false
        log.notice(summary)
        perform(policy.shuttingDown(now: loop.now))
        if let wake { loop.cancel(wake.timer) }
        wake = nil
        let waiting = callers.sorted { $0.key < $1.key }
        callers.removeAll()
        for (_, caller) in waiting { caller(.failure(.notReady)) }
        connection?.close()
        connection = nil
        generation += 1
    }

    /// A matching device appeared: try it now instead of at the next retry.
    public func deviceAppeared() { perform(policy.deviceAppeared(now: loop.now)) }

    /// Applies new settings (SIGHUP); the link stays as it is.
    public func reconfigure(_ settings: HostSettings) { perform(policy.reconfigured(settings, now: loop.now)) }

    /// A client's request, handed to the policy now; `reply` gets its answer when it comes (for
    /// a motion, once the dock has answered, or once the motion has ended if the caller waits),
    /// perhaps before this returns — `NotReady` if dockd shuts down first.
    public func submit(_ request: ClientRequest, from client: ClientID, reply: @escaping (HostReply) -> Void) {
        nextToken += 1
        // A refusal is logged with what was refused and why (a frame's, at debug: they come 30 a second).
        let log = log
        callers[nextToken] = { answer in
            if case .failure(let error) = answer {
                log.log(request.isFrame ? .debug : .info, "refused client \(client)'s \(request.words): \(error.words)")
            }
            reply(answer)
        }
        perform(policy.requested(request, token: nextToken, from: client, now: loop.now))
        // A frame shows in the status at the next tick; its count at once (not a new snapshot per
        // frame: clients send 30 to 60 a second).
        if case .track = request { snapshot?.counters.observations = inspect { $0.observationCount } } else { snapshot = nil }
    }

    /// A client went away.
    public func clientDisconnected(_ client: ClientID) { perform(policy.clientDisconnected(client, now: loop.now)) }

    /// A frame from the in-process simulator's camera.
    public func cameraFrame(_ batch: ObservationBatch) { policy.observationsArrived(batch, fromCamera: true) }

    /// The serial number of the dock this entry belongs to, once one has attached.
    public var serialNumber: String? { inspect { $0.serialNumber } }
    /// The control ticks so far: the watchdog checks that they grow.
    public var tickCount: Int { inspect { $0.tickCount } }
    /// A one-line summary for `STATUS=` and logs.
    public var summary: String { inspect { [transport] in $0.summary(device: transport.name) } }

    /// Everything a client may ask about the dock now, with the loop's figures.
    public func status() -> Dock.Status {
        let now = loop.now, device = transport.name
        var status = inspect { $0.status(now: now, device: device) }
        status.loop = inspect { $0.loop() }
        return status
    }

    /// `Watch`'s periodic event: the latest status, now.
    public func statusEvent() -> Dock.Event { event(nil, status: latestStatus) }

    /// What `Watch` says of the policy's `event` (nil: the periodic status), now, with `status`.
    private func event(_ event: HostEvent?, status: Dock.Status) -> Dock.Event {
        let now = loop.now
        return inspect { [transport] in $0.clientEvent(event, time: now, status: status, device: transport.name) }
    }

    /// Reads the policy where it is. A plain read of a property or a non-mutating method of
    /// `policy` — a value type stored in this class — first copies it whole (every array, track
    /// and dictionary in it retained, then released): with a read after every wake-up that was
    /// 4 % of dockd's CPU while it tracked (perf: `outlined init with copy of HostPolicy` under
    /// `reschedule`). Reached through `inout`, the policy is read in place.
    private func inspect<Value>(_ read: (inout HostPolicy) -> Value) -> Value { read(&policy) }

    // MARK: The schedule

    /// The time the policy asked for has come.
    private func woke() {
        wake = nil
        guard isRunning else { return }
        let ticks = tickCount
        perform(policy.woke(now: loop.now))
        if tickCount != ticks { snapshot = nil }
    }

    /// Sets the session's one timer to when the policy wants to be woken next.
    private func reschedule() {
        guard isRunning else { return }
        let due = inspect { $0.nextWake }
        guard due != wake?.at else { return }
        if let wake { loop.cancel(wake.timer) }
        wake = (loop.schedule(at: due) { [weak self] in self?.woke() }, due)
    }

    // MARK: Carrying out the policy's actions

    private func perform(_ actions: [HostAction]) {
        // Frames written one after another to a byte stream (a serial line, a pty, TCP) go in one
        // write(2): a tick's two commands were two system calls, 30 a second more while tracking.
        // Anything else that comes between them sends what is gathered first, so the order of
        // effects is kept; a link of messages (UDP, a webcam's controls) still gets one each.
        var gathered: [UInt8] = []
        func sendGathered() {
            guard !gathered.isEmpty else { return }
            if connection?.write(gathered) == false { log.debug("write to \(transport.name) failed") }
            gathered.removeAll()
        }
        for action in actions {
            if case .write(let bytes) = action, connection?.isByteStream == true {
                gathered += bytes
                continue
            }
            sendGathered()
            switch action {
            case .openTransport: open()
            case .closeTransport:
                connection?.close()
                connection = nil
                generation += 1
            case .write(let bytes):
                if connection?.write(bytes) == false { log.debug("write to \(transport.name) failed") }
            case .reply(let token, let reply):
                callers.removeValue(forKey: token)?(reply)
            case .publish(let event):
                snapshot = nil  // what clients see changed now, not at the next tick
                if let watcher { watcher(self.event(event, status: status())) }
            case .log(let level, let text):
                log.log(level, text)
            case .storePresets(let store, let token, let reply):
                storePresets(store, token: token, reply: reply)
            }
        }
        sendGathered()
        reschedule()
    }

    /// Writes the presets, and only once they are written hands them to the policy and answers
    /// the request; when they cannot be written, says why and changes nothing.
    private func storePresets(_ store: PresetStore, token: RequestToken, reply: HostReply) {
        if let presetFile {
            do {
                try presetFile.store(store)
            } catch {
                log.error("cannot write the presets: \(error)")
                callers.removeValue(forKey: token)?(
                    .failure(.presetsUnavailable(file: presetFile.path, reason: "cannot be written (\(error))")))
                return
            }
        }
        policy.presetsStored(store)
        callers.removeValue(forKey: token)?(reply)
    }

    private func open() {
        do {
            let speed = inspect { $0.session.baudRate }
            generation += 1
            let current = generation
            let events = DockLinkEvents(
                received: { [weak self] bytes in self?.received(bytes, generation: current) },
                hungUp: { [weak self] in self?.hungUp(generation: current) })
            connection = try transport.open(baudRate: speed, on: loop, events: events)
            log.info("opened \(transport.name)" + (speed.map { " at \($0) baud" } ?? ""))
            perform(policy.transportOpened(now: loop.now))
        } catch {
            perform(policy.transportFailed(reason: "\(error)", now: loop.now))
        }
    }

    private func received(_ bytes: [UInt8], generation: Int) {
        if generation == self.generation, isRunning { perform(policy.bytesReceived(bytes, now: loop.now)) }
    }

    private func hungUp(generation: Int) {
        guard generation == self.generation, connection != nil else { return }
        connection = nil
        perform(policy.transportClosed(now: loop.now))
    }
}
