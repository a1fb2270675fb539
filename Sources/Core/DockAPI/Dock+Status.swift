public import DockJSON
public import DockLinks
import DockNumbers
public import DockPolicy
import DockProtocol
public import DockVocabulary

extension Dock {
    /// A `Status`: everything about one dock at one moment.
    public struct Status: Hashable, Sendable {
        /// Where the session is.
        public enum State: String, CaseIterable, Hashable, Sendable {
            /// No link to the dock.
            case disconnected
            /// Opening the port.
            case connecting
            /// Exchanging hello and info.
            case handshaking
            /// In session.
            case ready
            /// The dock speaks a protocol version dockd does not.
            case incompatible
        }

        /// What the motion controller does.
        public enum Motion: String, CaseIterable, Hashable, Sendable {
            /// Nothing.
            case idle
            /// Turning at a velocity.
            case velocity
            /// Moving to an orientation.
            case moving
            /// Playing an animation.
            case animating
            /// Coming to rest after an animation.
            case settling
        }

        /// What the tracker does.
        public enum Tracker: String, CaseIterable, Hashable, Sendable {
            /// Nothing to follow, or tracking is off.
            case idle
            /// Following the primary subject.
            case following
            /// Holding still after losing it.
            case holding
            /// Going back to the rest pose.
            case returning
        }

        /// Where the session is.
        public var state: State
        /// Whether a camera is mounted.
        public var isDocked: Bool
        /// The dock, once one has attached.
        public var accessory: Accessory?
        /// Where it points, once attached.
        public var pose: Pose?
        /// Its limits, once attached.
        public var limits: Limits?
        /// Whether system tracking is on.
        public var isTrackingEnabled: Bool
        /// Where the subject goes in the frame.
        public var framingMode: FramingMode
        /// The part of the image framing may use (top-left origin).
        public var regionOfInterest: NormalizedRect
        /// Subjects a client chose.
        public var selectedSubjects: [Int]
        /// Who moves the dock.
        public var controller: ControlArbiter.Controller
        /// What the motion controller does.
        public var motion: Motion
        /// The dock's active faults.
        public var faults: [Fault]
        /// What the tracker does.
        public var tracker: Tracker
        /// Whether the primary subject is seen inside the region of interest.
        public var isSubjectInFrame: Bool
        /// The subject the dock follows.
        public var primary: Int?
        /// The tracked subjects.
        public var subjects: [SubjectSummary]
        /// The control loop's punctuality.
        public var loop: Loop
        /// Counters since dockd started.
        public var counters: Counters

        /// Creates a status.
        public init(
            state: State, isDocked: Bool, accessory: Accessory?, pose: Pose?, limits: Limits?, isTrackingEnabled: Bool,
            framingMode: FramingMode, regionOfInterest: NormalizedRect, selectedSubjects: [Int],
            controller: ControlArbiter.Controller, motion: Motion, faults: [Fault], tracker: Tracker, isSubjectInFrame: Bool,
            primary: Int?, subjects: [SubjectSummary], loop: Loop, counters: Counters
        ) {
            self.state = state
            self.isDocked = isDocked
            self.accessory = accessory
            self.pose = pose
            self.limits = limits
            self.isTrackingEnabled = isTrackingEnabled
            self.framingMode = framingMode
            self.regionOfInterest = regionOfInterest
            self.selectedSubjects = selectedSubjects
            self.controller = controller
            self.motion = motion
            self.faults = faults
            self.tracker = tracker
            self.isSubjectInFrame = isSubjectInFrame
            self.primary = primary
            self.subjects = subjects
            self.loop = loop
            self.counters = counters
        }

        /// What clients see of the host's `status`.
        public init(_ status: DockStatus) {
            let pose = status.pose.map {
                Pose(
                    yawRadians: $0.yawRadians, pitchRadians: $0.pitchRadians, yawRadiansPerSecond: $0.yawRadiansPerSecond,
                    pitchRadiansPerSecond: $0.pitchRadiansPerSecond, ageSeconds: status.poseAge?.secondsValue)
            }
            self.init(
                state: State(status.state), isDocked: status.isDocked,
                accessory: status.info.map { Accessory($0, status: status) }, pose: pose, limits: status.limits.map(Limits.init),
                isTrackingEnabled: status.isTrackingEnabled, framingMode: status.framingMode, regionOfInterest: status.regionOfInterest,
                selectedSubjects: status.selectedSubjects, controller: status.controller, motion: Motion(status.motion),
                faults: status.faults.map(Fault.init), tracker: Tracker(status.tracker),
                isSubjectInFrame: status.isSubjectInFrame, primary: status.primary, subjects: status.subjects,
                loop: Loop(
                    ticks: status.loopTicks, missed: status.loopMissedTicks,
                    latenessP50Seconds: status.loopLateness.p50.secondsValue,
                    latenessP99Seconds: status.loopLateness.p99.secondsValue,
                    latenessMaximumSeconds: status.loopLateness.maximum.secondsValue),
                counters: Counters(
                    badFrames: status.badFrames, reconnects: status.reconnects, refusals: status.refusals,
                    observations: status.observations, cameraFrames: status.cameraFrames))
        }

        /// Reads a `Status`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            self.init(
                state: try r.choice("state", as: State.self), isDocked: try r.bool("docked"),
                accessory: try r.optionalDecoded("accessory", Accessory.init(json:path:)),
                pose: try r.optionalDecoded("pose", Pose.init(json:path:)),
                limits: try r.optionalDecoded("limits", Limits.init(json:path:)),
                isTrackingEnabled: try r.bool("tracking"), framingMode: try r.choice("framing", as: FramingMode.self),
                regionOfInterest: try r.decoded("region_of_interest", NormalizedRect.init(json:path:)),
                selectedSubjects: try r.integers("selected_subjects"),
                controller: try r.decoded("controller", ControlArbiter.Controller.init(json:path:)),
                motion: try r.choice("motion", as: Motion.self), faults: try r.decodedArray("faults", Fault.init(json:path:)),
                tracker: try r.choice("tracker", as: Tracker.self), isSubjectInFrame: try r.bool("subject_in_frame"),
                primary: try r.optionalInteger("primary"), subjects: try r.decodedArray("subjects", SubjectSummary.init(json:path:)),
                loop: try r.decoded("loop", Loop.init(json:path:)), counters: try r.decoded("counters", Counters.init(json:path:)))
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
}

extension Dock.Status.State {
    /// The host's session state as the API names it.
    public init(_ state: DockStatus.State) {
        switch state {
        case .disconnected: self = .disconnected
        case .connecting: self = .connecting
        case .handshaking: self = .handshaking
        case .ready: self = .ready
        case .incompatible: self = .incompatible
        }
    }
}

extension Dock.Status.Motion {
    /// The host's motion activity as the API names it.
    public init(_ motion: DockStatus.Motion) {
        switch motion {
        case .idle: self = .idle
        case .velocity: self = .velocity
        case .moving: self = .moving
        case .animating: self = .animating
        case .settling: self = .settling
        }
    }
}

extension Dock.Status.Tracker {
    /// The host's tracker activity as the API names it.
    public init(_ tracker: DockStatus.Tracker) {
        switch tracker {
        case .idle: self = .idle
        case .following: self = .following
        case .holding: self = .holding
        case .returning: self = .returning
        }
    }
}
