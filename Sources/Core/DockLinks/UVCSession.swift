import DockNumbers
public import DockProtocol
public import V4L2Protocol

/// The host's side of a UVC PTZ webcam on `/dev/videoN` (`Protocol/uvc.md`), as a pure state
/// machine behind the accessory contract:
///
///     disconnected → connecting → handshaking (QUERYCAP, the controls, stop, pose) → ready(docked)
///
/// **The seam.** The session never calls `ioctl`: its `write` bytes are ioctl requests framed
/// by `V4L2Frame` (request number, struct image), and the bytes it receives are their results
/// (errno, struct image). So the shell, `HostPolicy` and the byte transports carry a V4L2
/// camera exactly as they carry a serial dock, with no new action type; `V4L2Transport` in
/// DockDaemon performs each framed request on the device and frames the reply, and a test (or
/// an emulated camera) answers the frames itself. One request is out at a time, so each reply
/// is its request's.
///
/// **The rules it keeps.** Pan and tilt absolute are two halves of one UVC control: they are
/// always written together in one `S_EXT_CTRLS` (a lone write is a read-modify-write in the
/// driver that can overwrite the other axis's target). A speed's sign is its direction and its
/// magnitude is clamped to the control's maximum and 255, whatever minimum the driver reports
/// (uvcvideo shows a device minimum of 1 as −1). The default value of a speed control is never
/// written: a camera may report a non-zero default, so "reset" would start a move — stop is 0.
/// A control that fails with `EIO` (some firmware) is left out and the others used; `ENODEV`
/// from any request is the camera unplugged: the port is closed and reopened with backoff (or
/// at once when udev reports a video device). Velocity goes through the speed controls where
/// there are any, else through an absolute target stepped at the velocity; its time-to-live is
/// kept here (UVC has none), and a stop — also at shutdown and when a controlling client
/// vanishes, which the host turns into `stop` — writes both speeds 0.
///
/// **The pose** is read back from the absolute controls every `pollInterval`. A camera whose
/// read-back is its target (`readBackIsTarget`) is taken to arrive `motionLag` after the value
/// changed: the old value is kept until then. A camera with speed controls only is dead-reckoned
/// from the speeds it was told.
public struct UVCSession: AccessoryLink {
    /// Settings: the model's figures that enumeration cannot tell, timing, limits.
    public struct Configuration: Hashable, Sendable {
        /// What names this camera across reconnects (its device path); V4L2 reports no serial.
        public var identifier = ""
        /// The model's name for status; empty: the device's `QUERYCAP` card.
        public var displayName = ""
        /// Degrees per second for one unit of `PAN_SPEED`/`TILT_SPEED` (the unit is undefined
        /// by V4L2: it comes from the model).
        public var degreesPerSecondPerSpeedUnit = 1.0
        /// How fast the motors follow an absolute target: the cap of a stepped velocity.
        public var absoluteDegreesPerSecond = 60.0
        /// Pan/tilt is digital whatever the ranges say.
        public var isDigital = false
        /// Read-back answers the target, not the position.
        public var readBackIsTarget = false
        /// With `readBackIsTarget`: how long after a change the camera is there.
        public var motionLag: Duration = .zero
        /// The shortest interval between two pose reads.
        public var pollInterval: Duration = .milliseconds(50)
        /// How often a stepped velocity writes a new absolute target.
        public var stepInterval: Duration = .milliseconds(100)
        /// How long a request may go unanswered before the camera counts as gone (some cameras
        /// take seconds to enumerate).
        public var replyTimeout: Duration = .seconds(5)
        /// The first wait before reopening a lost device; it doubles on each failure.
        public var initialBackoff: Duration = .milliseconds(250)
        /// The longest wait before reopening.
        public var maximumBackoff: Duration = .seconds(5)
        /// Silence in pose reads that counts as a stall.
        public var poseStallTimeout: Duration = .seconds(1)
        /// How far past the newest pose sample the pose is extrapolated.
        public var poseHorizon: Duration = .milliseconds(300)
        /// The acceleration the limits advertise (UVC reports none).
        public var accelerationRadiansPerSecondSquared = 3.0
        /// Settings narrowing the yaw range the controls give, degrees; nil: the controls' range.
        public var yawDegrees: ClosedRange<Double>?
        /// Settings narrowing the pitch range, degrees.
        public var pitchDegrees: ClosedRange<Double>?

        /// Settings for a camera nothing is known of (speed unit 1°/s, absolute 60°/s).
        public init() {}

        /// Settings from a camera model.
        public init(model: UVCCameraModel) {
            displayName = model.displayName
            degreesPerSecondPerSpeedUnit = model.degreesPerSecondPerSpeedUnit
            absoluteDegreesPerSecond = model.absoluteDegreesPerSecond
            isDigital = model.isDigital
            readBackIsTarget = model.readBackIsTarget
            motionLag = model.motionLag
        }
    }

    /// What a request out on the line is for.
    enum Purpose: Hashable, Sendable {
        case capability
        case query(UInt32, legacy: Bool)
        case handshakeStop
        case handshakePose
        case poll
        case speeds(sequence: UInt16?, type: MessageType)
        case absolute(sequence: UInt16?, type: MessageType)
        case zoom
    }

    struct Outstanding: Hashable, Sendable {
        var purpose: Purpose
        var request: V4L2Frame.Request
        var sentAt: Duration
    }

    /// The settings.
    public let configuration: Configuration
    public private(set) var state = AccessoryLinkState.disconnected
    public private(set) var info: AccessoryInfo?
    public private(set) var badFrameCount = 0
    public private(set) var disconnectCount = 0
    public private(set) var refusalCount = 0
    public private(set) var isTelemetryStalled = false
    public private(set) var lastSentSequence: UInt16?
    public private(set) var lastRefusedType: MessageType?
    /// The controls found and how they are classified.
    public private(set) var controls = UVCControls()
    /// What `QUERYCAP` said.
    public private(set) var capability: V4L2Capability?
    /// When the next attempt to open the device is due, while disconnected.
    public var reconnectAt: Duration? { retry.reconnectAt }
    /// Pose reads that failed (`EIO` and the like) without the camera being gone.
    public private(set) var failedReads = 0
    /// Recent poses on the host's clock.
    public private(set) var poses = PoseHistory()

    private var decoder = V4L2Frame.Decoder.replies()
    private var retry: ReconnectBackoff
    private var outstanding: Outstanding?
    /// Queries still to make during the handshake.
    private var queries: [UInt32] = []
    private var useLegacyQuery = false
    /// The motion request waiting for the line (a newer one replaces it), and a stop of the
    /// speeds that must go before an absolute move.
    private var queuedMotion: (purpose: Purpose, request: V4L2Frame.Request)?
    private var queuedAbsolute: (purpose: Purpose, request: V4L2Frame.Request)?
    /// A `ZOOM_ABSOLUTE` write waiting for the line (a newer one replaces it).
    private var queuedZoom: V4L2Frame.Request?
    /// Zoom writes the camera failed (`EIO`, `ERANGE`...), after the caller was answered.
    public private(set) var failedZoomWrites = 0
    /// The speeds the camera was last told (0, 0 when still).
    private var speeds: (pan: Int32, tilt: Int32) = (0, 0)
    /// A velocity stepped through absolute targets: degrees per second, and where the commanded
    /// motion has got to (unsnapped arc-seconds) by `lastStepAt`.
    private var stepped: (yaw: Double, pitch: Double)?
    private var steppedTarget: (pan: Double, tilt: Double) = (0, 0)
    private var lastStepAt: Duration = .zero
    private var lastWrittenAbsolute: (pan: Int32, tilt: Int32)?
    private var nextStepAt: Duration = .zero
    private var velocityEndsAt: Duration?
    private var nextPollAt: Duration = .zero
    private var lastPoseAt: Duration = .zero
    private var lastRead: (pan: Int32, tilt: Int32)?
    /// A read-back target the camera reaches later: recorded when due.
    private var pendingSample: (time: Duration, yaw: Double, pitch: Double)?
    private var previousSample: (time: Duration, yaw: Double, pitch: Double)?
    private var deadReckoned: (time: Duration, yaw: Double, pitch: Double)?
    private var nextSequence: UInt16 = 0

    /// Creates a session that has not started.
    public init(configuration: Configuration) {
        self.configuration = configuration
        retry = ReconnectBackoff(initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
    }

    public var protocolName: String { "uvc" }

    public var baudRate: Int? { nil }

    public var capabilities: AccessoryCapabilities {
        var set: AccessoryCapabilities = []
        if controls.panAbsolute != nil || controls.tiltAbsolute != nil { set.insert(.orientationMoves) }
        if controls.hasZoom { set.insert(.zoom) }
        return set
    }

    public var nextDeadline: Duration? {
        switch state {
        case .disconnected: return reconnectAt
        case .connecting, .incompatible: return nil
        case .handshaking, .ready: break
        }
        var deadlines: [Duration] = []
        if let outstanding { deadlines.append(outstanding.sentAt + configuration.replyTimeout) }
        if isReady {
            if let velocityEndsAt { deadlines.append(velocityEndsAt) }
            if stepped != nil { deadlines.append(nextStepAt) }
            if outstanding == nil, hasReadablePose { deadlines.append(nextPollAt) }
            if let pendingSample { deadlines.append(pendingSample.time) }
        }
        return deadlines.min()
    }

    public func pose(at time: Duration) -> Pose? { poses.pose(at: time, horizon: configuration.poseHorizon) }

    public func poseAge(at now: Duration) -> Duration? { poses.latest.map { now - $0.time } }

    // MARK: Events from the shell

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

    public mutating func transportOpened(now: Duration) -> [SessionAction] {
        switch state {
        case .connecting, .disconnected:
            decoder = .replies()
            outstanding = nil
            queuedMotion = nil
            queuedAbsolute = nil
            queuedZoom = nil
            speeds = (0, 0)
            stepped = nil
            lastWrittenAbsolute = nil
            velocityEndsAt = nil
            lastRead = nil
            pendingSample = nil
            previousSample = nil
            deadReckoned = nil
            controls = UVCControls()
            controls.isDigitalByModel = configuration.isDigital
            capability = nil
            info = nil
            useLegacyQuery = false
            state = .handshaking
            return transmit(
                .capability,
                V4L2Frame.Request(
                    request: V4L2Request.queryCapability,
                    bytes: [UInt8](repeating: 0, count: V4L2Capability.size)), now: now)
        case .handshaking, .ready, .incompatible:
            preconditionFailure("transportOpened in state \(state)")
        }
    }

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
            outstanding = nil
            queuedMotion = nil
            queuedAbsolute = nil
            queuedZoom = nil
            stepped = nil
            velocityEndsAt = nil
            pendingSample = nil
            isTelemetryStalled = false
            return wasUp ? [.closeTransport, .emit(.disconnected)] : [.closeTransport]
        }
    }

    public mutating func deviceAppeared(now: Duration) -> [SessionAction] {
        switch state {
        case .disconnected:
            retry.reset()
            state = .connecting
            retry.attempting()
            return [.openTransport]
        case .connecting, .handshaking, .ready, .incompatible:
            return []
        }
    }

    public mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [SessionAction] {
        switch state {
        case .handshaking, .ready: break
        case .disconnected, .connecting, .incompatible: return []
        }
        let replies: [V4L2Frame.Reply]
        do {
            replies = try decoder.replies(bytes)
        } catch {
            badFrameCount += 1
            return []
        }
        var actions: [SessionAction] = []
        for reply in replies {
            guard let flight = outstanding, flight.request.request == reply.request else {
                badFrameCount += 1  // an answer to nothing asked
                continue
            }
            outstanding = nil
            if reply.errno == LinuxErrno.noDevice {
                return actions + transportClosed(now: now)  // unplugged: reopen when it is back
            }
            actions += replyReceived(reply, for: flight.purpose, now: now)
            guard state == .handshaking || isReady else { return actions }
        }
        return actions
    }

    public mutating func tick(now: Duration) -> [SessionAction] {
        switch state {
        case .disconnected:
            guard retry.takeIfDue(now: now) else { return [] }
            state = .connecting
            retry.attempting()
            return [.openTransport]
        case .connecting, .incompatible:
            return []
        case .handshaking, .ready:
            break
        }
        if let flight = outstanding, now - flight.sentAt >= configuration.replyTimeout {
            return transportClosed(now: now)  // the device stopped answering: as gone
        }
        guard isReady else { return [] }
        var actions: [SessionAction] = []
        if let ends = velocityEndsAt, now >= ends {
            // The time-to-live UVC cannot keep: the host keeps it.
            velocityEndsAt = nil
            actions += halt(sequence: nil, type: .stop, now: now)
        }
        if stepped != nil, now >= nextStepAt { stepAbsolute(now: now) }
        if let pending = pendingSample, now >= pending.time {
            pendingSample = nil
            record(yaw: pending.yaw, pitch: pending.pitch, at: pending.time, now: now)
        }
        if !hasReadablePose { deadReckon(now: now) }
        if hasReadablePose, now - lastPoseAt > configuration.poseStallTimeout, !isTelemetryStalled {
            isTelemetryStalled = true
            actions.append(.emit(.telemetryStalled))
        }
        return actions + sendNext(now: now)
    }

    public mutating func send(_ message: Message, now: Duration) -> [SessionAction] {
        guard isReady else { return [] }
        let sequence = nextSequence
        nextSequence &+= 1
        lastSentSequence = sequence
        switch message {
        case .setVelocity(let velocity):
            let yaw = velocity.yawRate.radiansPerSecond * 180 / .pi, pitch = velocity.pitchRate.radiansPerSecond * 180 / .pi
            let moving = yaw != 0 || pitch != 0
            velocityEndsAt = moving ? now + velocity.timeToLive : nil
            switch controls.velocity {
            case .speedControls:
                let wanted = speedValues(yaw: yaw, pitch: pitch)
                if wanted == speeds, queuedMotion == nil {
                    return [.emit(.acknowledged(acknowledgement(sequence, .setVelocity)))] + sendNext(now: now)
                }
                queueSpeeds(wanted, sequence: sequence, type: .setVelocity)
            case .steppedAbsolute:
                if moving {
                    if stepped == nil {
                        steppedTarget = startingTarget()
                        lastStepAt = now
                    } else {
                        advanceStepped(to: now)  // the old rate up to now, the new one from here
                    }
                    stepped = (yaw, pitch)
                    stepAbsolute(now: now)
                } else {
                    stepped = nil
                }
                return [.emit(.acknowledged(acknowledgement(sequence, .setVelocity)))] + sendNext(now: now)
            case .none:
                return refuse(sequence, .setVelocity, reason: .unknownMessage)
            }
        case .moveTo(let move):
            guard controls.panAbsolute != nil || controls.tiltAbsolute != nil else {
                return refuse(sequence, .moveTo, reason: .unknownMessage)
            }
            velocityEndsAt = nil
            stepped = nil
            if speeds != (0, 0) { queueSpeeds((0, 0), sequence: nil, type: .stop) }
            let target = (pan: move.yaw.radians * 180 / .pi * 3600, tilt: move.pitch.radians * 180 / .pi * 3600)
            steppedTarget = target
            queuedAbsolute = absoluteRequest(target, purpose: .absolute(sequence: sequence, type: .moveTo))
        case .stop:
            velocityEndsAt = nil
            return halt(sequence: sequence, type: .stop, now: now)
        case .heartbeat, .setIndicator, .hello:
            // Nothing to keep alive, no indicator: nothing goes to the camera.
            return [.emit(.acknowledged(acknowledgement(sequence, message.type)))]
        case .info, .ack, .nack, .telemetry, .event, .fault:
            preconditionFailure("the host sent an accessory's message: \(message)")
        }
        return sendNext(now: now)
    }

    // MARK: Motion

    private var isReady: Bool {
        if case .ready = state { return true }
        return false
    }

    private var hasReadablePose: Bool { controls.panAbsolute != nil || controls.tiltAbsolute != nil }

    /// Stops: both speeds 0 (always written, even when they already are: a stop must reach the
    /// camera), a stepped velocity ended where its target is.
    private mutating func halt(sequence: UInt16?, type: MessageType, now: Duration) -> [SessionAction] {
        stepped = nil
        switch controls.velocity {
        case .speedControls:
            queueSpeeds((0, 0), sequence: sequence, type: type)
            return sendNext(now: now)
        case .steppedAbsolute, .none:
            return (sequence.map { [.emit(.acknowledged(acknowledgement($0, type)))] } ?? []) + sendNext(now: now)
        }
    }

    private func speedValues(yaw: Double, pitch: Double) -> (pan: Int32, tilt: Int32) {
        let unit = configuration.degreesPerSecondPerSpeedUnit
        return (
            controls.panSpeed.map { UVCControls.speedValue(degreesPerSecond: yaw, unitDegreesPerSecond: unit, control: $0) } ?? 0,
            controls.tiltSpeed.map { UVCControls.speedValue(degreesPerSecond: pitch, unitDegreesPerSecond: unit, control: $0) } ?? 0
        )
    }

    private mutating func queueSpeeds(_ wanted: (pan: Int32, tilt: Int32), sequence: UInt16?, type: MessageType) {
        speeds = wanted
        var list: [(id: UInt32, value: Int32)] = []
        if controls.panSpeed != nil { list.append((V4L2ControlID.panSpeed, wanted.pan)) }
        if controls.tiltSpeed != nil { list.append((V4L2ControlID.tiltSpeed, wanted.tilt)) }
        queuedMotion = (
            .speeds(sequence: sequence, type: type),
            V4L2Frame.Request(request: V4L2Request.setExtendedControls, bytes: V4L2ExtendedControls.encode(list))
        )
    }

    /// Pan and tilt absolute in one `S_EXT_CTRLS`, each within its range (narrowed by the
    /// settings) and on its step grid.
    private mutating func absoluteRequest(_ target: (pan: Double, tilt: Double), purpose: Purpose)
        -> (purpose: Purpose, request: V4L2Frame.Request)
    {
        var list: [(id: UInt32, value: Int32)] = []
        var written = lastWrittenAbsolute ?? lastRead ?? (0, 0)
        if let pan = controls.panAbsolute {
            written.pan = UVCControls.absoluteValue(arcSeconds: narrowed(target.pan, configuration.yawDegrees), control: pan)
            list.append((pan.id, written.pan))
        }
        if let tilt = controls.tiltAbsolute {
            written.tilt = UVCControls.absoluteValue(arcSeconds: narrowed(target.tilt, configuration.pitchDegrees), control: tilt)
            list.append((tilt.id, written.tilt))
        }
        lastWrittenAbsolute = written
        return (purpose, V4L2Frame.Request(request: V4L2Request.setExtendedControls, bytes: V4L2ExtendedControls.encode(list)))
    }

    private func narrowed(_ arcSeconds: Double, _ degrees: ClosedRange<Double>?) -> Double {
        guard let degrees else { return arcSeconds }
        return min(max(arcSeconds, degrees.lowerBound * 3600), degrees.upperBound * 3600)
    }

    private func startingTarget() -> (pan: Double, tilt: Double) {
        if let written = lastWrittenAbsolute { return (Double(written.pan), Double(written.tilt)) }
        if let read = lastRead { return (Double(read.pan), Double(read.tilt)) }
        return (0, 0)
    }

    /// The rate of a stepped velocity, capped at what the motors follow, arc-seconds per second.
    private var steppedRate: (pan: Double, tilt: Double) {
        guard let rate = stepped else { return (0, 0) }
        let cap = configuration.absoluteDegreesPerSecond
        func clampRate(_ r: Double) -> Double { min(max(r, -cap), cap) * 3600 }
        return (clampRate(rate.yaw), clampRate(rate.pitch))
    }

    private func bounded(_ target: (pan: Double, tilt: Double)) -> (pan: Double, tilt: Double) {
        func bound(_ value: Double, _ control: V4L2ControlDescription?) -> Double {
            guard let control else { return value }
            return min(max(value, Double(control.minimum)), Double(control.maximum))
        }
        return (bound(target.pan, controls.panAbsolute), bound(target.tilt, controls.tiltAbsolute))
    }

    /// Moves the commanded motion on to `now` at the stepped rate: the time that passed, not a
    /// step per call, so a tracker's thirty velocities a second move it no faster than one.
    private mutating func advanceStepped(to now: Duration) {
        let rate = steppedRate, seconds = (now - lastStepAt).secondsValue
        lastStepAt = now
        steppedTarget = bounded((steppedTarget.pan + rate.pan * seconds, steppedTarget.tilt + rate.tilt * seconds))
    }

    /// A stepped velocity's next target: the commanded motion, added up unsnapped so slow rates
    /// still advance, one `stepInterval` ahead (so the motors never wait for the next write);
    /// written when the snapped target moves.
    private mutating func stepAbsolute(now: Duration) {
        guard stepped != nil else { return }
        advanceStepped(to: now)
        let rate = steppedRate, lead = configuration.stepInterval.secondsValue
        let target = bounded((steppedTarget.pan + rate.pan * lead, steppedTarget.tilt + rate.tilt * lead))
        nextStepAt = now + configuration.stepInterval
        let before = lastWrittenAbsolute
        let request = absoluteRequest(target, purpose: .absolute(sequence: nil, type: .setVelocity))
        if let before, let after = lastWrittenAbsolute, before == after { return }
        queuedAbsolute = request
    }

    private mutating func refuse(_ sequence: UInt16, _ type: MessageType, reason: Refusal.Reason, detail: UInt16 = 0)
        -> [SessionAction]
    {
        refusalCount += 1
        lastRefusedType = type
        return [.emit(.refused(Refusal(sequence: sequence, refusedTypeCode: type.rawValue, reason: reason, detail: detail)))]
    }

    private func acknowledgement(_ sequence: UInt16, _ type: MessageType) -> Acknowledgement {
        Acknowledgement(sequence: sequence, acknowledgedType: type, accessoryTime: AccessoryTimestamp(microseconds: 0))
    }

    // MARK: The line

    /// Puts what is due on the line when nothing is out: a stop of the speeds or a velocity
    /// first, then an absolute target, then a pose read.
    private mutating func sendNext(now: Duration) -> [SessionAction] {
        guard isReady, outstanding == nil else { return [] }
        if let motion = queuedMotion {
            queuedMotion = nil
            return transmit(motion.purpose, motion.request, now: now)
        }
        if let absolute = queuedAbsolute {
            queuedAbsolute = nil
            return transmit(absolute.purpose, absolute.request, now: now)
        }
        if let zoom = queuedZoom {
            queuedZoom = nil
            return transmit(.zoom, zoom, now: now)
        }
        if hasReadablePose, now >= nextPollAt {
            nextPollAt = now + configuration.pollInterval
            return transmit(.poll, poseRequest(), now: now)
        }
        return []
    }

    private func poseRequest() -> V4L2Frame.Request {
        let list = [controls.panAbsolute, controls.tiltAbsolute].compactMap(\.self).map { (id: $0.id, value: Int32(0)) }
        return V4L2Frame.Request(request: V4L2Request.getExtendedControls, bytes: V4L2ExtendedControls.encode(list))
    }

    private mutating func transmit(_ purpose: Purpose, _ request: V4L2Frame.Request, now: Duration) -> [SessionAction] {
        outstanding = Outstanding(purpose: purpose, request: request, sentAt: now)
        return [.write(request.encode())]
    }

    // MARK: Replies

    private mutating func replyReceived(_ reply: V4L2Frame.Reply, for purpose: Purpose, now: Duration) -> [SessionAction] {
        switch purpose {
        case .capability:
            guard reply.errno == 0, let capability = try? V4L2Capability(bytes: reply.bytes) else {
                return handshakeFailed(now: now)  // not a V4L2 device
            }
            self.capability = capability
            queries = V4L2ControlID.ptzControls
            return nextQuery(now: now)
        case .query(let id, let legacy):
            switch reply.errno {
            case 0:
                let decoded = legacy ? try? V4L2QueryControl.decode(reply.bytes) : try? V4L2QueryExtendedControl.decode(reply.bytes)
                if let control = decoded, control.id == id, !control.flags.contains(.disabled) { controls.found[id] = control }
            case LinuxErrno.notTTY where !legacy:
                useLegacyQuery = true  // an old driver: the 32-bit query, this control again
                queries.insert(id, at: 0)
            case LinuxErrno.io:
                controls.failing.insert(id)  // firmware that does not answer it: do without
            default:
                break  // EINVAL: not there
            }
            return nextQuery(now: now)
        case .handshakeStop:
            return readFirstPose(now: now)
        case .handshakePose:
            if reply.errno == 0 { poseRead(reply, now: now) } else { failedReads += 1 }
            return attach(now: now)
        case .poll:
            guard reply.errno == 0 else {
                failedReads += 1
                return sendNext(now: now)
            }
            return poseRead(reply, now: now) + sendNext(now: now)
        case .speeds(let sequence, let type), .absolute(let sequence, let type):
            guard reply.errno == 0 else {
                if case .speeds = purpose { speeds = (0, 0) }  // not known to move: a later stop is written anyway
                if case .absolute = purpose { lastWrittenAbsolute = nil }
                guard let sequence else { return sendNext(now: now) }
                let reason: Refusal.Reason = reply.errno == LinuxErrno.range || reply.errno == LinuxErrno.invalid ? .outOfRange : .faulted
                return refuse(sequence, type, reason: reason, detail: UInt16(clamping: reply.errno)) + sendNext(now: now)
            }
            return (sequence.map { [.emit(.acknowledged(acknowledgement($0, type)))] } ?? []) + sendNext(now: now)
        case .zoom:
            if reply.errno != 0 { failedZoomWrites += 1 }
            return sendNext(now: now)
        }
    }

    /// Zooms through `ZOOM_ABSOLUTE`: its minimum plus `fraction` of its range, snapped to its
    /// step, in one `S_EXT_CTRLS`; the caller is answered at once with the fraction that makes
    /// (a write the camera then fails is counted in `failedZoomWrites`). Nil without an
    /// absolute zoom (a camera with `ZOOM_CONTINUOUS` only, or none) or out of session.
    public mutating func setZoom(_ fraction: Double, now: Duration) -> (actions: [SessionAction], fraction: Double)? {
        guard isReady, let zoom = controls.zoomAbsolute, fraction.isFinite else { return nil }
        let low = Double(zoom.minimum), span = Double(zoom.maximum) - Double(zoom.minimum)
        let value = UVCControls.absoluteValue(arcSeconds: low + min(max(fraction, 0), 1) * span, control: zoom)
        queuedZoom = V4L2Frame.Request(
            request: V4L2Request.setExtendedControls,
            bytes: V4L2ExtendedControls.encode([(zoom.id, value)]))
        return (sendNext(now: now), span > 0 ? (Double(value) - low) / span : 0)
    }

    private mutating func nextQuery(now: Duration) -> [SessionAction] {
        guard !queries.isEmpty else { return afterEnumeration(now: now) }
        let id = queries.removeFirst()
        if useLegacyQuery {
            return transmit(
                .query(id, legacy: true),
                V4L2Frame.Request(
                    request: V4L2Request.queryControl,
                    bytes: V4L2QueryControl.request(id: id)), now: now)
        }
        return transmit(
            .query(id, legacy: false),
            V4L2Frame.Request(
                request: V4L2Request.queryExtendedControl,
                bytes: V4L2QueryExtendedControl.request(id: id)), now: now)
    }

    /// The controls are known: a camera with no pan or tilt is not ours; one with speed
    /// controls is told 0 (a host before us may have left it moving — UVC has no failsafe).
    private mutating func afterEnumeration(now: Duration) -> [SessionAction] {
        guard controls.panTilt != .none else { return handshakeFailed(now: now) }
        guard controls.velocity == .speedControls else { return readFirstPose(now: now) }
        speeds = (0, 0)
        var list: [(id: UInt32, value: Int32)] = []
        if controls.panSpeed != nil { list.append((V4L2ControlID.panSpeed, 0)) }
        if controls.tiltSpeed != nil { list.append((V4L2ControlID.tiltSpeed, 0)) }
        return transmit(
            .handshakeStop,
            V4L2Frame.Request(
                request: V4L2Request.setExtendedControls,
                bytes: V4L2ExtendedControls.encode(list)), now: now)
    }

    private mutating func readFirstPose(now: Duration) -> [SessionAction] {
        guard hasReadablePose else { return attach(now: now) }
        return transmit(.handshakePose, poseRequest(), now: now)
    }

    @discardableResult
    private mutating func poseRead(_ reply: V4L2Frame.Reply, now: Duration) -> [SessionAction] {
        guard let decoded = try? V4L2ExtendedControls.decode(reply.bytes) else {
            badFrameCount += 1
            return []
        }
        var read = lastRead ?? (0, 0)
        for control in decoded.controls {
            if control.id == V4L2ControlID.panAbsolute { read.pan = control.value }
            if control.id == V4L2ControlID.tiltAbsolute { read.tilt = control.value }
        }
        let yaw = Double(read.pan) / 3600 * .pi / 180, pitch = Double(read.tilt) / 3600 * .pi / 180
        let changed = lastRead.map { $0 != read } ?? true
        let previous = lastRead
        lastRead = read
        lastPoseAt = now
        if configuration.readBackIsTarget, changed, let previous, configuration.motionLag > .zero {
            // The camera answers its target: it is still where it was, and there `motionLag` on.
            let oldYaw = Double(previous.pan) / 3600 * .pi / 180, oldPitch = Double(previous.tilt) / 3600 * .pi / 180
            record(yaw: oldYaw, pitch: oldPitch, at: now, now: now)
            pendingSample = (now + configuration.motionLag, yaw, pitch)
        } else if pendingSample == nil {
            record(yaw: yaw, pitch: pitch, at: now, now: now)
        }
        if isTelemetryStalled {
            isTelemetryStalled = false
            return [.emit(.telemetryResumed)]
        }
        return []
    }

    private mutating func record(yaw: Double, pitch: Double, at time: Duration, now: Duration) {
        var yawRate = 0.0, pitchRate = 0.0
        if let previous = previousSample, time > previous.time {
            let span = (time - previous.time).secondsValue
            yawRate = (yaw - previous.yaw) / span
            pitchRate = (pitch - previous.pitch) / span
        }
        previousSample = (time, yaw, pitch)
        poses.record(
            Pose(yawRadians: yaw, pitchRadians: pitch, yawRadiansPerSecond: yawRate, pitchRadiansPerSecond: pitchRate),
            at: min(time, now))
    }

    /// A camera with speed controls only: the pose is the speeds told, added up.
    private mutating func deadReckon(now: Duration) {
        let unit = configuration.degreesPerSecondPerSpeedUnit * .pi / 180
        let yawRate = Double(speeds.pan) * unit, pitchRate = Double(speeds.tilt) * unit
        var state = deadReckoned ?? (now, 0, 0)
        let span = (now - state.time).secondsValue
        state = (now, state.yaw + yawRate * span, state.pitch + pitchRate * span)
        deadReckoned = state
        poses.record(
            Pose(yawRadians: state.yaw, pitchRadians: state.pitch, yawRadiansPerSecond: yawRate, pitchRadiansPerSecond: pitchRate),
            at: now)
    }

    private mutating func handshakeFailed(now: Duration) -> [SessionAction] {
        transportClosed(now: now).filter { $0 != .emit(.disconnected) } + [.emit(.handshakeFailed)]
    }

    private mutating func attach(now: Duration) -> [SessionAction] {
        let degree = Double.pi / 180
        func range(_ control: V4L2ControlDescription?, _ narrowing: ClosedRange<Double>?) -> (Double, Double) {
            var low = control.map { Double($0.minimum) / 3600 } ?? -180, high = control.map { Double($0.maximum) / 3600 } ?? 180
            if let narrowing {
                low = max(low, narrowing.lowerBound)
                high = min(high, narrowing.upperBound)
            }
            return (min(low, 0), max(high, 0))
        }
        let speed: Double
        switch controls.velocity {
        case .speedControls:
            let limit =
                [controls.panSpeed, controls.tiltSpeed].compactMap(\.self).map { Double(UVCControls.speedMagnitudeLimit($0)) }.max() ?? 1
            speed = limit * configuration.degreesPerSecondPerSpeedUnit
        case .steppedAbsolute, .none:
            speed = configuration.absoluteDegreesPerSecond
        }
        func limits(_ bounds: (Double, Double)) -> AxisLimits {
            AxisLimits(
                minimum: Angle(radians: bounds.0 * degree) ?? Angle(microradians: 0),
                maximum: Angle(radians: bounds.1 * degree) ?? Angle(microradians: 0),
                maximumSpeed: AngularRate(radiansPerSecond: max(speed, 0.1) * degree) ?? AngularRate(microradiansPerSecond: 1),
                maximumAcceleration: AngularAcceleration(
                    microradiansPerSecondSquared: UInt32(configuration.accelerationRadiansPerSecondSquared * 1e6)))
        }
        let card = capability?.card ?? "UVC camera"
        let attached = AccessoryInfo(
            protocolVersion: 0, features: controls.hasZoom ? [.zoomControl] : [],
            telemetryRateHertz: UInt8(clamping: Int(1 / max(configuration.pollInterval.secondsValue, 0.005))),
            failsafeTimeout: .zero,
            yaw: limits(range(controls.panAbsolute, configuration.yawDegrees)),
            pitch: limits(range(controls.tiltAbsolute, configuration.pitchDegrees)),
            model: String((configuration.displayName.isEmpty ? card : configuration.displayName).prefix(32)),
            firmwareVersion: String("\(capability?.driver ?? "v4l2") \(capability?.versionText ?? "")".prefix(32)),
            serialNumber: String((configuration.identifier.isEmpty ? (capability?.busInfo ?? card) : configuration.identifier).prefix(32)))
        info = attached
        state = .ready(isDocked: true)
        retry.reset()
        nextPollAt = now + configuration.pollInterval
        lastPoseAt = now
        return [.emit(.attached(attached, isDocked: true))]
    }
}
