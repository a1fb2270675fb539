public import DockProtocol
public import DockVocabulary

/// A simulated run, as read from a scenario file (format in `docs/simulator.md`): the dock, the
/// camera, the detector, the people and things in the room, and what goes wrong when.
public struct Scenario: Sendable {
    /// A short name.
    public var name: String
    /// What the scenario shows.
    public var summary: String
    /// How long the run lasts.
    public var duration: Duration
    /// The seed of every random choice in the run.
    public var seed: UInt64
    /// The simulated dock.
    public var accessory: AccessoryConfiguration
    /// The camera on the dock.
    public var camera: CameraSetup
    /// The detector that turns what the camera sees into observations.
    public var detector: DetectorParameters
    /// The people and things in the room.
    public var subjects: [SubjectScript]
    /// What goes wrong, and when.
    public var faults: [FaultScript]
    /// What the user does to the dock, and when.
    public var events: [EventScript]
    /// What a run must achieve to pass.
    public var criteria: PassCriteria
    /// The shot size the camera app asks dockd to hold by zoom (`SetShotSize`) once dockd has a
    /// session; nil: it asks none (the zoom stays where it is).
    public var shot: ShotSize? = nil

    /// The subject the dock should follow, if the scenario names one.
    public var primarySubject: SubjectScript? { subjects.first { $0.isPrimary } }
}

/// The camera: how it sees (field of view, resolution, frame rate) and where it sits.
public struct CameraSetup: Hashable, Sendable {
    /// Field of view, aspect ratio, orientation and mirroring of the delivered image.
    public var information: CameraInformation
    /// Image width, pixels.
    public var widthPixels: Int
    /// Image height, pixels.
    public var heightPixels: Int
    /// Frames per second.
    public var framesPerSecond: Double
    /// Height of the camera above the floor, metres.
    public var mountHeightMeters: Double
}

/// How the simulated detector errs.
public struct DetectorParameters: Hashable, Sendable {
    /// Probability that a visible subject is not reported in a frame.
    public var missRate: Double
    /// Standard deviation of a box's centre error, as a fraction of its size.
    public var positionNoise: Double
    /// Standard deviation of a box's size error, as a fraction of its size.
    public var sizeNoise: Double
    /// Mean number of false detections per frame.
    public var falsePositivesPerFrame: Double
    /// Time from capture to delivery of a frame's observations.
    public var latency: Duration
    /// Extra delivery delay, uniform in 0...jitter.
    public var latencyJitter: Duration
    /// Whether faces are reported.
    public var reportsFaces: Bool
    /// Whether bodies are reported.
    public var reportsBodies: Bool
    /// The share of a subject that must be visible (in frame and not hidden) for it to be reported.
    public var minimumVisibleFraction: Double
    /// The length of the appearance descriptor it sends with each body and face
    /// (`Observation.appearance`, see `AppearanceModel`); 0: none.
    public var appearanceLength = 0
}

/// One person or object and how it moves.
public struct SubjectScript: Hashable, Sendable {
    /// The scenario's identifier for the subject (ground truth, never shown to the tracker).
    public var identifier: Int
    /// What it is.
    public var kind: Kind
    /// Whether this is the subject the dock should follow.
    public var isPrimary: Bool
    /// How it moves.
    public var path: Path
    /// Spans of time, in seconds from the start, when it is not in the room at all.
    public var absences: [ClosedRange<Double>]
    /// The subject whose clothes this one's are like (a look-alike: see `AppearanceModel`), if any.
    public var looksLike: Int? = nil

    /// What a subject is.
    public enum Kind: Hashable, Sendable {
        /// A person of the given height: a body and a face.
        case person(heightMeters: Double)
        /// A thing of the given size, its bottom at `elevationMeters` above the floor.
        case object(widthMeters: Double, heightMeters: Double, elevationMeters: Double)
    }

    /// How a subject moves across the floor (x to the dock's right, y straight ahead, metres).
    public enum Path: Hashable, Sendable {
        /// Straight lines between timed points.
        case waypoints([Waypoint])
        /// A seeded random walk.
        case randomWalk(RandomWalk)
    }

    /// Whether the subject is in the room at `seconds`.
    public func isPresent(atSeconds seconds: Double) -> Bool {
        !absences.contains { $0.contains(seconds) }
    }
}

/// A point of a scripted path.
public struct Waypoint: Hashable, Sendable {
    /// When the subject is there, seconds from the start.
    public var timeSeconds: Double
    /// To the dock's right, metres.
    public var xMeters: Double
    /// Ahead of the dock, metres.
    public var yMeters: Double
}

/// A random walk within a rectangle of floor.
public struct RandomWalk: Hashable, Sendable {
    /// Where it starts.
    public var startXMeters: Double
    /// Where it starts.
    public var startYMeters: Double
    /// Walking speed, m/s.
    public var speedMetersPerSecond: Double
    /// The walk stays within this span of x.
    public var xRangeMeters: ClosedRange<Double>
    /// The walk stays within this span of y.
    public var yRangeMeters: ClosedRange<Double>
    /// How often it picks a new heading, seconds.
    public var turnIntervalSeconds: Double
}

/// A fault injected at a time.
public struct FaultScript: Hashable, Sendable {
    /// When, seconds from the start.
    public var atSeconds: Double
    /// What.
    public var kind: Kind

    /// The faults a scenario can inject.
    public enum Kind: Hashable, Sendable {
        /// The cable is pulled (the dock loses power) and put back after the duration.
        case unplug(durationSeconds: Double)
        /// Bits flip on the line, both ways, at the given rate.
        case lineNoise(durationSeconds: Double, bitErrorRate: Double)
        /// The dock stops sending telemetry for a while.
        case telemetryStall(durationSeconds: Double)
        /// The dock resets (brown-out).
        case reboot
        /// A motor is blocked.
        case motorStall(axis: Axis, durationSeconds: Double)
        /// Nothing from the host reaches the dock (the failsafe should stop it).
        case hostSilence(durationSeconds: Double)
        /// A motor driver overheats.
        case overTemperature(durationSeconds: Double)
        /// A VISCA camera answers this much later than it would (an overloaded camera or network);
        /// a dock takes no notice.
        case replyDelay(durationSeconds: Double, delay: Duration)
        /// A VISCA camera's replies are lost at this rate (it still carries the commands out); a
        /// dock takes no notice.
        case replyLoss(durationSeconds: Double, fraction: Double)

        /// The fault's name in scenario files and reports.
        public var name: String {
            switch self {
            case .unplug: "unplug"
            case .lineNoise: "line_noise"
            case .telemetryStall: "telemetry_stall"
            case .reboot: "reboot"
            case .motorStall: "motor_stall"
            case .hostSilence: "host_silence"
            case .overTemperature: "over_temperature"
            case .replyDelay: "reply_delay"
            case .replyLoss: "reply_loss"
            }
        }

        /// How long the fault lasts, seconds (0 for an instant).
        public var durationSeconds: Double {
            switch self {
            case .unplug(let duration), .lineNoise(let duration, _), .telemetryStall(let duration),
                .motorStall(_, let duration), .hostSilence(let duration), .overTemperature(let duration),
                .replyDelay(let duration, _), .replyLoss(let duration, _):
                duration
            case .reboot: 0
            }
        }
    }
}

/// Something the user does to the dock at a time.
public struct EventScript: Hashable, Sendable {
    /// When, seconds from the start.
    public var atSeconds: Double
    /// What.
    public var kind: Kind

    /// What a user can do.
    public enum Kind: Hashable, Sendable {
        /// Press a button and release it after the duration.
        case press(AccessoryFirmware.Button, durationSeconds: Double)
        /// Move the zoom rocker.
        case zoom(steps: Int8)
        /// Mount (true) or remove (false) the camera.
        case dock(Bool)
    }
}

/// What a run of the scenario must achieve, checked against its report.
public struct PassCriteria: Hashable, Sendable {
    /// Least share of frames with the primary subject within the framing tolerance.
    public var minimumPrimaryInFrameShare: Double?
    /// Most switches of the tracker's primary subject ID.
    public var maximumPrimaryIDSwitches: Int?
    /// Most switches of the true person behind the tracker's primary subject.
    public var maximumPrimaryPersonSwitches: Int?
    /// Most velocity commands per second that reverse an axis while the primary subject is still.
    public var maximumStillReversalsPerSecond: Double?
    /// Most RMS angular jitter of the camera, degrees, while the primary subject is still.
    public var maximumStillJitterDegrees: Double?
    /// Distance from the framing target, in normalised image units, that counts as framed.
    public var framingToleranceFraction: Double
    /// Longest time from a replug (or a fault's end) to a new session.
    public var maximumReconnectSeconds: Double?
    /// Longest time from the primary subject's coming back into the picture (after at least
    /// `RunReport.returnAbsenceSeconds` out of it) until it is framed within the tolerance; the
    /// run must have such a return.
    public var maximumReframeSeconds: Double?
    /// Longest time from the start of host silence until the motors stand still.
    public var maximumSilenceStopSeconds: Double?
    /// The band the primary subject's size in the picture must be held in, for a share of the
    /// frames (a shot size held by zoom).
    public var shotBand: ShotBand?
    /// Most turns of the zoom from in to out or back per minute (`RunReport.zoomReversals`).
    public var maximumZoomReversalsPerMinute: Double?
    /// Least share of the primary subject's face inside the picture, over every frame with the
    /// subject in the room: 1 keeps the whole face in, 0.5 half of it.
    public var minimumFaceInPicture: Double?
}

/// A band of sizes in the picture for the primary subject: its part's height as a share of the
/// picture's height, `lowFraction...highFraction`, in at least `minimumShare` of the frames from
/// `fromSeconds` to `toSeconds` that have the subject in the room.
public struct ShotBand: Hashable, Sendable {
    /// The part measured: the body or the face.
    public var part: SubjectKind
    /// The least height, as a share of the picture's.
    public var lowFraction: Double
    /// The greatest height, as a share of the picture's.
    public var highFraction: Double
    /// When the counting starts, seconds from the run's start (the first zoom given time).
    public var fromSeconds: Double
    /// When the counting ends, seconds from the run's start (the run's end unless told).
    public var toSeconds: Double
    /// The least share of the counted frames within the band.
    public var minimumShare: Double

    /// Creates a band.
    public init(
        part: SubjectKind, lowFraction: Double, highFraction: Double, fromSeconds: Double, toSeconds: Double, minimumShare: Double
    ) {
        self.part = part
        self.toSeconds = toSeconds
        self.lowFraction = lowFraction
        self.highFraction = highFraction
        self.fromSeconds = fromSeconds
        self.minimumShare = minimumShare
    }
}
