public import DockJSON
public import DockVocabulary

extension Dock.Reply {
    /// Reads the reply parameters of a call to `method`.
    public init(_ method: DockMethod, parameters: [String: JSONValue]) throws(ReplyError) {
        self = try JSONValue.object(parameters).read(at: "") { r throws(JSONFieldError) in try Self(method, reading: r) }
    }

    private init(_ method: DockMethod, reading r: JSONFields) throws(JSONFieldError) {
        switch method {
        case .getStatus: self = .status(try Dock.Status(reading: r.object("status")))
        case .listAccessories:
            self = .accessories(try r.objects("accessories", Dock.AccessoryEntry.init(reading:)))
        case .watch: self = .event(try Dock.Event(reading: r.object("event")))
        case .setVelocity, .setOrientation, .animate: self = .motion(try Dock.MotionResult(reading: r.object("result")))
        case .setLimits: self = .limits(try Dock.Limits(reading: r.object("limits")))
        case .selectSubjectAt: self = .subject(try r.integer("subject", as: Int.self))
        case .setRegionOfInterest: self = .region(try NormalizedRect(reading: r.object("region")))
        case .selectSubjects:
            self = .selection(
                untracked: try r.array("untracked").map { element throws(JSONFieldError) in
                    guard case .integer(let id) = element.value, let identifier = Int(exactly: id) else {
                        throw JSONFieldError.field(element.path, "must be a subject ID, got \(element.value.typeName)")
                    }
                    return identifier
                })
        case .setZoom: self = .zoom(try r.number("zoom"))
        case .savePreset: self = .preset(try Preset(reading: r.object("preset")))
        case .listPresets: self = .presets(try r.objects("presets", Preset.init(reading:)))
        case .recallPreset: self = .motion(try Dock.MotionResult(reading: r.object("result")))
        case .setLostBehaviour: self = .lostBehaviour(try LostBehaviour(reading: r.object("lost")))
        case .setFramingSpeed: self = .framingSpeed(try Dock.FramingSpeedState(reading: r.object("speed")))
        case .stop, .setSystemTracking, .track, .setFramingMode, .setShotSize, .acquireControl, .releaseControl, .deletePreset:
            self = .done
        }
    }

    /// The reply's parameters, as dockd sends them.
    public var parameters: [String: JSONValue] {
        switch self {
        case .done: [:]
        case .status(let status): ["status": status.json]
        case .accessories(let accessories): ["accessories": .array(accessories.map(\.json))]
        case .motion(let result): ["result": result.json]
        case .limits(let limits): ["limits": limits.json]
        case .subject(let subject): ["subject": .integer(Int64(subject))]
        case .region(let region): ["region": region.json]
        case .selection(let untracked): ["untracked": .array(untracked.map { .integer(Int64($0)) })]
        case .zoom(let zoom): ["zoom": .number(zoom)]
        case .preset(let preset): ["preset": preset.json]
        case .presets(let presets): ["presets": .array(presets.map(\.json))]
        case .lostBehaviour(let behaviour): ["lost": behaviour.json]
        case .framingSpeed(let state): ["speed": state.json]
        case .event(let event): ["event": event.json]
        }
    }
}

extension Dock.Failure {
    /// Reads the error `name` with its `parameters`.
    public init(name: String, parameters: [String: JSONValue]) throws(ReplyError) {
        self = try JSONValue.object(parameters).read(at: "") { r throws(JSONFieldError) in try Self(name: name, reading: r) }
    }

    private init(name: String, reading r: JSONFields) throws(JSONFieldError) {
        switch name {
        case DockInterface.Error.noSuchAccessory: self = .noSuchAccessory(try r.string("accessory"))
        case DockInterface.Error.accessoryAmbiguous: self = .accessoryAmbiguous(try r.strings("accessories"))
        case DockInterface.Error.notReady: self = .notReady
        case DockInterface.Error.busy: self = .busy(holder: try r.integer("holder", as: ClientID.self))
        case DockInterface.Error.noSubjectFound: self = .noSubjectFound
        case DockInterface.Error.notSupported: self = .notSupported(capability: try r.string("capability"))
        case DockInterface.Error.invalidParameter:
            self = .invalidParameter(ParameterError(parameter: try r.string("parameter"), reason: try r.string("reason")))
        case VarlinkService.Error.invalidParameter:
            self = .invalidParameter(ParameterError(parameter: try r.string("parameter"), reason: ""))
        case DockInterface.Error.dockRefused:
            self = .dockRefused(reason: try r.string("reason"), detail: try r.integer("detail", as: Int.self))
        case DockInterface.Error.dockFault: self = .dockFault(try Dock.Fault(reading: r.object("fault")))
        case DockInterface.Error.noSuchPreset: self = .noSuchPreset(try r.string("name"))
        case DockInterface.Error.presetsUnavailable:
            self = .presetsUnavailable(file: try r.string("file"), reason: try r.string("reason"))
        case VarlinkService.Error.methodNotFound: self = .methodNotFound(try r.string("method"))
        case VarlinkService.Error.interfaceNotFound: self = .interfaceNotFound(try r.string("interface"))
        case VarlinkService.Error.expectedMore: self = .expectedMore
        default: self = .other(name: name, parameters: r.members)
        }
    }
}

extension Dock.Failure {
    /// The named error as dockd sends it: the inverse of ``init(name:parameters:)`` (for a
    /// service interface's `InvalidParameter`, read without a reason, it is dockd's own).
    public var reply: VarlinkReply {
        switch self {
        case .noSuchAccessory(let name): .failure(DockInterface.Error.noSuchAccessory, ["accessory": .string(name)])
        case .accessoryAmbiguous(let names):
            .failure(DockInterface.Error.accessoryAmbiguous, ["accessories": .array(names.map(JSONValue.string))])
        case .notReady: .failure(DockInterface.Error.notReady)
        case .busy(let holder): .failure(DockInterface.Error.busy, ["holder": .integer(Int64(holder))])
        case .noSubjectFound: .failure(DockInterface.Error.noSubjectFound)
        case .notSupported(let capability): .failure(DockInterface.Error.notSupported, ["capability": .string(capability)])
        case .invalidParameter(let error): error.reply
        case .dockRefused(let reason, let detail):
            .failure(DockInterface.Error.dockRefused, ["reason": .string(reason), "detail": .integer(Int64(detail))])
        case .dockFault(let fault): .failure(DockInterface.Error.dockFault, ["fault": fault.json])
        case .noSuchPreset(let name): .failure(DockInterface.Error.noSuchPreset, ["name": .string(name)])
        case .presetsUnavailable(let file, let reason):
            .failure(DockInterface.Error.presetsUnavailable, ["file": .string(file), "reason": .string(reason)])
        case .methodNotFound(let method): .failure(VarlinkService.Error.methodNotFound, ["method": .string(method)])
        case .interfaceNotFound(let name): .failure(VarlinkService.Error.interfaceNotFound, ["interface": .string(name)])
        case .expectedMore: .failure(VarlinkService.Error.expectedMore)
        case .other(let name, let parameters): .failure(name, parameters)
        }
    }
}

extension ParameterError {
    /// The reply that reports it (`io.dockd.Dock.InvalidParameter`).
    public var reply: VarlinkReply {
        .failure(DockInterface.Error.invalidParameter, ["parameter": .string(parameter), "reason": .string(reason)])
    }
}

extension VarlinkReply {
    /// A call's answer as dockd sends it: the reply's fields, or its named error.
    public init(_ answer: Result<Dock.Reply, Dock.Failure>) {
        switch answer {
        case .success(let reply): self = .success(reply.parameters)
        case .failure(let failure): self = failure.reply
        }
    }

    /// One of `Watch`'s replies: the event, with more to come.
    public static func watch(_ event: Dock.Event) -> VarlinkReply {
        .success(["event": event.json], continues: true)
    }
}

extension DockMethod {
    /// The one field of the method's reply (nil: a reply with no fields), for a client that
    /// passes a reply on as it came (`dockctl watch` piped prints each `event`).
    public var replyField: String? {
        switch self {
        case .getStatus: "status"
        case .listAccessories: "accessories"
        case .watch: "event"
        case .setVelocity, .setOrientation, .animate: "result"
        case .setLimits: "limits"
        case .selectSubjectAt: "subject"
        case .setRegionOfInterest: "region"
        case .selectSubjects: "untracked"
        case .setZoom: "zoom"
        case .savePreset: "preset"
        case .listPresets: "presets"
        case .recallPreset: "result"
        case .setLostBehaviour: "lost"
        case .setFramingSpeed: "speed"
        case .stop, .setSystemTracking, .track, .setFramingMode, .setShotSize, .acquireControl, .releaseControl, .deletePreset: nil
        }
    }
}
