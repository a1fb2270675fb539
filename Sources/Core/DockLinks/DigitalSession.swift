import DockNumbers
import DockProtocol
public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// A digital pan-tilt-zoom accessory (`Protocol/digital.md`): a crop window inside a fixed wide
/// camera's picture, behind the accessory contract, so that a webcam with no motors is framed as
/// a motorised one is:
///
///     disconnected → connecting → ready(docked), at once
///
/// There is no wire: the shell's port (`NoWireTransport`) opens at once and nothing is written to
/// it, the session is up as soon as it opens, and the link itself is the "motor". Its pose is the
/// crop's centre as angles of the fixed camera (`DigitalCrop`), moved on in the host's time from
/// the velocities and moves it is given, each axis ramped at the acceleration and capped at the
/// speed it advertises; its zoom is exact — magnification `1 + fraction × (maximum − 1)`, and the
/// crop `1 / magnification` of the picture — and goes there smoothly, the magnification changing
/// by at most `zoomFactorPerSecond` a second (a crop that snapped would show in the picture). The
/// crop never leaves the picture: the angles are held within the range the zoom leaves
/// (`DigitalCrop`), so a zoom out near an edge slides the crop inwards, and a velocity into an edge
/// stops there. The limits it advertises are those at the longest zoom (the widest the crop can
/// go); a move beyond them is refused as `out_of_range` at once, and one beyond the range of the
/// zoom asked for once the crop has gone as far as that zoom lets it (a zoom in sent after the move,
/// as a preset recalled sends it, lets it arrive).
///
/// Nothing moves when dockd stops, so there is no failsafe to keep; a velocity's time-to-live is
/// kept here exactly. The indicator and presets are refused as `unsupported`. The picture the
/// vision service sees does not turn with this pose (`AccessoryCapabilities.fixedPicture`).
public struct DigitalSession: AccessoryLink {
    /// Settings: the fixed camera's picture, the zoom's reach, the crop's speed.
    public struct Configuration: Hashable, Sendable {
        /// The fixed camera's horizontal field of view, degrees (0 to 180, exclusive).
        public var horizontalFieldOfViewDegrees = 78.0
        /// The fixed camera's picture, width over height.
        public var aspectRatio = 16.0 / 9.0
        /// The longest zoom, as a magnification above 1: where the crop, scaled to the output's
        /// size, would start to upscale (a 4K picture framed into 1080p: 2).
        public var maximumMagnification = 3.0
        /// The fastest the crop's centre turns, degrees per second, each axis.
        public var maximumDegreesPerSecond = 90.0
        /// How fast the crop's turning may change, rad/s², each axis (advertised, and kept).
        public var accelerationRadiansPerSecondSquared = 8.0
        /// How fast the zoom goes: the magnification changes by at most this factor a second
        /// (2: from 1× to 3× in 1.6 s).
        public var zoomFactorPerSecond = 2.0
        /// The zoom the crop starts at when the session comes up, 0 (the whole picture) to 1.
        public var initialZoomFraction = 0.0
        /// What names this accessory across restarts.
        public var identifier = "digital"
        /// The model's name for status.
        public var displayName = "Digital pan-tilt-zoom"
        /// The longest step the pose is moved on in, while it moves (finer steps: closer to the
        /// continuous ramps; the pose is exact at each step's end).
        public var integrationStep: Duration = .milliseconds(2)
        /// The first wait before reopening, should the port ever close; it doubles on each failure.
        public var initialBackoff: Duration = .milliseconds(250)
        /// The longest wait before reopening.
        public var maximumBackoff: Duration = .seconds(5)

        /// The defaults: a 78° 16:9 webcam, zoom up to 3×, 90°/s, 8 rad/s².
        public init() {}

        /// The picture's geometry.
        public var crop: DigitalCrop {
            DigitalCrop(horizontalFieldOfViewRadians: horizontalFieldOfViewDegrees * .pi / 180, aspectRatio: aspectRatio)
        }
    }

    /// What the crop does on one axis.
    enum Drive: Hashable, Sendable {
        /// Turns towards this rate, rad/s.
        case rate(Double)
        /// Goes to this angle at up to this speed, rad/s.
        case target(Double, speed: Double)
    }

    /// Where the crop is: its angles and rates at `time`, and what drives each axis.
    struct Motion: Hashable, Sendable {
        var time: Duration
        var yaw = 0.0
        var pitch = 0.0
        var yawRate = 0.0
        var pitchRate = 0.0
        var yawDrive = Drive.rate(0)
        var pitchDrive = Drive.rate(0)
        var magnification = 1.0
        /// The magnification the zoom goes to.
        var zoomTarget = 1.0
        /// When the velocity in force runs out.
        var velocityEndsAt: Duration?
        /// The move under way, answered `ended` when it arrives.
        var move: CommandID?
    }

    /// The settings.
    public let configuration: Configuration
    /// Where the session is, the backoff and the counters.
    public private(set) var lifecycle: LinkLifecycle
    /// Recent poses on the host's clock.
    public private(set) var poses = PoseHistory()

    private var motion = Motion(time: .zero)
    private var nextSequence: UInt16 = 0
    private let crop: DigitalCrop

    /// Creates a session that has not started.
    ///
    /// - Precondition: the field of view is in (0, 180) degrees, the aspect, the speed and the
    ///   acceleration above 0, the maximum magnification and the zoom's factor a second above 1
    ///   (dockd's settings hold them to their ranges).
    public init(configuration: Configuration) {
        precondition(
            configuration.horizontalFieldOfViewDegrees > 0 && configuration.horizontalFieldOfViewDegrees < 180
                && configuration.aspectRatio > 0 && configuration.maximumMagnification > 1
                && configuration.maximumDegreesPerSecond > 0 && configuration.accelerationRadiansPerSecondSquared > 0
                && configuration.integrationStep > .zero && configuration.zoomFactorPerSecond > 1,
            "digital settings out of range: \(configuration)")
        self.configuration = configuration
        crop = configuration.crop
        lifecycle = LinkLifecycle(initialBackoff: configuration.initialBackoff, maximumBackoff: configuration.maximumBackoff)
    }

    public var accessoryProtocol: AccessoryProtocol { .digital }

    public var baudRate: Int? { nil }

    /// Continuous speeds, orientation moves, a zoom, a time-to-live kept exactly, and a picture
    /// that does not move with the pose; no failsafe (nothing moves without dockd).
    public var capabilities: AccessoryCapabilities {
        [.velocityTimeToLive, .continuousSpeeds, .orientationMoves, .zoom, .fixedPicture]
    }

    /// When the velocity in force runs out, while ready; the reconnect while disconnected.
    public var nextDeadline: Duration? {
        switch state {
        case .disconnected: reconnectAt
        case .connecting, .handshaking, .incompatible: nil
        case .ready: motion.velocityEndsAt
        }
    }

    /// The zoom is exact: the fraction asked, held in 0...1; nil out of session or for a fraction
    /// that is not a number.
    public func zoomFraction(nearest fraction: Double) -> Double? {
        guard lifecycle.isReady, fraction.isFinite else { return nil }
        return min(max(fraction, 0), 1)
    }

    /// `1 + fraction × (maximum − 1)`: the crop is `1 / magnification` of the picture.
    public func magnification(atZoomFraction fraction: Double) -> Double? {
        guard fraction.isFinite else { return nil }
        return 1 + min(max(fraction, 0), 1) * (configuration.maximumMagnification - 1)
    }

    /// The magnification in force.
    public var magnificationInForce: Double { motion.magnification }

    /// The crop window in the fixed camera's picture at `time` (normalised, its own picture before
    /// any mirroring); nil when the pose is not known then.
    public func cropWindow(at time: Duration) -> NormalizedRect? { window(at: time) }

    /// The crop window in the fixed camera's picture at `time` (normalised, its own picture before
    /// any mirroring); nil when the pose is not known then.
    public func window(at time: Duration) -> NormalizedRect? {
        guard let pose = pose(at: time) else { return nil }
        let zoomed = pose.zoomFraction.flatMap { magnification(atZoomFraction: $0) } ?? motion.magnification
        return crop.window(yawRadians: pose.yawRadians, pitchRadians: pose.pitchRadians, magnification: zoomed)
    }

    /// Exact: from now on it is worked out as the link moves the crop, before that it is the
    /// history's.
    public func pose(at time: Duration) -> Pose? {
        guard lifecycle.isReady else { return nil }
        guard time >= motion.time else { return poses.pose(at: time, horizon: .zero) }
        var ahead = self
        ahead.advance(to: time)
        return ahead.currentPose
    }

    public func poseAge(at now: Duration) -> Duration? { lifecycle.isReady ? .zero : nil }

    // MARK: Events from the shell

    public mutating func start(now: Duration) -> [SessionAction] { lifecycle.start() }

    /// The port is open: the session is up at once, the crop centred, at its initial zoom (the
    /// whole picture by default).
    public mutating func transportOpened(now: Duration) -> [SessionAction] {
        lifecycle.transportOpened()
        motion = Motion(time: now)
        let initial = magnification(atZoomFraction: configuration.initialZoomFraction) ?? 1
        (motion.magnification, motion.zoomTarget) = (initial, initial)
        poses.removeAll()
        record(now: now)
        return lifecycle.attached(identity, isDocked: true)
    }

    public mutating func transportFailed(reason: String, now: Duration) -> [SessionAction] {
        lifecycle.transportFailed(reason: reason, now: now)
    }

    public mutating func transportClosed(now: Duration) -> [SessionAction] {
        motion = Motion(time: now)
        poses.removeAll()
        return lifecycle.transportClosed(.lost, now: now)
    }

    public mutating func deviceAppeared(now: Duration) -> [SessionAction] { lifecycle.deviceAppeared() }

    /// Nothing comes from a port with no wire; anything that did is counted and dropped.
    public mutating func bytesReceived(_ bytes: [UInt8], now: Duration) -> [SessionAction] {
        if !bytes.isEmpty, lifecycle.isReady { lifecycle.countBadFrame() }
        return []
    }

    /// Moves the crop on to `now`: a velocity whose time-to-live ran out brakes, a move that
    /// arrived is answered `ended`, one out of reach `refused`.
    public mutating func tick(now: Duration) -> [SessionAction] {
        guard lifecycle.isReady else { return lifecycle.reconnectIfDue(now: now) }
        return advanceAndRecord(to: now) + refuseAMoveOutOfReach()
    }

    /// Carries the command out at once: nothing goes on a wire, so what the crop can do is
    /// `accepted` as it is given; a move is `ended` too once it arrives.
    public mutating func send(_ command: AccessoryCommand, now: Duration) -> SentCommand {
        guard lifecycle.isReady else { return .dropped }
        let id = CommandID(nextSequence)
        nextSequence &+= 1
        let actions = advanceAndRecord(to: now)
        let accepted = SessionAction.emit(.answered(id, .accepted))
        switch command {
        case .velocity(let yawRate, let pitchRate, let timeToLive):
            guard yawRate.isFinite, pitchRate.isFinite, timeToLive > .zero else {
                return SentCommand(id: id, actions: actions + refuse(id, .velocity, .outOfRange))
            }
            let fastest = maximumSpeed
            motion.move = nil
            motion.yawDrive = .rate(min(max(yawRate, -fastest), fastest))
            motion.pitchDrive = .rate(min(max(pitchRate, -fastest), fastest))
            motion.velocityEndsAt = yawRate != 0 || pitchRate != 0 ? now + timeToLive : nil
            return SentCommand(id: id, actions: actions + [accepted])
        case .move(let yaw, let pitch, let pace):
            // Within the range of the longest zoom (the limits advertised): a zoom in may come
            // after the move (a preset recalled sends its move, then its zoom), and the crop goes
            // as far as the zoom lets it meanwhile; a move left beyond the range once the zoom has
            // arrived is refused then (`advanceAndRecord`).
            let magnification = configuration.maximumMagnification
            let yawLimit = crop.yawLimitRadians(magnification: magnification)
            let pitchLimit = crop.pitchLimitRadians(magnification: magnification, yawRadians: yaw)
            guard yaw.isFinite, pitch.isFinite, abs(yaw) <= yawLimit + 1e-6, abs(pitch) <= pitchLimit + 1e-6 else {
                return SentCommand(id: id, actions: actions + refuse(id, .move, .outOfRange))
            }
            let yawDistance = abs(yaw - motion.yaw), pitchDistance = abs(pitch - motion.pitch)
            var yawSpeed = maximumSpeed, pitchSpeed = maximumSpeed
            switch pace {
            case .duration(let duration):
                // Both axes at the speeds that cover their distances in the time together.
                let seconds = max(duration.secondsValue, 0.001)
                yawSpeed = min(max(yawDistance / seconds, 1e-6), maximumSpeed)
                pitchSpeed = min(max(pitchDistance / seconds, 1e-6), maximumSpeed)
            case .maximumSpeed(let speed):
                guard speed.isFinite, speed > 0 else { return SentCommand(id: id, actions: actions + refuse(id, .move, .outOfRange)) }
                yawSpeed = min(speed, maximumSpeed)
                pitchSpeed = yawSpeed
            }
            motion.velocityEndsAt = nil
            motion.yawDrive = .target(yaw, speed: yawSpeed)
            motion.pitchDrive = .target(pitch, speed: pitchSpeed)
            motion.move = id
            return SentCommand(id: id, actions: actions + [accepted])
        case .stop:
            motion.move = nil
            motion.velocityEndsAt = nil
            motion.yawDrive = .rate(0)
            motion.pitchDrive = .rate(0)
            return SentCommand(id: id, actions: actions + [accepted])
        case .zoom(let fraction):
            guard let magnification = magnification(atZoomFraction: fraction) else {
                return SentCommand(id: id, actions: actions + refuse(id, .zoom, .outOfRange))
            }
            motion.zoomTarget = magnification
            // A move under way ends within the range the zoom leaves it.
            let yawLimit = crop.yawLimitRadians(magnification: magnification)
            if case .target(let yaw, let speed) = motion.yawDrive {
                motion.yawDrive = .target(min(max(yaw, -yawLimit), yawLimit), speed: speed)
            }
            if case .target(let pitch, let speed) = motion.pitchDrive {
                let yaw: Double
                if case .target(let target, _) = motion.yawDrive { yaw = target } else { yaw = motion.yaw }
                let pitchLimit = crop.pitchLimitRadians(magnification: magnification, yawRadians: yaw)
                motion.pitchDrive = .target(min(max(pitch, -pitchLimit), pitchLimit), speed: speed)
            }
            return SentCommand(id: id, actions: actions + [accepted])
        case .indicator, .recallPreset, .storePreset:
            return SentCommand(id: id, actions: actions + refuse(id, command.kind, .unsupported))
        }
    }

    // MARK: The crop's motion

    private var maximumSpeed: Double { configuration.maximumDegreesPerSecond * .pi / 180 }

    /// The zoom in force as a fraction of the range.
    private var zoomFraction: Double { (motion.magnification - 1) / (configuration.maximumMagnification - 1) }

    private var currentPose: Pose {
        Pose(
            yawRadians: motion.yaw, pitchRadians: motion.pitch, yawRadiansPerSecond: motion.yawRate,
            pitchRadiansPerSecond: motion.pitchRate, zoomFraction: zoomFraction)
    }

    private mutating func advanceAndRecord(to now: Duration) -> [SessionAction] {
        advance(to: now)
        record(now: now)
        guard let move = motion.move, case .rate(0) = motion.yawDrive, case .rate(0) = motion.pitchDrive,
            motion.yawRate == 0, motion.pitchRate == 0
        else { return [] }
        motion.move = nil
        return [.emit(.answered(move, .ended))]
    }

    /// A move whose target is out of reach — the crop stopped at the edge of the range, the zoom
    /// where it goes — is refused (at a tick, so that a zoom sent just after the move counts).
    private mutating func refuseAMoveOutOfReach() -> [SessionAction] {
        guard let move = motion.move, motion.magnification == motion.zoomTarget else { return [] }
        let yawLimit = crop.yawLimitRadians(magnification: motion.magnification)
        let pitchLimit = crop.pitchLimitRadians(magnification: motion.magnification, yawRadians: motion.yaw)
        func isStuck(_ drive: Drive, _ angle: Double, _ rate: Double, _ limit: Double) -> Bool {
            guard case .target(let target, _) = drive else { return false }
            return abs(target) > limit + 1e-6 && abs(angle) >= limit - 1e-9 && rate == 0
        }
        guard
            isStuck(motion.yawDrive, motion.yaw, motion.yawRate, yawLimit)
                || isStuck(motion.pitchDrive, motion.pitch, motion.pitchRate, pitchLimit)
        else { return [] }
        motion.move = nil
        motion.yawDrive = .rate(0)
        motion.pitchDrive = .rate(0)
        return refuse(move, .move, .outOfRange)
    }

    /// Moves the crop on to `time` in steps of at most `integrationStep`, the velocity's
    /// time-to-live ending exactly at its time.
    private mutating func advance(to time: Duration) {
        while motion.time < time {
            if motion.yawDrive == .rate(0), motion.pitchDrive == .rate(0), motion.yawRate == 0, motion.pitchRate == 0,
                motion.magnification == motion.zoomTarget
            {
                motion.time = time  // at rest: nothing to integrate
                return
            }
            var end = min(time, motion.time + configuration.integrationStep)
            if let ends = motion.velocityEndsAt, ends > motion.time, ends < end { end = ends }
            step(seconds: (end - motion.time).secondsValue)
            motion.time = end
            if let ends = motion.velocityEndsAt, end >= ends {
                motion.velocityEndsAt = nil
                motion.yawDrive = .rate(0)
                motion.pitchDrive = .rate(0)
            }
        }
    }

    /// One step: each axis's rate ramps towards what its drive wants at the acceleration, its
    /// angle follows, and the crop stays inside the picture.
    private mutating func step(seconds: Double) {
        let acceleration = configuration.accelerationRadiansPerSecondSquared
        func axis(_ angle: inout Double, _ rate: inout Double, _ drive: inout Drive) {
            let wanted: Double
            switch drive {
            case .rate(let target):
                wanted = target
            case .target(let target, let speed):
                let remaining = target - angle
                // Arrived: within what one step moves at the rate now, and slow enough to stop in it.
                if abs(remaining) <= max(1e-7, abs(rate) * seconds), abs(rate) <= acceleration * seconds {
                    angle = target
                    rate = 0
                    drive = .rate(0)
                    return
                }
                // As fast as the speed allows and still stop at the target.
                let braking = (2 * acceleration * max(abs(remaining) - abs(rate) * seconds / 2, 0)).squareRoot()
                wanted = (remaining < 0 ? -1 : 1) * min(speed, braking)
            }
            let change = min(max(wanted - rate, -acceleration * seconds), acceleration * seconds)
            let next = rate + change
            angle += (rate + next) / 2 * seconds
            rate = next
        }
        axis(&motion.yaw, &motion.yawRate, &motion.yawDrive)
        axis(&motion.pitch, &motion.pitchRate, &motion.pitchDrive)
        if motion.magnification != motion.zoomTarget {
            // Evenly in the logarithm: the picture grows or shrinks at the same pace throughout.
            let most = log(configuration.zoomFactorPerSecond) * seconds
            let change = log(motion.zoomTarget / motion.magnification)
            motion.magnification = abs(change) <= most ? motion.zoomTarget : motion.magnification * exp(change < 0 ? -most : most)
        }
        holdInPicture()
    }

    /// Holds the crop inside the picture at the zoom in force: an axis at an edge stops there (a
    /// move's target, within the range of the zoom asked for, is kept: the range grows as the zoom
    /// goes in).
    private mutating func holdInPicture() {
        let yawLimit = crop.yawLimitRadians(magnification: motion.magnification)
        if abs(motion.yaw) > yawLimit {
            motion.yaw = min(max(motion.yaw, -yawLimit), yawLimit)
            motion.yawRate = 0
        }
        let pitchLimit = crop.pitchLimitRadians(magnification: motion.magnification, yawRadians: motion.yaw)
        if abs(motion.pitch) > pitchLimit {
            motion.pitch = min(max(motion.pitch, -pitchLimit), pitchLimit)
            motion.pitchRate = 0
        }
    }

    private mutating func record(now: Duration) {
        poses.record(currentPose, at: now)
    }

    private mutating func refuse(_ id: CommandID, _ kind: AccessoryCommand.Kind, _ reason: CommandRefusal.Reason) -> [SessionAction] {
        lifecycle.countRefusal()
        return [.emit(.answered(id, .refused(CommandRefusal(reason: reason, command: kind))))]
    }

    /// What the accessory is: the range at the longest zoom, the speed and acceleration it keeps.
    private var identity: AccessoryInfo {
        let longest = configuration.maximumMagnification
        func limits(_ limit: Double) -> AxisLimits {
            AxisLimits(
                minimum: Angle(radians: -limit) ?? Angle(microradians: 0), maximum: Angle(radians: limit) ?? Angle(microradians: 0),
                maximumSpeed: AngularRate(radiansPerSecond: maximumSpeed) ?? AngularRate(microradiansPerSecond: 1),
                maximumAcceleration: AngularAcceleration(
                    microradiansPerSecondSquared: UInt32(clamping: Int((configuration.accelerationRadiansPerSecondSquared * 1e6).rounded()))
                ))
        }
        let degrees = configuration.horizontalFieldOfViewDegrees
        return AccessoryInfo(
            protocolVersion: 0, features: [], telemetryRateHertz: 30, failsafeTimeout: .zero,
            yaw: limits(crop.yawLimitRadians(magnification: longest)),
            pitch: limits(crop.pitchLimitRadians(magnification: longest)),
            model: String(configuration.displayName.prefix(32)),
            firmwareVersion: String(
                "crop of \(format(degrees))° \(format(configuration.aspectRatio)):1, up to \(format(longest))×".prefix(32)),
            serialNumber: String(configuration.identifier.prefix(32)))
    }

    private func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
