public import DockJSON
import DockLinks
import DockProtocol
public import DockVocabulary

extension Dock {
    /// A successful reply, read as its method's reply type says.
    public enum Reply: Hashable, Sendable {
        /// A reply with no fields (`Stop`, `Track`, `SetFramingMode`...).
        case done
        /// `GetStatus`'s `status`.
        case status(Status)
        /// `ListAccessories`' `accessories`.
        case accessories([Accessory])
        /// The `result` of `SetVelocity`, `SetOrientation` or `Animate`.
        case motion(MotionResult)
        /// `SetLimits`' `limits`.
        case limits(Limits)
        /// `SelectSubjectAt`'s `subject`.
        case subject(Int)
        /// `SetRegionOfInterest`'s `region`: the region in force, cut to the picture.
        case region(NormalizedRect)
        /// `SelectSubjects`' `untracked`: the IDs chosen that no subject tracked now has.
        case selection(untracked: [Int])
        /// `SetZoom`'s `zoom`: the zoom set, a fraction of the camera's range.
        case zoom(Double)
        /// One of `Watch`'s `event`s.
        case event(Event)

        /// Reads the reply parameters of a call to `method`.
        public init(_ method: DockMethod, parameters: [String: JSONValue]) throws(ReplyError) {
            let r = ReplyReader(members: parameters)
            switch method {
            case .getStatus: self = .status(try r.decoded("status", Status.init(json:path:)))
            case .listAccessories: self = .accessories(try r.decodedArray("accessories", Accessory.init(json:path:)))
            case .watch: self = .event(try r.decoded("event", Event.init(json:path:)))
            case .setVelocity, .setOrientation, .animate: self = .motion(try r.decoded("result", MotionResult.init(json:path:)))
            case .setLimits: self = .limits(try r.decoded("limits", Limits.init(json:path:)))
            case .selectSubjectAt: self = .subject(try r.integer("subject"))
            case .setRegionOfInterest: self = .region(try r.decoded("region", NormalizedRect.init(json:path:)))
            case .selectSubjects:
                self = .selection(
                    untracked: try r.decodedArray("untracked") { value, path throws(ReplyError) in
                        guard case .integer(let id) = value, let identifier = Int(exactly: id) else {
                            throw ReplyError(path: path, reason: "must be a subject ID, got \(value.typeName)")
                        }
                        return identifier
                    })
            case .setZoom: self = .zoom(try r.double("zoom"))
            case .stop, .setSystemTracking, .track, .setFramingMode, .acquireControl, .releaseControl:
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
            case .event(let event): ["event": event.json]
            }
        }
    }

    /// A named error dockd answered, with its fields read.
    public enum Failure: Error, Hashable, Sendable {
        /// `NoSuchAccessory`: no dock with this id.
        case noSuchAccessory(String)
        /// `NotReady`: no dock is attached and ready.
        case notReady
        /// `Busy`: another client (its connection number) holds control.
        case busy(holder: ClientID)
        /// `NoSubjectFound`: no tracked subject at that point.
        case noSubjectFound
        /// `NotSupported`: the dock lacks the capability asked for (its name: `zoom`).
        case notSupported(capability: String)
        /// `InvalidParameter` (dockd's or the service interface's): a parameter is missing, of
        /// the wrong type, not finite or out of range.
        case invalidParameter(ParameterError)
        /// `DockRefused`: the dock refused the command.
        case dockRefused(reason: String, detail: Int)
        /// `DockFault`: the dock raised a fault that ended the motion.
        case dockFault(Fault)
        /// `org.varlink.service.MethodNotFound`.
        case methodNotFound(String)
        /// `org.varlink.service.InterfaceNotFound`.
        case interfaceNotFound(String)
        /// `org.varlink.service.ExpectedMore`: a streaming call sent without `more`.
        case expectedMore
        /// An error this client does not know, as it came.
        case other(name: String, parameters: [String: JSONValue])

        /// Reads the error `name` with its `parameters`.
        public init(name: String, parameters: [String: JSONValue]) throws(ReplyError) {
            let r = ReplyReader(members: parameters)
            switch name {
            case DockInterface.Error.noSuchAccessory: self = .noSuchAccessory(try r.string("accessory"))
            case DockInterface.Error.notReady: self = .notReady
            case DockInterface.Error.busy: self = .busy(holder: try r.integer("holder", as: ClientID.self))
            case DockInterface.Error.noSubjectFound: self = .noSubjectFound
            case DockInterface.Error.notSupported: self = .notSupported(capability: try r.string("capability"))
            case DockInterface.Error.invalidParameter:
                self = .invalidParameter(ParameterError(parameter: try r.string("parameter"), reason: try r.string("reason")))
            case VarlinkService.Error.invalidParameter:
                self = .invalidParameter(ParameterError(parameter: try r.string("parameter"), reason: ""))
            case DockInterface.Error.dockRefused: self = .dockRefused(reason: try r.string("reason"), detail: try r.integer("detail"))
            case DockInterface.Error.dockFault: self = .dockFault(try r.decoded("fault", Fault.init(json:path:)))
            case VarlinkService.Error.methodNotFound: self = .methodNotFound(try r.string("method"))
            case VarlinkService.Error.interfaceNotFound: self = .interfaceNotFound(try r.string("interface"))
            case VarlinkService.Error.expectedMore: self = .expectedMore
            default: self = .other(name: name, parameters: parameters)
            }
        }
    }
}

extension Dock.Failure: CustomStringConvertible {
    /// What went wrong, and what to do about it where there is something to do.
    public var description: String {
        switch self {
        case .busy(let holder): "another client (\(holder)) controls the dock; use --take-over"
        case .notReady: "no dock is attached and ready"
        case .invalidParameter(let error): "invalid \(error.parameter): \(error.reason)"
        case .noSuchAccessory(let name): "no dock \(name)"
        case .dockRefused(let reason, let detail): "refused by the dock: \(reason) (detail \(detail))"
        case .dockFault(let fault): "the dock raised a fault: \(fault.code)" + (fault.axis.map { " on \($0.name)" } ?? "")
        case .noSubjectFound: "no tracked subject there"
        case .notSupported(let capability): "this dock cannot do that: it has no \(capability) dockd can drive"
        case .methodNotFound(let method): "dockd has no method \(method)"
        case .interfaceNotFound(let name): "dockd has no interface \(name)"
        case .expectedMore: "a streaming call needs \"more\""
        case .other(let name, let parameters): "\(name) \(JSONValue.object(parameters).serialized)"
        }
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
        case .stop, .setSystemTracking, .track, .setFramingMode, .acquireControl, .releaseControl: nil
        }
    }
}
