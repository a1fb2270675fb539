import DockNumbers
import DockProtocol
public import VISCAProtocol

/// The host's side of a Sony VISCA camera (`Protocol/visca.md`), as a pure state machine behind
/// the accessory contract:
///
///     disconnected → connecting → handshaking → ready(docked)
///
/// VISCA has no telemetry, no failsafe and no time-to-live, and its speeds come in steps, so the
/// session makes up for each: it polls the pose as fast as the link answers (at most every
/// `pollInterval`), stamping each sample with the time of its reply less half the round trip; it
/// keeps a velocity's time-to-live itself and sends the stop when it runs out (the host is the
/// dead man's handle); it turns rad/s into the profile's speed steps with hysteresis, and sends
/// a drive only when the steps or directions change.
///
/// One request is in flight at a time — a command waiting for its ACK (or, from a camera that
/// sends none, its Completion), or an inquiry waiting for its answer — so that every reply on a
/// serial line is matched without guessing; a command that the camera has accepted holds its
/// socket until its Completion. A request unanswered within the timeout (derived from the round
/// trips measured, as TCP derives its own) is sent again, up to `attempts` times in all; then the
/// camera counts as gone: the port is closed and reopened with backoff, as for a cable pulled.
/// Over Sony's VISCA over IP a resend keeps its sequence number, and the camera's ERROR `0F 01`
/// to it means it had already carried the command out. `buffer full` is waited out (a socket
/// frees with the next Completion); the camera's other errors reach the host as refusals.
public struct VISCASession: AccessoryLink {
    /// How VISCA packets travel on the port.
    public enum Framing: Hashable, Sendable {
        /// A byte stream: a serial line (RS-232/422, a USB serial port) or raw VISCA on TCP.
        case serial
        /// Sony's VISCA over IP: UDP datagrams, each one packet behind an 8-byte header with a
        /// sequence number.
        case sonyIP
        /// Raw VISCA packets in UDP datagrams, no header (PTZOptics' port 1259).
        case rawIP
    }

    /// Timing and retry settings.
    public struct Configuration: Hashable, Sendable {
        /// The camera's model: speeds, counts per degree, ranges, quirks.
        public var profile: VISCAProfile
        /// How packets travel.
        public var framing: Framing
        /// What names this camera across reconnects (the port, say), since VISCA reports no
        /// serial number; empty: one is made of the vendor and model codes.
        public var identifier = ""
        /// The serial speeds to try in turn, one per failed handshake (the profile's).
        public var baudRates: [Int]
        /// The shortest interval between two pose inquiries.
        public var pollInterval: Duration = .milliseconds(40)
        /// The timeout before any round trip has been measured.
        public var initialReplyTimeout: Duration = .milliseconds(500)
        /// The shortest and longest timeout the measured round trips may give.
        public var replyTimeoutRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(1)
        /// Sends of one request before the camera counts as gone.
        public var attempts = 3
        /// The first wait before reopening a lost port; it doubles on each failure.
        public var initialBackoff: Duration = .milliseconds(250)
        /// The longest wait before reopening.
        public var maximumBackoff: Duration = .seconds(5)
        /// Silence in pose replies that counts as a stall.
        public var poseStallTimeout: Duration = .milliseconds(500)
        /// How far past the newest pose sample the pose is extrapolated.
        public var poseHorizon: Duration = .milliseconds(300)
        /// The acceleration the limits advertise (VISCA reports none): animations and braking
        /// are planned within it.
        public var accelerationRadiansPerSecondSquared = 3.0
        /// The interval between zoom position inquiries while the zoom stands (someone may zoom
        /// with the camera's remote); while it moves, one follows each pose inquiry.
        public var idleZoomPollInterval: Duration = .seconds(1)

        /// Settings for a camera of `profile` on a link of `framing`.
        public init(profile: VISCAProfile, framing: Framing) {
            self.profile = profile
            self.framing = framing
            baudRates = profile.baudRates
        }
    }

    /// What a request in flight is.
    enum Request: Hashable, Sendable {
        case command(VISCACommand, id: CommandID, kind: AccessoryCommand.Kind)
        case inquiry(VISCACommand)
        case resetSequence
        case handshake(VISCACommand)
    }

    struct InFlight: Hashable, Sendable {
        var request: Request
        var payload: [UInt8]
        var ipSequence: UInt32
        var sentAt: Duration
        var firstSentAt: Duration
        var attempt: Int
    }

    /// The drive the camera was last told (steps 0 where an axis stands).
    struct Drive: Hashable, Sendable {
        var panStep: UInt8
        var pan: PanDirection
        var tiltStep: UInt8
        var tilt: TiltDirection
        static let stopped = Drive(panStep: 0, pan: .stop, tiltStep: 0, tilt: .stop)
        var isMoving: Bool { pan != .stop || tilt != .stop }
        var command: VISCACommand {
            .panTiltDrive(panSpeed: max(panStep, 1), tiltSpeed: max(tiltStep, 1), pan: pan, tilt: tilt)
        }
    }

    /// What one open port holds: replaced whole when the port closes.
    struct Connection {
        var decoder = VISCAPacketDecoder()
        /// The command (or handshake step) waiting for its answer.
        var inFlight: InFlight?
        /// The pose inquiry waiting for its answer: inquiries use no socket, so one may be out
        /// beside a command (and a stop never waits for a poll).
        var inquiry: InFlight?
        /// The motion command waiting for the line (a newer one replaces it).
        var queued: Request?
        /// The zoom command waiting for the line (a newer one replaces it): apart from the
        /// motions, so that a velocity does not drop a zoom nor a zoom a velocity.
        var queuedZoom: Request?
        /// The memory command (Memory Set) waiting for the line, after any motion.
        var queuedMemory: Request?
        /// Sockets holding an accepted command until its Completion.
        var busySockets: [UInt8: Request] = [:]
        /// When a command refused for a full buffer goes again.
        var retryAt: Duration?
        var nextPollAt: Duration = .zero
        var lastPoseAt: Duration = .zero
        var nextIPSequence: UInt32 = 0
        /// What the camera does once every sent and queued command has taken effect.
        var drive = Drive.stopped
        /// When the velocity in force runs out (the time-to-live the camera cannot keep).
        var velocityEndsAt: Duration?
        var version: VISCAVersion?
        var handshakeSteps: [VISCACommand] = []
        var previousSample: (time: Duration, yaw: Double, pitch: Double)?
        /// Recent poses on the host's clock.
        var poses = PoseHistory()
        /// When the next zoom position inquiry is due.
        var nextZoomPollAt: Duration = .zero
        /// The zoom as the camera last reported it: the fraction of its range, when it was
        /// sampled, and how fast it was changing (fraction per second) since the report before.
        var zoom: (time: Duration, fraction: Double, rate: Double)?
        /// The zoom position last commanded, until the camera reports it reached or standing.
        var zoomTarget: UInt16?
        /// Reports in a row that found the zoom where the one before did.
        var zoomStillReports = 0
        /// The camera refused the zoom position inquiry: the zoom is driven but not read.
        var zoomIsUnreadable = false
    }

    /// The settings.
    public let configuration: Configuration
    /// Where the session is, what the camera said it is, the backoff and the counters.
    public private(set) var lifecycle: LinkLifecycle
    /// The smoothed round trip of requests answered at their first sending.
    public private(set) var smoothedRoundTrip: Duration?
    /// Pose replies received.
    public private(set) var pollCount = 0
    /// Requests sent again after a timeout.
    public private(set) var resendCount = 0
    /// Commands written to the line (each resend counts again).
    public private(set) var commandsWritten = 0
    /// Recent poses on the host's clock.
    public var poses: PoseHistory { connection.poses }

    private var connection = Connection()
    private var roundTripVariance: Duration = .zero
    private var nextSequence: UInt16 = 0
    /// Which of the profile's serial speeds the next port opens at.
    private var baudProbe = 0
    private var timeoutBackoff = 1

    /// Creates a session that has not started.
    public init(configuration: Configuration) {
        self.configuration = configuration
        lifecycle = LinkLifecycle(initialBackoff: configuration.initialBackoff, maximumBackoff: configuration.maximumBackoff)
    }

    public var accessoryProtocol: AccessoryProtocol { .visca }

    /// On a serial line, the speed to open it at: the profile's speeds in turn, moving on after
    /// each handshake that found nothing; nil over the network.
    public var baudRate: Int? {
        guard configuration.framing == .serial, !configuration.baudRates.isEmpty else { return nil }
        return configuration.baudRates[baudProbe % configuration.baudRates.count]
    }

    /// A VISCA camera moves to absolute orientations, and zooms when its profile has a zoom
    /// (CAM_Zoom Direct, its position read back with CAM_ZoomPosInq). It has no failsafe, no
    /// time-to-live, no telemetry, no buttons, no dock sensor, no indicator, and stepped speeds.
    public var capabilities: AccessoryCapabilities {
        var capabilities: AccessoryCapabilities = configuration.profile.zoom == nil ? [.orientationMoves] : [.orientationMoves, .zoom]
        if configuration.profile.presetMemories > 0 { capabilities.insert(.presetMemory) }
        return capabilities
    }

    /// The profile's preset memories, 0 to its count − 1 (CAM_Memory Set and Recall); nil without.
    public var presetNumbers: ClosedRange<Int>? {
        let count = configuration.profile.presetMemories
        return count > 0 ? 0...(count - 1) : nil
    }

    public var nextDeadline: Duration? {
        switch state {
        case .disconnected, .connecting, .incompatible: return nil
        case .handshaking, .ready: break
        }
        var deadlines: [Duration] = []
        if let inFlight = connection.inFlight { deadlines.append(inFlight.sentAt + replyTimeout) }
        if let inquiry = connection.inquiry { deadlines.append(inquiry.sentAt + replyTimeout) }
        if let retryAt = connection.retryAt { deadlines.append(retryAt) }
        if let velocityEndsAt = connection.velocityEndsAt { deadlines.append(velocityEndsAt) }
        if connection.inquiry == nil, case .ready = state {
            deadlines.append(connection.nextPollAt)
            if isZoomRead { deadlines.append(connection.nextZoomPollAt) }
        }
        return deadlines.min()
    }

    /// The timeout for a reply: the smoothed round trip plus four times its variation (RFC 6298),
    /// within `replyTimeoutRange`; `initialReplyTimeout` before any was measured.
    /// After a timeout it doubles (up to 8 times) until a request is answered at its first
    /// sending, as TCP backs off (Karn's rule: a resend's answer measures nothing).
    public var replyTimeout: Duration {
        let range = configuration.replyTimeoutRange
        guard let smoothedRoundTrip else { return min(configuration.initialReplyTimeout * timeoutBackoff, range.upperBound) }
        let base = min(max(smoothedRoundTrip + roundTripVariance * 4, range.lowerBound), range.upperBound)
        return min(base * timeoutBackoff, range.upperBound)
    }

    public func pose(at time: Duration) -> Pose? { connection.poses.pose(at: time, horizon: configuration.poseHorizon) }

    /// Where the zoom goes for `fraction`: the profile's position nearest it, as a fraction of
    /// the range again; nil without zoom or before the camera is ready.
    public func zoomFraction(nearest fraction: Double) -> Double? {
        let profile = configuration.profile
        guard isReady, let position = profile.zoomPosition(fraction: fraction) else { return nil }
        return profile.zoomFraction(position: position)
    }

    /// How many times the picture is magnified at `fraction` of the zoom's range, from the
    /// profile's table; nil when it has none.
    public func magnification(atZoomFraction fraction: Double) -> Double? {
        let profile = configuration.profile
        guard let position = profile.zoomPosition(fraction: fraction) else { return nil }
        return profile.magnification(atZoomPosition: position)
    }

    public func poseAge(at now: Duration) -> Duration? { connection.poses.latest.map { now - $0.time } }

    // MARK: Events from the shell

    public mutating func start(now: Duration) -> [SessionAction] { lifecycle.start() }

    public mutating func transportOpened(now: Duration) -> [SessionAction] {
        lifecycle.transportOpened()
        // A serial line may hold a chain of cameras: address set numbers them from 1 (ours
        // is the first). A network camera has its address already.
        // The stop is for a camera that a host before us left moving (a dockd killed
        // with SIGKILL: VISCA has no failsafe to stop it).
        let stop = Drive.stopped.command
        switch configuration.framing {
        case .serial: connection.handshakeSteps = [.addressSet, .interfaceClear, stop, .versionInquiry, .panTiltPositionInquiry]
        case .sonyIP, .rawIP: connection.handshakeSteps = [.interfaceClear, stop, .versionInquiry, .panTiltPositionInquiry]
        }
        if configuration.framing == .sonyIP {
            return transmit(
                InFlight(
                    request: .resetSequence, payload: [0x01], ipSequence: 0, sentAt: now,
                    firstSentAt: now, attempt: 1))
        }
        return nextHandshakeStep(now: now)
    }

    public mutating func transportFailed(reason: String, now: Duration) -> [SessionAction] {
        lifecycle.transportFailed(reason: reason, now: now)
    }

    public mutating func transportClosed(now: Duration) -> [SessionAction] { close(.lost, now: now) }

    public mutating func deviceAppeared(now: Duration) -> [SessionAction] { lifecycle.deviceAppeared() }

    public mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [SessionAction] {
        switch state {
        case .handshaking, .ready: break
        case .disconnected, .connecting, .incompatible: return []
        }
        guard configuration.framing == .sonyIP else { return packetsReceived(bytes, ipSequence: nil, now: now) }
        let message: VISCAIPMessage
        do {
            message = try VISCAIPMessage.decode(bytes)
        } catch {
            lifecycle.countBadFrame()
            return []
        }
        switch message.payloadType {
        case .reply:
            return packetsReceived(message.payload, ipSequence: message.sequence, now: now)
        case .controlReply, .controlCommand:
            return controlReplyReceived(message, now: now)
        case .command, .inquiry, .deviceSetting:
            lifecycle.countBadFrame()  // a host's message coming from the camera
            return []
        }
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
        for flight in [connection.inFlight, connection.inquiry].compactMap(\.self) where now - flight.sentAt >= replyTimeout {
            actions += timedOut(flight, now: now)
            guard state == .handshaking || isReady else { return actions }
        }
        if isReady {
            if let ends = connection.velocityEndsAt, now >= ends {
                // The time-to-live the camera cannot keep: the host keeps it.
                connection.velocityEndsAt = nil
                enqueueDrive(.stopped, id: nil, kind: .stop)
            }
            if now - connection.lastPoseAt > configuration.poseStallTimeout { actions += lifecycle.telemetryStalled() }
        }
        return actions + sendNext(now: now)
    }

    /// Queues the command's VISCA command for the line (a newer motion replaces one still
    /// waiting, a newer zoom one still waiting); a velocity the camera already runs is in force at
    /// once. A zoom is CAM_Zoom Direct to the profile's position nearest the fraction, and is
    /// refused at once on a camera whose profile has no zoom (`unsupported`) or for a fraction that
    /// is not a number (`outOfRange`). VISCA has no indicator, and presets are not driven yet:
    /// those are refused at once.
    public mutating func send(_ command: AccessoryCommand, now: Duration) -> SentCommand {
        guard isReady else { return .dropped }
        let id = nextCommandID()
        switch command {
        case .velocity(let yaw, let pitch, let timeToLive):
            let wanted = drive(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch)
            connection.velocityEndsAt = wanted.isMoving ? now + timeToLive : nil
            if wanted == connection.drive, connection.queued == nil {
                // Already what the camera does: in force at once.
                return SentCommand(id: id, actions: [.emit(.answered(id, .accepted))] + sendNext(now: now))
            }
            enqueueDrive(wanted, id: id, kind: .velocity)
        case .move(let yaw, let pitch, let pace):
            connection.velocityEndsAt = nil
            connection.queued = .command(positionCommand(yawRadians: yaw, pitchRadians: pitch, pace: pace), id: id, kind: .move)
            connection.drive = .stopped
        case .stop:
            connection.velocityEndsAt = nil
            enqueueDrive(.stopped, id: id, kind: .stop)
        case .zoom(let fraction):
            guard configuration.profile.zoom != nil else { return refused(command, id: id, reason: .unsupported) }
            guard let position = configuration.profile.zoomPosition(fraction: fraction) else {
                return refused(command, id: id, reason: .outOfRange)
            }
            connection.queuedZoom = .command(.zoomDirect(position: position), id: id, kind: .zoom)
            connection.zoomTarget = position
            connection.zoomStillReports = 0
            connection.nextZoomPollAt = min(connection.nextZoomPollAt, now)
        case .recallPreset(let number):
            guard let numbers = presetNumbers else { return refused(command, id: id, reason: .unsupported) }
            guard numbers.contains(number) else { return refused(command, id: id, reason: .outOfRange) }
            // A motion like a move: it replaces the one queued, and the camera's own preset speed
            // takes it there (its zoom too).
            connection.velocityEndsAt = nil
            connection.queued = .command(.memoryRecall(number: UInt8(number)), id: id, kind: .recallPreset)
            connection.drive = .stopped
            connection.zoomStillReports = 0
            connection.nextZoomPollAt = min(connection.nextZoomPollAt, now)
        case .storePreset(let number):
            guard let numbers = presetNumbers else { return refused(command, id: id, reason: .unsupported) }
            guard numbers.contains(number) else { return refused(command, id: id, reason: .outOfRange) }
            connection.queuedMemory = .command(.memorySet(number: UInt8(number)), id: id, kind: .storePreset)
        case .indicator:
            lifecycle.countRefusal()
            return SentCommand(
                id: id, actions: [.emit(.answered(id, .refused(CommandRefusal(reason: .unsupported, command: command.kind))))])
        }
        return SentCommand(id: id, actions: sendNext(now: now))
    }

    private mutating func refused(_ command: AccessoryCommand, id: CommandID, reason: CommandRefusal.Reason) -> SentCommand {
        lifecycle.countRefusal()
        return SentCommand(id: id, actions: [.emit(.answered(id, .refused(CommandRefusal(reason: reason, command: command.kind))))])
    }

    // MARK: Commands

    private var isReady: Bool { lifecycle.isReady }

    /// Queues a drive, as the host's command `id` or (nil) the session's own (the stop when a
    /// time-to-live runs out), which is numbered too.
    private mutating func enqueueDrive(_ wanted: Drive, id: CommandID?, kind: AccessoryCommand.Kind) {
        connection.drive = wanted
        connection.queued = .command(wanted.command, id: id ?? nextCommandID(), kind: kind)
    }

    private mutating func nextCommandID() -> CommandID {
        defer { nextSequence &+= 1 }
        return CommandID(nextSequence)
    }

    /// The steps and directions for a velocity, with hysteresis against the drive in force.
    private func drive(yawRadiansPerSecond yaw: Double, pitchRadiansPerSecond pitch: Double) -> Drive {
        let profile = configuration.profile
        let pan: PanDirection = yaw > 0 ? .right : .left
        let tilt: TiltDirection = pitch > 0 ? .up : .down
        let panStep = profile.pan.speeds.step(for: abs(yaw), current: connection.drive.pan == pan ? connection.drive.panStep : nil)
        let tiltStep = profile.tilt.speeds.step(for: abs(pitch), current: connection.drive.tilt == tilt ? connection.drive.tiltStep : nil)
        return Drive(panStep: panStep, pan: panStep == 0 ? .stop : pan, tiltStep: tiltStep, tilt: tiltStep == 0 ? .stop : tilt)
    }

    /// An absolute move: counts from the profile, speed steps that arrive in time (for a move
    /// by duration, the slowest step fast enough; for one by speed, the fastest not faster).
    private func positionCommand(yawRadians yaw: Double, pitchRadians pitch: Double, pace: MovePace) -> VISCACommand {
        let profile = configuration.profile
        let pan = counts(yaw, profile.pan), tilt = counts(pitch, profile.tilt)
        let here = connection.poses.latest?.pose
        func step(_ axis: VISCAProfile.Axis, distance: Double) -> UInt8 {
            let table = axis.speeds
            let wanted: Double
            switch pace {
            case .duration(let duration):
                wanted = distance / max(duration.secondsValue, 0.001)
                for step in 1...max(table.maximumStep, 1) where table.radiansPerSecond(step: step) >= wanted { return step }
                return table.maximumStep
            case .maximumSpeed(let speed):
                wanted = speed
                var chosen: UInt8 = 1
                for step in 1...max(table.maximumStep, 1) where table.radiansPerSecond(step: step) <= wanted { chosen = step }
                return chosen
            }
        }
        let panStep = step(profile.pan, distance: abs(yaw - (here?.yawRadians ?? 0)))
        let tiltStep = step(profile.tilt, distance: abs(pitch - (here?.pitchRadians ?? 0)))
        if profile.quirks.oneSpeedByteInPositionMoves {
            // One speed for both axes (Sony SRG-X400): the slower's, the second byte 00.
            return .absolutePosition(panSpeed: min(panStep, tiltStep), tiltSpeed: 0, pan: pan, tilt: tilt)
        }
        return .absolutePosition(panSpeed: panStep, tiltSpeed: tiltStep, pan: pan, tilt: tilt)
    }

    private func counts(_ radians: Double, _ axis: VISCAProfile.Axis) -> Int16 {
        let degrees = min(max(radians * 180 / .pi, axis.minimumDegrees), axis.maximumDegrees)
        return Int16(clamping: Int((degrees * axis.countsPerDegree).rounded()))
    }

    private func radians(_ count: Int16, _ axis: VISCAProfile.Axis) -> Double {
        Double(count) / axis.countsPerDegree * .pi / 180
    }

    // MARK: The line

    /// Puts what is due on the line: the queued command when no other waits for its ACK (and
    /// no buffer-full wait runs), and a pose inquiry when one is due and none is out.
    private mutating func sendNext(now: Duration) -> [SessionAction] {
        guard isReady else { return [] }  // the handshake sends its own steps
        var actions: [SessionAction] = []
        if let retry = connection.retryAt, now >= retry { connection.retryAt = nil }
        if connection.inFlight == nil, connection.retryAt == nil,
            let request = connection.queued ?? connection.queuedMemory ?? connection.queuedZoom
        {
            if connection.queued != nil {
                connection.queued = nil
            } else if connection.queuedMemory != nil {
                connection.queuedMemory = nil
            } else {
                connection.queuedZoom = nil
            }
            actions += transmit(request, now: now)
        }
        if connection.inquiry == nil, now >= connection.nextPollAt {
            actions += transmit(.inquiry(.panTiltPositionInquiry), now: now)
        } else if connection.inquiry == nil, isZoomRead, now >= connection.nextZoomPollAt {
            actions += transmit(.inquiry(.zoomPositionInquiry), now: now)
        }
        return actions
    }

    /// Whether the session reads the zoom: the profile has one and the camera answers its inquiry.
    private var isZoomRead: Bool { configuration.profile.zoom != nil && !connection.zoomIsUnreadable }

    private mutating func transmit(_ request: Request, now: Duration) -> [SessionAction] {
        let command: VISCACommand
        switch request {
        case .command(let c, _, _), .inquiry(let c), .handshake(let c): command = c
        case .resetSequence:
            return transmit(
                InFlight(
                    request: request, payload: [0x01], ipSequence: 0, sentAt: now,
                    firstSentAt: now, attempt: 1))
        }
        // Numbered from 0 after RESET, one more each message (Protocol/visca.md §7).
        let sequence = connection.nextIPSequence
        connection.nextIPSequence &+= 1
        let payload = command.encode(address: configuration.framing == .serial ? 1 : configuration.profile.address)
        return transmit(
            InFlight(
                request: request, payload: payload, ipSequence: sequence, sentAt: now, firstSentAt: now,
                attempt: 1))
    }

    private mutating func transmit(_ flight: InFlight) -> [SessionAction] {
        if case .inquiry = flight.request { connection.inquiry = flight } else { connection.inFlight = flight }
        if case .command = flight.request { commandsWritten += 1 }
        guard configuration.framing == .sonyIP else { return [.write(flight.payload)] }
        let type: VISCAIPMessage.PayloadType
        switch flight.request {
        case .resetSequence: type = .controlCommand
        case .inquiry: type = .inquiry
        case .handshake(let command):
            // Sony's "device setting" commands travel as their own payload type.
            type = command == .interfaceClear || command == .versionInquiry ? .deviceSetting : command.isInquiry ? .inquiry : .command
        case .command: type = .command
        }
        return [.write(VISCAIPMessage(payloadType: type, sequence: flight.ipSequence, payload: flight.payload).encode())]
    }

    private mutating func timedOut(_ flight: InFlight, now: Duration) -> [SessionAction] {
        // A handshake's optional steps are tried once: a port where nothing answers is given up
        // (and the next baud tried) within a few seconds.
        var attempts = configuration.attempts
        if case .handshake(let command) = flight.request, !command.isInquiry { attempts = 1 }
        guard flight.attempt < attempts else {
            if case .inquiry(.zoomPositionInquiry) = flight.request, isReady {
                // A camera that answers its pose but not the zoom inquiry: its zoom is driven, not
                // read (the pose polls decide whether the camera is gone).
                connection.inquiry = nil
                connection.zoomIsUnreadable = true
                return sendNext(now: now)
            }
            if case .inquiry = flight.request { connection.inquiry = nil } else { connection.inFlight = nil }
            switch state {
            case .handshaking:
                if case .handshake(let command) = flight.request, !command.isInquiry {
                    return nextHandshakeStep(now: now)  // not every camera answers these; the version inquiry decides
                }
                return handshakeFailed(now: now)
            case .ready:
                return transportClosed(now: now)  // the camera is gone
            case .disconnected, .connecting, .incompatible:
                return []
            }
        }
        resendCount += 1
        if isReady { timeoutBackoff = min(timeoutBackoff * 2, 8) }
        var again = flight
        again.attempt += 1
        again.sentAt = now
        return transmit(again)
    }

    // MARK: Replies

    private mutating func controlReplyReceived(_ message: VISCAIPMessage, now: Duration) -> [SessionAction] {
        if let flight = connection.inFlight, case .resetSequence = flight.request {
            connection.inFlight = nil
            connection.nextIPSequence = 0
            observeRoundTrip(flight, now: now)
            return isReady ? sendNext(now: now) : nextHandshakeStep(now: now)
        }
        guard message.payload.first == 0x0F else { return [] }
        // ERROR 0F 01 to a resend: the camera had carried the message out (and took the resend's
        // number as out of sequence) — for a command, it is done; for a pose inquiry, its answer
        // was lost, and the next poll asks again under a new number. To a first sending, the
        // numbering is off: reset it, and send the command again.
        if let flight = connection.inquiry, flight.ipSequence == message.sequence {
            connection.inquiry = nil
            return sendNext(now: now)
        }
        guard let flight = connection.inFlight, flight.ipSequence == message.sequence else { return [] }
        if flight.attempt > 1 { return completed(flight, socket: nil, now: now) }
        connection.inFlight = nil
        connection.queued = connection.queued ?? flight.request
        return transmit(
            InFlight(
                request: .resetSequence, payload: [0x01], ipSequence: 0, sentAt: now, firstSentAt: now,
                attempt: 1))
    }

    private mutating func packetsReceived(_ bytes: [UInt8], ipSequence: UInt32?, now: Duration) -> [SessionAction] {
        var actions: [SessionAction] = []
        for result in connection.decoder.decode(bytes) {
            switch result {
            case .failure:
                lifecycle.countBadFrame()
            case .success(let packet):
                do {
                    let (_, reply) = try VISCAReply.decode(packet)
                    actions += replyReceived(reply, ipSequence: ipSequence, now: now)
                } catch {
                    lifecycle.countBadFrame()
                }
            }
        }
        return actions
    }

    private mutating func replyReceived(_ reply: VISCAReply, ipSequence: UInt32?, now: Duration) -> [SessionAction] {
        // Over Sony's header a reply names its request, and a stale one (a resend's second
        // answer) matches nothing; on a serial line the kind of reply says which slot it is for.
        func matches(_ flight: InFlight?) -> InFlight? {
            guard let flight else { return nil }
            return ipSequence.map { $0 == flight.ipSequence } ?? true ? flight : nil
        }
        switch reply {
        case .ack(let socket):
            guard let flight = matches(connection.inFlight) else { return [] }
            observeRoundTrip(flight, now: now)
            connection.inFlight = nil
            connection.busySockets[socket] = flight.request
            return accepted(flight, now: now) + sendNext(now: now)
        case .completion(let socket):
            if ipSequence == nil || matches(connection.inFlight) == nil, let request = connection.busySockets.removeValue(forKey: socket) {
                return ended(request) + sendNext(now: now)
            }
            // A Completion with no ACK before it (some cameras; IF_Clear always).
            guard let flight = matches(connection.inFlight) else { return [] }
            return completed(flight, socket: socket, now: now)
        case .inquiryReply(let data):
            if let flight = matches(connection.inquiry), !(ipSequence == nil && isInquiryHandshake) {
                connection.inquiry = nil
                return inquiryAnswered(flight, data: data, now: now)
            }
            guard let flight = matches(connection.inFlight) else { return [] }
            connection.inFlight = nil
            return inquiryAnswered(flight, data: data, now: now)
        case .error(let socket, let code):
            if socket != 0, let request = connection.busySockets.removeValue(forKey: socket) {
                // An accepted command ended in error (cancelled by a later one, or could not run).
                var actions = code == .cancelled ? [] : refusal(request, code: code)
                actions += sendNext(now: now)
                return actions
            }
            // Socket 0: the command's answer if one waits for its ACK, else the inquiry's.
            guard let flight = matches(connection.inFlight) ?? matches(connection.inquiry) else { return [] }
            observeRoundTrip(flight, now: now)
            if case .inquiry(let command) = flight.request {
                connection.inquiry = nil
                if command == .zoomPositionInquiry, code == .syntax {
                    // A camera whose profile says it zooms but which does not know the inquiry:
                    // its zoom is driven, not read.
                    connection.zoomIsUnreadable = true
                    return sendNext(now: now)
                }
                lifecycle.countBadFrame()  // a pose inquiry the camera did not take: try again at the next poll
                return sendNext(now: now)
            }
            connection.inFlight = nil
            if code == .bufferFull {
                // Both sockets busy: the command waits for a Completion (or a while) and goes again.
                connection.queued = connection.queued ?? flight.request
                connection.retryAt = now + max(smoothedRoundTrip ?? .milliseconds(20), .milliseconds(10))
                return sendNext(now: now)
            }
            if case .handshake(let command) = flight.request {
                // A camera that does not know address set or IF_Clear still may be ours.
                guard command == .versionInquiry || command == .panTiltPositionInquiry else { return nextHandshakeStep(now: now) }
                return handshakeFailed(now: now)
            }
            return refusal(flight.request, code: code) + sendNext(now: now)
        case .addressSet:
            guard let flight = matches(connection.inFlight), case .handshake(.addressSet) = flight.request else { return [] }
            observeRoundTrip(flight, now: now)
            connection.inFlight = nil
            return nextHandshakeStep(now: now)
        case .networkChange:
            return []
        }
    }

    /// Whether the command slot holds a handshake inquiry (its answer is for it, not a poll).
    private var isInquiryHandshake: Bool {
        guard case .handshake(let command)? = connection.inFlight?.request else { return false }
        return command.isInquiry
    }

    /// The camera accepted a command (ACK): the host hears it.
    private mutating func accepted(_ flight: InFlight, now: Duration) -> [SessionAction] {
        switch flight.request {
        case .command(_, let id, _):
            return [.emit(.answered(id, .accepted))]
        case .handshake:
            return nextHandshakeStep(now: now)
        case .inquiry, .resetSequence:
            return []
        }
    }

    /// A command the camera carried out (Completion): the host hears it ended.
    private func ended(_ request: Request) -> [SessionAction] {
        guard case .command(_, let id, _) = request else { return [] }
        return [.emit(.answered(id, .ended))]
    }

    /// A request done without an ACK (Completion only, or 0F 01 to a resend over IP).
    private mutating func completed(_ flight: InFlight, socket: UInt8?, now: Duration) -> [SessionAction] {
        observeRoundTrip(flight, now: now)
        connection.inFlight = nil
        switch flight.request {
        case .command: return ended(flight.request) + sendNext(now: now)
        case .handshake, .inquiry, .resetSequence: return accepted(flight, now: now) + sendNext(now: now)
        }
    }

    private mutating func refusal(_ request: Request, code: VISCAErrorCode) -> [SessionAction] {
        guard case .command(_, let id, let kind) = request else { return [] }
        let reason: CommandRefusal.Reason
        switch code {
        case .syntax: reason = .unsupported
        case .messageLength: reason = .malformed
        default: reason = .outOfRange  // not executable, or a code of the camera's own
        }
        lifecycle.countRefusal()
        if kind == .velocity || kind == .stop { connection.drive = .stopped }
        return [.emit(.answered(id, .refused(CommandRefusal(reason: reason, detail: UInt16(code.rawValue), command: kind))))]
    }

    private mutating func inquiryAnswered(_ flight: InFlight, data: [UInt8], now: Duration) -> [SessionAction] {
        let roundTrip = now - flight.sentAt
        observeRoundTrip(flight, now: now)
        let command: VISCACommand
        switch flight.request {
        case .inquiry(let c), .handshake(let c): command = c
        case .command, .resetSequence: return []
        }
        switch command {
        case .versionInquiry:
            guard let version = VISCAVersion(data: data) else {
                lifecycle.countBadFrame()
                return handshakeFailed(now: now)
            }
            connection.version = version
            return nextHandshakeStep(now: now)
        case .panTiltPositionInquiry:
            guard let position = VISCAPanTiltPosition(data: data) else {
                lifecycle.countBadFrame()
                return sendNext(now: now)
            }
            var actions = poseReceived(position, sampledAt: now - roundTrip / 2, pollStartedAt: flight.firstSentAt, now: now)
            if case .handshaking = state { actions += attach(now: now) }
            return actions + sendNext(now: now)
        case .zoomPositionInquiry:
            guard let position = VISCAZoomPosition(data: data) else {
                lifecycle.countBadFrame()
                return sendNext(now: now)
            }
            zoomReceived(position.position, sampledAt: now - roundTrip / 2, pollStartedAt: flight.firstSentAt, now: now)
            return sendNext(now: now)
        default:
            return sendNext(now: now)
        }
    }

    private mutating func poseReceived(
        _ position: VISCAPanTiltPosition, sampledAt: Duration, pollStartedAt: Duration,
        now: Duration
    ) -> [SessionAction] {
        let profile = configuration.profile
        let yaw = radians(position.pan, profile.pan), pitch = radians(position.tilt, profile.tilt)
        var yawRate = 0.0, pitchRate = 0.0
        if let previous = connection.previousSample, sampledAt > previous.time {
            let span = (sampledAt - previous.time).secondsValue
            yawRate = (yaw - previous.yaw) / span
            pitchRate = (pitch - previous.pitch) / span
        }
        connection.previousSample = (sampledAt, yaw, pitch)
        connection.poses.record(
            Pose(
                yawRadians: yaw, pitchRadians: pitch, yawRadiansPerSecond: yawRate, pitchRadiansPerSecond: pitchRate,
                zoomFraction: zoomFraction(at: min(sampledAt, now))),
            at: min(sampledAt, now))
        pollCount += 1
        connection.lastPoseAt = now
        connection.nextPollAt = max(connection.nextPollAt, pollStartedAt + configuration.pollInterval)
        return lifecycle.telemetryArrived()
    }

    /// The zoom as the camera reported it, sampled at `sampledAt`: the pose history gets a sample
    /// there (the pose as it was, with this zoom), and the pose samples until the next report
    /// carry the zoom carried on at the rate between the last two reports — never past the
    /// position commanded. While a zoom moves it is read as often as the pose; one that reached
    /// its target, or has stood for `stillReportsToSettle` reports (a camera that stops short, or
    /// that was zoomed with its remote), only every `idleZoomPollInterval`.
    private mutating func zoomReceived(_ position: UInt16, sampledAt: Duration, pollStartedAt: Duration, now: Duration) {
        guard let fraction = configuration.profile.zoomFraction(position: position) else { return }
        let time = min(sampledAt, now)
        var rate = 0.0
        if let previous = connection.zoom, time > previous.time {
            rate = (fraction - previous.fraction) / (time - previous.time).secondsValue
        }
        let isStill = connection.zoom.map { abs($0.fraction - fraction) < 1e-9 } ?? true
        connection.zoomStillReports = isStill ? connection.zoomStillReports + 1 : 0
        if position == connection.zoomTarget || connection.zoomStillReports >= Self.stillReportsToSettle {
            connection.zoomTarget = nil
        }
        connection.zoom = (time, fraction, rate)
        if var pose = connection.poses.pose(at: time, horizon: configuration.poseHorizon) {
            pose.zoomFraction = fraction
            connection.poses.record(pose, at: time)
        }
        let moving = connection.zoomTarget != nil || !isStill
        connection.nextZoomPollAt = max(
            connection.nextZoomPollAt, pollStartedAt + (moving ? configuration.pollInterval : configuration.idleZoomPollInterval))
    }

    /// Zoom reports in a row at one position after which a zoom counts as standing, its target
    /// given up (5 at the pose's pace: 200 ms, longer than a zoom takes to start).
    static let stillReportsToSettle = 5

    /// The zoom at `time`, from the last report carried on at its rate (held between it and the
    /// target commanded, and inside the range); nil before the first report.
    private func zoomFraction(at time: Duration) -> Double? {
        guard let zoom = connection.zoom else { return nil }
        var fraction = zoom.fraction + zoom.rate * max((time - zoom.time).secondsValue, 0)
        if let target = connection.zoomTarget.flatMap(configuration.profile.zoomFraction(position:)) {
            fraction = zoom.rate >= 0 ? min(fraction, max(target, zoom.fraction)) : max(fraction, min(target, zoom.fraction))
        } else {
            fraction = zoom.fraction  // standing
        }
        return min(max(fraction, 0), 1)
    }

    private mutating func observeRoundTrip(_ flight: InFlight, now: Duration) {
        guard flight.attempt == 1 else {
            // Karn: a resend's answer says nothing of the round trip. And the answer to the
            // earlier sending may still come: on a line without sequence numbers it would be
            // taken for the next request's, so the line stays quiet as long as the sendings
            // were apart.
            let quiet = now + (flight.sentAt - flight.firstSentAt) + .milliseconds(5)
            if configuration.framing != .sonyIP {
                connection.nextPollAt = max(connection.nextPollAt, quiet)
                connection.retryAt = max(connection.retryAt ?? quiet, quiet)
            }
            return
        }
        timeoutBackoff = 1
        let sample = now - flight.sentAt
        guard let smoothed = smoothedRoundTrip else {
            smoothedRoundTrip = sample
            roundTripVariance = sample / 2
            return
        }
        let deviation = sample > smoothed ? sample - smoothed : smoothed - sample
        roundTripVariance = roundTripVariance * 3 / 4 + deviation / 4
        smoothedRoundTrip = smoothed * 7 / 8 + sample / 8
    }

    // MARK: Handshake

    /// Nothing on the port answered as a camera: it is closed and tried again (at the next
    /// serial speed, on a serial line).
    private mutating func handshakeFailed(now: Duration) -> [SessionAction] {
        baudProbe += 1
        return close(.handshakeFailed, now: now)
    }

    /// The port closes: its connection goes whole.
    private mutating func close(_ closing: LinkLifecycle.Closing, now: Duration) -> [SessionAction] {
        connection = Connection()
        return lifecycle.transportClosed(closing, now: now)
    }

    private mutating func nextHandshakeStep(now: Duration) -> [SessionAction] {
        guard case .handshaking = state else { return [] }
        guard !connection.handshakeSteps.isEmpty else { return [] }
        let step = connection.handshakeSteps.removeFirst()
        return transmit(.handshake(step), now: now)
    }

    private mutating func attach(now: Duration) -> [SessionAction] {
        let profile = configuration.profile
        let version = connection.version ?? VISCAVersion(vendor: 0, model: 0, romVersion: 0, maximumSocket: 2)
        func limits(_ axis: VISCAProfile.Axis) -> AxisLimits {
            AxisLimits(
                minimum: Angle(radians: axis.minimumDegrees * .pi / 180) ?? Angle(microradians: 0),
                maximum: Angle(radians: axis.maximumDegrees * .pi / 180) ?? Angle(microradians: 0),
                maximumSpeed: AngularRate(radiansPerSecond: axis.speeds.radiansPerSecond(step: axis.speeds.maximumStep))
                    ?? AngularRate(microradiansPerSecond: 1),
                maximumAcceleration: AngularAcceleration(
                    microradiansPerSecondSquared: UInt32(configuration.accelerationRadiansPerSecondSquared * 1e6)))
        }
        let code = "\(hex(version.vendor))-\(hex(version.model))"
        let identifier = configuration.identifier.isEmpty ? "VISCA-\(code)" : configuration.identifier
        let attached = AccessoryInfo(
            protocolVersion: 0, features: profile.zoom == nil ? [] : [.zoomControl],
            telemetryRateHertz: UInt8(clamping: Int(1 / max(configuration.pollInterval.secondsValue, 0.005))),
            failsafeTimeout: .zero, yaw: limits(profile.pan), pitch: limits(profile.tilt),
            model: profile.displayName, firmwareVersion: "VISCA \(code), ROM \(hex(version.romVersion))",
            serialNumber: identifier)
        connection.handshakeSteps.removeAll()
        return lifecycle.attached(attached, isDocked: true)
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
