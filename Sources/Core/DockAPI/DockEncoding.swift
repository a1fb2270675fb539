public import DockJSON
import DockLinks
public import DockPolicy
import DockProtocol
import DockVocabulary

/// The JSON forms of the interface's types (`Protocol/io.dockd.Dock.varlink`): one encoder per
/// reply and event shape, so the daemon never spells a field name of its own.
public enum DockEncoding {
    /// The reply to a request the host answered.
    public static func reply(_ reply: HostReply) -> VarlinkReply {
        switch reply {
        case .done: .success()
        case .motion(let outcome): .success(["result": json(outcome)])
        case .limits(let limits): .success(["limits": Dock.Limits(limits).json])
        case .subject(let subject): .success(["subject": .integer(Int64(subject))])
        case .region(let region): .success(["region": region.json])
        case .selection(let untracked): .success(["untracked": .array(untracked.map { .integer(Int64($0)) })])
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
        case .dockFault(let fault): .failure(DockInterface.Error.dockFault, ["fault": Dock.Fault(fault).json])
        case .invalidParameter(let parameter, let reason): ParameterError(parameter: parameter, reason: reason).reply
        case .invalid(let error):
            switch error {
            case .notFinite(let field): ParameterError(parameter: field.wireName, reason: "must be finite").reply
            case .outOfRange(let field, let allowed):
                ParameterError(parameter: field.wireName, reason: "must be within \(allowed.lowerBound)...\(allowed.upperBound)").reply
            case .notReady: .failure(DockInterface.Error.notReady)
            }
        }
    }

    /// `NoSuchAccessory`.
    public static func noSuchAccessory(_ name: String) -> VarlinkReply {
        .failure(DockInterface.Error.noSuchAccessory, ["accessory": .string(name)])
    }

    /// A `Status`.
    public static func json(_ status: DockStatus) -> JSONValue { Dock.Status(status).json }

    /// The `Accessory` of a status (nil before a dock attached).
    public static func accessory(_ status: DockStatus) -> JSONValue? {
        status.info.map { Dock.Accessory($0, status: status).json }
    }

    /// A `MotionResult`.
    public static func json(_ outcome: MotionOutcome) -> JSONValue { Dock.MotionResult(outcome).json }

    /// One `Watch` reply: the event (with its structured fields and a line of text) and the
    /// status at that moment.
    public static func watchReply(_ event: HostEvent?, time: Duration, status: DockStatus) -> VarlinkReply {
        .success(["event": Dock.Event(event, time: time, status: status).json], continues: true)
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
            let text: String =
                switch kind {
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
        case .refused(let refusal)?:
            return ("refused", "\(refusal.command.map { $0.name + " " } ?? "")refused: \(refusal.reason.name) detail \(refusal.detail)")
        case .control(let change)?:
            return ("control", "\(change.from) -> \(change.to)")
        case .framing(let mode)?:
            return ("framing", mode.rawValue)
        case .motionEnded(let owner, let ending)?:
            let how: String =
                switch ending {
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
