public import DockAPI
public import DockCore
import DockProtocol

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
            return try await dispatch(call, client: client)
        } catch let error as ParameterError {
            return error.reply
        } catch let error as SessionRunner.RequestError {
            return Self.reply(for: error)
        } catch {
            return .failure(DockInterface.Error.invalidParameter, ["parameter": .string(""), "reason": .string("\(error)")])
        }
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
            return .success(["status": Self.json(await runner.status())])
        case "ListAccessories":
            _ = try ParameterReader(parameters, allowed: [])
            let status = await runner.status()
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
        var members: [String: JSONValue] = [
            "state": .string(status.state), "docked": .bool(status.isDocked), "tracking": .bool(status.isTrackingEnabled),
            "motion": .string(status.motion),
            "counters": .object(["bad_frames": .integer(Int64(status.badFrames)), "reconnects": .integer(Int64(status.reconnects)),
                                 "refusals": .integer(Int64(status.refusals))]),
        ]
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
