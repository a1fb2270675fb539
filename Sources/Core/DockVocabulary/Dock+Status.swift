extension Dock {
    /// A `Status`: everything about one dock at one moment.
    public struct Status: Hashable, Sendable {
        /// Where the session with the dock is (DockPolicy maps the link's state here, once).
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

        /// What the motion controller does (DockPolicy maps its activity here, once).
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

        /// What the tracker does (DockPolicy maps the pipeline's activity here, once).
        public enum Tracker: String, CaseIterable, Hashable, Sendable {
            /// Nothing to follow, or tracking is off.
            case idle
            /// Following the primary subject.
            case following
            /// Holding still after losing it.
            case holding
            /// Going back to the rest pose.
            case returning
            /// Leaving the dock where a client's manual move put it, for a while (`manual-pause-s`).
            case paused
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
        /// How large the subject is kept in the picture by zooming.
        public var shotSize = ShotSize.off
        /// The part of the image framing may use (top-left origin).
        public var regionOfInterest: NormalizedRect
        /// Subjects a client chose.
        public var selectedSubjects: [Int]
        /// Who moves the dock.
        public var controller: Controller
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
        /// The framing speed in force and as applied (nil: from a dockd that does not say).
        public var framingSpeed: FramingSpeedState?
        /// Where the accessory's crop window is in its fixed camera's picture, for an accessory
        /// whose pan, tilt and zoom are one (`fixed_picture`; normalised, the camera's own
        /// picture); nil for any other, and from a dockd that does not say.
        public var crop: NormalizedRect?

        /// Creates a status.
        public init(
            state: State, isDocked: Bool, accessory: Accessory?, pose: Pose?, limits: Limits?, isTrackingEnabled: Bool,
            framingMode: FramingMode, regionOfInterest: NormalizedRect, selectedSubjects: [Int],
            controller: Controller, motion: Motion, faults: [Fault], tracker: Tracker, isSubjectInFrame: Bool,
            primary: Int?, subjects: [SubjectSummary], loop: Loop, counters: Counters, shotSize: ShotSize = .off
        ) {
            self.shotSize = shotSize
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
    }
}
