public import DockAPI
import Foundation
import Synchronization

/// DockKit's vector: x is pitch, y is yaw, z is roll (radians, or rad/s). **DockKit's pitch is
/// positive downwards; dockd's is positive upwards.** The conversions below flip pitch; yaw is
/// positive to the right in both. Roll is not driven by a pan-tilt dock and is always zero here.
public struct Vector3D: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

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
    public var angularPositions: Vector3D
    public var angularVelocities: Vector3D
    public var timestamp: Double
}

/// The built-in animations, named as in DockKit.
public enum Animation: String, CaseIterable, Hashable, Sendable {
    case yes, no, wake, kapow
}

/// A button or camera control on the dock, as DockKit names them.
public enum AccessoryEvent: Hashable, Sendable {
    case cameraShutter
    case cameraFlip
    case cameraZoom(steps: Int)
    case button(id: Int, pressed: Bool)
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
    private let socketPath: String
    let connection: VarlinkConnection

    init(_ json: [String: JSONValue], socketPath: String, connection: VarlinkConnection) {
        identifier = json["id"]?.stringValue ?? ""
        model = json["model"]?.stringValue ?? ""
        firmwareVersion = json["firmware"]?.stringValue ?? ""
        device = json["device"]?.stringValue ?? ""
        self.socketPath = socketPath
        self.connection = connection
    }

    var accessoryParameters: [String: JSONValue] { ["accessory": .string(identifier)] }
    var socketPathForStreams: String { socketPath }
    private var accessory: [String: JSONValue] { accessoryParameters }

    /// Turns the dock at `angularVelocity` (DockKit axes: x pitch, + down; y yaw, + right) for
    /// half a second; call again to keep it turning, or pass a zero vector to stop.
    public func setAngularVelocity(_ angularVelocity: Vector3D) async throws(DockClientError) {
        var parameters = accessory
        parameters["yaw"] = .number(angularVelocity.dockdYaw)
        parameters["pitch"] = .number(angularVelocity.dockdPitch)
        _ = try await connection.call(DockMethod.setVelocity.qualifiedName, parameters)
    }

    /// Moves the dock to `rotation` (DockKit axes) over `duration`, absolute or relative.
    public func setOrientation(_ rotation: Vector3D, duration: Duration = .seconds(1), relative: Bool = false)
        async throws(DockClientError)
    {
        var parameters = accessory
        parameters["yaw"] = .number(rotation.dockdYaw)
        parameters["pitch"] = .number(rotation.dockdPitch)
        parameters["relative"] = .bool(relative)
        let (seconds, attoseconds) = duration.components
        parameters["duration"] = .number(Double(seconds) + Double(attoseconds) / 1e18)
        // Like DockKit's Progress, this returns when the move has ended (or throws how it failed).
        parameters["wait"] = .bool(true)
        _ = try await connection.call(DockMethod.setOrientation.qualifiedName, parameters)
    }

    /// Plays a built-in animation; returns when it has finished (or was replaced).
    public func animate(motion: Animation) async throws(DockClientError) {
        var parameters = accessory
        parameters["animation"] = .string(motion.rawValue)
        parameters["wait"] = .bool(true)
        _ = try await connection.call(DockMethod.animate.qualifiedName, parameters)
    }

    /// Turns system tracking on or off for this dock.
    public func setSystemTrackingEnabled(_ enabled: Bool) async throws(DockClientError) {
        var parameters = accessory
        parameters["enabled"] = .bool(enabled)
        _ = try await connection.call(DockMethod.setSystemTracking.qualifiedName, parameters)
    }

    /// The dock's motion at 10 Hz, in DockKit's axes and signs (on a connection of its own).
    public var motionStates: AsyncThrowingStream<MotionState, any Error> {
        get throws(DockClientError) {
            let watch = try VarlinkConnection(path: socketPath).stream(DockMethod.watch.qualifiedName, accessory)
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await reply in watch {
                            guard case .object(let event)? = reply["event"], event["kind"]?.stringValue == "status",
                                case .object(let status)? = event["status"], case .object(let pose)? = status["pose"]
                            else { continue }
                            continuation.yield(MotionState(
                                angularPositions: .fromDockd(yaw: pose["yaw"]?.doubleValue ?? 0, pitch: pose["pitch"]?.doubleValue ?? 0),
                                angularVelocities: .fromDockd(yaw: pose["yaw_rate"]?.doubleValue ?? 0,
                                                              pitch: pose["pitch_rate"]?.doubleValue ?? 0),
                                timestamp: event["time"]?.doubleValue ?? 0))
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
}

/// The state of tracking, as DockKit's `trackingStates` reports it: whether system tracking is on,
/// the framing mode, the subjects selected, and the tracked subjects.
public struct TrackingState: Hashable, Sendable {
    public var isSystemTrackingEnabled: Bool
    public var framingMode: FramingMode
    public var selectedSubjectIdentifiers: [Int]
    /// The subjects dockd tracks, as DockKit's `trackedSubjects`.
    public var trackedSubjects: [TrackedSubject]
    public var timestamp: Double
}

/// One tracked subject, as DockKit's `TrackedPerson` / `TrackedObject`: identifier, what it is,
/// **its rectangle with Vision's origin, the bottom left** (nil when it is behind the camera), its
/// saliency rank (1 = most salient), and whether the dock follows it.
public struct TrackedSubject: Hashable, Sendable {
    public enum SubjectType: String, Hashable, Sendable { case person, face, object }

    public var identifier: Int
    public var type: SubjectType
    public var rect: Rect?
    public var saliencyRank: Int
    public var isPrimary: Bool

    init?(_ value: JSONValue) {
        guard case .object(let members) = value, let identifier = members["id"]?.doubleValue else { return nil }
        self.identifier = Int(identifier)
        type = switch members["kind"]?.stringValue {
        case "body": .person
        case "face": .face
        default: .object
        }
        if case .object(let box)? = members["box"], let x = box["x"]?.doubleValue, let y = box["y"]?.doubleValue,
            let width = box["width"]?.doubleValue, let height = box["height"]?.doubleValue
        {
            rect = Rect(x: x, y: 1 - y - height, width: width, height: height)
        }
        saliencyRank = Int(members["saliency_rank"]?.doubleValue ?? 0)
        isPrimary = members["primary"]?.boolValue ?? false
    }
}

extension DockAccessory {
    /// Events of this dock's buttons and camera controls, on a connection of their own.
    public var accessoryEvents: AsyncThrowingStream<AccessoryEvent, any Error> {
        get throws(DockClientError) {
            try watchEvents { event, _ in
                // The event's own fields, never its text.
                guard event["kind"]?.stringValue == "button", case .object(let button)? = event["button"],
                    let name = button["button"]?.stringValue
                else { return nil }
                let pressed = button["pressed"]?.boolValue ?? false
                switch name {
                case "tracking": return .trackingButton(pressed: pressed)
                case "shutter": return pressed ? .cameraShutter : nil
                case "flip": return pressed ? .cameraFlip : nil
                case "zoom": return button["steps"]?.doubleValue.map { .cameraZoom(steps: Int($0)) }
                case "custom": return button["identifier"]?.doubleValue.map { .button(id: Int($0), pressed: pressed) }
                default: return nil
                }
            }
        }
    }

    /// Tracking state changes (sampled from the 10 Hz status; repeated states are left out).
    public var trackingStates: AsyncThrowingStream<TrackingState, any Error> {
        get throws(DockClientError) {
            final class Last: Sendable { let state = Mutex<TrackingState?>(nil) }
            let last = Last()
            return try watchEvents { event, status in
                let state = TrackingState(
                    isSystemTrackingEnabled: status["tracking"]?.boolValue ?? false,
                    framingMode: FramingMode(rawValue: status["framing"]?.stringValue ?? "") ?? .automatic,
                    selectedSubjectIdentifiers: {
                        if case .array(let list)? = status["selected_subjects"] { list.compactMap(\.doubleValue).map { Int($0) } } else { [] }
                    }(),
                    trackedSubjects: {
                        if case .array(let list)? = status["subjects"] { list.compactMap(TrackedSubject.init) } else { [] }
                    }(),
                    timestamp: event["time"]?.doubleValue ?? 0)
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
        _ transform: @escaping @Sendable ([String: JSONValue], [String: JSONValue]) -> Value?
    ) throws(DockClientError) -> AsyncThrowingStream<Value, any Error> {
        let watch = try VarlinkConnection(path: socketPathForStreams).stream(DockMethod.watch.qualifiedName, accessoryParameters)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await reply in watch {
                        guard case .object(let event)? = reply["event"], case .object(let status)? = event["status"] else { continue }
                        if let value = transform(event, status) { continuation.yield(value) }
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

    /// Connects to dockd at `socketPath`; without one, at the first that answers of
    /// ``DockdSocket/defaultPaths(environment:)``: `DOCKD_SOCKET`, else (for a normal user) the
    /// per-user socket and then `/run/dockd/dockd.sock`.
    ///
    /// - Parameter environment: where `DOCKD_SOCKET` and `XDG_RUNTIME_DIR` are read; nil: the process's.
    public init(socketPath: String? = nil, environment: [String: String]? = nil) throws(DockClientError) {
        let paths = socketPath.map { [$0] }
            ?? DockdSocket.defaultPaths(environment: environment ?? ProcessInfo.processInfo.environment)
        (connection, self.socketPath) = try VarlinkConnection.connect(toFirstOf: paths)
    }

    /// The docks dockd has attached.
    public func accessories() async throws(DockClientError) -> [DockAccessory] {
        let reply = try await connection.call(DockMethod.listAccessories.qualifiedName)
        guard case .array(let list)? = reply["accessories"] else { return [] }
        return list.compactMap { value in
            guard case .object(let members) = value else { return nil }
            return DockAccessory(members, socketPath: socketPath, connection: connection)
        }
    }

    /// A dock attaching or going away, as DockKit's `accessoryStateChanges` reports it.
    public struct StateChange: Hashable, Sendable {
        public enum State: Hashable, Sendable { case docked, undocked }
        public var state: State
        public var accessoryIdentifier: String?
        public var isTrackingEnabled: Bool
    }

    /// Docked and undocked changes (a dock attaching counts as docked when a camera is mounted),
    /// on a connection of their own.
    public var accessoryStateChanges: AsyncThrowingStream<StateChange, any Error> {
        get throws(DockClientError) {
            let watch = try VarlinkConnection(path: socketPath).stream(DockMethod.watch.qualifiedName)
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await reply in watch {
                            guard case .object(let event)? = reply["event"], case .object(let status)? = event["status"] else { continue }
                            let identifier: String?
                            if case .object(let accessory)? = status["accessory"] { identifier = accessory["id"]?.stringValue } else { identifier = nil }
                            let tracking = status["tracking"]?.boolValue ?? false
                            switch event["kind"]?.stringValue {
                            case "attached", "docked":
                                if status["docked"]?.boolValue == true {
                                    continuation.yield(StateChange(state: .docked, accessoryIdentifier: identifier, isTrackingEnabled: tracking))
                                }
                            case "undocked", "disconnected":
                                continuation.yield(StateChange(state: .undocked, accessoryIdentifier: identifier, isTrackingEnabled: tracking))
                            default:
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
        _ = try await connection.call(DockMethod.setSystemTracking.qualifiedName, ["enabled": .bool(enabled)])
    }

    /// The raw status of the daemon's dock, in dockd's own conventions.
    public func status() async throws(DockClientError) -> [String: JSONValue] {
        let reply = try await connection.call(DockMethod.getStatus.qualifiedName)
        guard case .object(let status)? = reply["status"] else { throw .unexpectedReply(JSONValue.object(reply).serialized) }
        return status
    }
}

/// A rectangle in normalised image coordinates (DockKit uses `CGRect`).
public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    var json: JSONValue {
        .object(["x": .number(x), "y": .number(y), "width": .number(width), "height": .number(height)])
    }
}

/// Where the subject sits in the frame, as DockKit's `FramingMode`.
public enum FramingMode: String, CaseIterable, Hashable, Sendable {
    case automatic, center, left, right
}

/// One detection, as DockKit's `DockAccessory.Observation`: **its rectangle has Vision's origin,
/// the bottom left** (y grows upwards); the client turns it into dockd's top-left boxes.
public struct Observation: Hashable, Sendable {
    public enum ObservationType: String, Hashable, Sendable { case humanFace, humanBody, object }

    public var identifier: Int
    public var type: ObservationType
    public var rect: Rect

    public init(identifier: Int, type: ObservationType, rect: Rect) {
        self.identifier = identifier
        self.type = type
        self.rect = rect
    }

    var json: JSONValue {
        let kind = switch type {
        case .humanFace: "face"
        case .humanBody: "body"
        case .object: "object"
        }
        let topLeft = Rect(x: rect.x, y: 1 - rect.y - rect.height, width: rect.width, height: rect.height)
        return .object(["kind": .string(kind), "box": topLeft.json, "identifier": .integer(Int64(identifier))])
    }
}

/// The camera behind a batch of observations (DockKit's `CameraInformation`, reduced to what the
/// tracker needs): field of view, aspect ratio, mirroring, and the capture time on the host's
/// monotonic clock in seconds.
public struct CameraInformation: Hashable, Sendable {
    public var horizontalFieldOfViewRadians: Double
    public var aspectRatio: Double
    public var isMirrored: Bool
    public var captureTimeSeconds: Double

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
        var parameters = accessoryParameters
        parameters["mode"] = .string(mode.rawValue)
        _ = try await connection.call(DockMethod.setFramingMode.qualifiedName, parameters)
    }

    /// Limits framing to a region of the image (top-left origin, as DockKit's region of interest).
    public func setRegionOfInterest(_ region: Rect) async throws(DockClientError) {
        var parameters = accessoryParameters
        parameters["region"] = region.json
        _ = try await connection.call(DockMethod.setRegionOfInterest.qualifiedName, parameters)
    }

    /// Hands the tracker one frame's observations (Vision's bottom-left rectangles).
    public func track(_ observations: [Observation], cameraInformation: CameraInformation) async throws(DockClientError) {
        var parameters = accessoryParameters
        parameters["observations"] = .array(observations.map(\.json))
        parameters["camera"] = .object(["horizontal_fov": .number(cameraInformation.horizontalFieldOfViewRadians),
                                        "aspect_ratio": .number(cameraInformation.aspectRatio),
                                        "mirrored": .bool(cameraInformation.isMirrored)])
        parameters["capture_time"] = .number(cameraInformation.captureTimeSeconds)
        _ = try await connection.call(DockMethod.track.qualifiedName, parameters)
    }
}
