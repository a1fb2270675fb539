public import DockJSON
public import DockLinks
import DockNumbers
public import DockPolicy
public import DockProtocol
public import DockVocabulary

extension Dock {
    /// A `CommandRefusal`: a command the dock refused.
    public struct CommandRefusal: Hashable, Sendable {
        /// Why (`faulted`, `out_of_range`, `not_ready`, `unknown_message`, `wrong_length`,
        /// `unsupported_version`).
        public var reason: String
        /// The dock's detail code.
        public var detail: Int
        /// The refused command's type, when known (`set_velocity`, `move_to`...).
        public var command: String?

        /// Creates a refusal.
        public init(reason: String, detail: Int, command: String?) {
            self.reason = reason
            self.detail = detail
            self.command = command
        }

        /// Reads a `CommandRefusal`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            self.init(reason: try r.string("reason"), detail: try r.integer("detail"), command: try r.optionalString("command"))
        }

        /// The JSON form.
        public var json: JSONValue {
            var members: [String: JSONValue] = ["reason": .string(reason), "detail": .integer(Int64(detail))]
            if let command { members["command"] = .string(command) }
            return .object(members)
        }
    }

    /// An `Event`, as `Watch` streams it: what happened, when, and the status at that moment.
    public struct Event: Hashable, Sendable {
        /// The names of the events' kinds.
        public enum Kind: String, CaseIterable, Hashable, Sendable {
            /// The 10 Hz status (nothing else happened).
            case status
            /// A dock attached.
            case attached
            /// A camera was mounted.
            case docked
            /// The camera was removed.
            case undocked
            /// The link to the dock is gone.
            case disconnected
            /// A button or the zoom rocker.
            case button
            /// A fault was raised or cleared.
            case fault
            /// Control changed hands.
            case control
            /// The dock refused a command.
            case refused
            /// The framing mode changed.
            case framing
            /// A client's motion ended.
            case motionEnded = "motion_ended"
        }

        /// What happened, with its own fields.
        public enum Payload: Hashable, Sendable {
            /// The 10 Hz status.
            case status
            /// A dock attached.
            case attached(Accessory)
            /// A camera was mounted.
            case docked
            /// The camera was removed.
            case undocked
            /// The link to the dock is gone.
            case disconnected
            /// A button went down or up, or the zoom rocker moved.
            case button(AccessoryEvent.Kind)
            /// A fault was raised or cleared.
            case fault(Fault)
            /// Control changed hands.
            case control(from: ControlArbiter.Controller, to: ControlArbiter.Controller)
            /// The dock refused a command.
            case refused(CommandRefusal)
            /// The framing mode changed.
            case framing(FramingMode)
            /// A client's motion ended, and how.
            case motionEnded(client: ClientID, ending: MotionEnd)
        }

        /// The host's monotonic clock, seconds.
        public var timeSeconds: Double
        /// What happened.
        public var payload: Payload
        /// The same in a line of text for people.
        public var detail: String
        /// The status at that moment.
        public var status: Status

        /// Creates an event.
        public init(timeSeconds: Double, payload: Payload, detail: String, status: Status) {
            self.timeSeconds = timeSeconds
            self.payload = payload
            self.detail = detail
            self.status = status
        }

        /// What `Watch` says of the host's `event` (nil: the periodic status) at `time`.
        public init(_ event: HostEvent?, time: Duration, status: DockStatus) {
            let payload: Payload =
                switch event {
                case nil: .status
                case .attached(let info, _)?: .attached(Accessory(info, status: status))
                case .docked?: .docked
                case .undocked?: .undocked
                case .disconnected?: .disconnected
                case .button(let button)?: .button(button)
                case .fault(let fault)?: .fault(Fault(fault))
                case .refused(let refusal)?:
                    .refused(CommandRefusal(reason: refusal.reason.name, detail: Int(refusal.detail), command: refusal.command?.name))
                case .control(let change)?: .control(from: change.from, to: change.to)
                case .framing(let mode)?: .framing(mode)
                case .motionEnded(let owner, let ending)?: .motionEnded(client: owner, ending: MotionEnd(ending))
                }
            self.init(
                timeSeconds: time.secondsValue, payload: payload, detail: DockEncoding.describe(event, device: status.device).detail,
                status: Status(status))
        }

        /// The event's kind.
        public var kind: Kind {
            switch payload {
            case .status: .status
            case .attached: .attached
            case .docked: .docked
            case .undocked: .undocked
            case .disconnected: .disconnected
            case .button: .button
            case .fault: .fault
            case .control: .control
            case .refused: .refused
            case .framing: .framing
            case .motionEnded: .motionEnded
            }
        }

        /// Reads an `Event`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            let payload: Payload
            switch try r.choice("kind", as: Kind.self) {
            case .status: payload = .status
            case .attached: payload = .attached(try r.decoded("accessory", Accessory.init(json:path:)))
            case .docked: payload = .docked
            case .undocked: payload = .undocked
            case .disconnected: payload = .disconnected
            case .button: payload = .button(try r.decoded("button", AccessoryEvent.Kind.init(json:path:)))
            case .fault: payload = .fault(try r.decoded("fault", Fault.init(json:path:)))
            case .control:
                let control = try r.object("control")
                payload = .control(
                    from: try control.decoded("from", ControlArbiter.Controller.init(json:path:)),
                    to: try control.decoded("to", ControlArbiter.Controller.init(json:path:)))
            case .refused: payload = .refused(try r.decoded("refusal", CommandRefusal.init(json:path:)))
            case .framing: payload = .framing(try r.choice("framing", as: FramingMode.self))
            case .motionEnded:
                let motion = try r.object("motion")
                payload = .motionEnded(
                    client: try motion.integer("client", as: ClientID.self),
                    ending: try r.decoded("motion", MotionEnd.init(json:path:)))
            }
            self.init(
                timeSeconds: try r.double("time"), payload: payload, detail: try r.string("detail"),
                status: try r.decoded("status", Status.init(json:path:)))
        }

        /// The JSON form.
        public var json: JSONValue {
            var members: [String: JSONValue] = [
                "time": .number(timeSeconds), "status": status.json, "kind": .string(kind.rawValue),
                "detail": .string(detail),
            ]
            switch payload {
            case .status, .docked, .undocked, .disconnected: break
            case .attached(let accessory): members["accessory"] = accessory.json
            case .button(let button): members["button"] = button.json
            case .fault(let fault): members["fault"] = fault.json
            case .refused(let refusal): members["refusal"] = refusal.json
            case .control(let from, let to): members["control"] = .object(["from": from.json, "to": to.json])
            case .framing(let mode): members["framing"] = .string(mode.rawValue)
            case .motionEnded(let client, let ending):
                var ended = ending.members
                ended["client"] = .integer(Int64(client))
                members["motion"] = .object(ended)
            }
            return .object(members)
        }
    }
}

extension AccessoryEvent.Kind {
    /// The names of a `ButtonEvent`'s buttons.
    public enum Button: String, CaseIterable, Hashable, Sendable {
        /// The tracking button.
        case tracking
        /// The shutter button.
        case shutter
        /// The camera-flip button.
        case flip
        /// The zoom rocker.
        case zoom
        /// A vendor's button.
        case custom
        /// The dock sensor (a camera mounted or removed).
        case dock
    }

    /// Which button this is.
    public var button: Button {
        switch self {
        case .trackingButton: .tracking
        case .shutterButton: .shutter
        case .flipButton: .flip
        case .zoom: .zoom
        case .customButton: .custom
        case .dockChanged: .dock
        }
    }

    /// Reads a `ButtonEvent`.
    public init(json: JSONValue, path: String) throws(ReplyError) {
        let r = try ReplyReader(json, path: path)
        switch try r.choice("button", as: Button.self) {
        case .tracking: self = .trackingButton(isPressed: try r.bool("pressed"))
        case .shutter: self = .shutterButton(isPressed: try r.bool("pressed"))
        case .flip: self = .flipButton(isPressed: try r.bool("pressed"))
        case .zoom: self = .zoom(steps: try r.integer("steps", as: Int8.self))
        case .custom: self = .customButton(identifier: try r.integer("identifier", as: UInt8.self), isPressed: try r.bool("pressed"))
        case .dock: self = .dockChanged(isDocked: try r.bool("pressed"))
        }
    }

    /// The JSON form of a `ButtonEvent`.
    public var json: JSONValue {
        switch self {
        case .trackingButton(let pressed), .shutterButton(let pressed), .flipButton(let pressed), .dockChanged(let pressed):
            .object(["button": .string(button.rawValue), "pressed": .bool(pressed)])
        case .zoom(let steps): .object(["button": .string(button.rawValue), "steps": .integer(Int64(steps))])
        case .customButton(let identifier, let pressed):
            .object(["button": .string(button.rawValue), "identifier": .integer(Int64(identifier)), "pressed": .bool(pressed)])
        }
    }
}
