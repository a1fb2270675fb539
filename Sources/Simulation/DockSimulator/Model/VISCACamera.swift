import DockNumbers
public import VISCAProtocol

/// A simulated VISCA PTZ camera: it answers `Protocol/visca.md` as a camera of its profile
/// would, over the same `AxisPhysics` as the simulated dock. Pure: time comes in as `now`
/// (simulation time since the start), and every method returns what the camera sends, each
/// element one write (serial) or one datagram (UDP).
///
/// What it does (see `Protocol/visca.md`, section 6):
/// - address set (serial), IF_Clear (addressed: `y0 50 FF`; broadcast: passed on unchanged),
///   cancel, the four inquiries (answered on socket 0 from the physics, even with both sockets
///   busy), and the motion commands, each checked against the profile (a speed step outside its
///   table, a zoom command without zoom: syntax error);
/// - a motion command takes a free socket and is answered ACK (none with the quirk
///   `completion_without_ack`), then Completion: at once for a drive and zoom tele/wide/stop, on
///   arrival for absolute and relative moves, home, reset and zoom direct (at once with
///   `completion_before_arrival`); with every socket busy it is refused with buffer full on
///   socket 0; a new pan-tilt (or zoom) motion replaces the one running and completes its socket;
/// - drives turn each axis at its step's speed from the profile's table until the next command;
///   moves head for their target at their steps' speeds within the axis's acceleration;
/// - preset memories, as many as the profile's `preset_memory` count (numbered from 0): Memory
///   Set stores where the motors are and the zoom, Reset empties one, Recall heads for what one
///   holds at the preset speed (`presetSpeedFraction` of each axis's fastest step), its zoom at
///   the zoom's fastest, and completes on arrival; a number past the count is a syntax error (so
///   a camera without memories refuses them all), an empty memory's recall not executable;
/// - IF_Clear ends the commands in the sockets without Completion and stops their motion; a drive
///   already completed goes on (the host must stop it);
/// - faults: it may hang (`faults.isUnresponsive`), answer late (`faults.replyDelay`), lose a
///   seeded share of its replies (`faults.replyLossFraction`), or be unplugged
///   (`setUnplugged(_:now:)`): the motors stop, and on replug it boots, turns home and, on a
///   serial line, sends network change.
///
/// The physics advances in fixed 1 ms steps, so the same inputs at the same times always give the
/// same outputs.
public struct VISCACamera: Sendable {
    /// The step of the physics.
    public static let step = Duration.milliseconds(1)

    /// What the pan-tilt mechanism is doing.
    public enum PanTiltMotion: Hashable, Sendable {
        /// Holding still (decelerating if it was turning).
        case idle
        /// Turning at fixed rates until told otherwise (signed: > 0 right and up).
        case drive(panRadiansPerSecond: Double, tiltRadiansPerSecond: Double)
        /// Heading for a pose at up to the given speeds.
        case move(
            panRadians: Double, tiltRadians: Double, panSpeedRadiansPerSecond: Double,
            tiltSpeedRadiansPerSecond: Double)
    }

    /// What the zoom is doing.
    public enum ZoomMotion: Hashable, Sendable {
        /// Holding still.
        case idle
        /// Zooming at a fixed rate (counts per second; > 0 towards tele) until told otherwise.
        case continuous(countsPerSecond: Double)
        /// Heading for a position at a rate.
        case direct(position: Double, countsPerSecond: Double)
    }

    /// What a busy socket's command waits for.
    private enum Task: Hashable, Sendable {
        case panTilt, zoom
    }

    /// A busy socket: its command's task, and over Sony's VISCA over IP the sequence number its
    /// Completion must carry.
    private struct Socket: Hashable, Sendable {
        var task: Task
        var sequence: UInt32?
    }

    /// What became of a packet.
    private enum Outcome {
        /// Carried out (answered with ACK, Completion or data).
        case executed
        /// Refused with an error.
        case refused
        /// Not for this camera (passed on, or dropped).
        case ignored
    }

    public let configuration: Configuration
    /// The faults in force; change them at any time.
    public var faults = Faults()
    /// The pan axis (yaw).
    public private(set) var pan: AxisPhysics
    /// The tilt axis (pitch).
    public private(set) var tilt: AxisPhysics
    /// The zoom position, in the profile's counts (0 without zoom).
    public private(set) var zoomPosition: Double = 0
    /// The pan-tilt motion.
    public private(set) var panTiltMotion = PanTiltMotion.idle
    /// The zoom motion.
    public private(set) var zoomMotion = ZoomMotion.idle
    /// How many times the zoom magnifies the picture now, by the profile's table (1 without zoom
    /// or without a table: the picture of a camera whose optics are not known does not narrow).
    public var magnification: Double {
        profile.magnification(atZoomPosition: UInt16(clamping: Int(zoomPosition.rounded()))) ?? 1
    }
    /// The camera's VISCA address (the profile's until an address set; always 1 over IP).
    public private(set) var address: UInt8
    /// Whether it is unplugged.
    public private(set) var isUnplugged = false
    /// Simulation time the physics has reached.
    public private(set) var clock = Duration.zero
    /// The last command carried out (inquiries aside), and when.
    public private(set) var lastCommand: (command: VISCACommand, time: Duration)?
    /// When the last drive that stops both axes (`PP TT` = `03 03`) was carried out.
    public private(set) var lastStopTime: Duration?
    /// The preset memories stored: memory number → pan, tilt (radians) and zoom position.
    public private(set) var presetMemories: [UInt8: (pan: Double, tilt: Double, zoom: Double)] = [:]
    /// Packets received that were framed well.
    public private(set) var packetsReceived = 0
    /// Bytes or datagrams dropped because they did not frame (stream errors, bad headers).
    public private(set) var framingErrors = 0
    /// Commands refused with an error (syntax, buffer full) or an IP control error.
    public private(set) var refusals = 0
    /// Replies lost to `faults.replyLossFraction`, to a hang or to the cable.
    public private(set) var repliesLost = 0

    private var sockets: [Socket?]
    private var decoder = VISCAPacketDecoder()
    private var random: SimulationRandom
    /// Replies waiting for their time (a reply delay), in the order they were made.
    private var outbox: [(due: Duration, bytes: [UInt8])] = []
    /// Over Sony's VISCA over IP, the number of the last message carried out.
    private var lastExecutedSequence: UInt32?

    /// Creates a camera at home, at rest, that has been on for a while.
    ///
    /// - Precondition: the profile's address is 1...7 (as `VISCAProfile.parse` ensures). Its
    ///   socket count is held to 1...15, the numbers a reply can carry.
    public init(configuration: Configuration, seed: UInt64) {
        let profile = configuration.profile
        precondition((1...7).contains(profile.address), "VISCA camera address \(profile.address) is outside 1...7")
        self.configuration = configuration
        func axis(_ axis: VISCAProfile.Axis, acceleration: Double) -> AxisPhysics {
            AxisPhysics(
                parameters: AxisParameters(
                    minimumRadians: axis.minimumRadians, maximumRadians: axis.maximumRadians,
                    maximumSpeedRadiansPerSecond: axis.speeds.maximumRadiansPerSecond,
                    maximumAccelerationRadiansPerSecondSquared: acceleration,
                    encoderNoiseRadians: configuration.encoderNoiseRadians))
        }
        pan = axis(profile.pan, acceleration: configuration.panAccelerationRadiansPerSecondSquared)
        tilt = axis(profile.tilt, acceleration: configuration.tiltAccelerationRadiansPerSecondSquared)
        zoomPosition = Double(profile.zoom?.lowerBound ?? 0)
        address = configuration.transport == .serial ? profile.address : 1
        sockets = Array(repeating: nil, count: min(max(profile.sockets, 1), 15))
        random = SimulationRandom(seed: seed)
    }

    private var profile: VISCAProfile { configuration.profile }

    /// How many sockets hold a command that has not completed.
    public var busySocketCount: Int { sockets.count(where: { $0 != nil }) }

    /// Whether both axes and the zoom stand still.
    public var isStill: Bool {
        abs(pan.motorRadiansPerSecond) < 1e-3 && abs(tilt.motorRadiansPerSecond) < 1e-3 && zoomMotion == .idle
    }

    // MARK: Bytes in, bytes out

    /// Takes a chunk from the host at `now` — a run of serial or TCP bytes (any cutting), or one
    /// UDP datagram — and returns what the camera sends, each element one write or datagram.
    public mutating func receive(_ chunk: [UInt8], now: Duration) -> [[UInt8]] {
        var output = advance(to: now)
        guard !isUnplugged, !faults.isUnresponsive else { return output }
        switch configuration.transport {
        case .serial:
            for result in decoder.decode(chunk) { _ = handle(result, sequence: nil, now: now) }
        case .rawIP:
            var datagram = VISCAPacketDecoder()
            let results = datagram.decode(chunk)
            if datagram.bufferedCount > 0 { framingErrors += 1 }
            for result in results { _ = handle(result, sequence: nil, now: now) }
        case .sonyIP:
            receiveDatagram(chunk, now: now)
        }
        output += takeDue(upTo: now)
        return output
    }

    /// Advances to `now`; returns what the camera sends meanwhile (Completions of moves that
    /// arrive, replies whose delay is over).
    public mutating func advance(to now: Duration) -> [[UInt8]] {
        while clock + Self.step <= now {
            clock += Self.step
            stepOnce()
        }
        return takeDue(upTo: now)
    }

    // MARK: The world acting on the camera

    /// Pulls (`true`) or puts back (`false`) the camera's cable and power at `now`. Unplugged, it
    /// takes and sends nothing, its motors stop where they are, its sockets and replies are lost.
    /// Plugged back in, it boots: the address is the profile's again, IP sequence numbers are
    /// forgotten, it turns home, and on a serial line it sends network change (`y0 38 FF`).
    public mutating func setUnplugged(_ unplugged: Bool, now: Duration) -> [[UInt8]] {
        var output = advance(to: now)
        guard unplugged != isUnplugged else { return output }
        isUnplugged = unplugged
        if unplugged {
            pan.halt()
            tilt.halt()
            panTiltMotion = .idle
            zoomMotion = .idle
            sockets = sockets.map { _ in nil }
            repliesLost += outbox.count
            outbox.removeAll()
            decoder = VISCAPacketDecoder()
        } else {
            address = configuration.transport == .serial ? profile.address : 1
            lastExecutedSequence = nil
            panTiltMotion = .move(
                panRadians: 0, tiltRadians: 0,
                panSpeedRadiansPerSecond: profile.pan.speeds.maximumRadiansPerSecond,
                tiltSpeedRadiansPerSecond: profile.tilt.speeds.maximumRadiansPerSecond)
            if configuration.transport == .serial { send(.networkChange, sequence: nil, at: now) }
            output += takeDue(upTo: now)
        }
        return output
    }

    // MARK: Sony's VISCA over IP

    private mutating func receiveDatagram(_ datagram: [UInt8], now: Duration) {
        let message: VISCAIPMessage
        do {
            message = try VISCAIPMessage.decode(datagram)
        } catch {
            framingErrors += 1
            // With a header to read, the sender hears which message was abnormal.
            if datagram.count >= VISCAIPMessage.headerCount {
                let sequence = datagram[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                controlError(.message, sequence: sequence, now: now)
            }
            return
        }
        switch message.payloadType {
        case .controlCommand:
            if message.control == .reset {
                lastExecutedSequence = nil
                enqueue(VISCAIPMessage.resetAcknowledgement(sequence: message.sequence).encode(), at: now)
            } else {
                controlError(.message, sequence: message.sequence, now: now)
            }
        case .controlReply, .reply:
            // Replies go from the camera to the host, never the other way.
            controlError(.message, sequence: message.sequence, now: now)
        case .command, .inquiry, .deviceSetting:
            guard message.sequence != lastExecutedSequence else {
                // A resend of what was already carried out (Sony SRG-300H p. 32).
                controlError(.sequenceNumber, sequence: message.sequence, now: now)
                return
            }
            var packets = VISCAPacketDecoder()
            let results = packets.decode(message.payload)
            guard results.count == 1, packets.bufferedCount == 0, case .success = results[0] else {
                framingErrors += 1
                controlError(.message, sequence: message.sequence, now: now)
                return
            }
            if case .executed = handle(results[0], sequence: message.sequence, now: now) {
                lastExecutedSequence = message.sequence
            }
        }
    }

    private mutating func controlError(_ error: VISCAIPMessage.ControlError, sequence: UInt32, now: Duration) {
        refusals += 1
        enqueue(VISCAIPMessage.controlError(error, sequence: sequence).encode(), at: now)
    }

    // MARK: Packets

    private mutating func handle(_ result: Result<[UInt8], VISCAError>, sequence: UInt32?, now: Duration) -> Outcome {
        guard case .success(let packet) = result else {
            framingErrors += 1
            return .ignored
        }
        packetsReceived += 1
        let header = packet[0]
        guard (0x81...0x88).contains(header) else {
            // A reply (its own, come round the ring) or a foreign header: not a command.
            framingErrors += 1
            return .ignored
        }
        guard header == 0x88 || header & 0x07 == address else {
            // For another camera: on a serial ring it goes on to the next, which is the host.
            if configuration.transport == .serial { enqueue(packet, at: now) }
            return .ignored
        }
        let decoded: (address: UInt8, command: VISCACommand)
        do {
            decoded = try VISCACommand.decode(packet)
        } catch {
            return refuse(.syntax, sequence: sequence, now: now)
        }
        let outcome = execute(decoded.command, broadcast: decoded.address == 8, packet: packet, sequence: sequence, now: now)
        if case .executed = outcome, !decoded.command.isInquiry { lastCommand = (decoded.command, now) }
        return outcome
    }

    private mutating func execute(
        _ command: VISCACommand, broadcast: Bool, packet: [UInt8], sequence: UInt32?, now: Duration
    ) -> Outcome {
        switch command {
        case .addressSet:
            guard configuration.transport == .serial else { return refuse(.syntax, sequence: sequence, now: now) }
            address = 1
            send(.addressSet(next: 2), sequence: sequence, at: now)
            return .executed
        case .interfaceClear:
            for index in sockets.indices {
                guard let socket = sockets[index] else { continue }
                stop(socket.task)
                sockets[index] = nil
            }
            if broadcast {
                enqueue(packet, at: now)
            } else {
                send(.completion(socket: 0), sequence: sequence, at: now)
            }
            return .executed
        case .cancel(let number):
            guard number >= 1, Int(number) <= sockets.count, let socket = sockets[Int(number) - 1] else {
                send(.error(socket: number, code: .noSocket), sequence: sequence, at: now)
                return .executed
            }
            stop(socket.task)
            sockets[Int(number) - 1] = nil
            send(.error(socket: number, code: .cancelled), sequence: sequence, at: now)
            return .executed
        case .versionInquiry:
            return answer(configuration.version.data, sequence: sequence, now: now)
        case .panTiltPositionInquiry:
            let position = VISCAPanTiltPosition(
                pan: profile.pan.count(radians: pan.encoderReading(using: &random)),
                tilt: profile.tilt.count(radians: tilt.encoderReading(using: &random)))
            return answer(position.data, sequence: sequence, now: now)
        case .zoomPositionInquiry:
            guard profile.zoom != nil else { return refuse(.syntax, sequence: sequence, now: now) }
            return answer(VISCAZoomPosition(position: UInt16(zoomPosition.rounded())).data, sequence: sequence, now: now)
        case .panTiltMaxSpeedInquiry:
            let speeds = VISCAPanTiltMaxSpeed(pan: profile.pan.speeds.maximumStep, tilt: profile.tilt.speeds.maximumStep)
            return answer(speeds.data, sequence: sequence, now: now)
        case .memorySet(let number), .memoryReset(let number):
            guard Int(number) < profile.presetMemories else { return refuse(.syntax, sequence: sequence, now: now) }
            guard let free = sockets.firstIndex(where: { $0 == nil }) else { return refuse(.bufferFull, sequence: sequence, now: now) }
            if case .memorySet = command {
                presetMemories[number] = (pan.motorRadians, tilt.motorRadians, zoomPosition)
            } else {
                presetMemories[number] = nil
            }
            let socket = UInt8(free + 1)
            if !profile.quirks.completionWithoutAck { send(.ack(socket: socket), sequence: sequence, at: now) }
            send(.completion(socket: socket), sequence: sequence, at: now)
            return .executed
        case .memoryRecall(let number):
            guard Int(number) < profile.presetMemories else { return refuse(.syntax, sequence: sequence, now: now) }
            guard let stored = presetMemories[number] else { return refuse(.notExecutable, sequence: sequence, now: now) }
            guard sockets.contains(where: { $0 == nil }) else { return refuse(.bufferFull, sequence: sequence, now: now) }
            if profile.zoom != nil {
                // The zoom goes too, without a socket of its own: a zoom direct under way is done.
                complete(.zoom, at: now)
                zoomMotion = .direct(position: stored.zoom, countsPerSecond: zoomRate(speed: profile.zoomMaximumSpeed))
            }
            return startMotion(command, sequence: sequence, now: now)
        case .panTiltDrive, .absolutePosition, .relativePosition, .home, .reset, .zoomStop, .zoomTele, .zoomWide,
            .zoomDirect:
            return startMotion(command, sequence: sequence, now: now)
        }
    }

    private mutating func answer(_ data: [UInt8], sequence: UInt32?, now: Duration) -> Outcome {
        send(.inquiryReply(data: data), sequence: sequence, at: now)
        return .executed
    }

    private mutating func refuse(_ code: VISCAErrorCode, sequence: UInt32?, now: Duration) -> Outcome {
        refusals += 1
        send(.error(socket: 0, code: code), sequence: sequence, at: now)
        return .refused
    }

    // MARK: Motion commands

    /// The motion a command asks for, checked against the profile; nil when the camera refuses it.
    private func motion(for command: VISCACommand) -> (task: Task, holdsSocket: Bool, start: Motion)? {
        let panSteps = profile.pan.speeds, tiltSteps = profile.tilt.speeds
        func valid(_ step: UInt8, _ table: VISCASpeedTable) -> Bool { (1...table.maximumStep).contains(step) }
        func moveSpeeds(_ panSpeed: UInt8, _ tiltSpeed: UInt8) -> (Double, Double)? {
            if profile.quirks.oneSpeedByteInPositionMoves {
                guard tiltSpeed == 0, valid(panSpeed, panSteps) else { return nil }
                return (
                    panSteps.radiansPerSecond(step: panSpeed),
                    tiltSteps.radiansPerSecond(step: min(panSpeed, tiltSteps.maximumStep))
                )
            }
            guard valid(panSpeed, panSteps), valid(tiltSpeed, tiltSteps) else { return nil }
            return (panSteps.radiansPerSecond(step: panSpeed), tiltSteps.radiansPerSecond(step: tiltSpeed))
        }
        func clamp(_ count: Int, _ axis: VISCAProfile.Axis) -> Double {
            axis.radians(count: Int16(min(max(count, Int(axis.minimumCount)), Int(axis.maximumCount))))
        }
        switch command {
        case .panTiltDrive(let panSpeed, let tiltSpeed, let panDirection, let tiltDirection):
            guard valid(panSpeed, panSteps), valid(tiltSpeed, tiltSteps) else { return nil }
            let panSign: Double = panDirection == .right ? 1 : panDirection == .left ? -1 : 0
            let tiltSign: Double = tiltDirection == .up ? 1 : tiltDirection == .down ? -1 : 0
            let rates = (panSign * panSteps.radiansPerSecond(step: panSpeed), tiltSign * tiltSteps.radiansPerSecond(step: tiltSpeed))
            return (
                .panTilt, false,
                .panTilt(rates == (0, 0) ? .idle : .drive(panRadiansPerSecond: rates.0, tiltRadiansPerSecond: rates.1))
            )
        case .absolutePosition(let panSpeed, let tiltSpeed, let panCount, let tiltCount):
            guard let speeds = moveSpeeds(panSpeed, tiltSpeed) else { return nil }
            return (
                .panTilt, true,
                .panTilt(
                    .move(
                        panRadians: clamp(Int(panCount), profile.pan), tiltRadians: clamp(Int(tiltCount), profile.tilt),
                        panSpeedRadiansPerSecond: speeds.0, tiltSpeedRadiansPerSecond: speeds.1))
            )
        case .relativePosition(let panSpeed, let tiltSpeed, let panOffset, let tiltOffset):
            guard let speeds = moveSpeeds(panSpeed, tiltSpeed) else { return nil }
            let panNow = Int(profile.pan.count(radians: pan.motorRadians)), tiltNow = Int(profile.tilt.count(radians: tilt.motorRadians))
            return (
                .panTilt, true,
                .panTilt(
                    .move(
                        panRadians: clamp(panNow + Int(panOffset), profile.pan),
                        tiltRadians: clamp(tiltNow + Int(tiltOffset), profile.tilt),
                        panSpeedRadiansPerSecond: speeds.0, tiltSpeedRadiansPerSecond: speeds.1))
            )
        case .home, .reset:
            return (
                .panTilt, true,
                .panTilt(
                    .move(
                        panRadians: 0, tiltRadians: 0, panSpeedRadiansPerSecond: panSteps.maximumRadiansPerSecond,
                        tiltSpeedRadiansPerSecond: tiltSteps.maximumRadiansPerSecond))
            )
        case .zoomStop:
            guard profile.zoom != nil else { return nil }
            return (.zoom, false, .zoom(.idle))
        case .zoomTele(let speed), .zoomWide(let speed):
            guard profile.zoom != nil, speed <= profile.zoomMaximumSpeed else { return nil }
            let rate = zoomRate(speed: speed) * (command == .zoomTele(speed: speed) ? 1 : -1)
            return (.zoom, false, .zoom(.continuous(countsPerSecond: rate)))
        case .zoomDirect(let position):
            guard let range = profile.zoom else { return nil }
            let target = Double(min(max(position, range.lowerBound), range.upperBound))
            return (.zoom, true, .zoom(.direct(position: target, countsPerSecond: zoomRate(speed: profile.zoomMaximumSpeed))))
        case .memoryRecall(let number):
            guard let stored = presetMemories[number] else { return nil }
            let share = min(max(configuration.presetSpeedFraction, 0.01), 1)
            return (
                .panTilt, true,
                .panTilt(
                    .move(
                        panRadians: stored.pan, tiltRadians: stored.tilt,
                        panSpeedRadiansPerSecond: panSteps.maximumRadiansPerSecond * share,
                        tiltSpeedRadiansPerSecond: tiltSteps.maximumRadiansPerSecond * share))
            )
        case .addressSet, .interfaceClear, .cancel, .versionInquiry, .panTiltPositionInquiry, .zoomPositionInquiry,
            .panTiltMaxSpeedInquiry, .memorySet, .memoryReset:
            preconditionFailure("\(command) is not a motion command")
        }
    }

    /// A motion to start.
    private enum Motion {
        case panTilt(PanTiltMotion)
        case zoom(ZoomMotion)
    }

    private mutating func startMotion(_ command: VISCACommand, sequence: UInt32?, now: Duration) -> Outcome {
        guard let (task, holdsSocket, start) = motion(for: command) else { return refuse(.syntax, sequence: sequence, now: now) }
        guard let free = sockets.firstIndex(where: { $0 == nil }) else { return refuse(.bufferFull, sequence: sequence, now: now) }
        let socket = UInt8(free + 1)
        if !profile.quirks.completionWithoutAck { send(.ack(socket: socket), sequence: sequence, at: now) }
        // The motion running on this mechanism is replaced, and its command thereby done.
        complete(task, at: now)
        switch start {
        case .panTilt(let motion):
            panTiltMotion = motion
            if case .panTiltDrive(_, _, .stop, .stop) = command { lastStopTime = now }
        case .zoom(let motion):
            zoomMotion = motion
        }
        if holdsSocket && !profile.quirks.completionBeforeArrival {
            sockets[free] = Socket(task: task, sequence: sequence)
        } else {
            send(.completion(socket: socket), sequence: sequence, at: now)
        }
        return .executed
    }

    /// The zoom's rate at speed p, counts per second: the whole range in `zoomFullTravel` at the
    /// fastest speed, and in proportion to p + 1 below it.
    private func zoomRate(speed: UInt8) -> Double {
        guard let range = profile.zoom else { return 0 }
        let seconds = max(configuration.zoomFullTravel.secondsValue, 0.001)
        let span = Double(range.upperBound - range.lowerBound)
        return span / seconds * Double(Int(speed) + 1) / Double(Int(profile.zoomMaximumSpeed) + 1)
    }

    /// Ends a task's motion where it is (cancel, IF_Clear).
    private mutating func stop(_ task: Task) {
        switch task {
        case .panTilt: panTiltMotion = .idle
        case .zoom: zoomMotion = .idle
        }
    }

    /// Sends the Completion of the socket waiting for `task`, if one is, and frees it.
    private mutating func complete(_ task: Task, at time: Duration) {
        guard let index = sockets.firstIndex(where: { $0?.task == task }), let socket = sockets[index] else { return }
        sockets[index] = nil
        send(.completion(socket: UInt8(index + 1)), sequence: socket.sequence, at: time)
    }

    // MARK: Time

    private mutating func stepOnce() {
        let seconds = 0.001
        let rates: (pan: Double, tilt: Double) =
            switch panTiltMotion {
            case .idle: (0, 0)
            case .drive(let panRate, let tiltRate): (panRate, tiltRate)
            case .move(let panTarget, let tiltTarget, let panSpeed, let tiltSpeed):
                (pan.rate(toward: panTarget, atMost: panSpeed), tilt.rate(toward: tiltTarget, atMost: tiltSpeed))
            }
        pan.step(commandedRadiansPerSecond: rates.pan, seconds: seconds)
        tilt.step(commandedRadiansPerSecond: rates.tilt, seconds: seconds)
        if case .move(let panTarget, let tiltTarget, _, _) = panTiltMotion, pan.hasArrived(at: panTarget),
            tilt.hasArrived(at: tiltTarget)
        {
            panTiltMotion = .idle
            complete(.panTilt, at: clock)
        }

        guard let range = profile.zoom else { return }
        let low = Double(range.lowerBound), high = Double(range.upperBound)
        switch zoomMotion {
        case .idle:
            break
        case .continuous(let rate):
            zoomPosition = min(max(zoomPosition + rate * seconds, low), high)
        case .direct(let target, let rate):
            let remaining = target - zoomPosition
            if abs(remaining) <= rate * seconds {
                zoomPosition = target
                zoomMotion = .idle
                complete(.zoom, at: clock)
            } else {
                zoomPosition += remaining < 0 ? -rate * seconds : rate * seconds
            }
        }
    }

    // MARK: Replies

    /// Queues a reply, wrapped for the transport.
    private mutating func send(_ reply: VISCAReply, sequence: UInt32?, at time: Duration) {
        switch configuration.transport {
        case .serial, .rawIP:
            enqueue(reply.encode(address: address), at: time)
        case .sonyIP:
            enqueue(VISCAIPMessage.reply(reply, address: 1, sequence: sequence ?? 0).encode(), at: time)
        }
    }

    /// Queues bytes to leave at `time` plus the reply delay, unless the line loses them.
    private mutating func enqueue(_ bytes: [UInt8], at time: Duration) {
        if faults.replyLossFraction > 0, random.chance(faults.replyLossFraction) {
            repliesLost += 1
            return
        }
        outbox.append((due: time + faults.replyDelay, bytes: bytes))
    }

    /// The queued replies due by `now`, earliest first (in the order made when due together).
    private mutating func takeDue(upTo now: Duration) -> [[UInt8]] {
        guard outbox.contains(where: { $0.due <= now }) else { return [] }
        let due = outbox.enumerated().filter { $0.element.due <= now }
            .sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }.map(\.element.bytes)
        outbox.removeAll { $0.due <= now }
        guard !isUnplugged, !faults.isUnresponsive else {
            repliesLost += due.count
            return []
        }
        return due
    }
}
