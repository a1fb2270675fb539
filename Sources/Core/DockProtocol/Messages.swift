/// The messages of the dock serial protocol, as typed values. Field ranges are in
/// `Protocol/dock-serial.md`; `MessageCoding.swift` enforces them in both directions.

/// One decoded frame: the sender's sequence number and the message it carried.
public struct Frame: Hashable, Sendable {
    /// The sender's sequence number; each end numbers its own frames, wrapping at 65536.
    public var sequence: UInt16
    /// The message in the frame.
    public var message: Message

    /// Creates a frame.
    public init(sequence: UInt16, message: Message) {
        self.sequence = sequence
        self.message = message
    }
}

/// Every message of protocol version 1.
public enum Message: Hashable, Sendable {
    /// Host → accessory: open a session, offering a range of protocol versions.
    case hello(Hello)
    /// Host → accessory: keep the link alive.
    case heartbeat
    /// Host → accessory: turn at the given rates until the time-to-live runs out.
    case setVelocity(VelocityCommand)
    /// Host → accessory: move to an absolute orientation.
    case moveTo(OrientationMove)
    /// Host → accessory: decelerate to a standstill and cancel any motion.
    case stop
    /// Host → accessory: set the indicator light.
    case setIndicator(IndicatorState)
    /// Accessory → host: identity and capabilities, in answer to hello.
    case info(AccessoryInfo)
    /// Accessory → host: a command was accepted.
    case ack(Acknowledgement)
    /// Accessory → host: a command was refused.
    case nack(Refusal)
    /// Accessory → host: pose, rates and status at the telemetry rate.
    case telemetry(Telemetry)
    /// Accessory → host: the dock state changed or a button was used.
    case event(AccessoryEvent)
    /// Accessory → host: a fault was raised or cleared.
    case fault(FaultReport)

    /// The message's type byte.
    public var type: MessageType {
        switch self {
        case .hello: .hello
        case .heartbeat: .heartbeat
        case .setVelocity: .setVelocity
        case .moveTo: .moveTo
        case .stop: .stop
        case .setIndicator: .setIndicator
        case .info: .info
        case .ack: .ack
        case .nack: .nack
        case .telemetry: .telemetry
        case .event: .event
        case .fault: .fault
        }
    }
}

/// The host's offer of protocol versions, lowest and highest it speaks.
public struct Hello: Hashable, Sendable {
    /// The lowest protocol version the host speaks (at least 1).
    public var minimumVersion: UInt8
    /// The highest protocol version the host speaks (at least `minimumVersion`).
    public var maximumVersion: UInt8

    /// Creates an offer.
    public init(minimumVersion: UInt8, maximumVersion: UInt8) {
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
    }
}

/// Turn both axes at fixed rates; the accessory stops by itself when the time-to-live has passed
/// without a newer velocity command.
public struct VelocityCommand: Hashable, Sendable {
    /// Yaw rate; positive pans right.
    public var yawRate: AngularRate
    /// Pitch rate; positive tilts up.
    public var pitchRate: AngularRate
    /// How long the rates hold before the accessory stops (1 ms to 5 s, whole milliseconds).
    public var timeToLive: Duration

    /// Creates a velocity command.
    public init(yawRate: AngularRate, pitchRate: AngularRate, timeToLive: Duration) {
        self.yawRate = yawRate
        self.pitchRate = pitchRate
        self.timeToLive = timeToLive
    }
}

/// Move to an absolute orientation, paced by a duration or a speed.
public struct OrientationMove: Hashable, Sendable {
    /// Target yaw.
    public var yaw: Angle
    /// Target pitch.
    public var pitch: Angle
    /// How fast to get there.
    public var pace: Pace

    /// Creates a move.
    public init(yaw: Angle, pitch: Angle, pace: Pace) {
        self.yaw = yaw
        self.pitch = pitch
        self.pace = pace
    }

    /// How an orientation move is paced.
    public enum Pace: Hashable, Sendable {
        /// Both axes arrive together after this long (1 ms to 60 s, whole milliseconds).
        case duration(Duration)
        /// Each axis moves at up to this speed (positive; the accessory's own maximum caps it).
        case maximumSpeed(AngularRate)
    }
}

/// The indicator light's pattern and colour.
public struct IndicatorState: Hashable, Sendable {
    /// The pattern shown.
    public var pattern: Pattern
    /// Red intensity, 0–255.
    public var red: UInt8
    /// Green intensity, 0–255.
    public var green: UInt8
    /// Blue intensity, 0–255.
    public var blue: UInt8

    /// Creates an indicator state.
    public init(pattern: Pattern, red: UInt8, green: UInt8, blue: UInt8) {
        self.pattern = pattern
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// What the light does. An accessory with a single-colour light shows any non-zero colour.
    public enum Pattern: UInt8, CaseIterable, Hashable, Sendable {
        /// Dark.
        case off = 0
        /// Steadily lit.
        case solid = 1
        /// On and off once a second.
        case slowBlink = 2
        /// On and off four times a second.
        case fastBlink = 3
        /// Fading up and down once every two seconds.
        case pulse = 4

        /// The pattern's name in the specification and the vectors.
        public var name: String {
            switch self {
            case .off: "off"
            case .solid: "solid"
            case .slowBlink: "slow_blink"
            case .fastBlink: "fast_blink"
            case .pulse: "pulse"
            }
        }
    }
}

/// The limits of one axis, as the accessory reports them.
public struct AxisLimits: Hashable, Sendable {
    /// The lowest reachable angle (at most zero).
    public var minimum: Angle
    /// The highest reachable angle (at least zero).
    public var maximum: Angle
    /// The highest speed the axis can turn at.
    public var maximumSpeed: AngularRate
    /// The highest acceleration the axis uses.
    public var maximumAcceleration: AngularAcceleration

    /// Creates axis limits.
    public init(
        minimum: Angle, maximum: Angle, maximumSpeed: AngularRate,
        maximumAcceleration: AngularAcceleration
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.maximumSpeed = maximumSpeed
        self.maximumAcceleration = maximumAcceleration
    }

    /// Whether `angle` lies within the range.
    public func contains(_ angle: Angle) -> Bool { angle >= minimum && angle <= maximum }
}

/// What the accessory has, a bit each.
public struct AccessoryFeatures: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A tracking button (toggles system tracking).
    public static let trackingButton = AccessoryFeatures(rawValue: 1 << 0)
    /// A shutter button.
    public static let shutterButton = AccessoryFeatures(rawValue: 1 << 1)
    /// A camera-flip button.
    public static let flipButton = AccessoryFeatures(rawValue: 1 << 2)
    /// A zoom rocker.
    public static let zoomControl = AccessoryFeatures(rawValue: 1 << 3)
    /// An indicator light that can show colours.
    public static let colorIndicator = AccessoryFeatures(rawValue: 1 << 4)
    /// A sensor that tells whether a camera is mounted.
    public static let dockSensor = AccessoryFeatures(rawValue: 1 << 5)

    /// Every feature with its specification name, in bit order.
    public static let named: [(name: String, feature: AccessoryFeatures)] = [
        ("tracking_button", .trackingButton), ("shutter_button", .shutterButton),
        ("flip_button", .flipButton), ("zoom_control", .zoomControl),
        ("color_indicator", .colorIndicator), ("dock_sensor", .dockSensor),
    ]
}

/// The accessory's answer to hello.
public struct AccessoryInfo: Hashable, Sendable {
    /// The protocol version the accessory chose from the host's offer.
    public var protocolVersion: UInt8
    /// Buttons, sensors and lights present.
    public var features: AccessoryFeatures
    /// Telemetry frames per second (1–200).
    public var telemetryRateHertz: UInt8
    /// Silence from the host after which the accessory stops its motors (50 ms to 10 s).
    public var failsafeTimeout: Duration
    /// The yaw axis.
    public var yaw: AxisLimits
    /// The pitch axis.
    public var pitch: AxisLimits
    /// Model name, UTF-8, at most 32 bytes.
    public var model: String
    /// Firmware version, UTF-8, at most 32 bytes.
    public var firmwareVersion: String
    /// Serial number, UTF-8, at most 32 bytes; identifies the unit across re-plugs.
    public var serialNumber: String

    /// Creates accessory information.
    public init(
        protocolVersion: UInt8, features: AccessoryFeatures, telemetryRateHertz: UInt8,
        failsafeTimeout: Duration, yaw: AxisLimits, pitch: AxisLimits,
        model: String, firmwareVersion: String, serialNumber: String
    ) {
        self.protocolVersion = protocolVersion
        self.features = features
        self.telemetryRateHertz = telemetryRateHertz
        self.failsafeTimeout = failsafeTimeout
        self.yaw = yaw
        self.pitch = pitch
        self.model = model
        self.firmwareVersion = firmwareVersion
        self.serialNumber = serialNumber
    }
}

/// The accessory accepted a command.
public struct Acknowledgement: Hashable, Sendable {
    /// The sequence number of the accepted frame.
    public var sequence: UInt16
    /// The type of the accepted frame (a host-to-accessory type).
    public var acknowledgedType: MessageType
    /// The accessory's clock when it accepted the command, for clock mapping.
    public var accessoryTime: AccessoryTimestamp

    /// Creates an acknowledgement.
    public init(sequence: UInt16, acknowledgedType: MessageType, accessoryTime: AccessoryTimestamp) {
        self.sequence = sequence
        self.acknowledgedType = acknowledgedType
        self.accessoryTime = accessoryTime
    }
}

/// The accessory refused a command.
public struct Refusal: Hashable, Sendable {
    /// The sequence number of the refused frame.
    public var sequence: UInt16
    /// The type byte of the refused frame, as received (it may be a type the accessory does not
    /// know).
    public var refusedTypeCode: UInt8
    /// Why the command was refused.
    public var reason: Reason
    /// More about the reason; its meaning depends on the reason (see the specification).
    public var detail: UInt16

    /// Creates a refusal.
    public init(sequence: UInt16, refusedTypeCode: UInt8, reason: Reason, detail: UInt16) {
        self.sequence = sequence
        self.refusedTypeCode = refusedTypeCode
        self.reason = reason
        self.detail = detail
    }

    /// Why an accessory refuses a command.
    public enum Reason: UInt8, CaseIterable, Hashable, Sendable {
        /// The type byte is not a host-to-accessory message the accessory knows.
        case unknownMessage = 1
        /// The payload length does not match the message type. Detail: the expected length.
        case wrongLength = 2
        /// A field is outside its range (or the axis limits). Detail: the field's number.
        case outOfRange = 3
        /// No session: hello has not been accepted since the accessory started.
        case notReady = 4
        /// No protocol version in common. Detail: lowest version in the low byte, highest in the
        /// high byte.
        case unsupportedVersion = 5
        /// A latched fault (a stalled motor) blocks motion until the host sends stop.
        case faulted = 6

        /// The reason's name in the specification and the vectors.
        public var name: String {
            switch self {
            case .unknownMessage: "unknown_message"
            case .wrongLength: "wrong_length"
            case .outOfRange: "out_of_range"
            case .notReady: "not_ready"
            case .unsupportedVersion: "unsupported_version"
            case .faulted: "faulted"
            }
        }
    }
}

/// Status bits reported with each telemetry frame.
public struct TelemetryFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The yaw axis is turning.
    public static let yawMoving = TelemetryFlags(rawValue: 1 << 0)
    /// The pitch axis is turning.
    public static let pitchMoving = TelemetryFlags(rawValue: 1 << 1)
    /// The yaw axis is at one end of its range.
    public static let yawAtLimit = TelemetryFlags(rawValue: 1 << 2)
    /// The pitch axis is at one end of its range.
    public static let pitchAtLimit = TelemetryFlags(rawValue: 1 << 3)
    /// The yaw motor is stalled.
    public static let yawStalled = TelemetryFlags(rawValue: 1 << 4)
    /// The pitch motor is stalled.
    public static let pitchStalled = TelemetryFlags(rawValue: 1 << 5)
    /// A fault is active.
    public static let faulted = TelemetryFlags(rawValue: 1 << 6)
    /// The failsafe stopped the motors because the host went quiet.
    public static let failsafeStopped = TelemetryFlags(rawValue: 1 << 7)
    /// A camera is mounted.
    public static let docked = TelemetryFlags(rawValue: 1 << 8)

    /// Every defined flag with its specification name, in bit order.
    public static let named: [(name: String, flag: TelemetryFlags)] = [
        ("yaw_moving", .yawMoving), ("pitch_moving", .pitchMoving),
        ("yaw_at_limit", .yawAtLimit), ("pitch_at_limit", .pitchAtLimit),
        ("yaw_stalled", .yawStalled), ("pitch_stalled", .pitchStalled),
        ("faulted", .faulted), ("failsafe_stopped", .failsafeStopped), ("docked", .docked),
    ]

    /// The bits that version 1 defines; the others are reserved and sent as zero.
    public static let defined = TelemetryFlags(rawValue: 0x01FF)
}

/// Pose, rates and status, sent by the accessory at its telemetry rate.
public struct Telemetry: Hashable, Sendable {
    /// The accessory's clock when the pose was sampled.
    public var accessoryTime: AccessoryTimestamp
    /// Measured yaw.
    public var yaw: Angle
    /// Measured pitch.
    public var pitch: Angle
    /// Measured yaw rate.
    public var yawRate: AngularRate
    /// Measured pitch rate.
    public var pitchRate: AngularRate
    /// Status bits.
    public var flags: TelemetryFlags

    /// Creates a telemetry sample.
    public init(
        accessoryTime: AccessoryTimestamp, yaw: Angle, pitch: Angle,
        yawRate: AngularRate, pitchRate: AngularRate, flags: TelemetryFlags
    ) {
        self.accessoryTime = accessoryTime
        self.yaw = yaw
        self.pitch = pitch
        self.yawRate = yawRate
        self.pitchRate = pitchRate
        self.flags = flags
    }
}

/// Something the user did to the accessory, or a camera mounted or removed.
public struct AccessoryEvent: Hashable, Sendable {
    /// The accessory's clock when it happened.
    public var accessoryTime: AccessoryTimestamp
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    public init(accessoryTime: AccessoryTimestamp, kind: Kind) {
        self.accessoryTime = accessoryTime
        self.kind = kind
    }

    /// The events of version 1.
    public enum Kind: Hashable, Sendable {
        /// A camera was mounted (true) or removed (false).
        case dockChanged(isDocked: Bool)
        /// The tracking button went down (true) or up (false).
        case trackingButton(isPressed: Bool)
        /// The shutter button went down or up.
        case shutterButton(isPressed: Bool)
        /// The camera-flip button went down or up.
        case flipButton(isPressed: Bool)
        /// The zoom rocker moved by this many steps; positive zooms in.
        case zoom(steps: Int8)
        /// A vendor-specific button (identifier 1–255) went down or up.
        case customButton(identifier: UInt8, isPressed: Bool)
    }
}

/// An axis of the accessory.
public enum Axis: UInt8, CaseIterable, Hashable, Sendable {
    /// Pan, around the vertical.
    case yaw = 1
    /// Tilt, around the horizontal.
    case pitch = 2

    /// The axis name in the specification and the vectors.
    public var name: String {
        switch self {
        case .yaw: "yaw"
        case .pitch: "pitch"
        }
    }
}

/// A fault raised or cleared by the accessory.
public struct FaultReport: Hashable, Sendable {
    /// The accessory's clock when the fault changed.
    public var accessoryTime: AccessoryTimestamp
    /// Which fault.
    public var code: Code
    /// The axis concerned, or nil for the whole accessory.
    public var axis: Axis?
    /// True when raised, false when cleared.
    public var isActive: Bool

    /// Creates a fault report.
    public init(accessoryTime: AccessoryTimestamp, code: Code, axis: Axis?, isActive: Bool) {
        self.accessoryTime = accessoryTime
        self.code = code
        self.axis = axis
        self.isActive = isActive
    }

    /// The faults of version 1.
    public enum Code: UInt8, CaseIterable, Hashable, Sendable {
        /// A motor cannot reach its commanded motion; latched until the host sends stop.
        case motorStall = 1
        /// A driver or motor is too hot; motion is refused until it cools.
        case overTemperature = 2
        /// An encoder reading is implausible.
        case encoderError = 3
        /// The supply voltage is outside its range.
        case supplyVoltage = 4
        /// The host went quiet for longer than the failsafe timeout and the motors were stopped.
        case failsafeStop = 5

        /// The fault's name in the specification and the vectors.
        public var name: String {
            switch self {
            case .motorStall: "motor_stall"
            case .overTemperature: "over_temperature"
            case .encoderError: "encoder_error"
            case .supplyVoltage: "supply_voltage"
            case .failsafeStop: "failsafe_stop"
            }
        }
    }
}
