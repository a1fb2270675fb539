import DockNumbers

#if canImport(Glibc)
    import Glibc
#endif

/// A simulated Pelco-D pan-tilt head on an RS-485 bus: it takes `Protocol/pelco-d.md`'s frames as a
/// head of its configuration would, over the same `AxisPhysics` as the simulated dock. Pure: time
/// comes in as `now` (simulation time since the start), and every method returns what the head
/// sends, each element one write.
///
/// What it does (see `Protocol/pelco-d.md`, section 6):
/// - it reads the line as a receiver does: a frame starts at `FF` and is seven bytes; one whose
///   checksum (bytes 2 to 6 summed modulo 256) is wrong is dropped and the head looks for the next
///   `FF`; one for another address is not for it;
/// - a standard command (command 2's bit 0 clear) drives each axis by its direction bits at its
///   speed byte's step — 0 to `3F`, `FF` (turbo) as `3F` — until the next command, with no
///   failsafe: a head that hears nothing more turns on; all zero is the stop; with a lens
///   (`zoomFullTravel` above zero) the tele (`20`) and wide (`40`) bits move its zoom, the whole
///   range in that time, until the next command, held at the ends; the other lens and camera bits
///   (and the zoom bits, without a lens) are ignored;
/// - of the extended commands (bit 0 set) it keeps presets — set `03`, clear `05`, go to `07`
///   (a head that answers position queries) — and, where `answersPositionQueries`, answers the
///   pan and tilt position queries `51` and `53` with `59` and `5B` in hundredths of a degree,
///   0 to 35999; others it ignores, counted;
/// - it answers nothing else (no acknowledgement), may hang (`isUnresponsive`) or be unplugged.
///
/// The physics advances in fixed 1 ms steps, so the same inputs at the same times always give the
/// same outputs.
public struct PelcoDHead: Sendable {
    /// The step of the physics.
    public static let step = Duration.milliseconds(1)

    /// Everything that makes one simulated head different from another.
    public struct Configuration: Hashable, Sendable {
        /// Its address, 1–255 (the DIP switches).
        public var address: UInt8
        /// Pan speed at step `3F`, degrees per second.
        public var panDegreesPerSecondAtFastestStep: Double
        /// Tilt speed at step `3F`, degrees per second.
        public var tiltDegreesPerSecondAtFastestStep: Double
        /// Step `s` turns at `fastest × (s / 63)^speedExponent`.
        public var speedExponent: Double
        /// Whether it answers the position queries and keeps presets.
        public var answersPositionQueries: Bool
        /// Pan end stops, degrees.
        public var yawDegrees: ClosedRange<Double>
        /// Tilt end stops, degrees; positive is up.
        public var pitchDegrees: ClosedRange<Double>
        /// How fast the motors change speed, rad/s².
        public var accelerationRadiansPerSecondSquared: Double
        /// Standard deviation of the position it reports, radians.
        public var encoderNoiseRadians: Double
        /// How long its lens takes from the wide end to the tele end; zero: no lens that zooms.
        public var zoomFullTravel: Duration

        /// The generic head of `Protocol/pelco-d.md` §5: address 1, 60 and 30 °/s at step 3F,
        /// even steps, pan ±170°, tilt −30° to 60°, 4 rad/s², no position queries.
        public init(
            address: UInt8 = 1, panDegreesPerSecondAtFastestStep: Double = 60, tiltDegreesPerSecondAtFastestStep: Double = 30,
            speedExponent: Double = 1, answersPositionQueries: Bool = false, yawDegrees: ClosedRange<Double> = -170...170,
            pitchDegrees: ClosedRange<Double> = -30...60, accelerationRadiansPerSecondSquared: Double = 4,
            encoderNoiseRadians: Double = 0, zoomFullTravel: Duration = .zero
        ) {
            self.address = address
            self.panDegreesPerSecondAtFastestStep = panDegreesPerSecondAtFastestStep
            self.tiltDegreesPerSecondAtFastestStep = tiltDegreesPerSecondAtFastestStep
            self.speedExponent = speedExponent
            self.answersPositionQueries = answersPositionQueries
            self.yawDegrees = yawDegrees
            self.pitchDegrees = pitchDegrees
            self.accelerationRadiansPerSecondSquared = accelerationRadiansPerSecondSquared
            self.encoderNoiseRadians = encoderNoiseRadians
            self.zoomFullTravel = zoomFullTravel
        }

        /// The speed of a speed byte on an axis whose step `3F` turns at `fastest` degrees per
        /// second, rad/s (`FF`, turbo, and anything above `3F` as `3F`).
        public func radiansPerSecond(speedByte: UInt8, fastest: Double) -> Double {
            let step = Double(min(speedByte, 0x3F))
            return fastest * pow(step / 63, speedExponent) * .pi / 180
        }
    }

    /// What the pan-tilt mechanism is doing.
    public enum Motion: Hashable, Sendable {
        /// Holding still (decelerating if it was turning).
        case idle
        /// Turning at fixed rates until told otherwise (signed: > 0 right and up).
        case drive(panRadiansPerSecond: Double, tiltRadiansPerSecond: Double)
        /// Heading for a preset's pose at full speed.
        case preset(panRadians: Double, tiltRadians: Double)
    }

    /// The configuration.
    public let configuration: Configuration
    /// The pan axis (yaw).
    public private(set) var pan: AxisPhysics
    /// The tilt axis (pitch).
    public private(set) var tilt: AxisPhysics
    /// What the mechanism is doing.
    public private(set) var motion = Motion.idle
    /// The zoom, 0 (wide) to 1 (tele); it starts somewhere in between, as a lens left by someone.
    public private(set) var zoomFraction = 0.4
    /// The zoom's direction: 1 tele, −1 wide, 0 still.
    public private(set) var zoomDirection = 0
    /// The head has hung: it takes nothing in and sends nothing out, and its motors keep doing
    /// what they were doing (a drive goes on: Pelco-D has no failsafe).
    public var isUnresponsive = false
    /// Whether it is unplugged.
    public private(set) var isUnplugged = false
    /// Simulation time the physics has reached.
    public private(set) var clock = Duration.zero
    /// Good frames for this head.
    public private(set) var framesReceived = 0
    /// Good frames for another address.
    public private(set) var framesForOthers = 0
    /// Frames dropped for a wrong checksum.
    public private(set) var checksumErrors = 0
    /// Runs of bytes before a sync byte, dropped.
    public private(set) var strayRuns = 0
    /// Good frames for this head that it does not carry out (an extended command it lacks, a
    /// speed byte between `40` and `FE`, both directions of an axis at once).
    public private(set) var unknownCommands = 0
    /// When the last stop (all zero) was received.
    public private(set) var lastStopTime: Duration?
    /// The last frame carried out, and when.
    public private(set) var lastFrame: (bytes: [UInt8], time: Duration)?
    /// Stored presets: pan and tilt, radians.
    public private(set) var presets: [UInt8: (pan: Double, tilt: Double)] = [:]

    private var received: [UInt8] = []
    private var isResynchronising = false
    private var random: SimulationRandom

    /// Creates a head at home, at rest.
    public init(configuration: Configuration, seed: UInt64) {
        self.configuration = configuration
        func axis(_ range: ClosedRange<Double>, fastest: Double) -> AxisPhysics {
            AxisPhysics(
                parameters: AxisParameters(
                    minimumRadians: range.lowerBound * .pi / 180, maximumRadians: range.upperBound * .pi / 180,
                    maximumSpeedRadiansPerSecond: fastest * .pi / 180,
                    maximumAccelerationRadiansPerSecondSquared: configuration.accelerationRadiansPerSecondSquared,
                    encoderNoiseRadians: configuration.encoderNoiseRadians))
        }
        pan = axis(configuration.yawDegrees, fastest: configuration.panDegreesPerSecondAtFastestStep)
        tilt = axis(configuration.pitchDegrees, fastest: configuration.tiltDegreesPerSecondAtFastestStep)
        random = SimulationRandom(seed: seed)
    }

    /// Whether both axes stand still.
    public var isStill: Bool {
        abs(pan.motorRadiansPerSecond) < 1e-3 && abs(tilt.motorRadiansPerSecond) < 1e-3 && zoomDirection == 0
    }

    // MARK: Bytes in, bytes out

    /// Takes a run of bytes from the line at `now` (any cutting) and returns what the head sends.
    public mutating func receive(_ chunk: [UInt8], now: Duration) -> [[UInt8]] {
        var output = advance(to: now)
        guard !isUnplugged, !isUnresponsive else { return output }
        received += chunk
        while !received.isEmpty {
            guard received[0] == 0xFF else {
                let sync = received.firstIndex(of: 0xFF)
                if !isResynchronising { strayRuns += 1 }
                isResynchronising = sync == nil  // a run that reaches the end may go on in the next bytes
                received.removeFirst(sync ?? received.count)
                continue
            }
            guard received.count >= 7 else { break }
            let frame = Array(received[0..<7])
            guard UInt8(truncatingIfNeeded: frame[1...5].reduce(0) { $0 + Int($1) }) == frame[6] else {
                checksumErrors += 1
                isResynchronising = true
                received.removeFirst()
                continue
            }
            isResynchronising = false
            received.removeFirst(7)
            guard frame[1] == configuration.address else {
                framesForOthers += 1
                continue
            }
            framesReceived += 1
            if let reply = carryOut(frame, now: now) { output.append(reply) }
        }
        return output
    }

    /// Advances to `now`; a head sends nothing by itself.
    public mutating func advance(to now: Duration) -> [[UInt8]] {
        while clock + Self.step <= now {
            clock += Self.step
            stepOnce()
        }
        return []
    }

    /// Pulls (`true`) or puts back (`false`) the head's cable and power at `now`. Unplugged, it
    /// takes nothing and its motors stop where they are; plugged back in, it powers on at rest
    /// where it stands (its presets kept, as in its memory).
    public mutating func setUnplugged(_ unplugged: Bool, now: Duration) -> [[UInt8]] {
        let output = advance(to: now)
        guard unplugged != isUnplugged else { return output }
        isUnplugged = unplugged
        pan.halt()
        tilt.halt()
        zoomDirection = 0
        motion = .idle
        received.removeAll()
        return output
    }

    // MARK: Commands

    private mutating func carryOut(_ frame: [UInt8], now: Duration) -> [UInt8]? {
        let command1 = frame[2], command2 = frame[3], data1 = frame[4], data2 = frame[5]
        if command2 & 0x01 == 0 {
            if command1 == 0, command2 == 0, data1 == 0, data2 == 0 { lastStopTime = now }
            lastFrame = (frame, now)
            drive(command2: command2, panSpeed: data1, tiltSpeed: data2)
            return nil
        }
        switch command2 {
        case 0x03 where configuration.answersPositionQueries:
            presets[data2] = (pan.motorRadians, tilt.motorRadians)
        case 0x05 where configuration.answersPositionQueries:
            presets[data2] = nil
        case 0x07 where configuration.answersPositionQueries:
            guard let stored = presets[data2] else { break }
            motion = .preset(panRadians: stored.pan, tiltRadians: stored.tilt)
            zoomDirection = 0
        case 0x51 where configuration.answersPositionQueries:
            lastFrame = (frame, now)
            return reply(0x59, pan.encoderReading(using: &random))
        case 0x53 where configuration.answersPositionQueries:
            lastFrame = (frame, now)
            return reply(0x5B, tilt.encoderReading(using: &random))
        default:
            unknownCommands += 1
            return nil
        }
        lastFrame = (frame, now)
        return nil
    }

    /// A standard command: each axis by its direction bits and speed byte.
    private mutating func drive(command2: UInt8, panSpeed: UInt8, tiltSpeed: UInt8) {
        func rate(_ positive: UInt8, _ negative: UInt8, _ speed: UInt8, fastest: Double) -> Double {
            let isPositive = command2 & positive != 0, isNegative = command2 & negative != 0
            if isPositive && isNegative || (0x40...0xFE).contains(speed) { unknownCommands += 1 }
            guard isPositive != isNegative else { return 0 }
            let magnitude = configuration.radiansPerSecond(speedByte: speed, fastest: fastest)
            return isPositive ? magnitude : -magnitude
        }
        let panRate = rate(0x02, 0x04, panSpeed, fastest: configuration.panDegreesPerSecondAtFastestStep)
        let tiltRate = rate(0x08, 0x10, tiltSpeed, fastest: configuration.tiltDegreesPerSecondAtFastestStep)
        let tele = command2 & 0x20 != 0, wide = command2 & 0x40 != 0
        zoomDirection = configuration.zoomFullTravel > .zero && tele != wide ? (tele ? 1 : -1) : 0
        motion = panRate == 0 && tiltRate == 0 ? .idle : .drive(panRadiansPerSecond: panRate, tiltRadiansPerSecond: tiltRate)
    }

    /// A position answer: hundredths of a degree, 0 to 35999, high byte first.
    private func reply(_ kind: UInt8, _ radians: Double) -> [UInt8] {
        let hundredths = Int((radians * 180 / .pi * 100).rounded())
        let value = ((hundredths % 36_000) + 36_000) % 36_000
        let body: [UInt8] = [configuration.address, 0x00, kind, UInt8(value >> 8), UInt8(value & 0xFF)]
        return [0xFF] + body + [UInt8(truncatingIfNeeded: body.reduce(0) { $0 + Int($1) })]
    }

    // MARK: Physics

    private mutating func stepOnce() {
        let seconds = 0.001
        let rates: (pan: Double, tilt: Double) =
            switch motion {
            case .idle: (0, 0)
            case .drive(let panRate, let tiltRate): (panRate, tiltRate)
            case .preset(let panTarget, let tiltTarget):
                (
                    pan.rate(toward: panTarget, atMost: pan.parameters.maximumSpeedRadiansPerSecond),
                    tilt.rate(toward: tiltTarget, atMost: tilt.parameters.maximumSpeedRadiansPerSecond)
                )
            }
        pan.step(commandedRadiansPerSecond: rates.pan, seconds: seconds)
        tilt.step(commandedRadiansPerSecond: rates.tilt, seconds: seconds)
        if case .preset(let panTarget, let tiltTarget) = motion, pan.hasArrived(at: panTarget), tilt.hasArrived(at: tiltTarget) {
            motion = .idle
        }
        if zoomDirection != 0 {
            zoomFraction = min(max(zoomFraction + Double(zoomDirection) * seconds / configuration.zoomFullTravel.secondsValue, 0), 1)
        }
    }
}
