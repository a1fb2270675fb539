public import DockAPI
import DockCore
import DockHost
import DockProtocol
import DockTracking
import Foundation
import Synchronization

/// DockKit's vector: x is pitch, y is yaw, z is roll (radians, or rad/s). **DockKit's pitch is
/// positive downwards; dockd's is positive upwards.** The conversions below flip pitch; yaw is
/// positive to the right in both. Roll is not driven by a pan-tilt dock and is always zero here.
public struct Vector3D: Hashable, Sendable {
    /// Pitch, positive downwards (DockKit's sign).
    public var x: Double
    /// Yaw, positive to the right.
    public var y: Double
    /// Roll (not driven by a pan-tilt dock).
    public var z: Double

    /// Creates a vector in DockKit's axes.
    public init(x: Double = 0, y: Double = 0, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// dockd's yaw.
    var dockdYaw: Double { y }
    /// dockd's pitch (DockKit's x, sign flipped).
    var dockdPitch: Double { -x }

    /// The DockKit vector of a dockd yaw and pitch.
    static func fromDockd(yaw: Double, pitch: Double) -> Vector3D { Vector3D(x: -pitch, y: yaw, z: 0) }
}

/// The motion a dock reports: positions and velocities in DockKit's axes and signs, with the
/// host's monotonic time (not the UNIX epoch DockKit uses).
public struct MotionState: Hashable, Sendable {
    /// Where the dock points, radians.
    public var angularPositions: Vector3D
    /// How fast it turns, rad/s.
    public var angularVelocities: Vector3D
    /// The host's monotonic clock, seconds.
    public var timestamp: Double
}

/// The built-in animations, named as in DockKit.
public enum Animation: String, CaseIterable, Hashable, Sendable {
    /// A nod.
    case yes
    /// A shake.
    case no
    /// Waking up.
    case wake
    /// A quick tilt that snaps back.
    case kapow

    /// dockd's animation of the same name.
    var kind: AnimationKind { AnimationKind(rawValue: rawValue)! }
}

/// A button or camera control on the dock, as DockKit names them.
public enum AccessoryEvent: Hashable, Sendable {
    /// The shutter button was pressed.
    case cameraShutter
    /// The camera-flip button was pressed.
    case cameraFlip
    /// The zoom rocker moved this many steps (positive: in).
    case cameraZoom(steps: Int)
    /// A vendor's button went down or up.
    case button(id: Int, pressed: Bool)
    /// The tracking button went down or up.
    case trackingButton(pressed: Bool)
}

/// A dock as the manager lists it.
public struct DockAccessory: Sendable {
    /// The dock's serial number.
    public let identifier: String
    /// Its model name.
    public let model: String
    /// Its firmware version.
    public let firmwareVersion: String
    /// The port it is on.
    public let device: String
    let connection: VarlinkConnection
    private let hub: EventHub

    init(_ accessory: Dock.Accessory, connection: VarlinkConnection, hub: EventHub) {
        identifier = accessory.identifier
        model = accessory.model
        firmwareVersion = accessory.firmwareVersion
        device = accessory.device
        self.connection = connection
        self.hub = hub
    }

    /// Calls dockd for this dock.
    func call(_ request: ClientRequest) async throws(DockClientError) -> Dock.Reply {
        try await connection.call(.host(request), accessory: identifier)
    }

    /// `Watch`'s events, from the manager's one stream (dockd serves one dock: the daemon's).
    func events() -> AsyncThrowingStream<Dock.Event, any Error> {
        hub.subscribe()
    }

    /// Turns the dock at `angularVelocity` (DockKit axes: x pitch, + down; y yaw, + right) for
    /// half a second; call again to keep it turning, or pass a zero vector to stop.
    public func setAngularVelocity(_ angularVelocity: Vector3D) async throws(DockClientError) {
        _ = try await call(.motion(.velocity(yawRadiansPerSecond: angularVelocity.dockdYaw, pitchRadiansPerSecond: angularVelocity.dockdPitch,
                                             duration: nil), takeOver: false, waitsForEnd: false))
    }

    /// Moves the dock to `rotation` (DockKit axes) over `duration`, absolute or relative.
    public func setOrientation(_ rotation: Vector3D, duration: Duration = .seconds(1), relative: Bool = false)
        async throws(DockClientError)
    {
        // Like DockKit's Progress, this returns when the move has ended (or throws how it failed).
        _ = try await call(.motion(.orientation(yawRadians: rotation.dockdYaw, pitchRadians: rotation.dockdPitch, isRelative: relative,
                                                pace: .duration(duration)), takeOver: false, waitsForEnd: true))
    }

    /// Plays a built-in animation; returns when it has finished (or was replaced).
    public func animate(motion: Animation) async throws(DockClientError) {
        _ = try await call(.motion(.animate(motion.kind), takeOver: false, waitsForEnd: true))
    }

    /// Turns system tracking on or off for this dock.
    public func setSystemTrackingEnabled(_ enabled: Bool) async throws(DockClientError) {
        _ = try await call(.setSystemTracking(enabled))
    }

    /// The dock's motion at 10 Hz, in DockKit's axes and signs (on the manager's connection).
    public var motionStates: AsyncThrowingStream<MotionState, any Error> {
        get throws(DockClientError) {
            try watchEvents { event in
                guard event.kind == .status, let pose = event.status.pose else { return nil }
                return MotionState(angularPositions: .fromDockd(yaw: pose.yawRadians, pitch: pose.pitchRadians),
                                   angularVelocities: .fromDockd(yaw: pose.yawRadiansPerSecond, pitch: pose.pitchRadiansPerSecond),
                                   timestamp: event.timeSeconds)
            }
        }
    }
}

/// The state of tracking, as DockKit's `trackingStates` reports it: whether system tracking is on,
/// the framing mode, the subjects selected, and the tracked subjects.
public struct TrackingState: Hashable, Sendable {
    /// Whether system tracking is on.
    public var isSystemTrackingEnabled: Bool
    /// Where the subject sits in the frame.
    public var framingMode: FramingMode
    /// The subjects a client chose (empty: dockd chooses).
    public var selectedSubjectIdentifiers: [Int]
    /// The subjects dockd tracks, as DockKit's `trackedSubjects`.
    public var trackedSubjects: [TrackedSubject]
    /// The host's monotonic clock, seconds.
    public var timestamp: Double
}

/// One tracked subject, as DockKit's `TrackedPerson` / `TrackedObject`: identifier, what it is,
/// **its rectangle with Vision's origin, the bottom left** (nil when it is behind the camera), its
/// saliency rank (1 = most salient), and whether the dock follows it.
public struct TrackedSubject: Hashable, Sendable {
    /// What a subject is.
    public enum SubjectType: String, Hashable, Sendable {
        /// A person (dockd's body).
        case person
        /// A face.
        case face
        /// Anything else.
        case object
    }

    /// dockd's identifier for it, stable while it is tracked.
    public var identifier: Int
    /// What it is.
    public var type: SubjectType
    /// Its rectangle, origin at the bottom left; nil when it is behind the camera.
    public var rect: Rect?
    /// 1 for the most salient subject, 2 for the next...
    public var saliencyRank: Int
    /// Whether the dock follows it.
    public var isPrimary: Bool

    init(_ summary: SubjectSummary) {
        identifier = summary.identifier
        type = switch summary.kind {
        case .body: .person
        case .face: .face
        case .object: .object
        }
        rect = summary.box.map { Rect(x: $0.x, y: 1 - $0.y - $0.height, width: $0.width, height: $0.height) }
        saliencyRank = summary.saliencyRank
        isPrimary = summary.isPrimary
    }
}

extension DockAccessory {
    /// Events of this dock's buttons and camera controls (on the manager's connection).
    public var accessoryEvents: AsyncThrowingStream<AccessoryEvent, any Error> {
        get throws(DockClientError) {
            try watchEvents { event in
                // The event's own fields, never its text.
                guard case .button(let button) = event.payload else { return nil }
                switch button {
                case .trackingButton(let pressed): return .trackingButton(pressed: pressed)
                case .shutterButton(let pressed): return pressed ? .cameraShutter : nil
                case .flipButton(let pressed): return pressed ? .cameraFlip : nil
                case .zoom(let steps): return .cameraZoom(steps: Int(steps))
                case .customButton(let identifier, let pressed): return .button(id: Int(identifier), pressed: pressed)
                case .dockChanged: return nil
                }
            }
        }
    }

    /// Tracking state changes (sampled from the 10 Hz status; repeated states are left out).
    public var trackingStates: AsyncThrowingStream<TrackingState, any Error> {
        get throws(DockClientError) {
            final class Last: Sendable { let state = Mutex<TrackingState?>(nil) }
            let last = Last()
            return try watchEvents { event in
                let status = event.status
                let state = TrackingState(
                    isSystemTrackingEnabled: status.isTrackingEnabled, framingMode: FramingMode(status.framingMode),
                    selectedSubjectIdentifiers: status.selectedSubjects, trackedSubjects: status.subjects.map(TrackedSubject.init),
                    timestamp: event.timeSeconds)
                let changed = last.state.withLock { previous in
                    defer { previous = state }
                    return previous.map { $0.isSystemTrackingEnabled != state.isSystemTrackingEnabled
                        || $0.framingMode != state.framingMode
                        || $0.selectedSubjectIdentifiers != state.selectedSubjectIdentifiers
                        || $0.trackedSubjects != state.trackedSubjects } ?? true
                }
                return changed ? state : nil
            }
        }
    }

    /// Watch's events, each turned into a value (or skipped when `transform` returns nil).
    private func watchEvents<Value: Sendable>(
        _ transform: @escaping @Sendable (Dock.Event) -> Value?
    ) throws(DockClientError) -> AsyncThrowingStream<Value, any Error> {
        let events = events()
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        if let value = transform(event) { continuation.yield(value) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The entry point, as in DockKit: connects to dockd and lists its docks.
public final class DockAccessoryManager: Sendable {
    /// dockd's socket.
    public let socketPath: String
    private let connection: VarlinkConnection
    private let hub: EventHub

    /// Connects to dockd at `socketPath`; without one, at the first that answers of
    /// ``DockdSocket/defaultPaths(environment:)``: `DOCKD_SOCKET`, else (for a normal user) the
    /// per-user socket and then `/run/dockd/dockd.sock`.
    ///
    /// - Parameter environment: where `DOCKD_SOCKET` and `XDG_RUNTIME_DIR` are read; nil: the process's.
    public init(socketPath: String? = nil, environment: [String: String]? = nil) throws(DockClientError) {
        let paths = socketPath.map { [$0] }
            ?? DockdSocket.defaultPaths(environment: environment ?? ProcessInfo.processInfo.environment)
        (connection, self.socketPath) = try VarlinkConnection.connect(toFirstOf: paths)
        hub = EventHub(connection: connection)
    }

    /// The docks dockd has attached.
    public func accessories() async throws(DockClientError) -> [DockAccessory] {
        guard case .accessories(let list) = try await connection.call(.listAccessories) else { return [] }
        return list.map { DockAccessory($0, connection: connection, hub: hub) }
    }

    /// A dock attaching or going away, as DockKit's `accessoryStateChanges` reports it.
    public struct StateChange: Hashable, Sendable {
        /// Docked or not.
        public enum State: Hashable, Sendable {
            /// A camera is on a dock that is attached.
            case docked
            /// The camera was removed, or the dock went away.
            case undocked
        }

        /// What changed.
        public var state: State
        /// The dock's serial number, when dockd knows it.
        public var accessoryIdentifier: String?
        /// Whether system tracking is on.
        public var isTrackingEnabled: Bool
    }

    /// Docked and undocked changes (a dock attaching counts as docked when a camera is mounted),
    /// on the manager's connection.
    public var accessoryStateChanges: AsyncThrowingStream<StateChange, any Error> {
        get throws(DockClientError) {
            let events = hub.subscribe()
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await event in events {
                            let status = event.status
                            let identifier = status.accessory?.identifier
                            switch event.kind {
                            case .attached, .docked:
                                if status.isDocked {
                                    continuation.yield(StateChange(state: .docked, accessoryIdentifier: identifier,
                                                                   isTrackingEnabled: status.isTrackingEnabled))
                                }
                            case .undocked, .disconnected:
                                continuation.yield(StateChange(state: .undocked, accessoryIdentifier: identifier,
                                                               isTrackingEnabled: status.isTrackingEnabled))
                            case .status, .button, .fault, .control, .refused, .framing, .motionEnded:
                                continue
                            }
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    /// Turns system tracking on or off for the daemon's dock.
    public func setSystemTrackingEnabled(_ enabled: Bool) async throws(DockClientError) {
        _ = try await connection.call(.host(.setSystemTracking(enabled)))
    }

    /// The status of the daemon's dock, in dockd's own conventions (yaw > 0 right, pitch > 0 up,
    /// boxes from the top left).
    public func status() async throws(DockClientError) -> Dock.Status {
        try await connection.status()
    }
}

/// A rectangle in normalised image coordinates (DockKit uses `CGRect`).
public struct Rect: Hashable, Sendable {
    /// The left edge, 0...1.
    public var x: Double
    /// The edge at the origin (the bottom in observations and tracked subjects, the top in a
    /// region of interest), 0...1.
    public var y: Double
    /// The width, 0...1.
    public var width: Double
    /// The height, 0...1.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same rectangle as dockd's type (no change of origin).
    var normalized: NormalizedRect { NormalizedRect(x: x, y: y, width: width, height: height) }
}

/// Where the subject sits in the frame, as DockKit's `FramingMode`.
public enum FramingMode: String, CaseIterable, Hashable, Sendable {
    /// dockd chooses.
    case automatic
    /// In the centre.
    case center
    /// In the left third.
    case left
    /// In the right third.
    case right

    /// dockd's framing mode of the same name.
    init(_ mode: DockTracking.FramingMode) { self.init(rawValue: mode.rawValue)! }

    /// This mode as dockd's.
    var dockd: DockTracking.FramingMode { DockTracking.FramingMode(rawValue: rawValue)! }
}

/// One detection, as DockKit's `DockAccessory.Observation`: **its rectangle has Vision's origin,
/// the bottom left** (y grows upwards); the client turns it into dockd's top-left boxes.
public struct Observation: Hashable, Sendable {
    /// What was detected.
    public enum ObservationType: String, Hashable, Sendable {
        /// A face.
        case humanFace
        /// A person's body.
        case humanBody
        /// Anything else.
        case object
    }

    /// The detector's own identifier for it.
    public var identifier: Int
    /// What it is.
    public var type: ObservationType
    /// Where it is, origin at the bottom left.
    public var rect: Rect

    /// Creates an observation.
    public init(identifier: Int, type: ObservationType, rect: Rect) {
        self.identifier = identifier
        self.type = type
        self.rect = rect
    }

    /// The observation as dockd takes it: a top-left box.
    var dockd: DockTracking.Observation {
        let kind: SubjectKind = switch type {
        case .humanFace: .face
        case .humanBody: .body
        case .object: .object
        }
        let topLeft = NormalizedRect(x: rect.x, y: 1 - rect.y - rect.height, width: rect.width, height: rect.height)
        return DockTracking.Observation(kind: kind, box: topLeft, confidence: 1, identifier: identifier)
    }
}

/// The camera behind a batch of observations (DockKit's `CameraInformation`, reduced to what the
/// tracker needs): field of view, aspect ratio, mirroring, and the capture time on the host's
/// monotonic clock in seconds.
public struct CameraInformation: Hashable, Sendable {
    /// The horizontal field of view, radians (0 to pi).
    public var horizontalFieldOfViewRadians: Double
    /// Width over height.
    public var aspectRatio: Double
    /// Whether the image is mirrored (a selfie preview).
    public var isMirrored: Bool
    /// When the frame was captured, on the host's monotonic clock, seconds.
    public var captureTimeSeconds: Double

    /// Creates camera information.
    public init(horizontalFieldOfViewRadians: Double, aspectRatio: Double, isMirrored: Bool = false, captureTimeSeconds: Double) {
        self.horizontalFieldOfViewRadians = horizontalFieldOfViewRadians
        self.aspectRatio = aspectRatio
        self.isMirrored = isMirrored
        self.captureTimeSeconds = captureTimeSeconds
    }
}

extension DockAccessory {
    /// Chooses where the subject sits in the frame.
    public func setFramingMode(_ mode: FramingMode) async throws(DockClientError) {
        _ = try await call(.setFramingMode(mode.dockd))
    }

    /// Limits framing to a region of the image (top-left origin, as DockKit's region of interest).
    public func setRegionOfInterest(_ region: Rect) async throws(DockClientError) {
        _ = try await call(.setRegionOfInterest(region.normalized))
    }

    /// Hands the tracker one frame's observations (Vision's bottom-left rectangles).
    ///
    /// - Throws: ``DockClientError/invalidArgument(_:)`` when the capture time is not a finite
    ///   number of seconds; dockd's own checks as ``DockClientError/remote(name:parameters:)``.
    public func track(_ observations: [Observation], cameraInformation: CameraInformation) async throws(DockClientError) {
        guard let captureTime = Duration.fromSeconds(cameraInformation.captureTimeSeconds) else {
            throw .invalidArgument(ParameterError(parameter: "cameraInformation.captureTimeSeconds", reason: "must be finite"))
        }
        let camera = DockTracking.CameraInformation(horizontalFieldOfViewRadians: cameraInformation.horizontalFieldOfViewRadians,
                                                    aspectRatio: cameraInformation.aspectRatio, orientation: .up,
                                                    isMirrored: cameraInformation.isMirrored)
        _ = try await call(.track(ObservationBatch(observations: observations.map(\.dockd), camera: camera, captureTime: captureTime)))
    }
}
