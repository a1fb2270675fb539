import DockNumbers
import DockProtocol
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
        /// How long the zoom takes from one end of its range to the other (the model's
        /// `zoomFullTravel`); zero: it jumps (a digital zoom).
        public var zoomFullTravel: Duration = .zero
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
        /// How many times the picture is magnified at a fraction of the zoom's range (the
        /// model's `zoomMagnification`); empty: not known.
        public var zoomMagnification: [UVCCameraModel.ZoomPoint] = []

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
            zoomFullTravel = model.zoomFullTravel
            zoomMagnification = model.zoomMagnification
        }
    }

    /// What a request out on the line is for.
    enum Purpose: Hashable, Sendable {
        case capability
        case query(UInt32, legacy: Bool)
        case handshakeStop
        case handshakePose
        case poll
        /// A write of the speeds: the host's command `id`, or (nil) the session's own.
        case speeds(id: CommandID?, kind: AccessoryCommand.Kind)
        /// A write of the absolute targets.
        case absolute(id: CommandID?, kind: AccessoryCommand.Kind)
        /// A write of the zoom, to this fraction of its range.
        case zoom(id: CommandID, fraction: Double)
    }

    struct Outstanding: Hashable, Sendable {
        var purpose: Purpose
        var request: V4L2Frame.Request
        var sentAt: Duration
    }

    /// What one open device holds: replaced whole when it closes.
    struct Connection {
        var decoder = V4L2Frame.Decoder.replies()
        var outstanding: Outstanding?
        /// Queries still to make during the handshake.
        var queries: [UInt32] = []
        var useLegacyQuery = false
        /// The motion request waiting for the line (a newer one replaces it), and a stop of the
        /// speeds that must go before an absolute move.
        var queuedMotion: (purpose: Purpose, request: V4L2Frame.Request)?
        var queuedAbsolute: (purpose: Purpose, request: V4L2Frame.Request)?
        /// A `ZOOM_ABSOLUTE` write waiting for the line (a newer one replaces it).
        var queuedZoom: (id: CommandID, fraction: Double, request: V4L2Frame.Request)?
        /// Where the zoom is, as a fraction of its range: as the camera last answered it, read
        /// with the pose (or, where it cannot be read, as last written); nil before either. For
        /// a camera that reads back its target with a zoom that travels, the target.
        var zoomFraction: Double?
        /// A zoom on its way, for a camera that reads back its target and whose zoom travels at
        /// `zoomFullTravel`: from where it was, when the write was taken (`zoomAt(_:)`).
        var zoomRamp: (from: Double, to: Double, start: Duration)?
        /// Reading `zoom_absolute` with the pose failed once: the pose is read without it.
        var zoomIsUnreadable = false
        /// The speeds the camera was last told (0, 0 when still).
        var speeds: (pan: Int32, tilt: Int32) = (0, 0)
        /// A velocity stepped through absolute targets: degrees per second, and where the
        /// commanded motion has got to (unsnapped arc-seconds) by `lastStepAt`.
        var stepped: (yaw: Double, pitch: Double)?
        var steppedTarget: (pan: Double, tilt: Double) = (0, 0)
        var lastStepAt: Duration = .zero
        var lastWrittenAbsolute: (pan: Int32, tilt: Int32)?
        var nextStepAt: Duration = .zero
        var velocityEndsAt: Duration?
        var nextPollAt: Duration = .zero
        var lastPoseAt: Duration = .zero
        var lastRead: (pan: Int32, tilt: Int32)?
        /// A read-back target the camera reaches later: recorded when due.
        var pendingSample: (time: Duration, yaw: Double, pitch: Double)?
        var previousSample: (time: Duration, yaw: Double, pitch: Double)?
        var deadReckoned: (time: Duration, yaw: Double, pitch: Double)?
        /// Recent poses on the host's clock.
        var poses = PoseHistory()
    }

    /// The settings.
    public let configuration: Configuration
    /// Where the session is, what the camera said it is, the backoff and the counters.
    public private(set) var lifecycle: LinkLifecycle
    /// The controls found and how they are classified (kept while disconnected, as `info` is).
    public private(set) var controls = UVCControls()
    /// What `QUERYCAP` said (kept while disconnected).
    public private(set) var capability: V4L2Capability?
    /// Pose reads that failed (`EIO` and the like) without the camera being gone.
    public private(set) var failedReads = 0
    /// Recent poses on the host's clock.
    public var poses: PoseHistory { connection.poses }

    private var connection = Connection()
    private var nextSequence: UInt16 = 0

    /// Creates a session that has not started.
    public init(configuration: Configuration) {
        self.configuration = configuration
        lifecycle = LinkLifecycle(initialBackoff: configuration.initialBackoff, maximumBackoff: configuration.maximumBackoff)
    }

    public var accessoryProtocol: AccessoryProtocol { .uvc }

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
        if let outstanding = connection.outstanding { deadlines.append(outstanding.sentAt + configuration.replyTimeout) }
        if isReady {
            if let velocityEndsAt = connection.velocityEndsAt { deadlines.append(velocityEndsAt) }
            if connection.stepped != nil { deadlines.append(connection.nextStepAt) }
            if connection.outstanding == nil, hasReadablePose { deadlines.append(connection.nextPollAt) }
            if let pendingSample = connection.pendingSample { deadlines.append(pendingSample.time) }
        }
        return deadlines.min()
    }

    public func pose(at time: Duration) -> Pose? { connection.poses.pose(at: time, horizon: configuration.poseHorizon) }

    public func poseAge(at now: Duration) -> Duration? { connection.poses.latest.map { now - $0.time } }

    // MARK: Events from the shell

    public mutating func start(now: Duration) -> [SessionAction] { lifecycle.start() }

    public mutating func transportOpened(now: Duration) -> [SessionAction] {
        lifecycle.transportOpened()
        controls = UVCControls()
        controls.isDigitalByModel = configuration.isDigital
        capability = nil
        return transmit(
            .capability,
            V4L2Frame.Request(
                request: V4L2Request.queryCapability,
                bytes: [UInt8](repeating: 0, count: V4L2Capability.size)), now: now)
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
        let replies: [V4L2Frame.Reply]
        do {
            replies = try connection.decoder.replies(bytes)
        } catch {
            lifecycle.countBadFrame()
            return []
        }
        var actions: [SessionAction] = []
        for reply in replies {
            guard let flight = connection.outstanding, flight.request.request == reply.request else {
                lifecycle.countBadFrame()  // an answer to nothing asked
                continue
            }
            connection.outstanding = nil
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
            return lifecycle.reconnectIfDue(now: now)
        case .connecting, .incompatible:
            return []
        case .handshaking, .ready:
            break
        }
        if let flight = connection.outstanding, now - flight.sentAt >= configuration.replyTimeout {
            return transportClosed(now: now)  // the device stopped answering: as gone
        }
        guard isReady else { return [] }
        var actions: [SessionAction] = []
        if let ends = connection.velocityEndsAt, now >= ends {
            // The time-to-live UVC cannot keep: the host keeps it.
            connection.velocityEndsAt = nil
            actions += halt(id: nil, now: now)
        }
        if connection.stepped != nil, now >= connection.nextStepAt { stepAbsolute(now: now) }
        if let pending = connection.pendingSample, now >= pending.time {
            connection.pendingSample = nil
            record(yaw: pending.yaw, pitch: pending.pitch, at: pending.time, now: now)
        }
        if !hasReadablePose { deadReckon(now: now) }
        if hasReadablePose, now - connection.lastPoseAt > configuration.poseStallTimeout { actions += lifecycle.telemetryStalled() }
        return actions + sendNext(now: now)
    }

    /// Queues the controls' writes for the command (a newer motion replaces one still waiting);
    /// what needs no write — the speeds already in force, a velocity stepped through absolute
    /// targets, a stop without speed controls — is in force at once. What the camera has no
    /// control for, an indicator and presets are refused at once.
    public mutating func send(_ command: AccessoryCommand, now: Duration) -> SentCommand {
        guard isReady else { return .dropped }
        let id = CommandID(nextSequence)
        nextSequence &+= 1
        switch command {
        case .velocity(let yawRate, let pitchRate, let timeToLive):
            let yaw = yawRate * 180 / .pi, pitch = pitchRate * 180 / .pi
            let moving = yaw != 0 || pitch != 0
            connection.velocityEndsAt = moving ? now + timeToLive : nil
            switch controls.velocity {
            case .speedControls:
                let wanted = speedValues(yaw: yaw, pitch: pitch)
                if wanted == connection.speeds, connection.queuedMotion == nil {
                    return SentCommand(id: id, actions: [.emit(.answered(id, .accepted))] + sendNext(now: now))
                }
                queueSpeeds(wanted, id: id, kind: .velocity)
            case .steppedAbsolute:
                if moving {
                    if connection.stepped == nil {
                        connection.steppedTarget = startingTarget()
                        connection.lastStepAt = now
                    } else {
                        advanceStepped(to: now)  // the old rate up to now, the new one from here
                    }
                    connection.stepped = (yaw, pitch)
                    stepAbsolute(now: now)
                } else {
                    connection.stepped = nil
                }
                return SentCommand(id: id, actions: [.emit(.answered(id, .accepted))] + sendNext(now: now))
            case .none:
                return SentCommand(id: id, actions: refuse(id, .velocity, reason: .unsupported))
            }
        case .move(let yaw, let pitch, _):
            guard controls.panAbsolute != nil || controls.tiltAbsolute != nil else {
                return SentCommand(id: id, actions: refuse(id, .move, reason: .unsupported))
            }
            connection.velocityEndsAt = nil
            connection.stepped = nil
            if connection.speeds != (0, 0) { queueSpeeds((0, 0), id: nil, kind: .stop) }
            let target = (pan: yaw * 180 / .pi * 3600, tilt: pitch * 180 / .pi * 3600)
            connection.steppedTarget = target
            connection.queuedAbsolute = absoluteRequest(target, purpose: .absolute(id: id, kind: .move))
        case .stop:
            connection.velocityEndsAt = nil
            return SentCommand(id: id, actions: halt(id: id, now: now))
        case .zoom(let fraction):
            guard let zoom = controls.zoomAbsolute else { return SentCommand(id: id, actions: refuse(id, .zoom, reason: .unsupported)) }
            guard fraction.isFinite else { return SentCommand(id: id, actions: refuse(id, .zoom, reason: .outOfRange)) }
            let value = zoomValue(fraction, zoom)
            let span = Double(zoom.maximum) - Double(zoom.minimum)
            connection.queuedZoom = (
                id, span > 0 ? (Double(value) - Double(zoom.minimum)) / span : 0,
                V4L2Frame.Request(
                    request: V4L2Request.setExtendedControls,
                    bytes: V4L2ExtendedControls.encode([(zoom.id, value)]))
            )
        case .indicator, .recallPreset, .storePreset:
            return SentCommand(id: id, actions: refuse(id, command.kind, reason: .unsupported))
        }
        return SentCommand(id: id, actions: sendNext(now: now))
    }

    /// `ZOOM_ABSOLUTE`'s minimum plus `fraction` (clamped to 0…1) of its range, snapped to its
    /// step, as a fraction of the range again; nil without an absolute zoom (a camera with
    /// `ZOOM_CONTINUOUS` only, or none), out of session, or for a fraction that is not finite.
    public func zoomFraction(nearest fraction: Double) -> Double? {
        guard isReady, let zoom = controls.zoomAbsolute, fraction.isFinite else { return nil }
        let low = Double(zoom.minimum), span = Double(zoom.maximum) - Double(zoom.minimum)
        return span > 0 ? (Double(zoomValue(fraction, zoom)) - low) / span : 0
    }

    private func zoomValue(_ fraction: Double, _ zoom: V4L2ControlDescription) -> Int32 {
        let low = Double(zoom.minimum), span = Double(zoom.maximum) - Double(zoom.minimum)
        return UVCControls.absoluteValue(arcSeconds: low + min(max(fraction, 0), 1) * span, control: zoom)
    }

    // MARK: Motion

    private var isReady: Bool { lifecycle.isReady }

    private var hasReadablePose: Bool { controls.panAbsolute != nil || controls.tiltAbsolute != nil }

    /// Stops: both speeds 0 (always written, even when they already are: a stop must reach the
    /// camera), a stepped velocity ended where its target is.
    private mutating func halt(id: CommandID?, now: Duration) -> [SessionAction] {
        connection.stepped = nil
        switch controls.velocity {
        case .speedControls:
            queueSpeeds((0, 0), id: id, kind: .stop)
            return sendNext(now: now)
        case .steppedAbsolute, .none:
            return (id.map { [.emit(.answered($0, .accepted))] } ?? []) + sendNext(now: now)
        }
    }

    private func speedValues(yaw: Double, pitch: Double) -> (pan: Int32, tilt: Int32) {
        let unit = configuration.degreesPerSecondPerSpeedUnit
        return (
            controls.panSpeed.map { UVCControls.speedValue(degreesPerSecond: yaw, unitDegreesPerSecond: unit, control: $0) } ?? 0,
            controls.tiltSpeed.map { UVCControls.speedValue(degreesPerSecond: pitch, unitDegreesPerSecond: unit, control: $0) } ?? 0
        )
    }

    private mutating func queueSpeeds(_ wanted: (pan: Int32, tilt: Int32), id: CommandID?, kind: AccessoryCommand.Kind) {
        connection.speeds = wanted
        var list: [(id: UInt32, value: Int32)] = []
        if controls.panSpeed != nil { list.append((V4L2ControlID.panSpeed, wanted.pan)) }
        if controls.tiltSpeed != nil { list.append((V4L2ControlID.tiltSpeed, wanted.tilt)) }
        connection.queuedMotion = (
            .speeds(id: id, kind: kind),
            V4L2Frame.Request(request: V4L2Request.setExtendedControls, bytes: V4L2ExtendedControls.encode(list))
        )
    }

    /// Pan and tilt absolute in one `S_EXT_CTRLS`, each within its range (narrowed by the
    /// settings) and on its step grid.
    private mutating func absoluteRequest(_ target: (pan: Double, tilt: Double), purpose: Purpose)
        -> (purpose: Purpose, request: V4L2Frame.Request)
    {
        var list: [(id: UInt32, value: Int32)] = []
        var written = connection.lastWrittenAbsolute ?? connection.lastRead ?? (0, 0)
        if let pan = controls.panAbsolute {
            written.pan = UVCControls.absoluteValue(arcSeconds: narrowed(target.pan, configuration.yawDegrees), control: pan)
            list.append((pan.id, written.pan))
        }
        if let tilt = controls.tiltAbsolute {
            written.tilt = UVCControls.absoluteValue(arcSeconds: narrowed(target.tilt, configuration.pitchDegrees), control: tilt)
            list.append((tilt.id, written.tilt))
        }
        connection.lastWrittenAbsolute = written
        return (purpose, V4L2Frame.Request(request: V4L2Request.setExtendedControls, bytes: V4L2ExtendedControls.encode(list)))
    }

    private func narrowed(_ arcSeconds: Double, _ degrees: ClosedRange<Double>?) -> Double {
        guard let degrees else { return arcSeconds }
        return min(max(arcSeconds, degrees.lowerBound * 3600), degrees.upperBound * 3600)
    }

    private func startingTarget() -> (pan: Double, tilt: Double) {
        if let written = connection.lastWrittenAbsolute { return (Double(written.pan), Double(written.tilt)) }
        if let read = connection.lastRead { return (Double(read.pan), Double(read.tilt)) }
        return (0, 0)
    }

    /// The rate of a stepped velocity, capped at what the motors follow, arc-seconds per second.
    private var steppedRate: (pan: Double, tilt: Double) {
        guard let rate = connection.stepped else { return (0, 0) }
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
        let rate = steppedRate, seconds = (now - connection.lastStepAt).secondsValue
        connection.lastStepAt = now
        connection.steppedTarget = bounded(
            (connection.steppedTarget.pan + rate.pan * seconds, connection.steppedTarget.tilt + rate.tilt * seconds))
    }

    /// A stepped velocity's next target: the commanded motion, added up unsnapped so slow rates
    /// still advance, one `stepInterval` ahead (so the motors never wait for the next write);
    /// written when the snapped target moves.
    private mutating func stepAbsolute(now: Duration) {
        guard connection.stepped != nil else { return }
        advanceStepped(to: now)
        let rate = steppedRate, lead = configuration.stepInterval.secondsValue
        let target = bounded((connection.steppedTarget.pan + rate.pan * lead, connection.steppedTarget.tilt + rate.tilt * lead))
        connection.nextStepAt = now + configuration.stepInterval
        let before = connection.lastWrittenAbsolute
        let request = absoluteRequest(target, purpose: .absolute(id: nil, kind: .velocity))
        if let before, let after = connection.lastWrittenAbsolute, before == after { return }
        connection.queuedAbsolute = request
    }

    private mutating func refuse(
        _ id: CommandID, _ kind: AccessoryCommand.Kind, reason: CommandRefusal.Reason, detail: UInt16 = 0
    ) -> [SessionAction] {
        lifecycle.countRefusal()
        return [.emit(.answered(id, .refused(CommandRefusal(reason: reason, detail: detail, command: kind))))]
    }

    // MARK: The line

    /// Puts what is due on the line when nothing is out: a stop of the speeds or a velocity
    /// first, then an absolute target, then a pose read.
    private mutating func sendNext(now: Duration) -> [SessionAction] {
        guard isReady, connection.outstanding == nil else { return [] }
        if let motion = connection.queuedMotion {
            connection.queuedMotion = nil
            return transmit(motion.purpose, motion.request, now: now)
        }
        if let absolute = connection.queuedAbsolute {
            connection.queuedAbsolute = nil
            return transmit(absolute.purpose, absolute.request, now: now)
        }
        if let zoom = connection.queuedZoom {
            connection.queuedZoom = nil
            return transmit(.zoom(id: zoom.id, fraction: zoom.fraction), zoom.request, now: now)
        }
        if hasReadablePose, now >= connection.nextPollAt {
            connection.nextPollAt = now + configuration.pollInterval
            return transmit(.poll, poseRequest(), now: now)
        }
        return []
    }

    /// The pose read: pan and tilt, and the absolute zoom where the camera has one it answers.
    private func poseRequest() -> V4L2Frame.Request {
        let zoom = connection.zoomIsUnreadable ? nil : controls.zoomAbsolute
        let list = [controls.panAbsolute, controls.tiltAbsolute, zoom].compactMap(\.self).map { (id: $0.id, value: Int32(0)) }
        return V4L2Frame.Request(request: V4L2Request.getExtendedControls, bytes: V4L2ExtendedControls.encode(list))
    }

    private mutating func transmit(_ purpose: Purpose, _ request: V4L2Frame.Request, now: Duration) -> [SessionAction] {
        connection.outstanding = Outstanding(purpose: purpose, request: request, sentAt: now)
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
            connection.queries = V4L2ControlID.ptzControls
            return nextQuery(now: now)
        case .query(let id, let legacy):
            switch reply.errno {
            case 0:
                let decoded = legacy ? try? V4L2QueryControl.decode(reply.bytes) : try? V4L2QueryExtendedControl.decode(reply.bytes)
                if let control = decoded, control.id == id, !control.flags.contains(.disabled) { controls.found[id] = control }
            case LinuxErrno.notTTY where !legacy:
                connection.useLegacyQuery = true  // an old driver: the 32-bit query, this control again
                connection.queries.insert(id, at: 0)
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
                // A camera that cannot read its zoom with the pose: the pose is read without it.
                if controls.zoomAbsolute != nil, !connection.zoomIsUnreadable { connection.zoomIsUnreadable = true }
                return sendNext(now: now)
            }
            return poseRead(reply, now: now) + sendNext(now: now)
        case .speeds(let id, let kind), .absolute(let id, let kind):
            guard reply.errno == 0 else {
                if case .speeds = purpose { connection.speeds = (0, 0) }  // not known to move: a later stop is written anyway
                if case .absolute = purpose { connection.lastWrittenAbsolute = nil }
                guard let id else { return sendNext(now: now) }
                return refuse(id, kind, reason: Self.reason(errno: reply.errno), detail: UInt16(clamping: reply.errno)) + sendNext(now: now)
            }
            return (id.map { [.emit(.answered($0, .accepted))] } ?? []) + sendNext(now: now)
        case .zoom(let id, let fraction):
            guard reply.errno == 0 else {
                return refuse(id, .zoom, reason: Self.reason(errno: reply.errno), detail: UInt16(clamping: reply.errno))
                    + sendNext(now: now)
            }
            zoomTaken(fraction, now: now)
            // Read back at once: the history gets the camera's zoom, not only the one written.
            connection.nextPollAt = now
            return [.emit(.answered(id, .accepted))] + sendNext(now: now)
        }
    }

    /// A control write's errno as a refusal: a value the control does not take, or a fault.
    private static func reason(errno: Int32) -> CommandRefusal.Reason {
        errno == LinuxErrno.range || errno == LinuxErrno.invalid ? .outOfRange : .faulted
    }

    private mutating func nextQuery(now: Duration) -> [SessionAction] {
        guard !connection.queries.isEmpty else { return afterEnumeration(now: now) }
        let id = connection.queries.removeFirst()
        if connection.useLegacyQuery {
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
        connection.speeds = (0, 0)
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
            lifecycle.countBadFrame()
            return []
        }
        var read = connection.lastRead ?? (0, 0)
        for control in decoded.controls {
            if control.id == V4L2ControlID.panAbsolute { read.pan = control.value }
            if control.id == V4L2ControlID.tiltAbsolute { read.tilt = control.value }
            if control.id == V4L2ControlID.zoomAbsolute, let zoom = controls.zoomAbsolute, zoom.maximum > zoom.minimum {
                let fraction = (Double(control.value) - Double(zoom.minimum)) / (Double(zoom.maximum) - Double(zoom.minimum))
                zoomRead(min(max(fraction, 0), 1), now: now)
            }
        }
        let yaw = Double(read.pan) / 3600 * .pi / 180, pitch = Double(read.tilt) / 3600 * .pi / 180
        let changed = connection.lastRead.map { $0 != read } ?? true
        let previous = connection.lastRead
        connection.lastRead = read
        connection.lastPoseAt = now
        if configuration.readBackIsTarget, changed, let previous, configuration.motionLag > .zero {
            // The camera answers its target: it is still where it was, and there `motionLag` on.
            let oldYaw = Double(previous.pan) / 3600 * .pi / 180, oldPitch = Double(previous.tilt) / 3600 * .pi / 180
            record(yaw: oldYaw, pitch: oldPitch, at: now, now: now)
            connection.pendingSample = (now + configuration.motionLag, yaw, pitch)
        } else if connection.pendingSample == nil {
            record(yaw: yaw, pitch: pitch, at: now, now: now)
        }
        return lifecycle.telemetryArrived()
    }

    private mutating func record(yaw: Double, pitch: Double, at time: Duration, now: Duration) {
        var yawRate = 0.0, pitchRate = 0.0
        if let previous = connection.previousSample, time > previous.time {
            let span = (time - previous.time).secondsValue
            yawRate = (yaw - previous.yaw) / span
            pitchRate = (pitch - previous.pitch) / span
        }
        connection.previousSample = (time, yaw, pitch)
        connection.poses.record(
            Pose(
                yawRadians: yaw, pitchRadians: pitch, yawRadiansPerSecond: yawRate, pitchRadiansPerSecond: pitchRate,
                zoomFraction: zoomAt(min(time, now))),
            at: min(time, now))
    }

    /// The camera took a zoom. One whose zoom jumps (no `zoomFullTravel`: a digital zoom): from
    /// now on the pose samples carry it, and the history gets it as a step — the old zoom a
    /// microsecond before, the new one now — not as a ramp from the last sample. One whose zoom
    /// travels and that reads back its target: the zoom ramps from where it is now to the new one
    /// at `zoomFullTravel` for the whole range, each pose sample carrying where the ramp has got
    /// to. One whose zoom travels and that reads back where it is: as the reads say.
    private mutating func zoomTaken(_ fraction: Double, now: Duration) {
        guard configuration.zoomFullTravel > .zero else {
            connection.zoomFraction = fraction
            connection.poses.zoomStepped(to: fraction, at: now)
            return
        }
        guard configuration.readBackIsTarget else { return }
        startZoomRamp(to: fraction, now: now)
    }

    /// A zoom read with the pose: a camera that reads back its target, with a zoom that travels,
    /// answers where its zoom is going — a new target (set by the camera's own app too) starts a
    /// ramp there from where the zoom is now; any other camera answers where its zoom is.
    private mutating func zoomRead(_ fraction: Double, now: Duration) {
        guard configuration.readBackIsTarget, configuration.zoomFullTravel > .zero, connection.zoomFraction != nil else {
            connection.zoomFraction = fraction
            connection.zoomRamp = nil
            return
        }
        guard abs(fraction - (connection.zoomFraction ?? fraction)) > 1e-9 else { return }
        startZoomRamp(to: fraction, now: now)
    }

    private mutating func startZoomRamp(to fraction: Double, now: Duration) {
        let from = zoomAt(now) ?? fraction
        connection.zoomFraction = fraction
        connection.zoomRamp = abs(fraction - from) > 1e-9 ? (from, fraction, now) : nil
    }

    /// Where the zoom is at `time` (not before the last write), as a fraction of its range: on
    /// its ramp while one runs, else as last known.
    func zoomAt(_ time: Duration) -> Double? {
        guard let ramp = connection.zoomRamp else { return connection.zoomFraction }
        let travel = configuration.zoomFullTravel.secondsValue * abs(ramp.to - ramp.from)
        let progress = travel > 0 ? min(max((time - ramp.start).secondsValue / travel, 0), 1) : 1
        return ramp.from + (ramp.to - ramp.from) * progress
    }

    /// How many times the picture is magnified at `fraction` of the zoom's range (the model's
    /// table); nil when the model gives none.
    public func magnification(atZoomFraction fraction: Double) -> Double? {
        UVCCameraModel.magnification(fraction, in: configuration.zoomMagnification)
    }

    /// A camera with speed controls only: the pose is the speeds told, added up.
    private mutating func deadReckon(now: Duration) {
        let unit = configuration.degreesPerSecondPerSpeedUnit * .pi / 180
        let yawRate = Double(connection.speeds.pan) * unit, pitchRate = Double(connection.speeds.tilt) * unit
        var state = connection.deadReckoned ?? (now, 0, 0)
        let span = (now - state.time).secondsValue
        state = (now, state.yaw + yawRate * span, state.pitch + pitchRate * span)
        connection.deadReckoned = state
        connection.poses.record(
            Pose(
                yawRadians: state.yaw, pitchRadians: state.pitch, yawRadiansPerSecond: yawRate, pitchRadiansPerSecond: pitchRate,
                zoomFraction: zoomAt(now)),
            at: now)
    }

    private mutating func handshakeFailed(now: Duration) -> [SessionAction] {
        close(.handshakeFailed, now: now)
    }

    /// The device closes: its connection goes whole.
    private mutating func close(_ closing: LinkLifecycle.Closing, now: Duration) -> [SessionAction] {
        connection = Connection()
        return lifecycle.transportClosed(closing, now: now)
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
        connection.nextPollAt = now + configuration.pollInterval
        connection.lastPoseAt = now
        return lifecycle.attached(attached, isDocked: true)
    }
}
