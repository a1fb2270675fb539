public import DockCore
public import DockHost
public import DockProtocol
public import DockTracking

/// The JSON forms of the interface's types (`Protocol/io.dockd.Dock.varlink`): one encoder per
/// reply and event shape, so the daemon never spells a field name of its own.
public enum DockEncoding {
    /// The reply to a request the host answered.
    public static func reply(_ reply: HostReply) -> VarlinkReply {
        switch reply {
        case .done: .success()
        case .motion(let outcome): .success(["result": json(outcome)])
        case .limits(let limits): .success(["limits": json(limits)])
        case .subject(let subject): .success(["subject": .integer(Int64(subject))])
        case .zoom(let fraction): .success(["zoom": .number(fraction)])
        case .failure(let error): self.reply(error)
        }
    }

    /// The named error for a refusal.
    public static func reply(_ error: HostError) -> VarlinkReply {
        switch error {
        case .notReady: .failure(DockInterface.Error.notReady)
        case .busy(let holder): .failure(DockInterface.Error.busy, ["holder": .integer(Int64(holder))])
        case .noSubjectFound: .failure(DockInterface.Error.noSubjectFound)
        case .notSupported(let capability): .failure(DockInterface.Error.notSupported, ["capability": .string(capability)])
        case .dockRefused(let reason, let detail):
            .failure(DockInterface.Error.dockRefused, ["reason": .string(reason.name), "detail": .integer(Int64(detail))])
        case .dockFault(let fault): .failure(DockInterface.Error.dockFault, ["fault": json(fault)])
        case .invalid(let error):
            switch error {
            case .notFinite(let field): ParameterError(parameter: field, reason: "must be finite").reply
            case .outOfRange(let field, let allowed):
                ParameterError(parameter: field, reason: "must be within \(allowed.lowerBound)...\(allowed.upperBound)").reply
            case .notReady: .failure(DockInterface.Error.notReady)
            }
        }
    }

    /// `NoSuchAccessory`.
    public static func noSuchAccessory(_ name: String) -> VarlinkReply {
        .failure(DockInterface.Error.noSuchAccessory, ["accessory": .string(name)])
    }

    /// A `Status`.
    public static func json(_ status: DockStatus) -> JSONValue {
        let region = status.regionOfInterest
        var members: [String: JSONValue] = [
            "state": .string(status.state), "docked": .bool(status.isDocked), "tracking": .bool(status.isTrackingEnabled),
            "motion": .string(status.motion), "framing": .string(status.framingMode.rawValue),
            "region_of_interest": json(region),
            "selected_subjects": .array(status.selectedSubjects.map { .integer(Int64($0)) }),
            "controller": json(status.controller),
            "faults": .array(status.faults.map(json)),
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
        if let accessory = accessory(status) { members["accessory"] = accessory }
        if let pose = status.pose {
            var fields: [String: JSONValue] = ["yaw": .number(pose.yawRadians), "pitch": .number(pose.pitchRadians),
                                               "yaw_rate": .number(pose.yawRadiansPerSecond),
                                               "pitch_rate": .number(pose.pitchRadiansPerSecond)]
            if let age = status.poseAge { fields["age"] = .number(age.secondsValue) }
            members["pose"] = .object(fields)
        }
        if let limits = status.limits { members["limits"] = json(limits) }
        return .object(members)
    }

    /// A `Controller`.
    public static func json(_ controller: ControlArbiter.Controller) -> JSONValue {
        switch controller {
        case .none: .object(["kind": .string("none"), "acquired": .bool(false)])
        case .systemTracker: .object(["kind": .string("tracker"), "acquired": .bool(false)])
        case .client(let client, let isExplicit):
            .object(["kind": .string("client"), "client": .integer(Int64(client)), "acquired": .bool(isExplicit)])
        case .unattended(let client):
            .object(["kind": .string("unattended"), "client": .integer(Int64(client)), "acquired": .bool(false)])
        }
    }

    /// A `Rect`.
    public static func json(_ rect: NormalizedRect) -> JSONValue {
        .object(["x": .number(rect.x), "y": .number(rect.y), "width": .number(rect.width), "height": .number(rect.height)])
    }

    /// A `Subject`.
    public static func json(_ subject: SubjectSummary) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .integer(Int64(subject.identifier)), "kind": .string(subject.kind.rawValue), "primary": .bool(subject.isPrimary),
            "saliency_rank": .integer(Int64(subject.saliencyRank)), "coasting": .bool(subject.isCoasting),
        ]
        if let box = subject.box, box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite {
            members["box"] = json(box)
        }
        return .object(members)
    }

    /// A `Fault`.
    public static func json(_ fault: FaultReport) -> JSONValue {
        var members: [String: JSONValue] = ["code": .string(fault.code.name), "active": .bool(fault.isActive)]
        if let axis = fault.axis { members["axis"] = .string(axis.name) }
        return .object(members)
    }

    /// The `Accessory` of a status (nil before a dock attached).
    public static func accessory(_ status: DockStatus) -> JSONValue? {
        status.info.map { json($0, status: status) }
    }

    /// An `Accessory`, with the protocol, device and capabilities of `status`.
    public static func json(_ info: AccessoryInfo, status: DockStatus) -> JSONValue {
        let lacking = AccessoryCapabilities.named.filter { !status.capabilities.contains($0.capability) }.map(\.name)
        return .object([
            "id": .string(info.serialNumber), "device": .string(status.device), "model": .string(info.model),
            "firmware": .string(info.firmwareVersion), "protocol": .string(status.protocolName),
            "protocol_version": .integer(Int64(info.protocolVersion)),
            "capabilities": .array(status.capabilities.names.map { .string($0) }),
            "lacks": .array(lacking.map { .string($0) }),
        ])
    }

    /// A `Limits`.
    public static func json(_ limits: MotionLimits) -> JSONValue {
        .object([
            "yaw": .object(["min": .number(limits.yawRadians.lowerBound), "max": .number(limits.yawRadians.upperBound)]),
            "pitch": .object(["min": .number(limits.pitchRadians.lowerBound), "max": .number(limits.pitchRadians.upperBound)]),
            "yaw_max_speed": .number(limits.yawSpeedRadiansPerSecond),
            "pitch_max_speed": .number(limits.pitchSpeedRadiansPerSecond),
        ])
    }

    /// A `MotionResult`.
    public static func json(_ outcome: MotionOutcome) -> JSONValue {
        var members: [String: JSONValue] = ["clamped": .array(outcome.clampedFields.map(JSONValue.string))]
        if let cancelled = outcome.cancelledAnimation { members["cancelled_animation"] = .string(cancelled.rawValue) }
        if let ending = outcome.ending { members["ended"] = json(ending) }
        return .object(members)
    }

    /// A `MotionEnd`.
    public static func json(_ ending: MotionEnding) -> JSONValue {
        switch ending {
        case .completed(let finish):
            let name = switch finish {
            case .velocityExpired: "expired"
            case .orientationReached: "reached"
            case .animationFinished: "finished"
            case .timedOut: "timed_out"
            }
            return .object(["how": .string("completed"), "finish": .string(name)])
        case .replaced(let client): return .object(["how": .string("replaced"), "by_client": .integer(Int64(client))])
        case .stopped(let client?): return .object(["how": .string("stopped"), "by_client": .integer(Int64(client))])
        case .stopped(nil): return .object(["how": .string("stopped")])
        }
    }

    /// One `Watch` reply: the event (with its structured fields and a line of text) and the
    /// status at that moment.
    public static func watchReply(_ event: HostEvent?, time: Duration, status: DockStatus) -> VarlinkReply {
        var members: [String: JSONValue] = ["time": .number(time.secondsValue), "status": json(status)]
        let (kind, detail) = describe(event, device: status.device)
        members["kind"] = .string(kind)
        members["detail"] = .string(detail)
        switch event {
        case nil, .docked?, .undocked?, .disconnected?:
            break
        case .attached(let info, _)?:
            members["accessory"] = json(info, status: status)
        case .button(let button)?:
            members["button"] = json(button)
        case .fault(let fault)?:
            members["fault"] = json(fault)
        case .refused(let refusal, let command)?:
            var refused: [String: JSONValue] = ["reason": .string(refusal.reason.name), "detail": .integer(Int64(refusal.detail))]
            if let command { refused["command"] = .string(command.name) }
            members["refusal"] = .object(refused)
        case .control(let change)?:
            members["control"] = .object(["from": json(change.from), "to": json(change.to)])
        case .framing(let mode)?:
            members["framing"] = .string(mode.rawValue)
        case .motionEnded(let owner, let ending)?:
            var ended = json(ending).objectMembers
            ended["client"] = .integer(Int64(owner))
            members["motion"] = .object(ended)
        }
        return .success(["event": .object(members)], continues: true)
    }

    /// A `ButtonEvent`.
    static func json(_ kind: AccessoryEvent.Kind) -> JSONValue {
        switch kind {
        case .trackingButton(let pressed): .object(["button": .string("tracking"), "pressed": .bool(pressed)])
        case .shutterButton(let pressed): .object(["button": .string("shutter"), "pressed": .bool(pressed)])
        case .flipButton(let pressed): .object(["button": .string("flip"), "pressed": .bool(pressed)])
        case .zoom(let steps): .object(["button": .string("zoom"), "steps": .integer(Int64(steps))])
        case .customButton(let identifier, let pressed):
            .object(["button": .string("custom"), "identifier": .integer(Int64(identifier)), "pressed": .bool(pressed)])
        case .dockChanged(let isDocked): .object(["button": .string("dock"), "pressed": .bool(isDocked)])
        }
    }

    /// An event's kind and its line of text for people.
    static func describe(_ event: HostEvent?, device: String) -> (kind: String, detail: String) {
        switch event {
        case nil: return ("status", "")
        case .attached(let info, let isDocked)?:
            return ("attached", "\(info.model) \(info.serialNumber), \(isDocked ? "docked" : "undocked")")
        case .docked?: return ("docked", "camera mounted")
        case .undocked?: return ("undocked", "camera removed")
        case .disconnected?: return ("disconnected", device)
        case .button(let kind)?:
            let text: String = switch kind {
            case .trackingButton(let pressed): "tracking \(pressed ? "pressed" : "released")"
            case .shutterButton(let pressed): "shutter \(pressed ? "pressed" : "released")"
            case .flipButton(let pressed): "flip \(pressed ? "pressed" : "released")"
            case .zoom(let steps): "zoom \(steps)"
            case .customButton(let identifier, let pressed): "button \(identifier) \(pressed ? "pressed" : "released")"
            case .dockChanged(let isDocked): isDocked ? "docked" : "undocked"
            }
            return ("button", text)
        case .fault(let fault)?:
            return ("fault", "\(fault.code.name)\(fault.axis.map { " on \($0.name)" } ?? "") " + (fault.isActive ? "raised" : "cleared"))
        case .refused(let refusal, let command)?:
            return ("refused", "\(command.map { $0.name + " " } ?? "")refused: \(refusal.reason.name) detail \(refusal.detail)")
        case .control(let change)?:
            return ("control", "\(change.from) -> \(change.to)")
        case .framing(let mode)?:
            return ("framing", mode.rawValue)
        case .motionEnded(let owner, let ending)?:
            let how: String = switch ending {
            case .completed(let finish): "completed (\(finish))"
            case .replaced(let client): "replaced by client \(client)"
            case .stopped(let client?): "stopped by client \(client)"
            case .stopped(nil): "stopped"
            }
            return ("motion_ended", "client \(owner)'s motion \(how)")
        }
    }
}

extension JSONValue {
    /// The members of an object value (empty for anything else).
    public var objectMembers: [String: JSONValue] {
        if case .object(let members) = self { members } else { [:] }
    }
}
