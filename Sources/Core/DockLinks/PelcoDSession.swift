import DockNumbers
import DockProtocol
import VISCAProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The host's side of a Pelco-D pan-tilt head on an RS-485 line (`Protocol/pelco-d.md`), as a
/// pure state machine behind the accessory contract:
///
///     disconnected → connecting → handshaking (heads that answer position queries) → ready(docked)
///
/// Pelco-D is seven bytes each way — `FF`, the head's address, two command bytes, two data bytes,
/// the sum of bytes 2 to 6 modulo 256 — and little else: no acknowledgement, no identity, no
/// failsafe, no time-to-live, speeds in 63 steps whose degrees per second the head alone knows,
/// and on some models a position query. So the link makes up for each:
/// - a head says nothing of itself: what it is comes from the settings, and the session is up as
///   soon as the port opens (on a head that answers position queries, at its first answer; one
///   that stays silent fails the handshake);
/// - nothing is acknowledged: a command is `accepted` once its bytes are written, and since a
///   frame the line garbles is lost without a word, the drive in force is written again every
///   `repeatInterval` and a stop a second time `stopRepeatDelay` after the first;
/// - no failsafe and no time-to-live: the link keeps each velocity's time-to-live and writes the
///   stop when it runs out (the host is the dead man's handle);
/// - speed steps: rad/s become steps 1 to 0x3F through the configured curve (the speed of step
///   0x3F and an exponent), with hysteresis, and a drive is written only when a step or a
///   direction changes;
/// - the pose is read back with the position queries where the head has them (pan `51`, tilt
///   `53`, answered `59` and `5B` in hundredths of a degree), and between answers, or on a head
///   without them, dead-reckoned from the speeds sent, ramped at the configured acceleration and
///   held within the range: from where the head was at attach, taken as home.
///
/// - zoom, where the settings give the lens's travel time (`zoomFullTravel`): the tele/wide bits
///   carry no position and no answer gives one, so the zoom is driven by time — tele or wide for
///   the share of the travel time the change is — and its position is an estimate, known only
///   once the lens has been driven against an end (the first zoom drives it to the wide end
///   first, and a zoom to 0 or 1 drives it past its end).
///
/// Moves to an orientation (`4B`/`4D` exist on some heads, in units the manuals do not agree on),
/// zoom on a head without the travel time set, and the indicator are refused as `unsupported`; a
/// preset is recalled (Go To Preset, `07`) only on a head that answers position queries, since
/// the dead-reckoned pose of one that does not would not follow it there.
public struct PelcoDSession: AccessoryLink {
    /// Settings: the bus, the head's figures that it cannot report, timing.
    public struct Configuration: Hashable, Sendable {
        /// The head's address on the bus, 1–255 (its DIP switches).
        public var address: UInt8 = 1
        /// The line's speed, baud (the head's DIP switches: 2400 and 9600 are usual).
        public var baudRate = 2400
        /// Pan speed at step 0x3F, degrees per second (an estimate until measured on the head).
        public var panDegreesPerSecondAtFastestStep = 60.0
        /// Tilt speed at step 0x3F, degrees per second (an estimate until measured on the head).
        public var tiltDegreesPerSecondAtFastestStep = 30.0
        /// The curve of the steps: step `s` turns at `fastest × (s / 63)^speedExponent`; 1 is
        /// linear, above 1 gives finer steps at low speeds.
        public var speedExponent = 1.0
        /// Whether the head answers the position queries (pan `51` → `59`, tilt `53` → `5B`).
        public var answersPositionQueries = false
        /// How long the head's lens takes from the wide end to the tele end with tele held (its
        /// default zoom speed); zero: the head has no zoom dockd drives.
        public var zoomFullTravel: Duration = .zero
        /// The pan range, degrees (a conservative one: narrow it with the host's own limits).
        public var yawDegrees: ClosedRange<Double> = -170...170
        /// The tilt range, degrees; positive tilts up.
        public var pitchDegrees: ClosedRange<Double> = -30...60
        /// The acceleration the limits advertise and the dead reckoning assumes, rad/s².
        public var accelerationRadiansPerSecondSquared = 4.0
        /// What names this head across reconnects (the port): Pelco-D reports nothing.
        public var identifier = ""
        /// The model's name for status.
        public var displayName = "Pelco-D head"
        /// How often the drive in force is written again while the head moves.
        public var repeatInterval: Duration = .milliseconds(500)
        /// How long after a stop it is written a second time.
        public var stopRepeatDelay: Duration = .milliseconds(100)
        /// How often both axes' positions are asked for, on a head that answers.
        public var pollInterval: Duration = .milliseconds(100)
        /// How long a position query may go unanswered.
        public var replyTimeout: Duration = .milliseconds(250)
        /// Position queries sent before a silent head fails the handshake.
        public var handshakeAttempts = 3
        /// Silence in position answers that counts as a stall.
        public var poseStallTimeout: Duration = .milliseconds(600)
        /// How far past the newest pose sample the pose is extrapolated.
        public var poseHorizon: Duration = .milliseconds(300)
        /// The first wait before reopening a lost port; it doubles on each failure.
        public var initialBackoff: Duration = .milliseconds(250)
        /// The longest wait before reopening.
        public var maximumBackoff: Duration = .seconds(5)

        /// The defaults: address 1 at 2400 baud, 60 and 30 °/s at step 0x3F, linear, no position
        /// queries.
        public init() {}

        /// The speed of `step` (0...0x3F) on an axis whose step 0x3F turns at `fastest`, °/s.
        public func degreesPerSecond(step: UInt8, fastest: Double) -> Double {
            fastest * pow(Double(min(step, PelcoDSession.fastestStep)) / Double(PelcoDSession.fastestStep), speedExponent)
        }
    }

    /// The fastest speed step (`3F`); `FF`, turbo, is not used.
    public static let fastestStep: UInt8 = 0x3F

    /// One axis, as the queries name it.
    enum Axis: Hashable, Sendable {
        case pan, tilt
    }

    /// What the head was last told: signed steps, > 0 right and up; the zoom 1 tele, −1 wide.
    struct Drive: Hashable, Sendable {
        var pan: Int
        var tilt: Int
        var zoom = 0
        static let stopped = Drive(pan: 0, tilt: 0)
        /// Whether anything moves (the drive is written again while it does).
        var isMoving: Bool { pan != 0 || tilt != 0 || zoom != 0 }
        /// Whether the head turns (a velocity's time-to-live runs while it does).
        var isTurning: Bool { pan != 0 || tilt != 0 }
    }

    /// One leg of a zoom driven by time: tele (1) or wide (−1) for `duration`.
    struct ZoomLeg: Hashable, Sendable {
        var direction: Int
        var duration: Duration
    }

    /// A position query waiting for its answer.
    struct Query: Hashable, Sendable {
        var axis: Axis
        var sentAt: Duration
        var attempt: Int
    }

    /// Where the head is believed to be: its angles and rates at `time`.
    struct Reckoning: Hashable, Sendable {
        var time: Duration
        var yaw = 0.0
        var pitch = 0.0
        var yawRate = 0.0
        var pitchRate = 0.0
    }

    /// What one open port holds: replaced whole when it closes.
    struct Connection {
        /// Bytes from the head that do not make a whole frame yet (at most six).
        var received: [UInt8] = []
        /// Whether the bytes being dropped are the rest of a run already counted as bad.
        var isResynchronising = false
        var drive = Drive.stopped
        /// When the drive in force is written again.
        var repeatAt: Duration?
        /// When the velocity in force runs out (the time-to-live the head cannot keep).
        var velocityEndsAt: Duration?
        var query: Query?
        /// The queries of the poll under way, in order.
        var pollQueue: [Axis] = []
        var nextPollAt: Duration = .zero
        var lastPoseAt: Duration = .zero
        var reckoning = Reckoning(time: .zero)
        /// Recent poses on the host's clock.
        var poses = PoseHistory()
        /// Where the zoom is believed to be (0 wide … 1 tele) at `zoomTime`; nil until the lens
        /// has been driven against an end.
        var zoom: Double?
        var zoomTime: Duration = .zero
        /// The zoom leg under way ends at this time; the legs after it wait.
        var zoomLegEndsAt: Duration?
        var zoomLegs: [ZoomLeg] = []
    }

    /// The settings.
    public let configuration: Configuration
    /// Where the session is, the backoff and the counters.
    public private(set) var lifecycle: LinkLifecycle
    /// Frames written (each repeat counts).
    public private(set) var framesWritten = 0
    /// Position answers received.
    public private(set) var positionAnswers = 0
    /// Recent poses on the host's clock.
    public var poses: PoseHistory { connection.poses }

    private var connection = Connection()
    private var nextSequence: UInt16 = 0
    private let panSpeeds: VISCASpeedTable
    private let tiltSpeeds: VISCASpeedTable

    /// Creates a session that has not started.
    ///
    /// - Precondition: the speeds at step 0x3F and the exponent are finite and above 0 (dockd's
    ///   settings hold them to their ranges).
    public init(configuration: Configuration) {
        self.configuration = configuration
        lifecycle = LinkLifecycle(initialBackoff: configuration.initialBackoff, maximumBackoff: configuration.maximumBackoff)
        func table(_ fastest: Double) -> VISCASpeedTable {
            let points = (1...Self.fastestStep).map {
                (step: $0, degreesPerSecond: configuration.degreesPerSecond(step: $0, fastest: fastest))
            }
            do {
                return try VISCASpeedTable(points: points)
            } catch {
                preconditionFailure("Pelco-D speeds \(fastest) °/s at 0x3F, exponent \(configuration.speedExponent): \(error)")
            }
        }
        panSpeeds = table(configuration.panDegreesPerSecondAtFastestStep)
        tiltSpeeds = table(configuration.tiltDegreesPerSecondAtFastestStep)
    }

    public var accessoryProtocol: AccessoryProtocol { .pelcoD }

    public var baudRate: Int? { configuration.baudRate }

    /// No failsafe, no time-to-live, no telemetry, no orientation moves, stepped speeds; `zoom`
    /// where the settings give the lens's travel time (its position then an estimate); a preset
    /// memory on a head that answers position queries (the one whose presets it stores and
    /// recalls).
    public var capabilities: AccessoryCapabilities {
        var capabilities: AccessoryCapabilities = hasZoom ? [.zoom] : []
        if configuration.answersPositionQueries { capabilities.insert(.presetMemory) }
        return capabilities
    }

    private var hasZoom: Bool { configuration.zoomFullTravel > .zero }

    /// The presets dockd stores in a polled head's memory (Set Preset `03`) and recalls (Go To
    /// Preset `07`): 1 to 32, the general presets every head that keeps presets has — Pelco's own
    /// dome drives have 32, and call 33 and 34 (flip, pan zero) and other heads 65 to 99 for
    /// functions (`Protocol/pelco-d.md` section 6). Nil on a head without position queries, whose
    /// reckoned pose would not follow it to a preset.
    public static let storedPresetNumbers = 1...32

    public var presetNumbers: ClosedRange<Int>? { configuration.answersPositionQueries ? Self.storedPresetNumbers : nil }

    /// The fraction asked, held in 0...1 (the zoom is driven by time, not in steps); nil without a
    /// zoom, before the head is ready, or for a fraction that is not a number.
    public func zoomFraction(nearest fraction: Double) -> Double? {
        guard hasZoom, lifecycle.isReady, fraction.isFinite else { return nil }
        return min(max(fraction, 0), 1)
    }

    public var nextDeadline: Duration? {
        switch state {
        case .disconnected: return reconnectAt
        case .connecting, .incompatible: return nil
        case .handshaking, .ready: break
        }
        var deadlines: [Duration] = []
        if let query = connection.query { deadlines.append(query.sentAt + configuration.replyTimeout) }
        if lifecycle.isReady {
            if let ends = connection.velocityEndsAt { deadlines.append(ends) }
            if let repeatAt = connection.repeatAt { deadlines.append(repeatAt) }
            if let zoomLegEndsAt = connection.zoomLegEndsAt { deadlines.append(zoomLegEndsAt) }
            if configuration.answersPositionQueries, connection.query == nil { deadlines.append(connection.nextPollAt) }
        }
        return deadlines.min()
    }

    public func pose(at time: Duration) -> Pose? { connection.poses.pose(at: time, horizon: configuration.poseHorizon) }

    public func poseAge(at now: Duration) -> Duration? { connection.poses.latest.map { now - $0.time } }

    // MARK: Events from the shell

    public mutating func start(now: Duration) -> [SessionAction] { lifecycle.start() }

    /// The port is open: a stop goes first (a host before us may have left the head turning, and
    /// nothing else would stop it); a head that answers position queries is asked where it is,
    /// any other is attached at once.
    public mutating func transportOpened(now: Duration) -> [SessionAction] {
        lifecycle.transportOpened()
        connection.reckoning = Reckoning(time: now)
        var actions = write(.stopped, now: now)
        guard configuration.answersPositionQueries else { return actions + attach(now: now) }
        actions += ask(.pan, attempt: 1, now: now)
        return actions
    }

    public mutating func transportFailed(reason: String, now: Duration) -> [SessionAction] {
        lifecycle.transportFailed(reason: reason, now: now)
    }

    public mutating func transportClosed(now: Duration) -> [SessionAction] { close(.lost, now: now) }

    public mutating func deviceAppeared(now: Duration) -> [SessionAction] { lifecycle.deviceAppeared() }

    /// Bytes from the line: position answers from this head; a good frame that is none (another
    /// head's, or an adapter's echo of our own) is ignored; bytes that make no good frame are
    /// counted, one run at a time, and dropped up to the next `FF`.
    public mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [SessionAction] {
        switch state {
        case .handshaking, .ready: break
        case .disconnected, .connecting, .incompatible: return []
        }
        connection.received += bytes
        var actions: [SessionAction] = []
        while !connection.received.isEmpty {
            guard connection.received[0] == 0xFF else {
                let sync = connection.received.firstIndex(of: 0xFF)
                if !connection.isResynchronising { lifecycle.countBadFrame() }
                connection.isResynchronising = sync == nil  // a run that reaches the end may go on in the next bytes
                connection.received.removeFirst(sync ?? connection.received.count)
                continue
            }
            guard connection.received.count >= 7 else { break }
            let frame = Array(connection.received[0..<7])
            guard frame[1...5].reduce(0, &+) == frame[6] else {
                lifecycle.countBadFrame()
                connection.isResynchronising = true
                connection.received.removeFirst()
                continue
            }
            connection.isResynchronising = false
            connection.received.removeFirst(7)
            actions += frameReceived(frame, now: now)
            guard state == .handshaking || lifecycle.isReady else { return actions }
        }
        return actions
    }

    public mutating func tick(now: Duration) -> [SessionAction] {
        switch state {
        case .disconnected:
            return lifecycle.reconnectIfDue(now: now)
        case .connecting, .incompatible:
            return []
        case .handshaking, .ready:
            break
        }
        var actions: [SessionAction] = []
        if let query = connection.query, now - query.sentAt >= configuration.replyTimeout {
            connection.query = nil
            guard lifecycle.isReady else {
                guard query.attempt < configuration.handshakeAttempts else { return close(.handshakeFailed, now: now) }
                return ask(.pan, attempt: query.attempt + 1, now: now)
            }
            connection.pollQueue.removeAll()  // this poll is lost: the next one asks again
        }
        guard lifecycle.isReady else { return actions }
        reckon(to: now)
        var drive = connection.drive
        if let ends = connection.zoomLegEndsAt, now >= ends {
            // A zoom leg has run its time: the next one, or the zoom stands.
            reckonZoom(to: ends)
            connection.zoomLegEndsAt = nil
            drive.zoom = 0
            if !connection.zoomLegs.isEmpty {
                let leg = connection.zoomLegs.removeFirst()
                drive.zoom = leg.direction
                connection.zoomLegEndsAt = now + leg.duration
            }
        }
        if let ends = connection.velocityEndsAt, now >= ends {
            // The time-to-live the head cannot keep: the host keeps it.
            connection.velocityEndsAt = nil
            drive.pan = 0
            drive.tilt = 0
        }
        if drive != connection.drive {
            actions += write(drive, now: now)
        } else if let repeatAt = connection.repeatAt, now >= repeatAt {
            actions += write(connection.drive, isRepeat: true, now: now)
        }
        if configuration.answersPositionQueries {
            if now - connection.lastPoseAt > configuration.poseStallTimeout { actions += lifecycle.telemetryStalled() }
            actions += poll(now: now)
        } else {
            record(now: now)
        }
        return actions
    }

    /// Writes the command's frame; Pelco-D confirms nothing, so a command written is `accepted`
    /// with its bytes, and a velocity the head already runs is in force at once.
    public mutating func send(_ command: AccessoryCommand, now: Duration) -> SentCommand {
        guard lifecycle.isReady else { return .dropped }
        let id = CommandID(nextSequence)
        nextSequence &+= 1
        let accepted = SessionAction.emit(.answered(id, .accepted))
        reckon(to: now)
        switch command {
        case .velocity(let yaw, let pitch, let timeToLive):
            let wanted = drive(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch)
            connection.velocityEndsAt = wanted.isTurning ? now + timeToLive : nil
            guard wanted != connection.drive else { return SentCommand(id: id, actions: [accepted]) }
            return SentCommand(id: id, actions: write(wanted, now: now) + [accepted])
        case .stop:
            // All of it, the zoom too: the frame of all zeros.
            connection.velocityEndsAt = nil
            return SentCommand(id: id, actions: write(.stopped, now: now) + [accepted])
        case .zoom(let fraction):
            guard hasZoom else { return SentCommand(id: id, actions: refuse(id, .zoom, .unsupported)) }
            guard fraction.isFinite else { return SentCommand(id: id, actions: refuse(id, .zoom, .outOfRange)) }
            return SentCommand(id: id, actions: zoom(to: min(max(fraction, 0), 1), now: now) + [accepted])
        case .recallPreset(let number):
            guard configuration.answersPositionQueries else { return SentCommand(id: id, actions: refuse(id, .recallPreset, .unsupported)) }
            guard let preset = UInt8(exactly: number), preset >= 1 else {
                return SentCommand(id: id, actions: refuse(id, .recallPreset, .outOfRange))
            }
            // The head leaves its drive (and its zoom) for the preset's position; the polls follow
            // it there.
            connection.velocityEndsAt = nil
            reckonZoom(to: now)
            connection.zoomLegs.removeAll()
            connection.zoomLegEndsAt = nil
            connection.drive = .stopped
            connection.repeatAt = nil
            return SentCommand(id: id, actions: [.write(frame(0x00, 0x07, 0x00, preset))] + [accepted])
        case .storePreset(let number):
            guard let numbers = presetNumbers else { return SentCommand(id: id, actions: refuse(id, .storePreset, .unsupported)) }
            guard numbers.contains(number) else { return SentCommand(id: id, actions: refuse(id, .storePreset, .outOfRange)) }
            // Where the head points now: the drive in force goes on (a head stores while it turns).
            return SentCommand(id: id, actions: [.write(frame(0x00, 0x03, 0x00, UInt8(number)))] + [accepted])
        case .move, .indicator:
            return SentCommand(id: id, actions: refuse(id, command.kind, .unsupported))
        }
    }

    // MARK: Commands

    /// The steps and directions for a velocity, with hysteresis against the drive in force.
    private func drive(yawRadiansPerSecond yaw: Double, pitchRadiansPerSecond pitch: Double) -> Drive {
        func steps(_ rate: Double, _ table: VISCASpeedTable, current: Int) -> Int {
            let sign = rate > 0 ? 1 : -1
            let held = current != 0 && (current > 0) == (sign > 0) ? UInt8(abs(current)) : nil
            return sign * Int(table.step(for: rate, current: held))
        }
        return Drive(
            pan: steps(yaw, panSpeeds, current: connection.drive.pan), tilt: steps(pitch, tiltSpeeds, current: connection.drive.tilt),
            zoom: connection.drive.zoom)
    }

    /// Plans the zoom's legs to `target` and starts the first: to an end, that way for a fifth
    /// more than the whole travel (the end stops the lens, and the position is known again); from
    /// a position not known, to the wide end first; otherwise that way for the share of the travel
    /// the change is.
    private mutating func zoom(to target: Double, now: Duration) -> [SessionAction] {
        reckonZoom(to: now)
        let travel = configuration.zoomFullTravel
        let pastTheEnd = travel * 6 / 5
        var legs: [ZoomLeg]
        if target == 0 || target == 1 {
            legs = [ZoomLeg(direction: target == 0 ? -1 : 1, duration: pastTheEnd)]
        } else if let here = connection.zoom {
            let change = target - here
            legs =
                abs(change) * travel.secondsValue < 0.001 ? [] : [ZoomLeg(direction: change > 0 ? 1 : -1, duration: travel * abs(change))]
        } else {
            legs = [ZoomLeg(direction: -1, duration: pastTheEnd), ZoomLeg(direction: 1, duration: travel * target)]
        }
        var drive = connection.drive
        drive.zoom = 0
        connection.zoomLegEndsAt = nil
        if !legs.isEmpty {
            let leg = legs.removeFirst()
            drive.zoom = leg.direction
            connection.zoomLegEndsAt = now + leg.duration
        }
        connection.zoomLegs = legs
        return drive == connection.drive ? [] : write(drive, now: now)
    }

    /// Moves the zoom's estimate on to `time` at the drive's zoom: the whole range in the travel
    /// time, held at the ends (where the lens is then known to be).
    private mutating func reckonZoom(to time: Duration) {
        defer { connection.zoomTime = max(connection.zoomTime, time) }
        let direction = connection.drive.zoom
        guard hasZoom, direction != 0, time > connection.zoomTime else { return }
        let share = (time - connection.zoomTime).secondsValue / configuration.zoomFullTravel.secondsValue
        if let here = connection.zoom {
            connection.zoom = min(max(here + Double(direction) * share, 0), 1)
        }
        // Not known yet: known once the lens has been driven the whole travel against an end.
        else if let ends = connection.zoomLegEndsAt, time >= ends, connection.zoomLegs.count <= 1 {
            connection.zoom = direction > 0 ? 1 : 0
        }
    }

    /// Writes a drive (all zero: the stop) and notes when it goes again: a drive every
    /// `repeatInterval` while it is in force, a stop once more after `stopRepeatDelay`.
    private mutating func write(_ drive: Drive, isRepeat: Bool = false, now: Duration) -> [SessionAction] {
        reckonZoom(to: now)
        if drive.zoom == 0 {
            connection.zoomLegs.removeAll()  // a stop ends a zoom under way where it is
            connection.zoomLegEndsAt = nil
        }
        connection.drive = drive
        if drive.isMoving {
            connection.repeatAt = now + configuration.repeatInterval
        } else {
            connection.repeatAt = isRepeat ? nil : now + configuration.stopRepeatDelay
        }
        var command2: UInt8 = 0
        if drive.pan > 0 { command2 |= 0x02 }
        if drive.pan < 0 { command2 |= 0x04 }
        if drive.tilt > 0 { command2 |= 0x08 }
        if drive.tilt < 0 { command2 |= 0x10 }
        if drive.zoom > 0 { command2 |= 0x20 }
        if drive.zoom < 0 { command2 |= 0x40 }
        return [.write(frame(0x00, command2, UInt8(abs(drive.pan)), UInt8(abs(drive.tilt))))]
    }

    /// One frame for this head: `FF`, the address, the four bytes, and the sum of bytes 2 to 6
    /// modulo 256.
    private mutating func frame(_ command1: UInt8, _ command2: UInt8, _ data1: UInt8, _ data2: UInt8) -> [UInt8] {
        framesWritten += 1
        let body = [configuration.address, command1, command2, data1, data2]
        return [0xFF] + body + [body.reduce(0, &+)]
    }

    private mutating func refuse(_ id: CommandID, _ kind: AccessoryCommand.Kind, _ reason: CommandRefusal.Reason) -> [SessionAction] {
        lifecycle.countRefusal()
        return [.emit(.answered(id, .refused(CommandRefusal(reason: reason, command: kind))))]
    }

    // MARK: Position queries

    /// Starts the next poll when it is due: pan, then tilt as soon as pan is answered.
    private mutating func poll(now: Duration) -> [SessionAction] {
        guard connection.query == nil else { return [] }
        if connection.pollQueue.isEmpty {
            guard now >= connection.nextPollAt else { return [] }
            connection.nextPollAt = now + configuration.pollInterval
            connection.pollQueue = [.pan, .tilt]
        }
        return ask(connection.pollQueue.removeFirst(), attempt: 1, now: now)
    }

    private mutating func ask(_ axis: Axis, attempt: Int, now: Duration) -> [SessionAction] {
        connection.query = Query(axis: axis, sentAt: now, attempt: attempt)
        return [.write(frame(0x00, axis == .pan ? 0x51 : 0x53, 0x00, 0x00))]
    }

    /// A good frame: a position answer from this head, or (another head's, an echo) nothing.
    private mutating func frameReceived(_ frame: [UInt8], now: Duration) -> [SessionAction] {
        guard frame[1] == configuration.address, frame[2] == 0x00, frame[3] == 0x59 || frame[3] == 0x5B else { return [] }
        let axis: Axis = frame[3] == 0x59 ? .pan : .tilt
        var degrees = Double(UInt16(frame[4]) << 8 | UInt16(frame[5])) / 100
        if degrees > 180 { degrees -= 360 }  // 0 to 359.99, read as -180 to 180
        // The answer left the head about half a round trip ago, when it was where it says.
        var sampledAt = now
        if let query = connection.query, query.axis == axis {
            sampledAt = now - (now - query.sentAt) / 2
            connection.query = nil
        }
        positionAnswers += 1
        reckon(to: now)
        let radians = degrees * .pi / 180
        switch axis {
        case .pan: connection.reckoning.yaw = radians + connection.reckoning.yawRate * (now - sampledAt).secondsValue
        case .tilt: connection.reckoning.pitch = radians + connection.reckoning.pitchRate * (now - sampledAt).secondsValue
        }
        connection.lastPoseAt = now
        var actions: [SessionAction] = []
        if state == .handshaking {
            actions += attach(now: now)
            connection.pollQueue = [.tilt]
        } else {
            actions += lifecycle.telemetryArrived()
        }
        record(now: now)
        return actions + poll(now: now)
    }

    // MARK: The pose

    /// Moves the reckoning on to `now`: each axis's rate ramps towards the drive's speed at the
    /// configured acceleration, its angle follows, and both stay within the range (where the
    /// head's end stops hold it).
    private mutating func reckon(to now: Duration) {
        var state = connection.reckoning
        let seconds = (now - state.time).secondsValue
        guard seconds > 0 else { return }
        let acceleration = configuration.accelerationRadiansPerSecondSquared
        func advance(_ angle: inout Double, _ rate: inout Double, toward target: Double, range: ClosedRange<Double>) {
            let change = target - rate
            let rampTime = min(abs(change) / acceleration, seconds)
            let ramped = rate + (change < 0 ? -1 : 1) * acceleration * rampTime
            angle += (rate + ramped) / 2 * rampTime + target * (seconds - rampTime)
            rate = rampTime < seconds ? target : ramped
            let bounds = range.lowerBound * .pi / 180...range.upperBound * .pi / 180
            if angle < bounds.lowerBound || angle > bounds.upperBound {
                angle = min(max(angle, bounds.lowerBound), bounds.upperBound)
                rate = 0
            }
        }
        let drive = connection.drive
        let yawTarget = Double(drive.pan.signum()) * panSpeeds.radiansPerSecond(step: UInt8(abs(drive.pan)))
        let pitchTarget = Double(drive.tilt.signum()) * tiltSpeeds.radiansPerSecond(step: UInt8(abs(drive.tilt)))
        advance(&state.yaw, &state.yawRate, toward: yawTarget, range: configuration.yawDegrees)
        advance(&state.pitch, &state.pitchRate, toward: pitchTarget, range: configuration.pitchDegrees)
        state.time = now
        connection.reckoning = state
    }

    private mutating func record(now: Duration) {
        reckonZoom(to: now)
        let state = connection.reckoning
        connection.poses.record(
            Pose(
                yawRadians: state.yaw, pitchRadians: state.pitch, yawRadiansPerSecond: state.yawRate,
                pitchRadiansPerSecond: state.pitchRate,
                zoomFraction: connection.zoom),
            at: now)
    }

    // MARK: The session

    /// The port closes: its connection goes whole.
    private mutating func close(_ closing: LinkLifecycle.Closing, now: Duration) -> [SessionAction] {
        connection = Connection()
        return lifecycle.transportClosed(closing, now: now)
    }

    /// The session is up with what the settings say the head is.
    private mutating func attach(now: Duration) -> [SessionAction] {
        let degree = Double.pi / 180
        func limits(_ range: ClosedRange<Double>, fastest: Double) -> AxisLimits {
            AxisLimits(
                minimum: Angle(radians: min(range.lowerBound, 0) * degree) ?? Angle(microradians: 0),
                maximum: Angle(radians: max(range.upperBound, 0) * degree) ?? Angle(microradians: 0),
                maximumSpeed: AngularRate(radiansPerSecond: fastest * degree) ?? AngularRate(microradiansPerSecond: 1),
                maximumAcceleration: AngularAcceleration(
                    microradiansPerSecondSquared: UInt32(configuration.accelerationRadiansPerSecondSquared * 1e6)))
        }
        let polled = configuration.answersPositionQueries
        let info = AccessoryInfo(
            protocolVersion: 0, features: [],
            telemetryRateHertz: polled ? UInt8(clamping: Int(1 / max(configuration.pollInterval.secondsValue, 0.005))) : 30,
            failsafeTimeout: .zero,
            yaw: limits(configuration.yawDegrees, fastest: configuration.panDegreesPerSecondAtFastestStep),
            pitch: limits(configuration.pitchDegrees, fastest: configuration.tiltDegreesPerSecondAtFastestStep),
            model: String(configuration.displayName.prefix(32)),
            firmwareVersion: "Pelco-D, address \(configuration.address)" + (polled ? ", position queries" : ""),
            serialNumber: String(
                (configuration.identifier.isEmpty ? "Pelco-D-\(configuration.address)" : configuration.identifier).prefix(32)))
        connection.lastPoseAt = now
        connection.nextPollAt = now + configuration.pollInterval
        record(now: now)
        return lifecycle.attached(info, isDocked: true)
    }
}
