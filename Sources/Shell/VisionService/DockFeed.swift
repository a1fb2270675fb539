import DockAPI
import DockClient
public import DockSystem
public import DockVision
public import DockVocabulary
import Synchronization

/// What the feed did, for the service's status and its tests.
public struct FeedCounts: Hashable, Sendable {
    /// Batches handed to the feed.
    public var batches = 0
    /// Batches dockd took.
    public var sent = 0
    /// Batches dockd refused with a named error.
    public var refused = 0
    /// Batches dropped: a newer one came before dockd could take it, or dockd was away.
    public var dropped = 0
    /// Connections made to dockd.
    public var connections = 0
}

/// Sends each frame's observations to dockd with `Track`, on a connection of its own, without ever
/// making the capture wait: the capture hands a batch over (`deliver`) and goes on; the feed keeps
/// only the newest two (an older frame is worth less than a newer one) and sends them in order.
/// When dockd cannot be reached or goes away (restarted, stopped), the feed tries again every
/// `retryInterval`, logging the first failure of an outage and each reconnection; on connecting
/// it turns system tracking on if asked to. To dockd it is a client like any other: when the
/// service dies, its connection closes and dockd does what it does for any client that went away.
public final class DockFeed: Sendable {
    /// How long to wait before connecting again.
    public static let retryInterval = Duration.milliseconds(500)

    private struct State {
        var counts = FeedCounts()
        var isConnected = false
        var isOutageLogged = false
        var refusalsLogged: Set<String> = []
        var framing: TrackerFraming?
        /// When the call in flight (a Track and the status after it) was made; nil when none is.
        var askedAt: Duration?
    }

    private let socketPaths: [String]
    private let accessory: String?
    private let turnsTrackingOn: Bool
    private let logger: Logger
    private let state = Mutex(State())
    private let queue: AsyncStream<ObservationBatch>.Continuation
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let latencyLog: LatencyLog?
    private let readsFraming: Bool
    /// How often the tracker's framing is asked for (`GetStatus`), when it is read.
    public static let framingInterval = Duration.milliseconds(100)

    /// Starts the feed.
    ///
    /// - Parameters:
    ///   - socketPaths: dockd's sockets, tried in order.
    ///   - accessory: The accessory the camera is on (its name or serial number), when dockd serves several; nil: dockd's only one.
    ///   - turnsTrackingOn: Whether to turn system tracking on at each connection.
    ///   - logger: Where to say what happens.
    ///   - latencyLog: Where each call's times go, for a benchmark; nil: nowhere.
    ///   - readsFraming: Whether to ask dockd for the tracker's framing (`GetStatus`, at most every
    ///     `framingInterval`, after a `Track`), for the framed picture.
    public init(
        socketPaths: [String], accessory: String?, turnsTrackingOn: Bool, logger: Logger, latencyLog: LatencyLog? = nil,
        readsFraming: Bool = false
    ) {
        self.readsFraming = readsFraming
        self.socketPaths = socketPaths
        self.latencyLog = latencyLog
        self.accessory = accessory
        self.turnsTrackingOn = turnsTrackingOn
        self.logger = logger
        let (batches, queue) = AsyncStream.makeStream(of: ObservationBatch.self, bufferingPolicy: .bufferingNewest(2))
        self.queue = queue
        let feed = Task.detached { [self] in await self.run(batches) }
        task.withLock { $0 = feed }
    }

    /// Hands a frame's batch over; never waits.
    public func deliver(_ batch: ObservationBatch) {
        state.withLock { $0.counts.batches += 1 }
        if case .dropped = queue.yield(batch) { state.withLock { $0.counts.dropped += 1 } }
    }

    /// What the feed has done so far.
    public var counts: FeedCounts { state.withLock { $0.counts } }

    /// The tracker's framing as dockd last told it (when read), while connected.
    public var framing: TrackerFraming? { state.withLock { $0.framing } }

    /// How long a call may go unanswered before dockd's framing is no longer taken for current.
    public static let unansweredLimit = Duration.seconds(1)

    /// The tracker's framing at `now`, while it is dockd's: connected, and no call unanswered
    /// for `unansweredLimit`. Its age alone does not count: when the detectors are slow the
    /// feed asks less often, and dockd's framing is as current as any this service has.
    public func currentFraming(now: Duration) -> TrackerFraming? {
        state.withLock { state in
            if let askedAt = state.askedAt, now - askedAt >= Self.unansweredLimit { return nil }
            return state.framing
        }
    }

    /// Whether a call (a Track and the status read after it) waits for dockd's answer now.
    public var isCalling: Bool { state.withLock { $0.askedAt != nil } }

    /// Whether the feed is connected to dockd now.
    public var isConnected: Bool { state.withLock { $0.isConnected } }

    /// Stops sending.
    public func stop() {
        queue.finish()
        task.withLock { $0?.cancel() }
    }

    private func run(_ batches: AsyncStream<ObservationBatch>) async {
        var connection: VarlinkConnection?
        var nextAttempt = Duration.zero
        var nextFraming = Duration.zero
        for await batch in batches {
            if connection == nil, MonotonicClock.now() >= nextAttempt {
                connection = await connect()
                nextAttempt = MonotonicClock.now() + Self.retryInterval
            }
            guard let current = connection else {
                state.withLock { $0.counts.dropped += 1 }
                continue
            }
            do {
                let sent = MonotonicClock.now()
                state.withLock { $0.askedAt = sent }
                defer { state.withLock { $0.askedAt = nil } }
                _ = try await current.call(.host(.track(batch)), accessory: accessory)
                latencyLog?.record("sent", batch.captureTime, sent, MonotonicClock.now())
                state.withLock { $0.counts.sent += 1 }
                if readsFraming, MonotonicClock.now() >= nextFraming {
                    nextFraming = MonotonicClock.now() + Self.framingInterval
                    // A status that cannot be had leaves the framing as it was (the next Track tells
                    // of a connection lost).
                    if let status = try? await current.status(accessory: accessory) {
                        let primary = status.subjects.first { $0.isPrimary }
                        let framing = TrackerFraming(
                            person: primary.flatMap { subject in subject.box.map { CropFramer.person(of: $0, kind: subject.kind) } },
                            mode: status.framingMode, region: status.regionOfInterest, time: MonotonicClock.now(),
                            crop: status.crop)
                        state.withLock { $0.framing = framing }
                    }
                }
            } catch DockClientError.remote(let name, let parameters) {
                let isFirst = state.withLock { state in
                    state.counts.refused += 1
                    return state.refusalsLogged.insert(name).inserted
                }
                if isFirst {
                    logger.warning(
                        "dockd refused Track: \(DockClientError.remote(name: name, parameters: parameters)) (further refusals of this kind are counted, not logged)"
                    )
                }
            } catch {
                state.withLock { $0.counts.dropped += 1 }
                connection = nil
                nextAttempt = MonotonicClock.now() + Self.retryInterval
                outage("\(error)")
            }
        }
    }

    private func connect() async -> VarlinkConnection? {
        do {
            let (connection, path) = try VarlinkConnection.connect(toFirstOf: socketPaths)
            if turnsTrackingOn { _ = try await connection.call(.host(.setSystemTracking(true)), accessory: accessory) }
            let isFirst = state.withLock { state in
                defer {
                    state.isConnected = true
                    state.isOutageLogged = false
                    state.counts.connections += 1
                }
                return state.counts.connections == 0
            }
            logger.notice("\(isFirst ? "connected to" : "back with") dockd at \(path)\(turnsTrackingOn ? "; system tracking on" : "")")
            return connection
        } catch {
            outage("\(error)")
            return nil
        }
    }

    private func outage(_ reason: String) {
        let message: String? = state.withLock { state in
            defer {
                state.isConnected = false
                state.isOutageLogged = true
                state.framing = nil
            }
            if state.isConnected { return "lost dockd (\(reason)); trying again every \(Self.retryInterval)" }
            if !state.isOutageLogged { return "waiting for dockd (\(reason)); trying again every \(Self.retryInterval)" }
            return nil
        }
        if let message { logger.warning(message) }
    }
}
