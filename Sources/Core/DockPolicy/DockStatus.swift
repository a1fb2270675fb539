public import DockLinks
public import DockProtocol
public import DockVocabulary

/// A snapshot of a dock for clients: what `GetStatus` and `Watch` report.
public struct DockStatus: Hashable, Sendable {
    /// Where the session is.
    public var state: State
    /// Whether a camera is mounted.
    public var isDocked: Bool
    /// What the dock said of itself.
    public var info: AccessoryInfo?
    /// The port's name.
    public var device: String
    /// The protocol the accessory speaks (`dock-serial`, `visca`).
    public var protocolName: String = "dock-serial"
    /// What the accessory can do (what it lacks, the host makes up for or leaves undone).
    public var capabilities: AccessoryCapabilities = []
    /// How old the newest pose sample is (a polled pose is older than streamed telemetry).
    public var poseAge: Duration?
    /// Where the dock points now.
    public var pose: Pose?
    /// The limits in force.
    public var limits: MotionLimits?
    /// Whether system tracking is on.
    public var isTrackingEnabled: Bool
    /// Where the subject goes in the frame.
    public var framingMode: FramingMode
    /// The part of the image framing may use.
    public var regionOfInterest: NormalizedRect
    /// Subjects a client chose.
    public var selectedSubjects: [Int]
    /// Who moves the dock.
    public var controller: ControlArbiter.Controller
    /// What the motion controller does.
    public var motion: Motion
    /// The dock's active faults.
    public var faults: [FaultReport]
    /// Runs received that were not good frames.
    public var badFrames: Int
    /// Times the link was lost.
    public var reconnects: Int
    /// Commands the dock refused.
    public var refusals: Int
    /// Observations accepted through the API.
    public var observations: Int
    /// Frames from the in-process simulator's camera.
    public var cameraFrames: Int
    /// The tracked subjects, with boxes as the camera sees them now.
    public var subjects: [SubjectSummary]
    /// The subject the dock follows.
    public var primary: Int?
    /// What the tracker is doing.
    public var tracker: Tracker
    /// Whether the primary subject is seen inside the region of interest.
    public var isSubjectInFrame: Bool
    /// Control-loop ticks since the start (the shell fills in the loop's figures).
    public var loopTicks = 0
    /// Ticks missed since the start.
    public var loopMissedTicks = 0
    /// How late the loop's ticks ran after their scheduled times.
    public var loopLateness: LoopLateness = LoopLateness()

    /// Where the session is (the API names each case).
    public enum State: CaseIterable, Hashable, Sendable {
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

    /// What the motion controller does (the API names each case).
    public enum Motion: CaseIterable, Hashable, Sendable {
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

    /// What the tracker does (the API names each case).
    public enum Tracker: CaseIterable, Hashable, Sendable {
        /// Nothing to follow, or tracking is off.
        case idle
        /// Following the primary subject.
        case following
        /// Holding still after losing it.
        case holding
        /// Going back to the rest pose.
        case returning
    }
}

/// How late a loop's ticks ran: median, 99th percentile and maximum.
public struct LoopLateness: Hashable, Sendable {
    public var p50: Duration = .zero
    public var p99: Duration = .zero
    public var maximum: Duration = .zero

    /// Creates the figures.
    public init(p50: Duration = .zero, p99: Duration = .zero, maximum: Duration = .zero) {
        self.p50 = p50
        self.p99 = p99
        self.maximum = maximum
    }
}
