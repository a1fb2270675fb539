import DockJSON
import DockNumbers
import DockVocabulary

extension DockCall {
    /// The call as a client sends it, for dockd's only accessory (nil) or the one named: the inverse of
    /// ``DockCall/parse(_:)``, so that `parse(encode(c)) == c` for every call the parser produces.
    ///
    /// Two requests have no wire form of their own and encode as their nearest call: a
    /// `MotionRequest.stop` as `Stop` (which parses back as ``ClientRequest/stop(takeOver:)``),
    /// and a `LimitRequest` with two different speeds as `SetLimits` with the lower one
    /// (`max_speed` is one speed for both axes).
    public func encoded(accessory: String? = nil) -> VarlinkCall {
        var parameters: [String: JSONValue] = [:]
        func flags(takeOver: Bool, waits: Bool) {
            parameters["take_over"] = .bool(takeOver)
            parameters["wait"] = .bool(waits)
        }
        let method: DockMethod
        switch self {
        case .serviceInfo:
            return VarlinkCall(method: VarlinkService.name + ".GetInfo", parameters: [:])
        case .interfaceDescription(let name):
            return VarlinkCall(method: VarlinkService.name + ".GetInterfaceDescription", parameters: ["interface": .string(name)])
        case .listAccessories:
            return VarlinkCall(method: DockMethod.listAccessories.qualifiedName, parameters: [:])
        case .getStatus:
            method = .getStatus
        case .watch:
            method = .watch
        case .host(let request):
            switch request {
            case .motion(.velocity(let yaw, let pitch, let duration), let takeOver, let waits):
                method = .setVelocity
                parameters = ["yaw": .number(yaw), "pitch": .number(pitch)]
                if let duration { parameters["duration"] = .number(duration.secondsValue) }
                flags(takeOver: takeOver, waits: waits)
            case .motion(.orientation(let yaw, let pitch, let isRelative, let pace), let takeOver, let waits):
                method = .setOrientation
                parameters = ["yaw": .number(yaw), "pitch": .number(pitch), "relative": .bool(isRelative)]
                switch pace {
                case .duration(let duration): parameters["duration"] = .number(duration.secondsValue)
                case .maximumSpeed(let speed): parameters["speed"] = .number(speed)
                case .fastest: break
                }
                flags(takeOver: takeOver, waits: waits)
            case .motion(.animate(let kind), let takeOver, let waits):
                method = .animate
                parameters = ["animation": .string(kind.rawValue)]
                flags(takeOver: takeOver, waits: waits)
            case .motion(.stop, let takeOver, _), .stop(let takeOver):
                method = .stop
                parameters = ["take_over": .bool(takeOver)]
            case .acquireControl(let takeOver):
                method = .acquireControl
                parameters = ["take_over": .bool(takeOver)]
            case .releaseControl:
                method = .releaseControl
            case .setZoom(let zoom):
                method = .setZoom
                parameters = ["zoom": .number(zoom)]
            case .setSystemTracking(let enabled):
                method = .setSystemTracking
                parameters = ["enabled": .bool(enabled)]
            case .setLimits(let limits):
                method = .setLimits
                if let yaw = limits.yawRadians { parameters["yaw"] = Dock.Limits.json(yaw) }
                if let pitch = limits.pitchRadians { parameters["pitch"] = Dock.Limits.json(pitch) }
                let speeds = [limits.yawSpeedRadiansPerSecond, limits.pitchSpeedRadiansPerSecond].compactMap { $0 }
                if let speed = speeds.min() { parameters["max_speed"] = .number(speed) }
            case .setFramingMode(let mode):
                method = .setFramingMode
                parameters = ["mode": .string(mode.rawValue)]
            case .setShotSize(let shot):
                method = .setShotSize
                parameters = ["shot": .string(shot.name)]
                if let fraction = shot.fraction { parameters["fraction"] = .number(fraction) }
            case .setRegionOfInterest(let region):
                method = .setRegionOfInterest
                parameters = ["region": region.json]
            case .selectSubjects(let subjects):
                method = .selectSubjects
                parameters = ["subjects": .array(subjects.map { .integer(Int64($0)) })]
            case .selectSubject(let point):
                method = .selectSubjectAt
                parameters = ["point": point.json]
            case .track(let batch):
                method = .track
                parameters = Self.trackParameters(batch)
            case .savePreset(let name):
                method = .savePreset
                parameters = ["name": .string(name)]
            case .listPresets:
                method = .listPresets
            case .recallPreset(let name, let takeOver, let waits):
                method = .recallPreset
                parameters = ["name": .string(name)]
                flags(takeOver: takeOver, waits: waits)
            case .deletePreset(let name):
                method = .deletePreset
                parameters = ["name": .string(name)]
            case .setLostBehaviour(let after, let action):
                method = .setLostBehaviour
                parameters = action?.members ?? [:]
                if let after { parameters["after"] = .number(after.secondsValue) }
            case .setFramingSpeed(let change):
                method = .setFramingSpeed
                parameters = change.parameters
            }
        }
        if let accessory { parameters["accessory"] = .string(accessory) }
        return VarlinkCall(method: method.qualifiedName, parameters: parameters, wantsMore: method == .watch)
    }

    /// A `Track` call's parameters.
    static func trackParameters(_ batch: ObservationBatch) -> [String: JSONValue] {
        let observations: [JSONValue] = batch.observations.map { observation in
            var members: [String: JSONValue] = [
                "kind": .string(observation.kind.rawValue), "box": observation.box.json,
                "confidence": .number(observation.confidence),
            ]
            if let identifier = observation.identifier { members["identifier"] = .integer(Int64(identifier)) }
            if let appearance = observation.appearance { members["appearance"] = .array(appearance.map { .number(Double($0)) }) }
            return .object(members)
        }
        let camera = batch.camera
        return [
            "observations": .array(observations),
            "camera": .object([
                "horizontal_fov": .number(camera.horizontalFieldOfViewRadians), "aspect_ratio": .number(camera.aspectRatio),
                "orientation": .string(camera.orientation.rawValue), "mirrored": .bool(camera.isMirrored),
            ]),
            "capture_time": .number(batch.captureTime.secondsValue),
        ]
    }
}

extension DockCall.Parsed {
    /// The call as a client sends it.
    public var encoded: VarlinkCall { call.encoded(accessory: accessory) }
}

extension DockCall {
    /// The `io.dockd.Dock` method of the call (nil for the service interface's).
    public var method: DockMethod? {
        switch self {
        case .getStatus: .getStatus
        case .listAccessories: .listAccessories
        case .watch: .watch
        case .serviceInfo, .interfaceDescription: nil
        case .host(let request):
            switch request {
            case .motion(.velocity, _, _): .setVelocity
            case .motion(.orientation, _, _): .setOrientation
            case .motion(.animate, _, _): .animate
            case .motion(.stop, _, _), .stop: .stop
            case .acquireControl: .acquireControl
            case .releaseControl: .releaseControl
            case .setZoom: .setZoom
            case .setSystemTracking: .setSystemTracking
            case .setLimits: .setLimits
            case .setFramingMode: .setFramingMode
            case .setShotSize: .setShotSize
            case .setRegionOfInterest: .setRegionOfInterest
            case .selectSubjects: .selectSubjects
            case .selectSubject: .selectSubjectAt
            case .track: .track
            case .savePreset: .savePreset
            case .listPresets: .listPresets
            case .recallPreset: .recallPreset
            case .deletePreset: .deletePreset
            case .setLostBehaviour: .setLostBehaviour
            case .setFramingSpeed: .setFramingSpeed
            }
        }
    }
}
