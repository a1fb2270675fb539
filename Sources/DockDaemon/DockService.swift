public import DockAPI
public import DockCore
import DockProtocol
import DockTracking

/// The `io.dockd.Dock` methods over a session runner: parameters checked and converted, the
/// runner asked, the answer (or a named error) returned as a Varlink reply.
public struct DockService: Sendable {
    /// The dock's runner.
    public let runner: SessionRunner

    /// Product information for `org.varlink.service.GetInfo`.
    public static let version = "0.1.0"

    /// Creates the service.
    public init(runner: SessionRunner) { self.runner = runner }

    /// Answers one call (all but `Watch`, which the server streams).
    public func reply(to call: VarlinkCall, from client: ClientID) async -> VarlinkReply {
        do {
            let reply = try await dispatch(call, client: client)
            if !Self.readOnly.contains(call.method) { await runner.refreshSnapshot() }
            return reply
        } catch let error as ParameterError {
            return error.reply
        } catch let error as SessionRunner.RequestError {
            return Self.reply(for: error)
        } catch {
            return .failure(DockInterface.Error.invalidParameter, ["parameter": .string(""), "reason": .string("\(error)")])
        }
    }

    /// Calls that change nothing (or, like `Track`, update the snapshot themselves): no new
    /// status snapshot after them.
    static let readOnly: Set<String> = ["GetStatus", "ListAccessories", "Track", "Watch"].reduce(into: []) { names, name in
        names.insert(DockInterface.name + "." + name)
    }

    /// The status for clients: the runner's snapshot, or (before its first tick) a fresh one.
    private func currentStatus() async -> DockStatus {
        if let status = runner.latestStatus { return status }
        return await runner.status()
    }

    private func dispatch(_ call: VarlinkCall, client: ClientID) async throws -> VarlinkReply {
        let method = call.method
        if method.hasPrefix("org.varlink.service.") {
            return try serviceMethod(String(method.dropFirst("org.varlink.service.".count)), call.parameters)
        }
        guard method.hasPrefix(DockInterface.name + ".") else {
            let interface = method.split(separator: ".").dropLast().joined(separator: ".")
            return .failure(VarlinkService.Error.interfaceNotFound, ["interface": .string(interface)])
        }
        let name = String(method.dropFirst(DockInterface.name.count + 1))
        let parameters = call.parameters
        switch name {
        case "GetStatus":
            try await checkAccessory(ParameterReader(parameters, allowed: ["accessory"]))
            return .success(["status": Self.json(await currentStatus())])
        case "ListAccessories":
            _ = try ParameterReader(parameters, allowed: [])
            let status = await currentStatus()
            return .success(["accessories": .array(Self.accessory(status).map { [$0] } ?? [])])
        case "SetVelocity":
            let reader = try ParameterReader(parameters, allowed: ["yaw", "pitch", "duration", "take_over", "accessory"])
            try await checkAccessory(reader)
            let duration = try reader.optionalNumber("duration").map { seconds throws(ParameterError) -> Duration in
                guard seconds > 0, seconds <= 3600, let duration = Duration.fromSeconds(seconds) else {
                    throw ParameterError(parameter: "duration", reason: "must be more than 0 and at most 3600 seconds")
                }
                return duration
            }
            let result = try await runner.request(
                .velocity(yawRadiansPerSecond: try reader.number("yaw"), pitchRadiansPerSecond: try reader.number("pitch"),
                          duration: duration),
                from: client, takeOver: try reader.optionalBool("take_over") ?? false)
            return .success(["result": Self.json(result)])
        case "SetOrientation":
            let reader = try ParameterReader(parameters, allowed: ["yaw", "pitch", "relative", "duration", "speed", "take_over", "accessory"])
            try await checkAccessory(reader)
            let pace: OrientationPace
            switch (try reader.optionalNumber("duration"), try reader.optionalNumber("speed")) {
            case (let seconds?, nil):
                guard seconds > 0, seconds <= 60, let duration = Duration.fromSeconds(seconds) else {
                    throw ParameterError(parameter: "duration", reason: "must be more than 0 and at most 60 seconds")
                }
                pace = .duration(duration)
            case (nil, let speed?):
                guard speed > 0 else { throw ParameterError(parameter: "speed", reason: "must be more than 0") }
                pace = .maximumSpeed(speed)
            case (nil, nil):
                pace = .fastest
            case (_?, _?):
                throw ParameterError(parameter: "speed", reason: "give duration or speed, not both")
            }
            let result = try await runner.request(
                .orientation(yawRadians: try reader.number("yaw"), pitchRadians: try reader.number("pitch"),
                             isRelative: try reader.optionalBool("relative") ?? false, pace: pace),
                from: client, takeOver: try reader.optionalBool("take_over") ?? false)
            return .success(["result": Self.json(result)])
        case "Stop":
            let reader = try ParameterReader(parameters, allowed: ["take_over", "accessory"])
            try await checkAccessory(reader)
            _ = try await runner.request(.stop, from: client, takeOver: try reader.optionalBool("take_over") ?? false)
            return .success()
        case "Animate":
            let reader = try ParameterReader(parameters, allowed: ["animation", "take_over", "accessory"])
            try await checkAccessory(reader)
            let name = try reader.choice("animation", AnimationKind.allCases.map(\.rawValue))
            let result = try await runner.request(.animate(AnimationKind(rawValue: name)!), from: client,
                                                  takeOver: try reader.optionalBool("take_over") ?? false)
            return .success(["result": Self.json(result)])
        case "SetSystemTracking":
            let reader = try ParameterReader(parameters, allowed: ["enabled", "accessory"])
            try await checkAccessory(reader)
            await runner.setSystemTracking(try reader.bool("enabled"))
            return .success()
        case "SetLimits":
            let reader = try ParameterReader(parameters, allowed: ["yaw", "pitch", "max_speed", "accessory"])
            try await checkAccessory(reader)
            let speed = try reader.optionalNumber("max_speed")
            if let speed, speed <= 0 { throw ParameterError(parameter: "max_speed", reason: "must be more than 0") }
            let limits = try await runner.setLimits(LimitRequest(
                yawRadians: try reader.optionalRange("yaw"), pitchRadians: try reader.optionalRange("pitch"),
                yawSpeedRadiansPerSecond: speed, pitchSpeedRadiansPerSecond: speed))
            return .success(["limits": Self.json(limits)])
        case "AcquireControl":
            let reader = try ParameterReader(parameters, allowed: ["take_over", "accessory"])
            try await checkAccessory(reader)
            try await runner.acquireControl(by: client, takeOver: try reader.optionalBool("take_over") ?? false)
            return .success()
        case "ReleaseControl":
            try await checkAccessory(ParameterReader(parameters, allowed: ["accessory"]))
            await runner.releaseControl(by: client)
            return .success()
        case "Track":
            let reader = try ParameterReader(parameters, allowed: ["observations", "camera", "capture_time", "accessory"])
            try await checkAccessory(reader)
            let batch = try Self.observationBatch(parameters, reader: reader)
            await runner.track(batch)
            return .success()
        case "SetFramingMode":
            let reader = try ParameterReader(parameters, allowed: ["mode", "accessory"])
            try await checkAccessory(reader)
            await runner.setFramingMode(FramingMode(rawValue: try reader.choice("mode", FramingMode.allCases.map(\.rawValue)))!)
            return .success()
        case "SetRegionOfInterest":
            let reader = try ParameterReader(parameters, allowed: ["region", "accessory"])
            try await checkAccessory(reader)
            let region = try parameters["region"].flatMap { $0 == .null ? nil : try Self.rect($0, "region") } ?? .fullImage
            await runner.setRegionOfInterest(region)
            return .success()
        case "SelectSubjects":
            let reader = try ParameterReader(parameters, allowed: ["subjects", "accessory"])
            try await checkAccessory(reader)
            guard case .array(let list)? = parameters["subjects"] else {
                throw ParameterError(parameter: "subjects", reason: "must be an array of subject IDs")
            }
            var subjects: [Int] = []
            for (index, value) in list.enumerated() {
                guard case .integer(let id) = value, id >= 0, id <= Int64(Int32.max) else {
                    throw ParameterError(parameter: "subjects[\(index)]", reason: "must be a subject ID (a whole number)")
                }
                subjects.append(Int(id))
            }
            await runner.selectSubjects(subjects)
            return .success()
        case "SelectSubjectAt":
            let reader = try ParameterReader(parameters, allowed: ["point", "accessory"])
            try await checkAccessory(reader)
            guard case .object(let members)? = parameters["point"] else {
                throw ParameterError(parameter: "point", reason: "must be an object with x and y")
            }
            let point = try ParameterReader(members, allowed: ["x", "y"])
            for axis in ["x", "y"] {
                let value = try Self.nested(point, axis, "point")
                guard (0...1).contains(value) else { throw ParameterError(parameter: "point.\(axis)", reason: "must be within 0...1") }
            }
            let x = try Self.nested(point, "x", "point"), y = try Self.nested(point, "y", "point")
            guard let subject = await runner.selectSubject(at: NormalizedPoint(x: x, y: y)) else {
                return .failure(DockInterface.Error.noSubjectFound)
            }
            return .success(["subject": .integer(Int64(subject))])
        case "Watch":
            return .failure(VarlinkService.Error.expectedMore)
        default:
            return .failure(VarlinkService.Error.methodNotFound, ["method": .string(method)])
        }
    }

    private func serviceMethod(_ name: String, _ parameters: [String: JSONValue]) throws(ParameterError) -> VarlinkReply {
        switch name {
        case "GetInfo":
            _ = try ParameterReader(parameters, allowed: [])
            return .success([
                "vendor": .string("dockd"), "product": .string("dockd"), "version": .string(Self.version),
                "url": .string("file:/usr/share/doc/dockd/README.md"),
                "interfaces": .array([.string(VarlinkService.name), .string(DockInterface.name)]),
            ])
        case "GetInterfaceDescription":
            let reader = try ParameterReader(parameters, allowed: ["interface"])
            switch try reader.optionalString("interface") {
            case DockInterface.name?: return .success(["description": .string(DockInterface.definition)])
            case VarlinkService.name?: return .success(["description": .string(VarlinkService.definition)])
            case let other?: return .failure(VarlinkService.Error.interfaceNotFound, ["interface": .string(other)])
            case nil: return .failure(VarlinkService.Error.invalidParameter, ["parameter": .string("interface")])
            }
        default:
            return .failure(VarlinkService.Error.methodNotFound, ["method": .string("org.varlink.service.\(name)")])
        }
    }

    /// Refuses an `accessory` that is not this daemon's dock.
    private func checkAccessory(_ reader: ParameterReader) async throws {
        guard let wanted = try reader.optionalString("accessory") else { return }
        let known = await runner.serialNumber
        guard wanted == known else { throw SessionRunner.RequestError.noSuchAccessory(wanted) }
    }

    /// A number inside a nested object, its error named by its path.
    static func nested(_ reader: ParameterReader, _ name: String, _ path: String) throws(ParameterError) -> Double {
        do {
            return try reader.number(name)
        } catch {
            throw ParameterError(parameter: "\(path).\(error.parameter)", reason: error.reason)
        }
    }

    /// A `Rect` that is finite, of positive size, and overlaps the image.
    static func rect(_ value: JSONValue, _ path: String) throws(ParameterError) -> NormalizedRect {
        guard case .object(let members) = value else {
            throw ParameterError(parameter: path, reason: "must be an object with x, y, width and height")
        }
        let reader = try ParameterReader(members, allowed: ["x", "y", "width", "height"])
        let rect = NormalizedRect(x: try nested(reader, "x", path), y: try nested(reader, "y", path),
                                  width: try nested(reader, "width", path), height: try nested(reader, "height", path))
        guard rect.width > 0, rect.height > 0 else { throw ParameterError(parameter: path, reason: "must have a positive width and height") }
        guard rect.isUsable, rect.width <= 1, rect.height <= 1 else {
            throw ParameterError(parameter: path, reason: "must lie in the image (0...1 from the top left)")
        }
        return rect
    }

    /// A `Track` call's observations, camera information and capture time, every field checked.
    static func observationBatch(_ parameters: [String: JSONValue], reader: ParameterReader) throws(ParameterError) -> ObservationBatch {
        guard case .array(let list)? = parameters["observations"] else {
            throw ParameterError(parameter: "observations", reason: "must be an array of observations")
        }
        guard list.count <= 64 else { throw ParameterError(parameter: "observations", reason: "at most 64 per frame") }
        var observations: [Observation] = []
        for (index, value) in list.enumerated() {
            let path = "observations[\(index)]"
            guard case .object(let members) = value else { throw ParameterError(parameter: path, reason: "must be an object") }
            let item = try ParameterReader(members, allowed: ["kind", "box", "confidence", "identifier"])
            let kindName: String
            do {
                kindName = try item.choice("kind", SubjectKind.allCases.map(\.rawValue))
            } catch {
                throw ParameterError(parameter: "\(path).kind", reason: error.reason)
            }
            guard let box = members["box"] else { throw ParameterError(parameter: "\(path).box", reason: "required") }
            let confidence: Double
            do {
                confidence = try item.optionalNumber("confidence") ?? 1
            } catch {
                throw ParameterError(parameter: "\(path).confidence", reason: error.reason)
            }
            guard (0...1).contains(confidence) else {
                throw ParameterError(parameter: "\(path).confidence", reason: "must be within 0...1")
            }
            observations.append(Observation(kind: SubjectKind(rawValue: kindName)!, box: try rect(box, "\(path).box"),
                                            confidence: confidence))
        }
        guard case .object(let cameraMembers)? = parameters["camera"] else {
            throw ParameterError(parameter: "camera", reason: "required: an object with horizontal_fov and aspect_ratio")
        }
        let camera = try ParameterReader(cameraMembers, allowed: ["horizontal_fov", "aspect_ratio", "orientation", "mirrored"])
        let fieldOfView = try nested(camera, "horizontal_fov", "camera")
        let aspect = try nested(camera, "aspect_ratio", "camera")
        guard fieldOfView > 0, fieldOfView < .pi else { throw ParameterError(parameter: "camera.horizontal_fov", reason: "must be between 0 and pi radians") }
        guard aspect > 0, aspect <= 10 else { throw ParameterError(parameter: "camera.aspect_ratio", reason: "must be more than 0 and at most 10") }
        let orientation: ImageOrientation
        let mirrored: Bool
        do {
            orientation = try camera.optionalString("orientation").map { name throws(ParameterError) in
                guard let value = ImageOrientation(rawValue: name) else {
                    throw ParameterError(parameter: "orientation", reason: "must be one of \(ImageOrientation.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return value
            } ?? .up
            mirrored = try camera.optionalBool("mirrored") ?? false
        } catch {
            throw ParameterError(parameter: "camera.\(error.parameter)", reason: error.reason)
        }
        let captureSeconds = try reader.number("capture_time")
        guard captureSeconds >= 0, let captureTime = Duration.fromSeconds(captureSeconds) else {
            throw ParameterError(parameter: "capture_time", reason: "must be a time on the host's monotonic clock, in seconds")
        }
        return ObservationBatch(observations: observations,
                                camera: CameraInformation(horizontalFieldOfViewRadians: fieldOfView, aspectRatio: aspect,
                                                          orientation: orientation, isMirrored: mirrored),
                                captureTime: captureTime)
    }

    static func reply(for error: SessionRunner.RequestError) -> VarlinkReply {
        switch error {
        case .notReady: .failure(DockInterface.Error.notReady)
        case .busy(let holder): .failure(DockInterface.Error.busy, ["holder": .integer(Int64(holder))])
        case .noSuchAccessory(let name): .failure(DockInterface.Error.noSuchAccessory, ["accessory": .string(name)])
        case .invalid(let error):
            switch error {
            case .notFinite(let field): ParameterError(parameter: field, reason: "must be finite").reply
            case .outOfRange(let field, let allowed):
                ParameterError(parameter: field, reason: "must be within \(allowed.lowerBound)...\(allowed.upperBound)").reply
            case .notReady: .failure(DockInterface.Error.notReady)
            }
        }
    }

    // MARK: JSON forms of the interface's types

    static func json(_ status: DockStatus) -> JSONValue {
        let region = status.regionOfInterest
        var members: [String: JSONValue] = [
            "state": .string(status.state), "docked": .bool(status.isDocked), "tracking": .bool(status.isTrackingEnabled),
            "motion": .string(status.motion), "framing": .string(status.framingMode.rawValue),
            "region_of_interest": .object(["x": .number(region.x), "y": .number(region.y),
                                           "width": .number(region.width), "height": .number(region.height)]),
            "selected_subjects": .array(status.selectedSubjects.map { .integer(Int64($0)) }),
            "counters": .object(["bad_frames": .integer(Int64(status.badFrames)), "reconnects": .integer(Int64(status.reconnects)),
                                 "refusals": .integer(Int64(status.refusals)), "observations": .integer(Int64(status.observations)),
                                 "camera_frames": .integer(Int64(status.cameraFrames))]),
            "tracker": .string(status.tracker), "subject_in_frame": .bool(status.isSubjectInFrame),
            "subjects": .array(status.subjects.map(json)),
            "loop": .object(["ticks": .integer(Int64(status.loopTicks)), "missed": .integer(Int64(status.loopMissedTicks)),
                             "late_p50": .number(status.loopLateness.p50.secondsValue),
                             "late_p99": .number(status.loopLateness.p99.secondsValue),
                             "late_max": .number(status.loopLateness.maximum.secondsValue)]),
        ]
        if let primary = status.primary { members["primary"] = .integer(Int64(primary)) }
        switch status.controller {
        case .none: members["controller"] = .object(["kind": .string("none"), "acquired": .bool(false)])
        case .systemTracker: members["controller"] = .object(["kind": .string("tracker"), "acquired": .bool(false)])
        case .client(let client, let isExplicit):
            members["controller"] = .object(["kind": .string("client"), "client": .integer(Int64(client)),
                                             "acquired": .bool(isExplicit)])
        }
        if let accessory = accessory(status) { members["accessory"] = accessory }
        if let pose = status.pose {
            members["pose"] = .object(["yaw": .number(pose.yawRadians), "pitch": .number(pose.pitchRadians),
                                       "yaw_rate": .number(pose.yawRadiansPerSecond),
                                       "pitch_rate": .number(pose.pitchRadiansPerSecond)])
        }
        if let limits = status.limits { members["limits"] = json(limits) }
        return .object(members)
    }

    static func json(_ subject: SubjectSummary) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .integer(Int64(subject.identifier)), "kind": .string(subject.kind.rawValue), "primary": .bool(subject.isPrimary),
            "saliency_rank": .integer(Int64(subject.saliencyRank)), "coasting": .bool(subject.isCoasting),
        ]
        if let box = subject.box, box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite {
            members["box"] = .object(["x": .number(box.x), "y": .number(box.y), "width": .number(box.width), "height": .number(box.height)])
        }
        return .object(members)
    }

    static func accessory(_ status: DockStatus) -> JSONValue? {
        guard let info = status.info else { return nil }
        return .object(["id": .string(info.serialNumber), "device": .string(status.device), "model": .string(info.model),
                        "firmware": .string(info.firmwareVersion), "protocol_version": .integer(Int64(info.protocolVersion))])
    }

    static func json(_ limits: MotionLimits) -> JSONValue {
        .object([
            "yaw": .object(["min": .number(limits.yawRadians.lowerBound), "max": .number(limits.yawRadians.upperBound)]),
            "pitch": .object(["min": .number(limits.pitchRadians.lowerBound), "max": .number(limits.pitchRadians.upperBound)]),
            "yaw_max_speed": .number(limits.yawSpeedRadiansPerSecond),
            "pitch_max_speed": .number(limits.pitchSpeedRadiansPerSecond),
        ])
    }

    static func json(_ result: MotionResult) -> JSONValue {
        var members: [String: JSONValue] = ["clamped": .array(result.clampedFields.map(JSONValue.string))]
        if let cancelled = result.cancelledAnimation { members["cancelled_animation"] = .string(cancelled.rawValue) }
        return .object(members)
    }

    /// One `Watch` reply: the event with the status at that moment.
    static func json(_ event: RunnerEvent, status: DockStatus) -> JSONValue {
        .object(["event": .object([
            "time": .number(event.time.secondsValue), "kind": .string(event.kind), "detail": .string(event.detail),
            "status": json(status),
        ])])
    }
}
