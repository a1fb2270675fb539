public import DockProtocol

/// The firmware of a simulated dock: it speaks `Protocol/dock-serial.md` as a microcontroller
/// would, over two `AxisPhysics`. Pure: time comes in as `now` (simulation time since the start),
/// and every method returns the frames the dock sends.
///
/// The physics advances in fixed 1 ms steps, so the same inputs at the same times always give the
/// same outputs, whatever the caller's own step.
public struct AccessoryFirmware: Sendable {
    /// Whether a host has opened a session.
    public enum Session: Hashable, Sendable {
        /// After power-on or reset: only `hello` is accepted.
        case notReady
        /// A session with the chosen protocol version.
        case ready(version: UInt8)
    }

    /// What the motors are doing.
    public enum Motion: Hashable, Sendable {
        /// Holding still (decelerating if they were turning).
        case idle
        /// Turning at fixed rates until `expiry`.
        case velocity(yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double, expiry: Duration)
        /// Heading for a target at up to the given speeds (pace `max_speed`, or a move by duration
        /// that cannot be planned, being already too fast to stop before its target).
        case move(
            yawRadians: Double, pitchRadians: Double, yawSpeedRadiansPerSecond: Double,
            pitchSpeedRadiansPerSecond: Double)
        /// Following a move by duration planned to end at its targets on time (§5.4).
        case plannedMove(MovePlan)
    }

    /// The physical buttons of the simulated dock.
    public enum Button: Hashable, Sendable {
        case tracking, shutter, flip
        case custom(UInt8)
    }

    /// The step of the physics.
    public static let step = Duration.milliseconds(1)
    /// How long a commanded axis may fail to move before `motor_stall` is raised.
    public static let stallDetectionTime = Duration.milliseconds(200)
    /// How far past an end of its range a velocity aims, radians, so that the axis reaches the end
    /// (at a few mrad/s, well within its acceleration) instead of creeping towards it.
    static let rangeEndOverrunRadians = 2e-4
    /// A planned move's feedback on the motor's lag behind its profile: per second of position
    /// error, and per unit of rate error.
    static let plannedPositionGain = 5.0
    static let plannedRateGain = 0.2

    public let configuration: AccessoryConfiguration
    private let info: AccessoryInfo
    private var random: SimulationRandom
    private var decoder = FrameDecoder()

    /// The yaw axis.
    public private(set) var yaw: AxisPhysics
    /// The pitch axis.
    public private(set) var pitch: AxisPhysics
    /// The session state.
    public private(set) var session = Session.notReady
    /// The current motion.
    public private(set) var motion = Motion.idle
    /// The indicator light.
    public private(set) var indicator = IndicatorState(pattern: .off, red: 0, green: 0, blue: 0)
    /// The patterns the host has set the light to so far, each once, in the order first seen: a
    /// test on the wall clock cannot sample a state that lasted a moment, this keeps it.
    public private(set) var indicatorPatternsSet: [IndicatorState] = []
    /// Whether a camera is mounted.
    public private(set) var isDocked: Bool
    /// Whether the failsafe has stopped the motors and no host frame has come since.
    public private(set) var isFailsafeStopped = false
    /// The axis whose stall is latched, if any.
    public private(set) var latchedStall: Axis?
    /// Whether an over-temperature fault is active.
    public private(set) var isOverTemperature = false
    /// Whether telemetry is held back (an injected telemetry stall).
    public var isTelemetrySuppressed = false
    /// Frames received with a good checksum.
    public private(set) var goodFrameCount = 0
    /// Runs received that were not good frames.
    public private(set) var badFrameCount = 0
    /// What the host commanded with `set_velocity` so far, for scoring how still it held the dock.
    public private(set) var velocityCommands = VelocityCommandCounts()
    /// The buttons whose press this session has reported: a release is reported only for them, so
    /// a button held through `hello` is released without an event (§7).
    private var reportedPressed: Set<Button> = []

    /// Simulation time the physics has reached.
    public private(set) var clock = Duration.zero
    private var bootTime = Duration.zero
    /// While a frame from the host or a change of the world is handled, its moment: what it causes
    /// (an answer, a cleared fault, an event) is stamped with it, to the microsecond, rather than
    /// with the last millisecond the physics stepped to (§4: an ack carries when it was carried out).
    private var stampTime: Duration?
    private var lastHostFrame = Duration.zero
    private var nextTelemetry = Duration.zero
    private var sequence: UInt16 = 0
    private var yawStallTime = Duration.zero
    private var pitchStallTime = Duration.zero

    /// Creates a dock that has just powered on.
    ///
    /// - Precondition: the configuration has a wire form (`AccessoryConfiguration.info` is not nil).
    public init(configuration: AccessoryConfiguration, seed: UInt64) {
        guard let info = configuration.info(version: configuration.supportedVersions.upperBound) else {
            preconditionFailure("accessory configuration has no wire form: \(configuration)")
        }
        self.configuration = configuration
        self.info = info
        random = SimulationRandom(seed: seed)
        yaw = AxisPhysics(parameters: configuration.yaw)
        pitch = AxisPhysics(parameters: configuration.pitch)
        isDocked = configuration.isDocked
    }

    /// The accessory's own clock: time since its last power-on.
    public var accessoryTime: AccessoryTimestamp { timestamp(of: stampTime ?? clock) }

    /// The accessory's clock at simulation time `time`, to the microsecond.
    private func timestamp(of time: Duration) -> AccessoryTimestamp {
        let (seconds, attoseconds) = (time - bootTime).components
        return AccessoryTimestamp(microseconds: UInt64(max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)))
    }

    /// Whether both motors stand still.
    public var isStill: Bool {
        abs(yaw.motorRadiansPerSecond) < 1e-3 && abs(pitch.motorRadiansPerSecond) < 1e-3
    }

    private var telemetryPeriod: Duration { .seconds(1) / configuration.telemetryRateHertz }

    // MARK: Bytes in, bytes out

    /// Takes bytes from the host's line at `now`; returns the bytes the dock sends.
    public mutating func receive(bytes: some Sequence<UInt8>, now: Duration) -> [UInt8] {
        var output = encode(advance(to: now))
        for byte in bytes {
            if let result = decoder.decode(byte) {
                output += encode(receive(result, now: now))
            }
        }
        return output
    }

    /// Advances to `now`; returns the bytes the dock sends meanwhile.
    public mutating func advanceBytes(to now: Duration) -> [UInt8] {
        encode(advance(to: now))
    }

    private mutating func encode(_ frames: [Frame]) -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in frames {
            do {
                try FrameEncoder.encode(frame, into: &bytes)
            } catch {
                preconditionFailure("the simulated firmware built an invalid frame: \(frame): \(error)")
            }
        }
        return bytes
    }

    // MARK: Frames in, frames out

    /// Handles one decoded run from the host at `now`; returns the frames the dock sends.
    public mutating func receive(_ result: Result<Frame, FrameError>, now: Duration) -> [Frame] {
        var output = advance(to: now)
        stampTime = now
        defer { stampTime = nil }
        switch result {
        case .failure(let error):
            badFrameCount += 1
            guard let sequence = error.sequence, let typeCode = error.typeCode else { return output }
            let wasFailsafe = noteFrame(typeCode: typeCode)
            output.append(refusal(for: error, sequence: sequence))
            if wasFailsafe { output.append(fault(.failsafeStop, axis: nil, isActive: false)) }
        case .success(let frame):
            goodFrameCount += 1
            let wasFailsafe = noteFrame(typeCode: frame.message.type.rawValue)
            output += answer(frame)
            if wasFailsafe { output.append(fault(.failsafeStop, axis: nil, isActive: false)) }
        }
        return output
    }

    /// Notes a frame with a good CRC: one of a host type (0x01–0x7F), carried out or refused,
    /// restarts the failsafe timer and ends a failsafe stop; 0x00 and 0x80–0xFF, which no host
    /// sends (most likely the dock's own frames echoed by the line), do not (section 5.2).
    ///
    /// - Returns: whether this frame ended a failsafe stop.
    private mutating func noteFrame(typeCode: UInt8) -> Bool {
        guard (0x01...0x7F).contains(typeCode) else { return false }
        lastHostFrame = clock
        defer { isFailsafeStopped = false }
        return isFailsafeStopped
    }

    private mutating func refusal(for error: FrameError, sequence: UInt16) -> Frame {
        switch error {
        case .unknownType(let code, _):
            return nack(sequence, code, .unknownMessage)
        case .wrongPayloadLength(let type, _, _):
            guard type.direction == .hostToAccessory else { return nack(sequence, type.rawValue, .unknownMessage) }
            return nack(sequence, type.rawValue, .wrongLength, detail: UInt16(type.fixedPayloadCount ?? 0))
        case .valueOutOfRange(let type, _, let field):
            guard type.direction == .hostToAccessory else { return nack(sequence, type.rawValue, .unknownMessage) }
            return nack(sequence, type.rawValue, .outOfRange, detail: type.fieldNumber(of: field))
        case .oversize, .truncated, .checksumMismatch:
            preconditionFailure("no sequence number in \(error)")
        }
    }

    private mutating func answer(_ frame: Frame) -> [Frame] {
        let type = frame.message.type
        guard type.direction == .hostToAccessory else { return [nack(frame.sequence, type.rawValue, .unknownMessage)] }
        if case .hello(let hello) = frame.message { return handshake(hello, sequence: frame.sequence) }
        guard case .ready = session else { return [nack(frame.sequence, type.rawValue, .notReady)] }
        var clearedStall: Axis?

        switch frame.message {
        case .heartbeat:
            break
        case .setVelocity(let command):
            if let blocked = blockingFault() { return [nack(frame.sequence, type.rawValue, .faulted, detail: blocked)] }
            if command.yawRate.microradiansPerSecond.magnitude > info.yaw.maximumSpeed.microradiansPerSecond.magnitude {
                return [nack(frame.sequence, type.rawValue, .outOfRange, detail: 1)]
            }
            if command.pitchRate.microradiansPerSecond.magnitude > info.pitch.maximumSpeed.microradiansPerSecond.magnitude {
                return [nack(frame.sequence, type.rawValue, .outOfRange, detail: 2)]
            }
            motion = .velocity(
                yawRadiansPerSecond: command.yawRate.radiansPerSecond,
                pitchRadiansPerSecond: command.pitchRate.radiansPerSecond,
                expiry: clock + command.timeToLive)
            velocityCommands.count(
                yawMicroradiansPerSecond: command.yawRate.microradiansPerSecond,
                pitchMicroradiansPerSecond: command.pitchRate.microradiansPerSecond)
        case .moveTo(let move):
            if let blocked = blockingFault() { return [nack(frame.sequence, type.rawValue, .faulted, detail: blocked)] }
            guard info.yaw.contains(move.yaw) else { return [nack(frame.sequence, type.rawValue, .outOfRange, detail: 1)] }
            guard info.pitch.contains(move.pitch) else { return [nack(frame.sequence, type.rawValue, .outOfRange, detail: 2)] }
            switch move.pace {
            case .duration(let duration):
                let seconds = Double(duration.wholeMilliseconds ?? 1) / 1000
                motion = plannedMove(to: move, seconds: seconds)
            case .maximumSpeed(let speed):
                motion = .move(
                    yawRadians: move.yaw.radians, pitchRadians: move.pitch.radians,
                    yawSpeedRadiansPerSecond: min(speed.radiansPerSecond, configuration.yaw.maximumSpeedRadiansPerSecond),
                    pitchSpeedRadiansPerSecond: min(speed.radiansPerSecond, configuration.pitch.maximumSpeedRadiansPerSecond))
            }
        case .stop:
            motion = .idle
            clearedStall = latchedStall
            latchedStall = nil
        case .setIndicator(let state):
            indicator = state
            if !indicatorPatternsSet.contains(state) { indicatorPatternsSet.append(state) }
        case .hello, .info, .ack, .nack, .telemetry, .event, .fault:
            preconditionFailure("\(type) is handled above")
        }
        var frames = [
            frameWithSequence(
                .ack(
                    Acknowledgement(
                        sequence: frame.sequence, acknowledgedType: type,
                        accessoryTime: accessoryTime)))
        ]
        if let axis = clearedStall { frames.append(fault(.motorStall, axis: axis, isActive: false)) }
        return frames
    }

    /// Plans a move by duration (§5.4): both axes to arrive together `seconds` from now, or as soon
    /// as the slower can. An axis already heading for its target too fast to stop before it cannot
    /// be planned; the move then goes as fast as it can, overshooting and coming back.
    private func plannedMove(to move: OrientationMove, seconds: Double) -> Motion {
        let fastest = Motion.move(
            yawRadians: move.yaw.radians, pitchRadians: move.pitch.radians,
            yawSpeedRadiansPerSecond: configuration.yaw.maximumSpeedRadiansPerSecond,
            pitchSpeedRadiansPerSecond: configuration.pitch.maximumSpeedRadiansPerSecond)
        guard
            let yawShortest = MoveProfile.shortestSeconds(
                from: yaw.motorRadians, rate: yaw.motorRadiansPerSecond,
                to: move.yaw.radians, parameters: configuration.yaw),
            let pitchShortest = MoveProfile.shortestSeconds(
                from: pitch.motorRadians, rate: pitch.motorRadiansPerSecond,
                to: move.pitch.radians, parameters: configuration.pitch)
        else { return fastest }
        let duration = max(seconds, yawShortest, pitchShortest)
        guard
            let yawProfile = MoveProfile.plan(
                from: yaw.motorRadians, rate: yaw.motorRadiansPerSecond, to: move.yaw.radians,
                seconds: duration, parameters: configuration.yaw),
            let pitchProfile = MoveProfile.plan(
                from: pitch.motorRadians, rate: pitch.motorRadiansPerSecond,
                to: move.pitch.radians, seconds: duration, parameters: configuration.pitch)
        else { return fastest }
        return .plannedMove(
            MovePlan(
                yaw: MovePlan.Leg(origin: yaw.motorRadians, target: move.yaw.radians, profile: yawProfile),
                pitch: MovePlan.Leg(origin: pitch.motorRadians, target: move.pitch.radians, profile: pitchProfile)))
    }

    /// Answers a `hello` that decoded well. Either way the current session ends: the axes stop
    /// and the light goes off. With a shared version a new session opens (`info`, then a `fault`
    /// for each fault still active); without one the dock is not ready, as after power-on.
    private mutating func handshake(_ hello: Hello, sequence: UInt16) -> [Frame] {
        motion = .idle
        indicator = IndicatorState(pattern: .off, red: 0, green: 0, blue: 0)
        reportedPressed.removeAll()  // a session starts with every button released (§7)
        let supported = configuration.supportedVersions
        let highest = min(hello.maximumVersion, supported.upperBound)
        guard highest >= max(hello.minimumVersion, supported.lowerBound) else {
            session = .notReady
            return [
                nack(
                    sequence, MessageType.hello.rawValue, .unsupportedVersion,
                    detail: UInt16(supported.lowerBound) | UInt16(supported.upperBound) << 8)
            ]
        }
        session = .ready(version: highest)
        nextTelemetry = clock + telemetryPeriod
        var answer = info
        answer.protocolVersion = highest
        var frames = [frameWithSequence(.info(answer))]
        if let axis = latchedStall { frames.append(fault(.motorStall, axis: axis, isActive: true)) }
        if isOverTemperature { frames.append(fault(.overTemperature, axis: nil, isActive: true)) }
        return frames
    }

    /// The code a `faulted` refusal carries: the lowest among the active faults that block motion.
    private func blockingFault() -> UInt16? {
        if latchedStall != nil { return UInt16(FaultReport.Code.motorStall.rawValue) }
        if isOverTemperature { return UInt16(FaultReport.Code.overTemperature.rawValue) }
        return nil
    }

    private mutating func nack(
        _ sequence: UInt16, _ typeCode: UInt8, _ reason: Refusal.Reason, detail: UInt16 = 0
    ) -> Frame {
        frameWithSequence(.nack(Refusal(sequence: sequence, refusedTypeCode: typeCode, reason: reason, detail: detail)))
    }

    private mutating func fault(_ code: FaultReport.Code, axis: Axis?, isActive: Bool) -> Frame {
        frameWithSequence(.fault(FaultReport(accessoryTime: accessoryTime, code: code, axis: axis, isActive: isActive)))
    }

    private mutating func frameWithSequence(_ message: Message) -> Frame {
        defer { sequence &+= 1 }
        return Frame(sequence: sequence, message: message)
    }

    // MARK: Time

    /// Advances the physics to `now`; returns what the dock sends meanwhile (telemetry, faults).
    public mutating func advance(to now: Duration) -> [Frame] {
        var output: [Frame] = []
        while clock + Self.step <= now {
            clock += Self.step
            stepOnce(into: &output)
        }
        return output
    }

    private mutating func stepOnce(into output: inout [Frame]) {
        let seconds = 0.001
        if case .ready = session, !isFailsafeStopped, clock - lastHostFrame > configuration.failsafeTimeout {
            isFailsafeStopped = true
            motion = .idle
            output.append(fault(.failsafeStop, axis: nil, isActive: true))
        }
        if case .velocity(_, _, let expiry) = motion, clock >= expiry { motion = .idle }

        let (yawCommand, pitchCommand) = commandedRates()
        yaw.step(commandedRadiansPerSecond: yawCommand, seconds: seconds)
        pitch.step(commandedRadiansPerSecond: pitchCommand, seconds: seconds)
        switch motion {
        case .move(let yawTarget, let pitchTarget, _, _):
            if abs(yawTarget - yaw.motorRadians) < 2e-4, abs(pitchTarget - pitch.motorRadians) < 2e-4, isStill {
                motion = .idle
            }
        case .plannedMove(var plan):
            plan.advance(seconds: seconds)
            let isThere = abs(plan.yaw.target - yaw.motorRadians) < 2e-4 && abs(plan.pitch.target - pitch.motorRadians) < 2e-4
            motion = isThere && isStill && plan.elapsedSeconds >= plan.durationSeconds - 0.02 ? .idle : .plannedMove(plan)
        case .idle, .velocity:
            break
        }
        detectStall(.yaw, commanded: yawCommand, into: &output)
        detectStall(.pitch, commanded: pitchCommand, into: &output)

        if clock >= nextTelemetry {
            nextTelemetry += telemetryPeriod
            if nextTelemetry <= clock { nextTelemetry = clock + telemetryPeriod }
            if case .ready = session, !isTelemetrySuppressed { output.append(telemetry()) }
        }
    }

    /// The rate each axis is told to turn at, from the current motion.
    private func commandedRates() -> (yaw: Double, pitch: Double) {
        switch motion {
        case .idle:
            return (0, 0)
        case .velocity(let yawRate, let pitchRate, _):
            return (rangeEndRate(yaw, yawRate), rangeEndRate(pitch, pitchRate))
        case .move(let yawTarget, let pitchTarget, let yawSpeed, let pitchSpeed):
            return (yaw.rate(toward: yawTarget, atMost: yawSpeed), pitch.rate(toward: pitchTarget, atMost: pitchSpeed))
        case .plannedMove(let plan):
            return (plannedRate(yaw, plan.yaw, at: plan.elapsedSeconds), plannedRate(pitch, plan.pitch, at: plan.elapsedSeconds))
        }
    }

    /// A velocity's rate, slowed before the end of the range it heads for so that the axis brakes
    /// within its acceleration and comes to rest at the end (§5.4): the braking curve towards a
    /// point just past the end, never turning the axis round.
    private func rangeEndRate(_ axis: AxisPhysics, _ rate: Double) -> Double {
        guard rate != 0 else { return 0 }
        let end =
            rate > 0
            ? axis.parameters.maximumRadians + Self.rangeEndOverrunRadians
            : axis.parameters.minimumRadians - Self.rangeEndOverrunRadians
        let braking = axis.rate(toward: end, atMost: abs(rate))
        return rate > 0 ? min(rate, max(braking, 0)) : max(rate, min(braking, 0))
    }

    /// The rate that keeps an axis on its planned profile: the profile's rate, led by the motor's
    /// response time times the profile's acceleration (the inverse of the motor's lag), and a
    /// little feedback on where and how fast the axis is against where and how fast it should be.
    private func plannedRate(_ axis: AxisPhysics, _ leg: MovePlan.Leg, at seconds: Double) -> Double {
        let direction = leg.profile.direction
        let (rate, acceleration) = leg.profile.smoothed(at: seconds)
        let along = direction * (axis.motorRadians - leg.origin), alongRate = direction * axis.motorRadiansPerSecond
        let command =
            rate + axis.parameters.responseTimeSeconds * acceleration
            + Self.plannedPositionGain * (leg.reference - along) + Self.plannedRateGain * (rate - alongRate)
        return direction * command
    }

    private mutating func detectStall(_ axis: Axis, commanded: Double, into output: inout [Frame]) {
        let physics = axis == .yaw ? yaw : pitch
        let isStuck = abs(commanded) > 0.05 && abs(physics.motorRadiansPerSecond) < 0.005 && !physics.isAtLimit
        var stallTime = axis == .yaw ? yawStallTime : pitchStallTime
        stallTime = isStuck ? stallTime + Self.step : .zero
        if stallTime >= Self.stallDetectionTime, latchedStall == nil {
            latchedStall = axis
            motion = .idle
            stallTime = .zero
            output.append(fault(.motorStall, axis: axis, isActive: true))
        }
        if axis == .yaw { yawStallTime = stallTime } else { pitchStallTime = stallTime }
    }

    private mutating func telemetry() -> Frame {
        func angle(_ radians: Double) -> Angle {
            let limit = Double(WireLimits.angleMagnitudeMicroradians) / 1e6
            return Angle(radians: min(max(radians, -limit), limit))!
        }
        func rate(_ radiansPerSecond: Double) -> AngularRate {
            let limit = Double(WireLimits.rateMagnitudeMicroradiansPerSecond) / 1e6
            return AngularRate(radiansPerSecond: min(max(radiansPerSecond, -limit), limit))!
        }
        let yawRate = rate(yaw.motorRadiansPerSecond), pitchRate = rate(pitch.motorRadiansPerSecond)
        var flags: TelemetryFlags = []
        // From the rates as sent, so that a host can check the flags against them (section 5.4).
        let moving = WireLimits.movingThresholdMicroradiansPerSecond.magnitude
        if yawRate.microradiansPerSecond.magnitude > moving { flags.insert(.yawMoving) }
        if pitchRate.microradiansPerSecond.magnitude > moving { flags.insert(.pitchMoving) }
        if yaw.isAtLimit { flags.insert(.yawAtLimit) }
        if pitch.isAtLimit { flags.insert(.pitchAtLimit) }
        if latchedStall == .yaw { flags.insert(.yawStalled) }
        if latchedStall == .pitch { flags.insert(.pitchStalled) }
        if latchedStall != nil || isOverTemperature { flags.insert(.faulted) }
        if isFailsafeStopped { flags.insert(.failsafeStopped) }
        if isDocked || !configuration.features.contains(.dockSensor) { flags.insert(.docked) }
        return frameWithSequence(
            .telemetry(
                Telemetry(
                    accessoryTime: accessoryTime,
                    yaw: angle(yaw.encoderReading(using: &random)), pitch: angle(pitch.encoderReading(using: &random)),
                    yawRate: yawRate, pitchRate: pitchRate, flags: flags)))
    }

    // MARK: The world acting on the dock

    /// A button goes down (`isPressed`) or up at `now`; returns the event frames.
    public mutating func button(_ button: Button, isPressed: Bool, now: Duration) -> [Frame] {
        let kind: AccessoryEvent.Kind =
            switch button {
            case .tracking: .trackingButton(isPressed: isPressed)
            case .shutter: .shutterButton(isPressed: isPressed)
            case .flip: .flipButton(isPressed: isPressed)
            case .custom(let identifier): .customButton(identifier: identifier, isPressed: isPressed)
            }
        return buttonEvent(button, kind, isPressed: isPressed, now: now)
    }

    /// The zoom rocker moves by `steps` at `now`.
    public mutating func zoom(steps: Int8, now: Duration) -> [Frame] {
        steps == 0 ? advance(to: now) : event(.zoom(steps: steps), now: now)
    }

    /// A camera is mounted or removed at `now`.
    public mutating func setDocked(_ docked: Bool, now: Duration) -> [Frame] {
        var output = advance(to: now)
        guard docked != isDocked else { return output }
        stampTime = now
        defer { stampTime = nil }
        isDocked = docked
        if case .ready = session, configuration.features.contains(.dockSensor) {
            output.append(
                frameWithSequence(
                    .event(
                        AccessoryEvent(
                            accessoryTime: accessoryTime,
                            kind: .dockChanged(isDocked: docked)))))
        }
        return output
    }

    private mutating func event(_ kind: AccessoryEvent.Kind, now: Duration) -> [Frame] {
        var output = advance(to: now)
        stampTime = now
        defer { stampTime = nil }
        if case .ready = session {
            output.append(frameWithSequence(.event(AccessoryEvent(accessoryTime: accessoryTime, kind: kind))))
        }
        return output
    }

    /// A button's press while ready is reported and remembered; its release only when its press
    /// was (§7: not for a button held through `hello`).
    private mutating func buttonEvent(_ button: Button, _ kind: AccessoryEvent.Kind, isPressed: Bool, now: Duration) -> [Frame] {
        guard case .ready = session else { return advance(to: now) }
        if isPressed {
            reportedPressed.insert(button)
        } else if reportedPressed.remove(button) == nil {
            return advance(to: now)
        }
        return event(kind, now: now)
    }

    /// Blocks or frees a motor (an injected stall) at `now`.
    public mutating func setBlocked(_ axis: Axis, _ blocked: Bool, now: Duration) -> [Frame] {
        let output = advance(to: now)
        if axis == .yaw { yaw.isBlocked = blocked } else { pitch.isBlocked = blocked }
        return output
    }

    /// Raises or clears an over-temperature fault at `now`; motion stops while it is active.
    public mutating func setOverTemperature(_ hot: Bool, now: Duration) -> [Frame] {
        var output = advance(to: now)
        guard hot != isOverTemperature else { return output }
        stampTime = now
        defer { stampTime = nil }
        isOverTemperature = hot
        if hot { motion = .idle }
        if case .ready = session { output.append(fault(.overTemperature, axis: nil, isActive: hot)) }
        return output
    }

    /// The dock resets at `now`, as after a brown-out: the motors stop where they are, the session
    /// ends, the clock and the sequence numbers start again from zero.
    public mutating func reboot(now: Duration) {
        _ = advance(to: now)
        yaw.halt()
        pitch.halt()
        session = .notReady
        motion = .idle
        indicator = IndicatorState(pattern: .off, red: 0, green: 0, blue: 0)
        isFailsafeStopped = false
        latchedStall = nil
        isOverTemperature = false
        reportedPressed.removeAll()
        bootTime = clock
        sequence = 0
        decoder = FrameDecoder()
    }

    /// Forgets a partly received frame, as when the cable is pulled mid-frame.
    public mutating func resetReceiver() { decoder = FrameDecoder() }
}

/// Counts of the velocity commands a dock accepted: how many, how many asked for motion, and how
/// many turned an axis the other way from its last moving command (a reversal). Cumulative, so
/// the difference between two snapshots counts what happened in between.
public struct VelocityCommandCounts: Hashable, Sendable {
    /// Velocity commands accepted.
    public private(set) var commands = 0
    /// Of those, commands with a rate other than zero on either axis.
    public private(set) var movingCommands = 0
    /// Moving commands that turned an axis in the opposite direction to that axis's last moving
    /// command (one per axis that reversed).
    public private(set) var reversals = 0
    private var lastYawSign = 0
    private var lastPitchSign = 0

    /// No commands yet.
    public init() {}

    /// Counts one accepted command with these rates (the wire's µrad/s: zero means zero).
    mutating func count(yawMicroradiansPerSecond yaw: Int32, pitchMicroradiansPerSecond pitch: Int32) {
        commands += 1
        guard yaw != 0 || pitch != 0 else { return }
        movingCommands += 1
        reversals += Self.turn(&lastYawSign, yaw) + Self.turn(&lastPitchSign, pitch)
    }

    /// 1 when a moving `rate` turns the axis against its last moving command's direction `sign`;
    /// notes the new direction.
    private static func turn(_ sign: inout Int, _ rate: Int32) -> Int {
        guard rate != 0 else { return 0 }
        let new = rate > 0 ? 1 : -1
        defer { sign = new }
        return sign == -new ? 1 : 0
    }
}
