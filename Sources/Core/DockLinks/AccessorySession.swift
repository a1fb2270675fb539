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

    /// The settings.
    public let configuration: Configuration
    /// Where the session is.
    public private(set) var state = State.disconnected
    /// What the accessory said of itself in the last handshake (kept while disconnected).
    public private(set) var info: AccessoryInfo?
    /// When the next attempt to open the port is due, while disconnected.
    public var reconnectAt: Duration? { retry.reconnectAt }
    /// The accessory's clock on the host's.
    public private(set) var clock = ClockMapping()
    /// Recent poses on the host's clock.
    public private(set) var poses = PoseHistory()
    /// The latest telemetry as received.
    public private(set) var latestTelemetry: Telemetry?
    /// Runs received that were not good frames.
    public private(set) var badFrameCount = 0
    /// Times the link was lost.
    public private(set) var disconnectCount = 0
    /// Commands the accessory refused.
    public private(set) var refusalCount = 0
    /// Whether telemetry has stopped arriving while ready.
    public private(set) var isTelemetryStalled = false

    private var decoder = FrameDecoder()
    private var nextSequence: UInt16 = 0
    private var lastSent: Duration = .zero
    private var lastTelemetryAt: Duration = .zero
    private var handshakeSentAt: Duration = .zero
    private var handshakeAttempt = 0
    private var retry: ReconnectBackoff
    private var pending: [(sequence: UInt16, type: MessageType, sentAt: Duration)] = []

    /// Creates a session that has not started.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        retry = ReconnectBackoff(initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
    }

    /// The dock's pose at `time` on the host's clock, from telemetry.
    public func pose(at time: Duration) -> Pose? { poses.pose(at: time) }

    /// How old the newest telemetry sample is at `now`.
    public func poseAge(at now: Duration) -> Duration? { poses.latest.map { now - $0.time } }

    public var protocolName: String { "dock-serial" }

    /// The speed configured for the port (the dock's own protocol does not probe).
    public var baudRate: Int? { nil }

    /// What the dock can do: a failsafe, a time-to-live on velocities, telemetry at a fixed
    /// rate, continuous speeds and orientation moves always (the protocol has them); buttons,
    /// a dock sensor, an indicator and zoom as its `info` says.
    public var capabilities: AccessoryCapabilities {
        var capabilities: AccessoryCapabilities = [
            .failsafe, .velocityTimeToLive, .telemetryStream, .continuousSpeeds,
            .orientationMoves, .faultReports,
        ]
        let features = info?.features ?? []
        if !features.isDisjoint(with: [.trackingButton, .shutterButton, .flipButton]) { capabilities.insert(.buttons) }
        if features.contains(.dockSensor) { capabilities.insert(.dockSensor) }
        if features.contains(.colorIndicator) { capabilities.insert(.indicator) }
        if features.contains(.zoomControl) { capabilities.insert(.zoom) }
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
        case .ready: lastSent + heartbeatInterval
        case .handshaking: info == nil ? nil : lastSent + heartbeatInterval
        case .disconnected, .connecting, .incompatible: nil
        }
    }

    /// The sequence number of the last frame sent.
    public private(set) var lastSentSequence: UInt16?
    /// The type of the command the accessory last refused, when it was one the session sent.
    public private(set) var lastRefusedType: MessageType?

    private var telemetryTimeout: Duration {
        // As in `heartbeatInterval`: the non-generic arithmetic, same values.
        let period = Duration(attoseconds: Duration.seconds(1).attoseconds / Int128(info?.telemetryRateHertz ?? 50))
        return max(configuration.telemetryTimeout, Duration(attoseconds: period.attoseconds * 5))
    }

    // MARK: Events from the shell

    /// Starts the session: the first attempt to open the port.
    public mutating func start(now: Duration) -> [SessionAction] {
        switch state {
        case .disconnected:
            state = .connecting
            retry.attempting()
            return [.openTransport]
        case .connecting, .handshaking, .ready, .incompatible:
            return []
        }
    }

    /// The port is open: say hello.
    public mutating func transportOpened(now: Duration) -> [SessionAction] {
        switch state {
        case .connecting, .disconnected:
            decoder = FrameDecoder()
            nextSequence = 0
            pending.removeAll()
            handshakeAttempt = 0
            return beginHandshake(now: now)
        case .handshaking, .ready, .incompatible:
            preconditionFailure("transportOpened in state \(state)")
        }
    }

    /// Opening the port failed: try again after the backoff.
    public mutating func transportFailed(reason: String, now: Duration) -> [SessionAction] {
        switch state {
        case .connecting:
            state = .disconnected
            let wait = retry.schedule(now: now)
            return [.emit(.connectFailed(reason: reason, retryAfter: wait))]
        case .disconnected, .handshaking, .ready, .incompatible:
            return []
        }
    }

    /// The port reported end of file, an I/O error or a hang-up: the link is gone.
    public mutating func transportClosed(now: Duration) -> [SessionAction] {
        switch state {
        case .disconnected:
            return []
        case .connecting, .handshaking, .ready, .incompatible:
            let wasUp = state != .connecting
            state = .disconnected
            retry.schedule(now: now)
            disconnectCount += 1
            poses.removeAll()
            clock.reset()
            latestTelemetry = nil
            isTelemetryStalled = false
            return wasUp ? [.closeTransport, .emit(.disconnected)] : [.closeTransport]
        }
    }

    /// A device that may be this accessory appeared (udev `add`): if the session is waiting to
    /// reconnect, it tries now and starts the backoff afresh.
    public mutating func deviceAppeared(now: Duration) -> [SessionAction] {
        switch state {
        case .disconnected:
            retry.reset()
            retry.attempting()
            state = .connecting
            return [.openTransport]
        case .connecting, .handshaking, .ready, .incompatible:
            return []
        }
    }

    /// Bytes arrived from the port.
    public mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [SessionAction] {
        var actions: [SessionAction] = []
        for byte in bytes {
            guard let result = decoder.decode(byte) else { continue }
            switch result {
            case .failure:
                badFrameCount += 1
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
            guard retry.takeIfDue(now: now) else { return [] }
            state = .connecting
            return [.openTransport]
        case .connecting, .incompatible:
            return []
        case .handshaking:
            if info != nil {
                // Answered: waiting for the first telemetry, and keeping the failsafe fed meanwhile.
                return now - lastSent >= heartbeatInterval ? [.write(frame(.heartbeat, now: now))] : []
            }
            guard now - handshakeSentAt >= configuration.handshakeTimeout else { return [] }
            guard handshakeAttempt < configuration.handshakeAttempts else {
                return transportClosed(now: now).filter { $0 != .emit(.disconnected) } + [.emit(.handshakeFailed)]
            }
            return beginHandshake(now: now)
        case .ready:
            var actions: [SessionAction] = []
            if now - lastTelemetryAt > telemetryTimeout, !isTelemetryStalled {
                isTelemetryStalled = true
                actions.append(.emit(.telemetryStalled))
            }
            pending.removeAll { now - $0.sentAt > .seconds(1) }
            if now - lastSent >= heartbeatInterval {
                actions += send(.heartbeat, now: now)
            }
            return actions
        }
    }

    /// Sends a command to the accessory (only while ready; otherwise nothing is sent).
    public mutating func send(_ message: Message, now: Duration) -> [SessionAction] {
        switch state {
        case .ready: return [.write(frame(message, now: now))]
        case .handshaking where info != nil: return [.write(frame(message, now: now))]  // answered: a stop may go
        case .handshaking, .disconnected, .connecting, .incompatible: return []
        }
    }

    // MARK: Frames from the accessory

    private mutating func frameReceived(_ frame: Frame, now: Duration) -> [SessionAction] {
        switch frame.message {
        case .info(let info):
            guard state == .handshaking else { return [] }
            guard configuration.offeredVersions.contains(info.protocolVersion) else {
                state = .incompatible
                return [
                    .emit(
                        .versionMismatch(
                            offered: configuration.offeredVersions,
                            supported: info.protocolVersion...info.protocolVersion))
                ]
            }
            guard info.failsafeTimeout >= configuration.minimumFailsafeTimeout else {
                state = .incompatible
                return [
                    .emit(
                        .failsafeTooShort(
                            advertised: info.failsafeTimeout,
                            minimum: configuration.minimumFailsafeTimeout))
                ]
            }
            self.info = info
            handshakeAttempt = configuration.handshakeAttempts  // no more hellos; wait for telemetry
            // A heartbeat now gives the clock mapping its first round trip.
            return [.write(self.frame(.heartbeat, now: now))]
        case .telemetry(let telemetry):
            return telemetryReceived(telemetry, now: now)
        case .ack(let ack):
            if let index = pending.firstIndex(where: { $0.sequence == ack.sequence && $0.type == ack.acknowledgedType }) {
                clock.observe(sentAt: pending[index].sentAt, receivedAt: now, accessoryTime: ack.accessoryTime)
                pending.remove(at: index)
            }
            return [.emit(.acknowledged(ack))]
        case .nack(let refusal):
            lastRefusedType = pending.last { $0.sequence == refusal.sequence }?.type
            pending.removeAll { $0.sequence == refusal.sequence }
            switch refusal.reason {
            case .unsupportedVersion where state == .handshaking:
                state = .incompatible
                let low = UInt8(truncatingIfNeeded: refusal.detail), high = UInt8(truncatingIfNeeded: refusal.detail >> 8)
                return [.emit(.versionMismatch(offered: configuration.offeredVersions, supported: low...max(low, high)))]
            case .notReady:
                guard case .ready = state else { return [] }
                poses.removeAll()
                clock.reset()
                handshakeAttempt = 0
                return [.emit(.accessoryReset)] + beginHandshake(now: now)
            case .unknownMessage, .wrongLength, .outOfRange, .faulted, .unsupportedVersion:
                refusalCount += 1
                return [.emit(.refused(refusal))]
            }
        case .event(let event):
            guard case .ready(let isDocked) = state else { return [] }
            if case .dockChanged(let docked) = event.kind {
                guard docked != isDocked else { return [] }
                state = .ready(isDocked: docked)
                return [.emit(docked ? .docked : .undocked)]
            }
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
            badFrameCount += 1  // a host message coming from the accessory is nonsense
            return []
        }
    }

    private mutating func telemetryReceived(_ telemetry: Telemetry, now: Duration) -> [SessionAction] {
        if case .ready = state, let previous = latestTelemetry, telemetry.accessoryTime < previous.accessoryTime {
            // The accessory's clock went back: it restarted without our noticing (§4). A new
            // handshake, as for `not_ready`.
            poses.removeAll()
            clock.reset()
            latestTelemetry = nil
            handshakeAttempt = 0
            return [.emit(.accessoryReset)] + beginHandshake(now: now)
        }
        clock.observeArrival(accessoryTime: telemetry.accessoryTime, receivedAt: now)
        let sampledAt = clock.hostTime(of: telemetry.accessoryTime) ?? now
        poses.record(
            Pose(
                yawRadians: telemetry.yaw.radians, pitchRadians: telemetry.pitch.radians,
                yawRadiansPerSecond: telemetry.yawRate.radiansPerSecond,
                pitchRadiansPerSecond: telemetry.pitchRate.radiansPerSecond), at: min(sampledAt, now))
        latestTelemetry = telemetry
        lastTelemetryAt = now
        let isDocked = telemetry.flags.contains(.docked)
        switch state {
        case .handshaking:
            guard let info else { return [] }
            state = .ready(isDocked: isDocked)
            retry.reset()
            return [.emit(.attached(info, isDocked: isDocked))]
        case .ready(let wasDocked):
            var actions: [SessionAction] = []
            if isTelemetryStalled {
                isTelemetryStalled = false
                actions.append(.emit(.telemetryResumed))
            }
            if isDocked != wasDocked {
                state = .ready(isDocked: isDocked)
                actions.append(.emit(isDocked ? .docked : .undocked))
            }
            return actions
        case .disconnected, .connecting, .incompatible:
            return []
        }
    }

    // MARK: Sending

    private mutating func beginHandshake(now: Duration) -> [SessionAction] {
        state = .handshaking
        handshakeAttempt += 1
        handshakeSentAt = now
        info = nil
        let hello = Hello(
            minimumVersion: configuration.offeredVersions.lowerBound,
            maximumVersion: configuration.offeredVersions.upperBound)
        return [.write(frame(.hello(hello), now: now))]
    }

    private mutating func frame(_ message: Message, now: Duration) -> [UInt8] {
        let sequence = nextSequence
        nextSequence &+= 1
        lastSent = now
        lastSentSequence = sequence
        if message.type != .hello {
            if pending.count >= 64 { pending.removeFirst() }
            pending.append((sequence, message.type, now))
        }
        do {
            return try FrameEncoder.encode(Frame(sequence: sequence, message: message))
        } catch {
            preconditionFailure("the session built an invalid frame: \(message): \(error)")
        }
    }
}
