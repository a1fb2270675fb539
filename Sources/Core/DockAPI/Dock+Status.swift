public import DockJSON
public import DockVocabulary

extension Dock.Status {
    /// Reads a `Status`.
    public init(json: JSONValue, path: String) throws(ReplyError) { self = try json.read(at: path, Self.init(reading:)) }

    /// Reads it from its fields.
    init(reading r: JSONFields) throws(JSONFieldError) {
        self.init(
            state: try r.choice("state", as: State.self), isDocked: try r.bool("docked"),
            accessory: try r.optionalObject("accessory").map(Dock.Accessory.init(reading:)),
            pose: try r.optionalObject("pose").map(Dock.Pose.init(reading:)),
            limits: try r.optionalObject("limits").map(Dock.Limits.init(reading:)),
            isTrackingEnabled: try r.bool("tracking"), framingMode: try r.choice("framing", as: FramingMode.self),
            regionOfInterest: try NormalizedRect(reading: r.object("region_of_interest")),
            selectedSubjects: try r.integers("selected_subjects").map { Int($0) },
            controller: try Dock.Controller(reading: r.object("controller")),
            motion: try r.choice("motion", as: Motion.self),
            faults: try r.objects("faults", Dock.Fault.init(reading:)),
            tracker: try r.choice("tracker", as: Tracker.self), isSubjectInFrame: try r.bool("subject_in_frame"),
            primary: try r.optionalInteger("primary", as: Int.self),
            subjects: try r.objects("subjects", SubjectSummary.init(reading:)),
            loop: try Dock.Loop(reading: r.object("loop")), counters: try Dock.Counters(reading: r.object("counters")),
            shotSize: try Self.shotSize(r))
        framingSpeed = try r.optionalObject("speed").map(Dock.FramingSpeedState.init(reading:))
        crop = try r.optionalObject("crop").map(NormalizedRect.init(reading:))
    }

    /// The shot size from `shot` and `shot_fraction` (off when absent: a daemon before shot sizes).
    private static func shotSize(_ r: JSONFields) throws(JSONFieldError) -> ShotSize {
        guard let name = try r.optionalString("shot") else { return .off }
        let fraction = try r.optionalNumber("shot_fraction")
        do {
            return try ShotSize(name: name, fraction: fraction)
        } catch {
            throw JSONFieldError.field(error.field == "shot" ? "shot" : "shot_fraction", error.description)
        }
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "state": .string(state.rawValue), "docked": .bool(isDocked), "tracking": .bool(isTrackingEnabled),
            "motion": .string(motion.rawValue), "framing": .string(framingMode.rawValue),
            "region_of_interest": regionOfInterest.json,
            "selected_subjects": .array(selectedSubjects.map { .integer(Int64($0)) }),
            "controller": controller.json, "faults": .array(faults.map(\.json)), "counters": counters.json,
            "tracker": .string(tracker.rawValue), "subject_in_frame": .bool(isSubjectInFrame),
            "subjects": .array(subjects.map(\.json)), "loop": loop.json, "shot": .string(shotSize.name),
        ]
        if let fraction = shotSize.fraction { members["shot_fraction"] = .number(fraction) }
        if let primary { members["primary"] = .integer(Int64(primary)) }
        if let accessory { members["accessory"] = accessory.json }
        if let pose { members["pose"] = pose.json }
        if let limits { members["limits"] = limits.json }
        if let framingSpeed { members["speed"] = framingSpeed.json }
        if let crop { members["crop"] = crop.json }
        return .object(members)
    }
}
