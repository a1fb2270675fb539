#if canImport(Glibc)
    import Glibc
#endif

/// The mechanical properties of one axis of the simulated dock.
public struct AxisParameters: Hashable, Sendable {
    /// The lowest reachable angle (a hard stop), radians.
    public var minimumRadians: Double
    /// The highest reachable angle (a hard stop), radians.
    public var maximumRadians: Double
    /// The highest speed the motor reaches, rad/s.
    public var maximumSpeedRadiansPerSecond: Double
    /// The acceleration the firmware uses to start and stop, rad/s².
    public var maximumAccelerationRadiansPerSecondSquared: Double
    /// Time constant of the motor's first-order response to its commanded rate, seconds.
    public var responseTimeSeconds: Double
    /// Play between the motor and the camera: the motor may turn this far before the camera
    /// follows after a reversal, radians.
    public var backlashRadians: Double
    /// Standard deviation of the encoder's reading error, radians.
    public var encoderNoiseRadians: Double

    /// Creates axis parameters.
    public init(
        minimumRadians: Double, maximumRadians: Double, maximumSpeedRadiansPerSecond: Double,
        maximumAccelerationRadiansPerSecondSquared: Double, responseTimeSeconds: Double = 0.02,
        backlashRadians: Double = 0, encoderNoiseRadians: Double = 0
    ) {
        self.minimumRadians = minimumRadians
        self.maximumRadians = maximumRadians
        self.maximumSpeedRadiansPerSecond = maximumSpeedRadiansPerSecond
        self.maximumAccelerationRadiansPerSecondSquared = maximumAccelerationRadiansPerSecondSquared
        self.responseTimeSeconds = responseTimeSeconds
        self.backlashRadians = backlashRadians
        self.encoderNoiseRadians = encoderNoiseRadians
    }

    /// The default yaw axis: ±170°, π rad/s, 12 rad/s².
    public static let defaultYaw = AxisParameters(
        minimumRadians: -2.96706, maximumRadians: 2.96706, maximumSpeedRadiansPerSecond: 3.141593,
        maximumAccelerationRadiansPerSecondSquared: 12)
    /// The default pitch axis: −30° to 60°, π/2 rad/s, 8 rad/s².
    public static let defaultPitch = AxisParameters(
        minimumRadians: -0.523599, maximumRadians: 1.047198, maximumSpeedRadiansPerSecond: 1.570796,
        maximumAccelerationRadiansPerSecondSquared: 8)
}

/// One axis in motion: a motor that follows a commanded rate within its speed and acceleration
/// limits with a first-order lag, hard stops at both ends, optional backlash between motor and
/// camera, and a stall that blocks the motor.
public struct AxisPhysics: Hashable, Sendable {
    /// The axis's properties.
    public let parameters: AxisParameters
    /// Where the motor is, radians.
    public private(set) var motorRadians: Double = 0
    /// How fast the motor turns, rad/s.
    public private(set) var motorRadiansPerSecond: Double = 0
    /// Where the camera points on this axis (the motor less the backlash play), radians.
    public private(set) var outputRadians: Double = 0
    /// The commanded rate after the acceleration limit, rad/s.
    private var rampedRadiansPerSecond: Double = 0
    /// Whether the motor is blocked (an injected stall).
    public var isBlocked = false

    /// Creates an axis at rest at the home pose.
    public init(parameters: AxisParameters) { self.parameters = parameters }

    /// Whether the motor rests against a hard stop.
    public var isAtLimit: Bool {
        motorRadians <= parameters.minimumRadians + 1e-6 || motorRadians >= parameters.maximumRadians - 1e-6
    }

    /// Advances the axis by `seconds` under a commanded rate.
    public mutating func step(commandedRadiansPerSecond: Double, seconds: Double) {
        let speedLimit = parameters.maximumSpeedRadiansPerSecond
        let target = min(max(commandedRadiansPerSecond, -speedLimit), speedLimit)
        let maximumChange = parameters.maximumAccelerationRadiansPerSecondSquared * seconds
        rampedRadiansPerSecond += min(max(target - rampedRadiansPerSecond, -maximumChange), maximumChange)

        if isBlocked {
            motorRadiansPerSecond = 0
            return
        }
        let response = parameters.responseTimeSeconds > 0 ? 1 - exp(-seconds / parameters.responseTimeSeconds) : 1
        motorRadiansPerSecond += (rampedRadiansPerSecond - motorRadiansPerSecond) * response
        motorRadians += motorRadiansPerSecond * seconds
        if motorRadians < parameters.minimumRadians {
            motorRadians = parameters.minimumRadians
            motorRadiansPerSecond = max(motorRadiansPerSecond, 0)
            rampedRadiansPerSecond = max(rampedRadiansPerSecond, 0)
        } else if motorRadians > parameters.maximumRadians {
            motorRadians = parameters.maximumRadians
            motorRadiansPerSecond = min(motorRadiansPerSecond, 0)
            rampedRadiansPerSecond = min(rampedRadiansPerSecond, 0)
        }
        let play = parameters.backlashRadians / 2
        outputRadians = min(max(outputRadians, motorRadians - play), motorRadians + play)
    }

    /// A rate that brings the axis to `target` without overshoot: the lowest of the speed cap,
    /// the braking curve of the axis's acceleration, and a proportional term that settles it. The
    /// error is taken where the motor will be once its lag has caught up.
    public func rate(toward target: Double, atMost speed: Double) -> Double {
        let error = target - motorRadians - motorRadiansPerSecond * parameters.responseTimeSeconds
        let braking = (2 * 0.8 * parameters.maximumAccelerationRadiansPerSecondSquared * abs(error)).squareRoot()
        let settling = abs(error) / 0.05
        let magnitude = min(speed, braking, settling)
        return error < 0 ? -magnitude : magnitude
    }

    /// Whether the motor rests at `target`: within 0.2 mrad of it and turning slower than 1 mrad/s.
    public func hasArrived(at target: Double) -> Bool {
        abs(target - motorRadians) < 2e-4 && abs(motorRadiansPerSecond) < 1e-3
    }

    /// Stops the motor at once, as a power loss does.
    public mutating func halt() {
        motorRadiansPerSecond = 0
        rampedRadiansPerSecond = 0
    }

    /// What the encoder reads: the motor angle with noise.
    public func encoderReading(using random: inout SimulationRandom) -> Double {
        motorRadians + random.gaussian(standardDeviation: parameters.encoderNoiseRadians)
    }
}
