import DockAPI
import DockClient
import DockProtocol
import DockSimulator
import DockSystem
import DockTracking
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
final class CameraApp: Sendable {
    /// dockd's control socket.
    let socketPath: String
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
    init(socketPath: String, log: @escaping @Sendable (String) -> Void) {
        self.socketPath = socketPath
        self.log = log
        let (deliveries, queue) = AsyncStream.makeStream(of: Delivery.self, bufferingPolicy: .bufferingNewest(Self.queueCapacity))
        self.queue = queue
        let feed = Task.detached { [self] in await self.feed(deliveries) }
        let follower = Task.detached { [self] in await self.follow() }
        tasks.withLock { $0 = [feed, follower] }
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
                _ = try await current.call(DockMethod.track.qualifiedName,
                                           Self.trackParameters(delivery.batch, hostCaptureTime: delivery.hostCaptureTime))
                state.withLock { $0.counts.sent += 1 }
            } catch DockClientError.remote(let name, let parameters) {
                let isFirst = state.withLock { state in
                    state.counts.refused += 1
                    return state.refusalsLogged.insert(name).inserted
                }
                if isFirst {
                    log("camera app: dockd refused a Track call: "
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
            _ = try await connection.call(DockMethod.setSystemTracking.qualifiedName, ["enabled": .bool(true)])
            _ = try await connection.call(DockMethod.setFramingMode.qualifiedName, ["mode": .string("center")])
            let isFirst = state.withLock { state in
                defer {
                    state.isConnected = true
                    state.hasConnected = true
                    state.isOutageLogged = false
                }
                return !state.hasConnected
            }
            log("camera app: \(isFirst ? "connected to" : "back with") dockd at \(socketPath): tracking on, framing center")
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

    // MARK: The follower

    private func follow() async {
        var connection: VarlinkConnection?
        let clock = ContinuousClock()
        var next = clock.now
        while !Task.isCancelled {
            if connection == nil { connection = try? VarlinkConnection(path: socketPath) }
            if let current = connection {
                do {
                    let reply = try await current.call(DockMethod.getStatus.qualifiedName)
                    let primary = Self.primary(inStatusReply: reply)
                    let box = Self.primaryBox(inStatusReply: reply)
                    state.withLock { state in
                        state.primary = primary
                        state.primaryBox = box
                        state.counts.statusSamples += 1
                    }
                } catch DockClientError.remote {
                    state.withLock { $0.primary = .unknown; $0.primaryBox = nil }
                } catch {
                    connection = nil
                    state.withLock { $0.primary = .unknown; $0.primaryBox = nil }
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

    /// The parameters of the `Track` call for `batch`: its observations (the 64 most confident,
    /// the API's limit), the camera it was seen with, and its capture time on the host's clock.
    static func trackParameters(_ batch: DetectionBatch, hostCaptureTime: Duration) -> [String: JSONValue] {
        var observations = batch.observations
        if observations.count > 64 {
            observations = Array(observations.enumerated()
                .sorted { ($1.element.confidence, $0.offset) < ($0.element.confidence, $1.offset) }
                .prefix(64).sorted { $0.offset < $1.offset }.map(\.element))
        }
        let camera = batch.camera
        return [
            "observations": .array(observations.map { observation in
                .object([
                    "kind": .string(observation.kind.rawValue),
                    "box": .object(["x": .number(observation.box.x), "y": .number(observation.box.y),
                                    "width": .number(observation.box.width), "height": .number(observation.box.height)]),
                    "confidence": .number(observation.confidence),
                ])
            }),
            "camera": .object([
                "horizontal_fov": .number(camera.horizontalFieldOfViewRadians),
                "aspect_ratio": .number(camera.aspectRatio),
                "orientation": .string(camera.orientation.rawValue),
                "mirrored": .bool(camera.isMirrored),
            ]),
            "capture_time": .number(hostCaptureTime.secondsValue),
        ]
    }

    /// The box of the primary subject in a `GetStatus` reply (the subject flagged primary), nil
    /// when there is none or it has no usable box.
    static func primaryBox(inStatusReply reply: [String: JSONValue]) -> NormalizedRect? {
        guard case .object(let status)? = reply["status"], case .array(let subjects)? = status["subjects"] else { return nil }
        for case .object(let subject) in subjects {
            guard case .bool(true)? = subject["primary"], case .object(let box)? = subject["box"] else { continue }
            func value(_ key: String) -> Double? {
                switch box[key] {
                case .number(let number)?: number
                case .integer(let number)?: Double(number)
                default: nil
                }
            }
            guard let x = value("x"), let y = value("y"), let width = value("width"), let height = value("height") else { return nil }
            let rect = NormalizedRect(x: x, y: y, width: width, height: height)
            return rect.isUsable ? rect : nil
        }
        return nil
    }

    /// The primary subject in a `GetStatus` reply: its ID, none, or unknown when the reply has
    /// no status.
    static func primary(inStatusReply reply: [String: JSONValue]) -> TrackerPrimary {
        guard case .object(let status)? = reply["status"] else { return .unknown }
        switch status["primary"] {
        case .integer(let identifier)?: return .subject(Int(identifier))
        case .number(let identifier)? where identifier == identifier.rounded() && abs(identifier) < 1e9:
            return .subject(Int(identifier))
        default: return .none
        }
    }
}
