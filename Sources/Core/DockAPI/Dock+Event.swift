public import DockJSON
public import DockVocabulary

extension Dock.CommandRefusal {
    /// Reads a `CommandRefusal`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(reason: try r.string("reason"), detail: try r.integer("detail", as: Int.self), command: try r.optionalString("command"))
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["reason": .string(reason), "detail": .integer(Int64(detail))]
        if let command { members["command"] = .string(command) }
        return .object(members)
    }
}

extension Dock.Event {
    /// Reads an `Event`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        let payload: Payload
        switch try r.choice("kind", as: Kind.self) {
        case .status: payload = .status
        case .attached: payload = .attached(try Dock.Accessory(reading: r.object("accessory")))
        case .docked: payload = .docked
        case .undocked: payload = .undocked
        case .disconnected: payload = .disconnected
        case .button: payload = .button(try Dock.ButtonEvent(reading: r.object("button")))
        case .fault: payload = .fault(try Dock.Fault(reading: r.object("fault")))
        case .control:
            let control = try r.object("control")
            payload = .control(
                from: try Dock.Controller(reading: control.object("from")),
                to: try Dock.Controller(reading: control.object("to")))
        case .refused: payload = .refused(try Dock.CommandRefusal(reading: r.object("refusal")))
        case .framing: payload = .framing(try r.choice("framing", as: FramingMode.self))
        case .motionEnded:
            let motion = try r.object("motion")
            payload = .motionEnded(
                client: try motion.integer("client", as: ClientID.self),
                ending: try Dock.MotionEnd(reading: r.object("motion")))
        }
        self.init(
            timeSeconds: try r.number("time"), payload: payload, detail: try r.string("detail"),
            status: try Dock.Status(reading: r.object("status")), accessoryName: try r.optionalString("accessory_name"))
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "time": .number(timeSeconds), "status": status.json, "kind": .string(kind.rawValue),
            "detail": .string(detail),
        ]
        if let accessoryName { members["accessory_name"] = .string(accessoryName) }
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

extension Dock.ButtonEvent {
    /// Reads a `ButtonEvent`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
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
