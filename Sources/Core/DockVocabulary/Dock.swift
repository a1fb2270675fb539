/// The types of `Protocol/io.dockd.Dock.varlink` as values: what dockd tells its clients, one
/// type for the daemon that says it and the client that reads it. DockAPI gives each its JSON
/// (`json`) and its reading (`init(json:path:)`); DockPolicy makes them from what it knows, once.
/// Where the vocabulary already has a value that says exactly what the wire says
/// (`NormalizedRect`, `SubjectSummary`, `FramingMode`), that value is used.
public enum Dock {
    /// An `Accessory`: a dock as dockd knows it.
    public struct Accessory: Hashable, Sendable {
        /// Its serial number (`id`).
        public var identifier: String
        /// The port it is on.
        public var device: String
        /// Its model name.
        public var model: String
        /// Its firmware version.
        public var firmwareVersion: String
        /// The protocol it speaks (`dock-serial`, `visca`, `uvc`: the wire name of DockLinks'
        /// `AccessoryProtocol`).
        public var protocolName: String
        /// That protocol's version (0 where it has none).
        public var protocolVersion: Int
        /// What it can do, by name (`failsafe`, `telemetry_stream`...).
        public var capabilities: [String]
        /// What it cannot do, by the same names.
        public var lacks: [String]

        /// Creates an accessory.
        public init(
            identifier: String, device: String, model: String, firmwareVersion: String, protocolName: String,
            protocolVersion: Int, capabilities: [String], lacks: [String]
        ) {
            self.identifier = identifier
            self.device = device
            self.model = model
            self.firmwareVersion = firmwareVersion
            self.protocolName = protocolName
            self.protocolVersion = protocolVersion
            self.capabilities = capabilities
            self.lacks = lacks
        }
    }

    /// An `AccessoryEntry`: one accessory dockd serves, attached or not (`ListAccessories`).
    public struct AccessoryEntry: Hashable, Sendable {
        /// The name calls give it (`accessory`).
        public var name: String
        /// Its session's state.
        public var state: Status.State
        /// Where dockd looks for it.
        public var device: String
        /// What is attached there; nil until one attaches.
        public var accessory: Accessory?

        /// Creates an entry.
        public init(name: String, state: Status.State, device: String, accessory: Accessory?) {
            self.name = name
            self.state = state
            self.device = device
            self.accessory = accessory
        }
    }

    /// A `Pose`: where the dock points and how fast it turns (dockd's signs: yaw > 0 right,
    /// pitch > 0 up).
    public struct Pose: Hashable, Sendable {
        /// Yaw, radians.
        public var yawRadians: Double
        /// Pitch, radians.
        public var pitchRadians: Double
        /// Yaw rate, rad/s.
        public var yawRadiansPerSecond: Double
        /// Pitch rate, rad/s.
        public var pitchRadiansPerSecond: Double
        /// How old the newest pose sample was, seconds (`age`), when dockd says.
        public var ageSeconds: Double?

        /// Creates a pose.
        public init(
            yawRadians: Double, pitchRadians: Double, yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double,
            ageSeconds: Double? = nil
        ) {
            self.yawRadians = yawRadians
            self.pitchRadians = pitchRadians
            self.yawRadiansPerSecond = yawRadiansPerSecond
            self.pitchRadiansPerSecond = pitchRadiansPerSecond
            self.ageSeconds = ageSeconds
        }
    }

    /// A `Limits`: how far and how fast the dock may move.
    public struct Limits: Hashable, Sendable {
        /// Reachable yaw, radians.
        public var yawRadians: ClosedRange<Double>
        /// Reachable pitch, radians.
        public var pitchRadians: ClosedRange<Double>
        /// Highest yaw speed, rad/s.
        public var yawSpeedRadiansPerSecond: Double
        /// Highest pitch speed, rad/s.
        public var pitchSpeedRadiansPerSecond: Double

        /// Creates limits.
        public init(
            yawRadians: ClosedRange<Double>, pitchRadians: ClosedRange<Double>, yawSpeedRadiansPerSecond: Double,
            pitchSpeedRadiansPerSecond: Double
        ) {
            self.yawRadians = yawRadians
            self.pitchRadians = pitchRadians
            self.yawSpeedRadiansPerSecond = yawSpeedRadiansPerSecond
            self.pitchSpeedRadiansPerSecond = pitchSpeedRadiansPerSecond
        }
    }

    /// A `Counters`: what went wrong, and what came in, since dockd started.
    public struct Counters: Hashable, Sendable {
        /// Runs received on the serial line that were not good frames.
        public var badFrames: Int
        /// Times the link was lost.
        public var reconnects: Int
        /// Commands the dock refused.
        public var refusals: Int
        /// Observations accepted through `Track`.
        public var observations: Int
        /// Frames from the simulator's camera.
        public var cameraFrames: Int

        /// Creates counters.
        public init(badFrames: Int, reconnects: Int, refusals: Int, observations: Int, cameraFrames: Int) {
            self.badFrames = badFrames
            self.reconnects = reconnects
            self.refusals = refusals
            self.observations = observations
            self.cameraFrames = cameraFrames
        }
    }

    /// A `Loop`: the 30 Hz control loop's punctuality.
    public struct Loop: Hashable, Sendable {
        /// Ticks since dockd started.
        public var ticks: Int
        /// Ticks missed (the loop fell a whole interval behind).
        public var missed: Int
        /// Median lateness, seconds.
        public var latenessP50Seconds: Double
        /// 99th percentile of lateness, seconds.
        public var latenessP99Seconds: Double
        /// Largest lateness, seconds.
        public var latenessMaximumSeconds: Double

        /// Creates the figures.
        public init(ticks: Int, missed: Int, latenessP50Seconds: Double, latenessP99Seconds: Double, latenessMaximumSeconds: Double) {
            self.ticks = ticks
            self.missed = missed
            self.latenessP50Seconds = latenessP50Seconds
            self.latenessP99Seconds = latenessP99Seconds
            self.latenessMaximumSeconds = latenessMaximumSeconds
        }

        /// No ticks yet.
        public static let none = Loop(ticks: 0, missed: 0, latenessP50Seconds: 0, latenessP99Seconds: 0, latenessMaximumSeconds: 0)
    }

    /// An axis of the dock, by the name the API gives it.
    public enum Axis: String, CaseIterable, Hashable, Sendable {
        /// Pan, around the vertical.
        case yaw
        /// Tilt, around the horizontal.
        case pitch
    }

    /// A `Fault` the dock reported.
    public struct Fault: Hashable, Sendable {
        /// Its code (`motor_stall`, `over_temperature`, `encoder_error`, `supply_voltage`,
        /// `failsafe_stop`; a later protocol may add more).
        public var code: String
        /// The axis it concerns, if one.
        public var axis: Axis?
        /// Whether it is raised (false: cleared).
        public var isActive: Bool

        /// Creates a fault.
        public init(code: String, axis: Axis?, isActive: Bool) {
            self.code = code
            self.axis = axis
            self.isActive = isActive
        }
    }
}
