public import DockJSON
public import DockVocabulary

extension Dock.MotionEnd {
    /// Reads a `MotionEnd` (or the same fields inside a `MotionEnded`).
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        switch try r.choice("how", as: How.self) {
        case .completed: self = .completed(try r.choice("finish", as: Finish.self))
        case .replaced: self = .replaced(byClient: try r.integer("by_client", as: ClientID.self))
        case .stopped: self = .stopped(byClient: try r.optionalInteger("by_client", as: ClientID.self))
        }
    }

    /// The JSON members (an object of its own in `MotionResult`, merged into `MotionEnded`).
    public var members: [String: JSONValue] {
        switch self {
        case .completed(let finish): ["how": .string(how.rawValue), "finish": .string(finish.rawValue)]
        case .replaced(let client), .stopped(let client?): ["how": .string(how.rawValue), "by_client": .integer(Int64(client))]
        case .stopped(nil): ["how": .string(how.rawValue)]
        }
    }

    /// The JSON form.
    public var json: JSONValue { .object(members) }
}

extension Dock.MotionResult {
    /// Reads a `MotionResult`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            clamped: try r.strings("clamped"),
            cancelledAnimation: try r.optionalChoice("cancelled_animation", as: AnimationKind.self),
            ended: try r.optionalObject("ended").map(Dock.MotionEnd.init(reading:)))
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["clamped": .array(clamped.map(JSONValue.string))]
        if let cancelledAnimation { members["cancelled_animation"] = .string(cancelledAnimation.rawValue) }
        if let ended { members["ended"] = ended.json }
        return .object(members)
    }
}
