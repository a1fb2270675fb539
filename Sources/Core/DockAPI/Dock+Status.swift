public import DockJSON
public import DockVocabulary

extension Dock.Status {
    /// Reads a `Status`.
    public init(json: JSONValue, path: String) throws(ReplyError) {
        let r = try ReplyReader(json, path: path)
        self.init(
            state: try r.choice("state", as: State.self), isDocked: try r.bool("docked"),
            accessory: try r.optionalDecoded("accessory", Dock.Accessory.init(json:path:)),
            pose: try r.optionalDecoded("pose", Dock.Pose.init(json:path:)),
            limits: try r.optionalDecoded("limits", Dock.Limits.init(json:path:)),
            isTrackingEnabled: try r.bool("tracking"), framingMode: try r.choice("framing", as: FramingMode.self),
            regionOfInterest: try r.decoded("region_of_interest", NormalizedRect.init(json:path:)),
            selectedSubjects: try r.integers("selected_subjects"),
            controller: try r.decoded("controller", Dock.Controller.init(json:path:)),
            motion: try r.choice("motion", as: Motion.self), faults: try r.decodedArray("faults", Dock.Fault.init(json:path:)),
            tracker: try r.choice("tracker", as: Tracker.self), isSubjectInFrame: try r.bool("subject_in_frame"),
            primary: try r.optionalInteger("primary"), subjects: try r.decodedArray("subjects", SubjectSummary.init(json:path:)),
            loop: try r.decoded("loop", Dock.Loop.init(json:path:)), counters: try r.decoded("counters", Dock.Counters.init(json:path:)))
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
            "subjects": .array(subjects.map(\.json)), "loop": loop.json,
        ]
        if let primary { members["primary"] = .integer(Int64(primary)) }
        if let accessory { members["accessory"] = accessory.json }
        if let pose { members["pose"] = pose.json }
        if let limits { members["limits"] = limits.json }
        return .object(members)
    }
}
