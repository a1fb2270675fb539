import DockAPI
import DockClient
import DockSimulator
import DockSystem
import DockVocabulary
import Synchronization

/// The camera app, played over dockd's API while the dock runs: it turns system tracking on with
/// framing `center`, sends each detection batch with `Track` when the detector delivers it, and
/// follows dockd's primary subject with `GetStatus` at 10 Hz.
///
/// The real-time loop only hands batches over (`deliver`) and reads the last primary seen
/// (`trackerPrimary`); neither waits for dockd. The API calls run in two tasks of their own, one
/// connection each: the feed reads a bounded queue (the newest `queueCapacity` batches; older
/// ones are dropped, since dockd keeps only two seconds of poses to fuse them with), the follower
/// polls the status. When dockd cannot be reached, both retry quietly every `retryInterval`;
/// the first failure of each outage is logged, and so is each connection.
///
/// Scoring only (`sendsBoxes` false, `docksim --score-only`), it sends no boxes: another detector
/// feeds dockd from the webcam's picture. The follower then sets dockd up (tracking on, framing
/// `center`) on each connection it makes, and the run is scored as any other.
///
/// With a shot size (the scenario's `shot`), a third task asks dockd to hold it (`SetShotSize`)
/// on a connection of its own, again every `retryInterval` while dockd answers `NotReady` (its
/// accessory not yet in session) or cannot be reached; any other refusal ends it.
final class CameraApp: Sendable {
    /// dockd's control socket.
    let socketPath: String
    /// Whether the detector's batches are sent with `Track` (false: another detector sends boxes).
    let sendsBoxes: Bool
    /// The shot size asked of dockd once it can hold one; nil: none asked.
    let shot: ShotSize?
    /// Batches waiting for the feed at most; a second at 30 frames a second.
    static let queueCapacity = 32
    /// How long to wait before connecting again after a failure.
    static let retryInterval = Duration.milliseconds(250)
    /// How often the follower reads dockd's status.
    static let statusInterval = Duration.milliseconds(100)

    /// One batch on its way to dockd, with its capture time on the host's monotonic clock.
    private struct Delivery: Sendable {
        var batch: DetectionBatch
        var hostCaptureTime: Duration
    }

    private struct State {
        var primary = TrackerPrimary.unknown
        var primaryBox: NormalizedRect?
        var counts = CameraAppCounts(batches: 0, sent: 0, refused: 0, dropped: 0, statusSamples: 0)
        var isConnected = false
        var hasConnected = false
        var isOutageLogged = false
        var refusalsLogged: Set<String> = []
    }

    private let state = Mutex(State())
    private let queue: AsyncStream<Delivery>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let log: @Sendable (String) -> Void

    /// Starts playing the camera app against dockd's socket at `socketPath`.
    init(socketPath: String, sendsBoxes: Bool = true, shot: ShotSize? = nil, log: @escaping @Sendable (String) -> Void) {
        self.socketPath = socketPath
        self.sendsBoxes = sendsBoxes
        self.shot = shot
        self.log = log
        let (deliveries, queue) = AsyncStream.makeStream(of: Delivery.self, bufferingPolicy: .bufferingNewest(Self.queueCapacity))
        self.queue = queue
        let feed = Task.detached { [self] in await self.feed(deliveries) }
        let follower = Task.detached { [self] in await self.follow() }
        var started = [feed, follower]
        if let shot { started.append(Task.detached { [self] in await self.askForShot(shot) }) }
        tasks.withLock { $0 = started }
    }

    /// Hands over a batch the detector delivered, captured at `hostCaptureTime` on the host's
    /// monotonic clock. Never waits: when the queue is full the oldest batch is dropped.
    func deliver(_ batch: DetectionBatch, hostCaptureTime: Duration) {
        state.withLock { $0.counts.batches += 1 }
        if case .dropped = queue.yield(Delivery(batch: batch, hostCaptureTime: hostCaptureTime)) {
            state.withLock { $0.counts.dropped += 1 }
        }
    }

    /// dockd's primary subject as last read (unknown while dockd cannot be reached).
    var trackerPrimary: TrackerPrimary { state.withLock { $0.primary } }

    /// dockd's primary subject's box as last read (in the delivered image, with the dock's pose
    /// then), for telling which true person it is; nil when it has none or it was not read.
    var trackerPrimaryBox: NormalizedRect? { state.withLock { $0.primaryBox } }

    /// Stops sending and following; returns what was done (batches still queued or on their way
    /// count as dropped).
    func stop() -> CameraAppCounts {
        queue.finish()
        for task in tasks.withLock({ $0 }) { task.cancel() }
        return state.withLock { state in
            let pending = state.counts.batches - state.counts.sent - state.counts.refused - state.counts.dropped
            state.counts.dropped += max(0, pending)
            return state.counts
        }
    }

    // MARK: The feed

    private func feed(_ deliveries: AsyncStream<Delivery>) async {
        var connection: VarlinkConnection?
        var nextAttempt = Duration.zero
        for await delivery in deliveries {
            if connection == nil, MonotonicClock.now() >= nextAttempt {
                connection = await connect()
                nextAttempt = MonotonicClock.now() + Self.retryInterval
            }
            guard let current = connection else {
                state.withLock { $0.counts.dropped += 1 }
                continue
            }
            do {
                _ = try await current.call(Self.trackCall(delivery.batch, hostCaptureTime: delivery.hostCaptureTime))
                state.withLock { $0.counts.sent += 1 }
            } catch DockClientError.remote(let name, let parameters) {
                let isFirst = state.withLock { state in
                    state.counts.refused += 1
                    return state.refusalsLogged.insert(name).inserted
                }
                if isFirst {
                    log(
                        "camera app: dockd refused a Track call: "
                            + "\(DockClientError.remote(name: name, parameters: parameters)) (further refusals are counted, not logged)")
                }
            } catch {
                state.withLock { $0.counts.dropped += 1 }
                connection = nil
                nextAttempt = MonotonicClock.now() + Self.retryInterval
                outage("\(error)")
            }
        }
    }

    /// Connects and sets dockd up as the camera app wants it; nil when dockd cannot be reached.
    private func connect() async -> VarlinkConnection? {
        do {
            let connection = try VarlinkConnection(path: socketPath)
            _ = try await connection.call(.host(.setSystemTracking(true)))
            _ = try await connection.call(.host(.setFramingMode(.center)))
            let isFirst = state.withLock { state in
                defer {
                    state.isConnected = true
                    state.hasConnected = true
                    state.isOutageLogged = false
                }
                return !state.hasConnected
            }
            log(
                "camera app: \(isFirst ? "connected to" : "back with") dockd at \(socketPath): tracking on, framing center"
                    + (sendsBoxes ? "" : " (scoring only: another detector sends the boxes)"))
            return connection
        } catch {
            outage("\(error)")
            return nil
        }
    }

    /// Logs the first failure of an outage; later ones stay quiet until dockd is back.
    private func outage(_ reason: String) {
        let message: String? = state.withLock { state in
            defer {
                state.isConnected = false
                state.isOutageLogged = true
            }
            if state.isConnected { return "camera app: lost dockd (\(reason)); retrying quietly" }
            if !state.isOutageLogged { return "camera app: waiting for dockd (\(reason)); retrying quietly" }
            return nil
        }
        if let message { log(message) }
    }

    // MARK: The shot size

    /// Asks dockd to hold `shot` every `retryInterval` while it cannot be reached or answers
    /// `NotReady` (its accessory not yet in session), and logs what it answered: the shot taken,
    /// or a refusal that asking again would not change (`NotSupported`: no zoom), which ends it.
    private func askForShot(_ shot: ShotSize) async {
        var connection: VarlinkConnection?
        var isWaitLogged = false
        while !Task.isCancelled {
            do {
                let current = try connection ?? VarlinkConnection(path: socketPath)
                connection = current
                _ = try await current.call(.host(.setShotSize(shot)))
                log("camera app: dockd holds the shot size \(shot.setting)")
                return
            } catch DockClientError.remote(let name, let parameters) {
                let refusal = DockClientError.remote(name: name, parameters: parameters)
                guard name == DockInterface.Error.notReady else {
                    log("camera app: dockd refused the shot size \(shot.setting): \(refusal); not asking again")
                    return
                }
                if !isWaitLogged { log("camera app: dockd refused the shot size \(shot.setting): \(refusal); asking again") }
                isWaitLogged = true
            } catch {
                connection = nil  // dockd not there (yet): the feed and the follower log the outage
            }
            try? await Task.sleep(for: Self.retryInterval)
        }
    }

    // MARK: The follower

    private func follow() async {
        var connection: VarlinkConnection?
        let clock = ContinuousClock()
        var next = clock.now
        while !Task.isCancelled {
            if connection == nil { connection = sendsBoxes ? try? VarlinkConnection(path: socketPath) : await connect() }
            if let current = connection {
                do {
                    let status = try await current.status()
                    let primary = Self.primary(in: status)
                    let box = Self.primaryBox(in: status)
                    state.withLock { state in
                        state.primary = primary
                        state.primaryBox = box
                        state.counts.statusSamples += 1
                    }
                } catch DockClientError.remote, DockClientError.invalidReply {
                    state.withLock {
                        $0.primary = .unknown
                        $0.primaryBox = nil
                    }
                } catch {
                    connection = nil
                    state.withLock {
                        $0.primary = .unknown
                        $0.primaryBox = nil
                    }
                }
            }
            // A sample every statusInterval, not statusInterval after each reply; after a stall,
            // start afresh rather than catch up.
            next += connection == nil ? Self.retryInterval : Self.statusInterval
            if next < clock.now { next = clock.now }
            try? await Task.sleep(until: next, clock: clock)
        }
    }

    // MARK: Messages

    /// The `Track` call for `batch`: its observations (the 64 most confident, the API's limit),
    /// the camera it was seen with, and its capture time on the host's clock.
    static func trackCall(_ batch: DetectionBatch, hostCaptureTime: Duration) -> DockCall {
        var observations = batch.observations
        if observations.count > 64 {
            observations = Array(
                observations.enumerated()
                    .sorted { ($1.element.confidence, $0.offset) < ($0.element.confidence, $1.offset) }
                    .prefix(64).sorted { $0.offset < $1.offset }.map(\.element))
        }
        return .host(.track(ObservationBatch(observations: observations, camera: batch.camera, captureTime: hostCaptureTime)))
    }

    /// The box of the primary subject in a status (the first subject flagged primary that has a
    /// usable box), nil when there is none.
    static func primaryBox(in status: Dock.Status) -> NormalizedRect? {
        guard let box = status.subjects.first(where: { $0.isPrimary && $0.box != nil })?.box else { return nil }
        return box.isUsable ? box : nil
    }

    /// The primary subject in a status: its ID, or none.
    static func primary(in status: Dock.Status) -> TrackerPrimary {
        status.primary.map { .subject($0) } ?? .none
    }
}
