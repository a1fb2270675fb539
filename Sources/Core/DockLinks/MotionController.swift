import DockNumbers
import DockProtocol
public import DockVocabulary

/// What became of a request that was accepted.
public struct MotionResult: Hashable, Sendable {
    /// Commands to give the accessory now.
    public var commands: [AccessoryCommand]
    /// The request's fields that were clamped to the limits (the API reports them).
    public var clampedFields: [MotionParameter]
    /// The animation the request cancelled, if one was playing.
    public var cancelledAnimation: AnimationKind?
    /// How the activity ended at once, if it did: an orientation move to where the dock already
    /// is (a target clamped to the limit it rests at) is reached before anything moves.
    public var finished: MotionFinish?
}

/// How an activity ended by itself.
public enum MotionFinish: Hashable, Sendable {
    /// A velocity's duration ran out; the dock was told to stop.
    case velocityExpired
    /// An orientation move arrived.
    case orientationReached
    /// An orientation move, or an animation's settling back, did not arrive by its deadline (the
    /// dock was held back, stopped by its failsafe, or stopped reporting its pose).
    case timedOut
    /// An animation played to its end and the dock is back where it began.
    case animationFinished(AnimationKind)
}

extension MotionFinish: CustomStringConvertible {
    /// How the log and `Watch`'s `motion_ended` line name the finish: the words Swift's default
    /// description gave them while `AnimationKind` was DockLinks' own, kept to the byte so that
    /// no reader of the event's line sees a change now that the animations' names are the
    /// vocabulary's.
    public var description: String {
        switch self {
        case .velocityExpired: "velocityExpired"
        case .orientationReached: "orientationReached"
        case .timedOut: "timedOut"
        case .animationFinished(let kind): "animationFinished(DockLinks.AnimationKind.\(kind.rawValue))"
        }
    }
}

/// Turns motion requests into accessory commands, pure and driven by a 30 Hz tick: velocities are
/// re-sent each tick with a short time-to-live (so the dock stops by itself within 200 ms if the
/// daemon dies) and slowed before the position limits; orientation moves are clamped into the
/// limits; animations are played as trajectories relative to where they start, tracked by a
/// feed-forward velocity loop, and settled exactly back at their start.
public struct MotionController: Sendable {
    /// What the dock is doing.
    public enum Activity: Hashable, Sendable {
        case idle
        case velocity(yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double, endsAt: Duration)
        case moving(yawRadians: Double, pitchRadians: Double, deadline: Duration)
        case animating(AnimationTrajectory, origin: Pose, startedAt: Duration)
        case settling(AnimationKind, yawRadians: Double, pitchRadians: Double, deadline: Duration)
    }

    /// The control loop's period.
    public static let tickInterval = Duration.nanoseconds(33_333_333)
    /// How long a velocity lasts when the request gives no duration.
    public static let defaultTimeToLive = Duration.milliseconds(500)
    /// The slowest orientation move the wire carries: 1 µrad/s, rad/s.
    public static let slowestSpeedRadiansPerSecond = 1e-6
    /// The time-to-live sent with each velocity command.
    public static let commandTimeToLive = Duration.milliseconds(200)
    /// How close an orientation counts as reached, radians.
    public static let arrivalTolerance = 0.003

    /// What the dock is doing.
    public private(set) var activity = Activity.idle

    /// Creates an idle controller.
    public init() {}

    /// Accepts a request, replacing whatever was going on.
    ///
    /// - Throws: `MotionError` for non-finite or out-of-range values, or when a relative move or
    ///   an animation is asked for with no known pose.
    public mutating func handle(
        _ request: MotionRequest, pose: Pose?, limits: MotionLimits, now: Duration
    ) throws(MotionError) -> MotionResult {
        var clamped: [MotionParameter] = []
        let next: Activity
        var commands: [AccessoryCommand] = []
        switch request {
        case .velocity(let yawRate, let pitchRate, let duration):
            guard yawRate.isFinite else { throw .notFinite(field: .yaw) }
            guard pitchRate.isFinite else { throw .notFinite(field: .pitch) }
            let wireLimit = Double(WireLimits.rateMagnitudeMicroradiansPerSecond) / 1e6
            guard abs(yawRate) <= wireLimit else { throw .outOfRange(field: .yaw, allowed: -wireLimit...wireLimit) }
            guard abs(pitchRate) <= wireLimit else { throw .outOfRange(field: .pitch, allowed: -wireLimit...wireLimit) }
            let lasting = duration ?? Self.defaultTimeToLive
            guard lasting > .zero, lasting <= .seconds(3600) else {
                throw .outOfRange(field: .duration, allowed: 0...3600)
            }
            let yaw = clamp(yawRate, limits.yawSpeedRadiansPerSecond, .yaw, &clamped)
            let pitch = clamp(pitchRate, limits.pitchSpeedRadiansPerSecond, .pitch, &clamped)
            next = .velocity(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch, endsAt: now + lasting)
        case .orientation(let yaw, let pitch, let isRelative, let pace):
            guard yaw.isFinite else { throw .notFinite(field: .yaw) }
            guard pitch.isFinite else { throw .notFinite(field: .pitch) }
            let span = 4 * Double.pi
            guard abs(yaw) <= span else { throw .outOfRange(field: .yaw, allowed: -span...span) }
            guard abs(pitch) <= span else { throw .outOfRange(field: .pitch, allowed: -span...span) }
            if isRelative, pose == nil { throw .notReady }
            var targetYaw = isRelative ? pose!.yawRadians + yaw : yaw
            var targetPitch = isRelative ? pose!.pitchRadians + pitch : pitch
            if !limits.yawRadians.contains(targetYaw) { clamped.append(.yaw) }
            if !limits.pitchRadians.contains(targetPitch) { clamped.append(.pitch) }
            targetYaw = min(max(targetYaw, limits.yawRadians.lowerBound), limits.yawRadians.upperBound)
            targetPitch = min(max(targetPitch, limits.pitchRadians.lowerBound), limits.pitchRadians.upperBound)
            let movePace: MovePace
            let expected: Duration
            switch pace {
            case .duration(let duration):
                guard duration > .zero, duration <= .seconds(60) else {
                    throw .outOfRange(field: .duration, allowed: 0...60)
                }
                movePace = .duration(max(duration, .milliseconds(1)))
                expected = duration
            case .maximumSpeed, .fastest:
                let fastest = max(limits.yawSpeedRadiansPerSecond, limits.pitchSpeedRadiansPerSecond)
                var speed = fastest
                if case .maximumSpeed(let requested) = pace {
                    guard requested.isFinite else { throw .notFinite(field: .speed) }
                    guard requested > 0 else { throw .outOfRange(field: .speed, allowed: 0...fastest) }
                    speed = requested
                }
                let capped = min(speed, fastest)
                if capped < speed { clamped.append(.speed) }
                // Commands carry whole µrad/s, and a move at 0 goes nowhere: a speed that rounds
                // to 0 (5e-324, 4e-7 rad/s) is refused here, by name.
                guard let rate = AngularRate(radiansPerSecond: capped), rate.microradiansPerSecond >= 1 else {
                    throw .outOfRange(
                        field: .speed, allowed: Self.slowestSpeedRadiansPerSecond...max(fastest, Self.slowestSpeedRadiansPerSecond))
                }
                movePace = .maximumSpeed(radiansPerSecond: rate.radiansPerSecond)
                let distance = max(abs(targetYaw - (pose?.yawRadians ?? 0)), abs(targetPitch - (pose?.pitchRadians ?? 0)))
                expected = .fromSeconds(distance / capped) ?? .seconds(60)
            }
            commands.append(.move(yawRadians: onGrid(targetYaw), pitchRadians: onGrid(targetPitch), pace: movePace))
            next = .moving(yawRadians: targetYaw, pitchRadians: targetPitch, deadline: now + expected + .seconds(5))
        case .stop:
            commands.append(.stop)
            next = .idle
        case .animate(let kind):
            guard let pose else { throw .notReady }
            let trajectory = AnimationTrajectory(kind, limits: limits)
            next = .animating(
                trajectory, origin: Pose(yawRadians: pose.yawRadians, pitchRadians: pose.pitchRadians),
                startedAt: now)
        }
        var cancelled: AnimationKind?
        switch activity {
        case .animating(let trajectory, _, _): cancelled = trajectory.kind
        case .settling(let kind, _, _, _): cancelled = kind
        case .idle, .velocity, .moving: break
        }
        activity = next
        let first = tick(pose: pose, limits: limits, now: now)
        commands += first.commands
        return MotionResult(
            commands: commands, clampedFields: clamped, cancelledAnimation: cancelled,
            finished: first.finished)
    }

    /// Advances the control loop: the commands for this tick, and how an activity ended if it did.
    public mutating func tick(pose: Pose?, limits: MotionLimits, now: Duration) -> (commands: [AccessoryCommand], finished: MotionFinish?) {
        switch activity {
        case .idle:
            return ([], nil)
        case .velocity(let yawRate, let pitchRate, let endsAt):
            guard now < endsAt else {
                activity = .idle
                return ([.stop], .velocityExpired)
            }
            let yaw = brake(
                yawRate, position: pose?.yawRadians, rate: pose?.yawRadiansPerSecond, range: limits.yawRadians,
                acceleration: limits.yawAccelerationRadiansPerSecondSquared)
            let pitch = brake(
                pitchRate, position: pose?.pitchRadians, rate: pose?.pitchRadiansPerSecond,
                range: limits.pitchRadians, acceleration: limits.pitchAccelerationRadiansPerSecondSquared)
            return ([velocityCommand(yaw, pitch, timeToLive: min(endsAt - now, Self.commandTimeToLive))], nil)
        case .moving(let yaw, let pitch, let deadline):
            if let pose, isAt(pose, yaw, pitch) {
                activity = .idle
                return ([], .orientationReached)
            }
            guard now < deadline else {
                activity = .idle
                return ([], .timedOut)
            }
            return ([], nil)
        case .animating(let trajectory, let origin, let startedAt):
            let elapsed = now - startedAt
            guard elapsed < trajectory.duration, let pose else {
                let yaw = clampInto(origin.yawRadians, limits.yawRadians)
                let pitch = clampInto(origin.pitchRadians, limits.pitchRadians)
                activity = .settling(trajectory.kind, yawRadians: yaw, pitchRadians: pitch, deadline: now + .seconds(3))
                return ([.move(yawRadians: onGrid(yaw), pitchRadians: onGrid(pitch), pace: .maximumSpeed(radiansPerSecond: 0.5))], nil)
            }
            // Feed forward the trajectory's rate half a tick ahead, and pull towards where the
            // trajectory is now.
            let ahead = trajectory.offset(at: elapsed + Self.tickInterval / 2)
            let here = trajectory.offset(at: elapsed)
            let gain = 8.0
            let wantYaw = clampInto(origin.yawRadians + here.yawRadians, limits.yawRadians)
            let wantPitch = clampInto(origin.pitchRadians + here.pitchRadians, limits.pitchRadians)
            var yawRate = ahead.yawRadiansPerSecond + gain * (wantYaw - pose.yawRadians)
            var pitchRate = ahead.pitchRadiansPerSecond + gain * (wantPitch - pose.pitchRadians)
            yawRate = brake(
                min(max(yawRate, -limits.yawSpeedRadiansPerSecond), limits.yawSpeedRadiansPerSecond),
                position: pose.yawRadians, rate: pose.yawRadiansPerSecond, range: limits.yawRadians,
                acceleration: limits.yawAccelerationRadiansPerSecondSquared)
            pitchRate = brake(
                min(max(pitchRate, -limits.pitchSpeedRadiansPerSecond), limits.pitchSpeedRadiansPerSecond),
                position: pose.pitchRadians, rate: pose.pitchRadiansPerSecond, range: limits.pitchRadians,
                acceleration: limits.pitchAccelerationRadiansPerSecondSquared)
            return ([velocityCommand(yawRate, pitchRate, timeToLive: Self.commandTimeToLive)], nil)
        case .settling(let kind, let yaw, let pitch, let deadline):
            if let pose, isAt(pose, yaw, pitch) {
                activity = .idle
                return ([], .animationFinished(kind))
            }
            guard now < deadline else {
                activity = .idle
                return ([], .timedOut)
            }
            return ([], nil)
        }
    }

    /// Forgets the activity without a word to the dock (the dock went away).
    public mutating func reset() { activity = .idle }

    private func isAt(_ pose: Pose, _ yaw: Double, _ pitch: Double) -> Bool {
        abs(pose.yawRadians - yaw) < Self.arrivalTolerance && abs(pose.pitchRadians - pitch) < Self.arrivalTolerance
            && abs(pose.yawRadiansPerSecond) < 0.01 && abs(pose.pitchRadiansPerSecond) < 0.01
    }
}

/// The highest rate towards a position limit that can still stop before it, allowing for the
/// time the command takes to act (a tick, the telemetry's age and the motor's lag): the distance
/// is measured from where the dock will be by then at its current rate.
private func brake(
    _ rate: Double, position: Double?, rate current: Double?, range: ClosedRange<Double>,
    acceleration: Double
) -> Double {
    guard let position else { return rate }
    let reaction = 0.08
    let predicted = position + (current ?? 0) * reaction
    let distance = rate > 0 ? range.upperBound - predicted : predicted - range.lowerBound
    let allowed = (2 * 0.8 * acceleration * max(0, distance)).squareRoot()
    return rate > 0 ? min(rate, allowed) : max(rate, -allowed)
}

private func clamp(_ rate: Double, _ limit: Double, _ field: MotionParameter, _ clamped: inout [MotionParameter]) -> Double {
    guard abs(rate) > limit else { return rate }
    clamped.append(field)
    return rate > 0 ? limit : -limit
}

private func clampInto(_ value: Double, _ range: ClosedRange<Double>) -> Double {
    min(max(value, range.lowerBound), range.upperBound)
}

/// `value` (radians, or rad/s) on the millionth's grid commands are built on — the finest a
/// protocol carries (dock-serial's µrad and µrad/s), so every link is sent the same numbers —
/// or 0 where it is not finite or past ±2,147 (no request gets there: the limits clamp first).
private func onGrid(_ value: Double) -> Double {
    Angle(radians: value)?.radians ?? 0
}

private func velocityCommand(_ yaw: Double, _ pitch: Double, timeToLive: Duration) -> AccessoryCommand {
    .velocity(
        yawRadiansPerSecond: onGrid(yaw), pitchRadiansPerSecond: onGrid(pitch),
        timeToLive: max(.milliseconds(1), min(timeToLive, .seconds(5))))
}
