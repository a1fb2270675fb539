public import DockProtocol

/// The host's side of one accessory, as a pure state machine over `Protocol/dock-serial.md`:
///
///     disconnected → connecting → handshaking → ready(docked | undocked)
///
/// It is handed the time and what happened (the port opened, bytes arrived, a tick), and returns
/// actions for its shell (open or close the port, write bytes, emit events). It keeps the link
/// alive with heartbeats, maps the accessory's clock to the host's, keeps a short pose history,
/// notices resets, stalls and version mismatches, and retries a lost port with backoff. The entry
/// outlives the port: after a disconnect it keeps its counters and tries again.
public struct AccessorySession: AccessoryLink {
    /// Where the session is.
    public typealias State = AccessoryLinkState

    /// Timing and retry settings.
    public struct Configuration: Hashable, Sendable {
        /// The protocol versions offered in `hello`.
        public var offeredVersions: ClosedRange<UInt8> = WireLimits.protocolVersion...WireLimits.protocolVersion
        /// How long to wait for `info` before sending `hello` again.
        public var handshakeTimeout: Duration = .milliseconds(500)
        /// How many `hello`s to send before giving the port up.
        public var handshakeAttempts = 3
        /// The first wait before reopening a lost port; it doubles on each failure.
        public var initialBackoff: Duration = .milliseconds(250)
        /// The longest wait before reopening.
        public var maximumBackoff: Duration = .seconds(5)
        /// Silence in telemetry that counts as a stall (or five telemetry periods if longer).
        public var telemetryTimeout: Duration = .milliseconds(500)
        /// The shortest failsafe timeout the host keeps alive (a frame every eighth of it, inside
        /// the specification's quarter); an accessory that advertises less is refused.
        public var minimumFailsafeTimeout: Duration = .milliseconds(100)

        /// The default settings.
        public init() {}
    }

    /// What one open port holds: replaced whole when the port closes.
    struct Connection {
        var decoder = FrameDecoder()
        var nextSequence: UInt16 = 0
        /// When the last frame went out.
        var lastSent: Duration = .zero
        var lastTelemetryAt: Duration = .zero
        var handshakeSentAt: Duration = .zero
        var handshakeAttempt = 0
        /// Frames waiting for their answer (not `hello`).
        var pending: [(sequence: UInt16, type: MessageType, sentAt: Duration)] = []
        var clock = ClockMapping()
        var poses = PoseHistory()
        var latestTelemetry: Telemetry?
    }

    /// The settings.
    public let configuration: Configuration
    /// Where the session is, what the dock said it is, the backoff and the counters.
    public private(set) var lifecycle: LinkLifecycle
    private var connection = Connection()

    /// The accessory's clock on the host's.
    public var clock: ClockMapping { connection.clock }
    /// Recent poses on the host's clock.
    public var poses: PoseHistory { connection.poses }
    /// The latest telemetry as received.
    public var latestTelemetry: Telemetry? { connection.latestTelemetry }

    /// Creates a session that has not started.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        lifecycle = LinkLifecycle(initialBackoff: configuration.initialBackoff, maximumBackoff: configuration.maximumBackoff)
    }

    /// The dock's pose at `time` on the host's clock, from telemetry.
    public func pose(at time: Duration) -> Pose? { connection.poses.pose(at: time) }

    /// How old the newest telemetry sample is at `now`.
    public func poseAge(at now: Duration) -> Duration? { connection.poses.latest.map { now - $0.time } }

    public var accessoryProtocol: AccessoryProtocol { .dockSerial }

    /// The speed configured for the port (the dock's own protocol does not probe).
    public var baudRate: Int? { nil }

    /// What the dock can do: a failsafe, a time-to-live on velocities, telemetry at a fixed
    /// rate, continuous speeds and orientation moves always (the protocol has them); buttons,
    /// a dock sensor and an indicator as its `info` says. A zoom control is one of its buttons:
    /// the dock reports it turned (a `zoom` button event), and the protocol has no command that
    /// zooms, so `zoom` — a zoom dockd drives — is never listed.
    public var capabilities: AccessoryCapabilities {
        var capabilities: AccessoryCapabilities = [
            .failsafe, .velocityTimeToLive, .telemetryStream, .continuousSpeeds,
            .orientationMoves, .faultReports,
        ]
        let features = info?.features ?? []
        if !features.isDisjoint(with: [.trackingButton, .shutterButton, .flipButton, .zoomControl]) { capabilities.insert(.buttons) }
        if features.contains(.dockSensor) { capabilities.insert(.dockSensor) }
        if features.contains(.colorIndicator) { capabilities.insert(.indicator) }
        return capabilities
    }

    /// The heartbeat's deadline (`heartbeatDeadline`).
    public var nextDeadline: Duration? { heartbeatDeadline }

    /// The longest the host lets pass between two frames it sends: an eighth of the accessory's
    /// failsafe timeout, which leaves another eighth of it for the host's own lateness inside the
    /// quarter that `Protocol/dock-serial.md` §5.2 allows.
    public var heartbeatInterval: Duration {
        // Duration's `/` by an integer is generic over BinaryInteger and reached dockd
        // unspecialised (metadata look-ups on every call, 3 % of its CPU while tracking: the
        // shell asks for this deadline after every wake-up); the same truncating division on
        // the attoseconds.
        Duration(attoseconds: (info?.failsafeTimeout ?? .milliseconds(500)).attoseconds / 8)
    }

    /// When the next heartbeat is due if nothing else is sent before: the shell must call
    /// `tick(now:)` by then. Nil when no accessory is in session.
    public var heartbeatDeadline: Duration? {
        switch state {
        case .ready: connection.lastSent + heartbeatInterval
        case .handshaking: info == nil ? nil : connection.lastSent + heartbeatInterval
        case .disconnected, .connecting, .incompatible: nil
        }
    }

    private var telemetryTimeout: Duration {
        // As in `heartbeatInterval`: the non-generic arithmetic, same values.
        let period = Duration(attoseconds: Duration.seconds(1).attoseconds / Int128(info?.telemetryRateHertz ?? 50))
        return max(configuration.telemetryTimeout, Duration(attoseconds: period.attoseconds * 5))
    }

    // MARK: Events from the shell

    /// Starts the session: the first attempt to open the port.
    public mutating func start(now: Duration) -> [SessionAction] { lifecycle.start() }

    /// The port is open: say hello.
    public mutating func transportOpened(now: Duration) -> [SessionAction] {
        lifecycle.transportOpened()
        return beginHandshake(now: now)
    }

    /// Opening the port failed: try again after the backoff.
    public mutating func transportFailed(reason: String, now: Duration) -> [SessionAction] {
        lifecycle.transportFailed(reason: reason, now: now)
    }

    /// The port reported end of file, an I/O error or a hang-up: the link is gone.
    public mutating func transportClosed(now: Duration) -> [SessionAction] { close(.lost, now: now) }

    /// A device that may be this accessory appeared (udev `add`): if the session is waiting to
    /// reconnect, it tries now and starts the backoff afresh.
    public mutating func deviceAppeared(now: Duration) -> [SessionAction] { lifecycle.deviceAppeared() }

    /// Bytes arrived from the port; none count while it is closed (they would be the last
    /// connection's, and its state is gone).
    public mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [SessionAction] {
        switch state {
        case .handshaking, .ready, .incompatible: break
        case .disconnected, .connecting: return []
        }
        var actions: [SessionAction] = []
        for byte in bytes {
            guard let result = connection.decoder.decode(byte) else { continue }
            switch result {
            case .failure:
                lifecycle.countBadFrame()
            case .success(let frame):
                actions += frameReceived(frame, now: now)
            }
        }
        return actions
    }

    /// Time passes: reconnect when due, resend `hello`, keep the link alive, watch telemetry.
    public mutating func tick(now: Duration) -> [SessionAction] {
        switch state {
        case .disconnected:
            return lifecycle.reconnectIfDue(now: now)
        case .connecting, .incompatible:
            return []
        case .handshaking:
            if info != nil {
                // Answered: waiting for the first telemetry, and keeping the failsafe fed meanwhile.
                return now - connection.lastSent >= heartbeatInterval ? [.write(frame(.heartbeat, now: now))] : []
            }
            guard now - connection.handshakeSentAt >= configuration.handshakeTimeout else { return [] }
            guard connection.handshakeAttempt < configuration.handshakeAttempts else {
                return close(.handshakeFailed, now: now)
            }
            lifecycle.handshakeRestarted()
            return beginHandshake(now: now)
        case .ready:
            var actions: [SessionAction] = []
            if now - connection.lastTelemetryAt > telemetryTimeout { actions += lifecycle.telemetryStalled() }
            connection.pending.removeAll { now - $0.sentAt > .seconds(1) }
            if now - connection.lastSent >= heartbeatInterval {
                actions.append(.write(frame(.heartbeat, now: now)))
            }
            return actions
        }
    }

    /// Sends a command to the dock as its frame, under the frame's sequence number (only while
    /// ready, or once the dock has answered `hello`: a stop may go then). Zoom and presets are
    /// not in the protocol, and a value outside its ranges cannot be framed: both are refused
    /// at once.
    public mutating func send(_ command: AccessoryCommand, now: Duration) -> SentCommand {
        switch state {
        case .ready: break
        case .handshaking where info != nil: break  // answered: a stop may go
        case .handshaking, .disconnected, .connecting, .incompatible: return .dropped
        }
        guard let message = Self.message(for: command), message.firstInvalidField == nil else {
            let id = CommandID(connection.nextSequence)
            connection.nextSequence &+= 1
            let reason: CommandRefusal.Reason
            switch command {
            case .zoom, .recallPreset, .storePreset: reason = .unsupported
            case .velocity, .move, .stop, .indicator: reason = .outOfRange
            }
            lifecycle.countRefusal()
            return SentCommand(id: id, actions: [.emit(.answered(id, .refused(CommandRefusal(reason: reason, command: command.kind))))])
        }
        let id = CommandID(connection.nextSequence)
        return SentCommand(id: id, actions: [.write(frame(message, now: now))])
    }

    /// A command as `Protocol/dock-serial.md` frames it; nil for what it has no message for, or
    /// a value it cannot carry (not finite, or past its fixed point's range).
    static func message(for command: AccessoryCommand) -> Message? {
        switch command {
        case .velocity(let yaw, let pitch, let timeToLive):
            guard let yawRate = AngularRate(radiansPerSecond: yaw), let pitchRate = AngularRate(radiansPerSecond: pitch) else {
                return nil
            }
            return .setVelocity(VelocityCommand(yawRate: yawRate, pitchRate: pitchRate, timeToLive: timeToLive))
        case .move(let yaw, let pitch, let pace):
            guard let yawAngle = Angle(radians: yaw), let pitchAngle = Angle(radians: pitch) else { return nil }
            let wirePace: OrientationMove.Pace
            switch pace {
            case .duration(let duration): wirePace = .duration(duration)
            case .maximumSpeed(let speed):
                guard let rate = AngularRate(radiansPerSecond: speed) else { return nil }
                wirePace = .maximumSpeed(rate)
            }
            return .moveTo(OrientationMove(yaw: yawAngle, pitch: pitchAngle, pace: wirePace))
        case .stop:
            return .stop
        case .indicator(let light):
            let pattern: IndicatorState.Pattern
            switch light.pattern {
            case .off: pattern = .off
            case .solid: pattern = .solid
            case .slowBlink: pattern = .slowBlink
            case .fastBlink: pattern = .fastBlink
            case .pulse: pattern = .pulse
            }
            return .setIndicator(IndicatorState(pattern: pattern, red: light.red, green: light.green, blue: light.blue))
        case .zoom, .recallPreset, .storePreset:
            return nil
        }
    }

    /// The command a frame of this type carries; nil for the session's own (`hello`,
    /// `heartbeat`) and the dock's.
    private static func kind(of type: MessageType) -> AccessoryCommand.Kind? {
        switch type {
        case .setVelocity: .velocity
        case .moveTo: .move
        case .stop: .stop
        case .setIndicator: .indicator
        case .hello, .heartbeat, .info, .ack, .nack, .telemetry, .event, .fault: nil
        }
    }

    // MARK: Frames from the accessory

    private mutating func frameReceived(_ frame: Frame, now: Duration) -> [SessionAction] {
        switch frame.message {
        case .info(let info):
            guard state == .handshaking else { return [] }
            guard configuration.offeredVersions.contains(info.protocolVersion) else {
                lifecycle.refuseAccessory()
                return [
                    .emit(
                        .versionMismatch(
                            offered: configuration.offeredVersions,
                            supported: info.protocolVersion...info.protocolVersion))
                ]
            }
            guard info.failsafeTimeout >= configuration.minimumFailsafeTimeout else {
                lifecycle.refuseAccessory()
                return [
                    .emit(
                        .failsafeTooShort(
                            advertised: info.failsafeTimeout,
                            minimum: configuration.minimumFailsafeTimeout))
                ]
            }
            lifecycle.described(info)
            connection.handshakeAttempt = configuration.handshakeAttempts  // no more hellos; wait for telemetry
            // A heartbeat now gives the clock mapping its first round trip.
            return [.write(self.frame(.heartbeat, now: now))]
        case .telemetry(let telemetry):
            return telemetryReceived(telemetry, now: now)
        case .ack(let ack):
            if let index = connection.pending.firstIndex(where: { $0.sequence == ack.sequence && $0.type == ack.acknowledgedType }) {
                connection.clock.observe(sentAt: connection.pending[index].sentAt, receivedAt: now, accessoryTime: ack.accessoryTime)
                connection.pending.remove(at: index)
            }
            // The session's own heartbeat is nobody's command: its `ack` fed the clock, and that is all.
            guard ack.acknowledgedType != .heartbeat, ack.acknowledgedType != .hello else { return [] }
            return [.emit(.answered(CommandID(ack.sequence), .accepted))]
        case .nack(let refusal):
            let refusedType = connection.pending.last { $0.sequence == refusal.sequence }?.type
            connection.pending.removeAll { $0.sequence == refusal.sequence }
            switch refusal.reason {
            case .unsupportedVersion where state == .handshaking:
                lifecycle.refuseAccessory()
                let low = UInt8(truncatingIfNeeded: refusal.detail), high = UInt8(truncatingIfNeeded: refusal.detail >> 8)
                return [.emit(.versionMismatch(offered: configuration.offeredVersions, supported: low...max(low, high)))]
            case .notReady:
                guard case .ready = state else { return [] }
                connection.poses.removeAll()
                connection.clock.reset()
                connection.handshakeAttempt = 0
                lifecycle.handshakeRestarted()
                return [.emit(.accessoryReset)] + beginHandshake(now: now)
            case .unknownMessage: return refused(refusal, .unsupported, type: refusedType)
            case .wrongLength: return refused(refusal, .malformed, type: refusedType)
            case .outOfRange: return refused(refusal, .outOfRange, type: refusedType)
            case .faulted: return refused(refusal, .faulted, type: refusedType)
            case .unsupportedVersion: return refused(refusal, .unsupportedVersion, type: refusedType)
            }
        case .event(let event):
            guard case .ready = state else { return [] }
            if case .dockChanged(let docked) = event.kind { return lifecycle.dockChanged(isDocked: docked) }
            return [.emit(.button(event.kind))]
        case .fault(let fault):
            // Faults still active are announced right after `info` (§5.1), before the first
            // telemetry: they count from then on.
            switch state {
            case .ready: return [.emit(.fault(fault))]
            case .handshaking where info != nil: return [.emit(.fault(fault))]
            case .handshaking, .disconnected, .connecting, .incompatible: return []
            }
        case .hello, .heartbeat, .setVelocity, .moveTo, .stop, .setIndicator:
            lifecycle.countBadFrame()  // a host message coming from the accessory is nonsense
            return []
        }
    }

    /// The dock refused a frame: its command's answer (no command for the session's own).
    private mutating func refused(_ refusal: Refusal, _ reason: CommandRefusal.Reason, type: MessageType?) -> [SessionAction] {
        lifecycle.countRefusal()
        let answer = CommandRefusal(reason: reason, detail: refusal.detail, command: type.flatMap(Self.kind(of:)))
        return [.emit(.answered(CommandID(refusal.sequence), .refused(answer)))]
    }

    private mutating func telemetryReceived(_ telemetry: Telemetry, now: Duration) -> [SessionAction] {
        if case .ready = state, let previous = connection.latestTelemetry, telemetry.accessoryTime < previous.accessoryTime {
            // The accessory's clock went back: it restarted without our noticing (§4). A new
            // handshake, as for `not_ready`.
            connection.poses.removeAll()
            connection.clock.reset()
            connection.latestTelemetry = nil
            connection.handshakeAttempt = 0
            lifecycle.handshakeRestarted()
            return [.emit(.accessoryReset)] + beginHandshake(now: now)
        }
        connection.clock.observeArrival(accessoryTime: telemetry.accessoryTime, receivedAt: now)
        let sampledAt = connection.clock.hostTime(of: telemetry.accessoryTime) ?? now
        connection.poses.record(
            Pose(
                yawRadians: telemetry.yaw.radians, pitchRadians: telemetry.pitch.radians,
                yawRadiansPerSecond: telemetry.yawRate.radiansPerSecond,
                pitchRadiansPerSecond: telemetry.pitchRate.radiansPerSecond), at: min(sampledAt, now))
        connection.latestTelemetry = telemetry
        connection.lastTelemetryAt = now
        let isDocked = telemetry.flags.contains(.docked)
        switch state {
        case .handshaking:
            guard info != nil else { return [] }
            return lifecycle.attached(isDocked: isDocked)
        case .ready:
            return lifecycle.telemetryArrived() + lifecycle.dockChanged(isDocked: isDocked)
        case .disconnected, .connecting, .incompatible:
            return []
        }
    }

    // MARK: Sending

    /// The port closes: its connection goes whole.
    private mutating func close(_ closing: LinkLifecycle.Closing, now: Duration) -> [SessionAction] {
        connection = Connection()
        return lifecycle.transportClosed(closing, now: now)
    }

    /// Says `hello` (the lifecycle is handshaking, and has forgotten the dock's `info`).
    private mutating func beginHandshake(now: Duration) -> [SessionAction] {
        connection.handshakeAttempt += 1
        connection.handshakeSentAt = now
        let hello = Hello(
            minimumVersion: configuration.offeredVersions.lowerBound,
            maximumVersion: configuration.offeredVersions.upperBound)
        return [.write(frame(.hello(hello), now: now))]
    }

    private mutating func frame(_ message: Message, now: Duration) -> [UInt8] {
        let sequence = connection.nextSequence
        connection.nextSequence &+= 1
        connection.lastSent = now
        if message.type != .hello {
            if connection.pending.count >= 64 { connection.pending.removeFirst() }
            connection.pending.append((sequence, message.type, now))
        }
        do {
            return try FrameEncoder.encode(Frame(sequence: sequence, message: message))
        } catch {
            preconditionFailure("the session built an invalid frame: \(message): \(error)")
        }
    }
}
