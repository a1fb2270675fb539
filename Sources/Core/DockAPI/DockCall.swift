import DockJSON
import DockNumbers
public import DockVocabulary

/// The `io.dockd.Dock` methods, by name: the one place their names are spelled.
public enum DockMethod: String, CaseIterable, Hashable, Sendable {
    case getStatus = "GetStatus"
    case listAccessories = "ListAccessories"
    case watch = "Watch"
    case setVelocity = "SetVelocity"
    case setOrientation = "SetOrientation"
    case stop = "Stop"
    case animate = "Animate"
    case setSystemTracking = "SetSystemTracking"
    case track = "Track"
    case setFramingMode = "SetFramingMode"
    case setShotSize = "SetShotSize"
    case setRegionOfInterest = "SetRegionOfInterest"
    case selectSubjects = "SelectSubjects"
    case selectSubjectAt = "SelectSubjectAt"
    case setLimits = "SetLimits"
    case setZoom = "SetZoom"
    case acquireControl = "AcquireControl"
    case releaseControl = "ReleaseControl"
    case savePreset = "SavePreset"
    case listPresets = "ListPresets"
    case recallPreset = "RecallPreset"
    case deletePreset = "DeletePreset"
    case setLostBehaviour = "SetLostBehaviour"
    case setFramingSpeed = "SetFramingSpeed"

    /// The fully qualified name, as a call carries it.
    public var qualifiedName: String { DockInterface.name + "." + rawValue }
}

/// One call to dockd, parsed and checked: every parameter of the right type, finite and in range,
/// or the call is refused whole with the offending parameter named.
public enum DockCall: Hashable, Sendable {
    /// `GetStatus`.
    case getStatus
    /// `ListAccessories`.
    case listAccessories
    /// `Watch` (a streaming call).
    case watch
    /// A request the host's policy answers (motion, control, tracking, framing, limits).
    case host(ClientRequest)
    /// `org.varlink.service.GetInfo`.
    case serviceInfo
    /// `org.varlink.service.GetInterfaceDescription`.
    case interfaceDescription(String)

    /// A parsed call with the accessory it is for (nil: dockd's only one).
    public struct Parsed: Hashable, Sendable {
        /// What is asked.
        public var call: DockCall
        /// The `accessory` parameter.
        public var accessory: String?

        /// A call for an accessory (nil: dockd's only one).
        public init(call: DockCall, accessory: String? = nil) {
            self.call = call
            self.accessory = accessory
        }
    }

    /// Why a call cannot be answered: a bad parameter, or an unknown method or interface.
    public enum Refusal: Error, Hashable, Sendable {
        /// A parameter is wrong.
        case parameter(ParameterError)
        /// No such method.
        case methodNotFound(String)
        /// No such interface.
        case interfaceNotFound(String)
        /// The service interface's own parameter check.
        case serviceParameter(String)

        /// The reply that says so.
        public var reply: VarlinkReply {
            switch self {
            case .parameter(let error): error.reply
            case .methodNotFound(let method): .failure(VarlinkService.Error.methodNotFound, ["method": .string(method)])
            case .interfaceNotFound(let name): .failure(VarlinkService.Error.interfaceNotFound, ["interface": .string(name)])
            case .serviceParameter(let name): .failure(VarlinkService.Error.invalidParameter, ["parameter": .string(name)])
            }
        }
    }

    /// Parses a call.
    public static func parse(_ call: VarlinkCall) throws(Refusal) -> Parsed {
        let method = call.method
        if method.hasPrefix(VarlinkService.name + ".") {
            return Parsed(call: try serviceCall(String(method.dropFirst(VarlinkService.name.count + 1)), call.parameters))
        }
        guard method.hasPrefix(DockInterface.name + ".") else {
            throw .interfaceNotFound(method.split(separator: ".").dropLast().joined(separator: "."))
        }
        guard let name = DockMethod(rawValue: String(method.dropFirst(DockInterface.name.count + 1))) else {
            throw .methodNotFound(method)
        }
        do {
            return try parse(name, call.parameters)
        } catch {
            throw .parameter(ParameterError(error))
        }
    }

    /// The reader of a call's parameters, or of an object among them, refusing up front the first
    /// name (in sorted order) that `allows` refuses; `null` counts as absent.
    private static func reader(_ members: [String: JSONValue], allows: (String) -> Bool) throws(JSONFieldError) -> JSONFields {
        let reader = try JSONFields(.object(members))
        try reader.refuseUnknown(allowing: allows)
        return reader
    }

    private static func serviceCall(_ name: String, _ parameters: [String: JSONValue]) throws(Refusal) -> DockCall {
        switch name {
        case "GetInfo":
            do {
                _ = try reader(parameters, allows: { _ in false })
            } catch {
                throw .parameter(ParameterError(error))
            }
            return .serviceInfo
        case "GetInterfaceDescription":
            let interface: String?
            do {
                interface = try reader(parameters, allows: { $0 == "interface" }).optionalString("interface")
            } catch {
                throw .parameter(ParameterError(error))
            }
            guard let interface else { throw .serviceParameter("interface") }
            return .interfaceDescription(interface)
        default:
            throw .methodNotFound(VarlinkService.name + "." + name)
        }
    }

    // swiftlint:disable:next cyclomatic_complexity
    private static func parse(_ method: DockMethod, _ parameters: [String: JSONValue]) throws(JSONFieldError) -> Parsed {
        func reader(_ names: Set<String>) throws(JSONFieldError) -> JSONFields {
            try Self.reader(parameters, allows: { $0 == "accessory" || names.contains($0) })
        }
        let accessory = try JSONFields(.object(parameters)).optionalString("accessory")
        func parsed(_ call: DockCall) -> Parsed { Parsed(call: call, accessory: accessory) }
        switch method {
        case .getStatus:
            _ = try reader([])
            return parsed(.getStatus)
        case .listAccessories:
            _ = try Self.reader(parameters, allows: { _ in false })
            return Parsed(call: .listAccessories, accessory: nil)
        case .watch:
            _ = try reader([])
            return parsed(.watch)
        case .setVelocity:
            let r = try reader(["yaw", "pitch", "duration", "take_over", "wait"])
            let duration = try r.optionalNumber("duration").map { seconds throws(JSONFieldError) -> Duration in
                guard seconds > 0, seconds <= 3600, let duration = Duration.fromSeconds(seconds) else {
                    throw JSONFieldError.field("duration", "must be more than 0 and at most 3600 seconds")
                }
                return duration
            }
            let request = MotionRequest.velocity(
                yawRadiansPerSecond: try r.number("yaw"), pitchRadiansPerSecond: try r.number("pitch"),
                duration: duration)
            return parsed(
                .host(
                    .motion(
                        request, takeOver: try r.optionalBool("take_over") ?? false,
                        waitsForEnd: try r.optionalBool("wait") ?? false)))
        case .setOrientation:
            let r = try reader(["yaw", "pitch", "relative", "duration", "speed", "take_over", "wait"])
            let pace: OrientationPace
            switch (try r.optionalNumber("duration"), try r.optionalNumber("speed")) {
            case (let seconds?, nil):
                guard seconds > 0, seconds <= 60, let duration = Duration.fromSeconds(seconds) else {
                    throw JSONFieldError.field("duration", "must be more than 0 and at most 60 seconds")
                }
                pace = .duration(duration)
            case (nil, let speed?):
                guard speed > 0 else { throw JSONFieldError.field("speed", "must be more than 0") }
                pace = .maximumSpeed(speed)
            case (nil, nil):
                pace = .fastest
            case (_?, _?):
                throw JSONFieldError.field("speed", "give duration or speed, not both")
            }
            let request = MotionRequest.orientation(
                yawRadians: try r.number("yaw"), pitchRadians: try r.number("pitch"),
                isRelative: try r.optionalBool("relative") ?? false, pace: pace)
            return parsed(
                .host(
                    .motion(
                        request, takeOver: try r.optionalBool("take_over") ?? false,
                        waitsForEnd: try r.optionalBool("wait") ?? false)))
        case .stop:
            let r = try reader(["take_over"])
            return parsed(.host(.stop(takeOver: try r.optionalBool("take_over") ?? false)))
        case .animate:
            let r = try reader(["animation", "take_over", "wait"])
            let kind = try r.choice("animation", as: AnimationKind.self)
            return parsed(
                .host(
                    .motion(
                        .animate(kind), takeOver: try r.optionalBool("take_over") ?? false,
                        waitsForEnd: try r.optionalBool("wait") ?? false)))
        case .setSystemTracking:
            let r = try reader(["enabled"])
            return parsed(.host(.setSystemTracking(try r.bool("enabled"))))
        case .setLimits:
            let r = try reader(["yaw", "pitch", "max_speed"])
            let speed = try r.optionalNumber("max_speed")
            if let speed, speed <= 0 { throw JSONFieldError.field("max_speed", "must be more than 0") }
            return parsed(
                .host(
                    .setLimits(
                        LimitRequest(
                            yawRadians: try Self.optionalRange(r, "yaw"), pitchRadians: try Self.optionalRange(r, "pitch"),
                            yawSpeedRadiansPerSecond: speed, pitchSpeedRadiansPerSecond: speed))))
        case .setZoom:
            let r = try reader(["zoom"])
            let zoom = try r.number("zoom")
            guard (0...1).contains(zoom) else { throw JSONFieldError.field("zoom", "must be within 0...1") }
            return parsed(.host(.setZoom(zoom)))
        case .acquireControl:
            let r = try reader(["take_over"])
            return parsed(.host(.acquireControl(takeOver: try r.optionalBool("take_over") ?? false)))
        case .releaseControl:
            _ = try reader([])
            return parsed(.host(.releaseControl))
        case .track:
            let r = try reader(["observations", "camera", "capture_time"])
            return parsed(.host(.track(try observationBatch(parameters, reader: r))))
        case .setFramingMode:
            let r = try reader(["mode"])
            return parsed(.host(.setFramingMode(try r.choice("mode", as: FramingMode.self))))
        case .setShotSize:
            let r = try reader(["shot", "fraction"])
            let name = try r.string("shot"), fraction = try r.optionalNumber("fraction")
            let shot: ShotSize
            do {
                shot = try ShotSize(name: name, fraction: fraction)
            } catch {
                throw JSONFieldError.field(error.field, error.description)
            }
            return parsed(.host(.setShotSize(shot)))
        case .setRegionOfInterest:
            _ = try reader(["region"])
            var region = NormalizedRect.fullImage
            if let given = parameters["region"], given != .null { region = try rect(given, "region") }
            return parsed(.host(.setRegionOfInterest(region)))
        case .selectSubjects:
            _ = try reader(["subjects"])
            guard case .array(let list)? = parameters["subjects"] else {
                throw JSONFieldError.field("subjects", "must be an array of subject IDs")
            }
            var subjects: [Int] = []
            for (index, value) in list.enumerated() {
                guard case .integer(let id) = value, id >= 0, id <= Int64(Int32.max) else {
                    throw JSONFieldError.field("subjects[\(index)]", "must be a subject ID (a whole number)")
                }
                subjects.append(Int(id))
            }
            return parsed(.host(.selectSubjects(subjects)))
        case .savePreset:
            return parsed(.host(.savePreset(name: try presetName(try reader(["name"])))))
        case .listPresets:
            _ = try reader([])
            return parsed(.host(.listPresets))
        case .recallPreset:
            let r = try reader(["name", "take_over", "wait"])
            return parsed(
                .host(
                    .recallPreset(
                        name: try presetName(r), takeOver: try r.optionalBool("take_over") ?? false,
                        waitsForEnd: try r.optionalBool("wait") ?? false)))
        case .deletePreset:
            return parsed(.host(.deletePreset(name: try presetName(try reader(["name"])))))
        case .setLostBehaviour:
            let r = try reader(["after", "action", "yaw", "pitch", "preset"])
            let after = try r.optionalNumber("after").map { seconds throws(JSONFieldError) -> Duration in
                guard seconds >= 0, seconds <= LostBehaviour.longestAfter.secondsValue, let duration = Duration.fromSeconds(seconds) else {
                    throw JSONFieldError.field("after", "must be 0 to \(Int(LostBehaviour.longestAfter.secondsValue)) seconds")
                }
                return duration
            }
            return parsed(.host(.setLostBehaviour(after: after, action: try LostBehaviour.Action.reading(r))))
        case .setFramingSpeed:
            let r = try reader(Set(["profile"] + FramingSpeedParameter.allCases.map(\.rawValue)))
            return parsed(
                .host(
                    .setFramingSpeed(
                        FramingSpeedChange(
                            profile: try r.optionalString("profile"),
                            yawMaximumSpeed: try r.optionalNumber(FramingSpeedParameter.yawMaximumSpeed.rawValue),
                            yawAcceleration: try r.optionalNumber(FramingSpeedParameter.yawAcceleration.rawValue),
                            yawDeadBand: try r.optionalNumber(FramingSpeedParameter.yawDeadBand.rawValue),
                            pitchMaximumSpeed: try r.optionalNumber(FramingSpeedParameter.pitchMaximumSpeed.rawValue),
                            pitchAcceleration: try r.optionalNumber(FramingSpeedParameter.pitchAcceleration.rawValue),
                            pitchDeadBand: try r.optionalNumber(FramingSpeedParameter.pitchDeadBand.rawValue)))))
        case .selectSubjectAt:
            _ = try reader(["point"])
            guard case .object(let members)? = parameters["point"] else {
                throw JSONFieldError.field("point", "must be an object with x and y")
            }
            let point = try Self.reader(members, allows: { $0 == "x" || $0 == "y" })
            for axis in ["x", "y"] {
                let value = try nested(point, axis, "point")
                guard (0...1).contains(value) else { throw JSONFieldError.field("point.\(axis)", "must be within 0...1") }
            }
            return parsed(
                .host(.selectSubject(at: NormalizedPoint(x: try nested(point, "x", "point"), y: try nested(point, "y", "point")))))
        }
    }

    /// A call's preset `name`, a name `PresetStore.checkName` allows.
    static func presetName(_ reader: JSONFields) throws(JSONFieldError) -> String {
        let name = try reader.string("name")
        do {
            try PresetStore.checkName(name)
        } catch {
            throw JSONFieldError.field("name", error.reason)
        }
        return name
    }

    /// A number inside a nested object, its error named by its path.
    static func nested(_ reader: JSONFields, _ name: String, _ path: @autoclosure () -> String) throws(JSONFieldError) -> Double {
        do {
            return try reader.number(name)
        } catch {
            throw JSONFieldError(path: "\(path()).\(error.path)", line: nil, problem: error.problem)
        }
    }

    /// An optional `Range` object (`{"min": ..., "max": ...}`, min at most max). An unknown member
    /// of it is named bare (`foo`), a bad bound by its path (`yaw.min`), as the wire always has.
    static func optionalRange(_ reader: JSONFields, _ name: String) throws(JSONFieldError) -> ClosedRange<Double>? {
        guard let value = reader.value(name) else { return nil }
        guard case .object(let members) = value else {
            throw JSONFieldError.field(name, "must be an object with min and max, got \(value.typeName)")
        }
        let inner = try Self.reader(members, allows: { $0 == "min" || $0 == "max" })
        let low = try nested(inner, "min", name), high = try nested(inner, "max", name)
        guard low <= high else { throw JSONFieldError.field(name, "min must not exceed max") }
        return low...high
    }

    /// A `Rect` that is finite, of positive size, and overlaps the image.
    static func rect(_ value: JSONValue, _ path: @autoclosure () -> String) throws(JSONFieldError) -> NormalizedRect {
        guard case .object(let members) = value else {
            throw JSONFieldError.field(path(), "must be an object with x, y, width and height")
        }
        let reader = try Self.reader(members, allows: rectFields.contains)
        let rect = NormalizedRect(
            x: try nested(reader, "x", path()), y: try nested(reader, "y", path()),
            width: try nested(reader, "width", path()), height: try nested(reader, "height", path()))
        guard rect.width > 0, rect.height > 0 else {
            throw JSONFieldError.field(path(), "must have a positive width and height")
        }
        guard rect.isUsable, rect.width <= 1, rect.height <= 1 else {
            throw JSONFieldError.field(path(), "must lie in the image (0...1 from the top left)")
        }
        return rect
    }

    /// The fields of a `Rect`, an `Observation` and a `CameraInformation`, and the kinds' names:
    /// made once, not for each object of each call.
    private static let rectFields: Set<String> = ["x", "y", "width", "height"]
    private static let observationFields: Set<String> = ["kind", "box", "confidence", "identifier", "appearance"]
    private static let cameraFields: Set<String> = ["horizontal_fov", "aspect_ratio", "orientation", "mirrored"]

    /// The lengths an observation's `appearance` may have.
    public static let appearanceLengths = 4...512

    /// An observation's optional `appearance`: `appearanceLengths` numbers, each finite as a
    /// 32-bit float (`1e999`, or `1e300`, is refused by its index).
    static func appearance(_ value: JSONValue?, _ path: @autoclosure () -> String) throws(JSONFieldError) -> [Float]? {
        switch value {
        case nil, .null?: return nil
        case .array(let items)?:
            guard appearanceLengths.contains(items.count) else {
                throw JSONFieldError.field(
                    path(), "must have \(appearanceLengths.lowerBound) to \(appearanceLengths.upperBound) values, got \(items.count)")
            }
            var values: [Float] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                let number: Double
                switch item {
                case .integer(let integer): number = Double(integer)
                case .number(let double): number = double
                default: throw JSONFieldError.field("\(path())[\(index)]", "must be a number, got \(item.typeName)")
                }
                let single = Float(number)
                guard number.isFinite, single.isFinite else {
                    throw JSONFieldError.field("\(path())[\(index)]", "must be finite")
                }
                values.append(single)
            }
            return values
        case let other?: throw JSONFieldError.field(path(), "must be an array of numbers, got \(other.typeName)")
        }
    }

    /// A `Track` call's observations, camera information and capture time, every field checked.
    static func observationBatch(_ parameters: [String: JSONValue], reader: JSONFields) throws(JSONFieldError) -> ObservationBatch {
        guard case .array(let list)? = parameters["observations"] else {
            throw JSONFieldError.field("observations", "must be an array of observations")
        }
        guard list.count <= 64 else { throw JSONFieldError.field("observations", "at most 64 per frame") }
        var observations: [Observation] = []
        for (index, value) in list.enumerated() {
            // The path only for an error: made for every observation, its text was a cost of
            // every call.
            func path() -> String { "observations[\(index)]" }
            guard case .object(let members) = value else { throw JSONFieldError.field(path(), "must be an object") }
            let item = try Self.reader(members, allows: observationFields.contains)
            let kind: SubjectKind
            do {
                kind = try item.choice("kind", as: SubjectKind.self)
            } catch {
                throw JSONFieldError(path: "\(path()).kind", line: nil, problem: error.problem)
            }
            guard let box = members["box"] else { throw JSONFieldError.field("\(path()).box", "required") }
            let confidence: Double
            do {
                confidence = try item.optionalNumber("confidence") ?? 1
            } catch {
                throw JSONFieldError(path: "\(path()).confidence", line: nil, problem: error.problem)
            }
            guard (0...1).contains(confidence) else {
                throw JSONFieldError.field("\(path()).confidence", "must be within 0...1")
            }
            var identifier: Int?
            switch members["identifier"] {
            case nil, .null?: break
            case .integer(let value)? where value >= Int64(Int32.min) && value <= Int64(Int32.max): identifier = Int(value)
            default: throw JSONFieldError.field("\(path()).identifier", "must be a whole number")
            }
            let appearance = try Self.appearance(members["appearance"], "\(path()).appearance")
            observations.append(
                Observation(
                    kind: kind, box: try rect(box, "\(path()).box"),
                    confidence: confidence, identifier: identifier, appearance: appearance))
        }
        guard case .object(let cameraMembers)? = parameters["camera"] else {
            throw JSONFieldError.field("camera", "required: an object with horizontal_fov and aspect_ratio")
        }
        let camera = try Self.reader(cameraMembers, allows: cameraFields.contains)
        let fieldOfView = try nested(camera, "horizontal_fov", "camera")
        let aspect = try nested(camera, "aspect_ratio", "camera")
        guard fieldOfView > 0, fieldOfView < .pi else {
            throw JSONFieldError.field("camera.horizontal_fov", "must be between 0 and pi radians")
        }
        guard aspect > 0, aspect <= 10 else {
            throw JSONFieldError.field("camera.aspect_ratio", "must be more than 0 and at most 10")
        }
        let orientation: ImageOrientation
        let mirrored: Bool
        do {
            orientation =
                try camera.optionalString("orientation").map { name throws(JSONFieldError) in
                    guard let value = ImageOrientation(rawValue: name) else {
                        throw JSONFieldError.field(
                            "orientation", "must be one of \(ImageOrientation.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    return value
                } ?? .up
            mirrored = try camera.optionalBool("mirrored") ?? false
        } catch {
            throw JSONFieldError(path: "camera.\(error.path)", line: nil, problem: error.problem)
        }
        let captureSeconds = try reader.number("capture_time")
        guard captureSeconds >= 0, let captureTime = Duration.fromSeconds(captureSeconds) else {
            throw JSONFieldError.field("capture_time", "must be a time on the host's monotonic clock, in seconds")
        }
        return ObservationBatch(
            observations: observations,
            camera: CameraInformation(
                horizontalFieldOfViewRadians: fieldOfView, aspectRatio: aspect,
                orientation: orientation, isMirrored: mirrored),
            captureTime: captureTime)
    }
}
