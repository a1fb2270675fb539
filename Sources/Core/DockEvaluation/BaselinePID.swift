public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// What most hobby pan-tilt trackers do, as the yardstick for dockd's tracker: each frame, take
/// the newest raw detection (a body if there is one, the one nearest the image's centre — the
/// kindest choice for the baseline, as the dock starts centred on the subject to follow) and
/// point the camera at it with a PID on its offset from the image's centre, converted to
/// angles through the field of view. No filter, no identities, no notion of capture time: the
/// newest box is taken as where the subject is now.
public struct BaselinePID: Sendable {
    /// Gains on the angular error: proportional (1/s), integral (1/s²), derivative (unitless).
    public var proportional = 2.5, integral = 0.5, derivative = 0.1
    /// Same speed and acceleration limits as dockd's framing controller, rad/s and rad/s².
    public var maximumSpeed = 1.5, maximumAcceleration = 4.0
    private var errorSum = (yaw: 0.0, pitch: 0.0)
    private var lastError: (yaw: Double, pitch: Double)?
    private var lastCommand = (yaw: 0.0, pitch: 0.0)
    private var newError: (yaw: Double, pitch: Double)?
    private var sinceUpdate = 0.0

    /// Starts at rest.
    public init() {}

    /// The box the baseline follows among a frame's observations.
    public static func chosen(_ observations: [Observation]) -> Observation? {
        let bodies = observations.filter { $0.kind == .body }
        let pool = bodies.isEmpty ? observations : bodies
        return pool.min { distanceFromCentre($0.box) < distanceFromCentre($1.box) }
    }

    private static func distanceFromCentre(_ box: NormalizedRect) -> Double {
        let dx = box.center.x - 0.5, dy = box.center.y - 0.5
        return (dx * dx + dy * dy).squareRoot()
    }

    /// A new frame arrived: its chosen box's offset (angles through the pinhole) is the error the
    /// PID acts on at the next tick.
    public mutating func observe(_ observations: [Observation], camera: CameraInformation) {
        guard let chosen = Self.chosen(observations) else { return }
        let aligned = camera.dockAlignedPoint(fromDelivered: chosen.box.center)
        let ray = camera.cameraRay(throughDockAligned: aligned)
        newError = (atan(ray.right), atan(ray.up))
    }

    /// The rates for this tick, `seconds` after the last: the PID steps once per new detection
    /// (as such trackers loop on frames) and the command is held in between; after half a
    /// second without a detection the dock is brought to rest.
    public mutating func command(seconds: Double) -> (yaw: Double, pitch: Double) {
        guard seconds > 0, seconds.isFinite else { return lastCommand }
        sinceUpdate += seconds
        let step = maximumAcceleration * seconds
        func limited(_ desired: Double, _ last: Double) -> Double {
            min(max(min(max(desired, -maximumSpeed), maximumSpeed), last - step), last + step)
        }
        guard let error = newError else {
            if sinceUpdate > 0.5 {
                lastCommand = (limited(0, lastCommand.yaw), limited(0, lastCommand.pitch))
                lastError = nil
            }
            return lastCommand
        }
        newError = nil
        let dt = max(sinceUpdate, 1e-3)
        sinceUpdate = 0
        errorSum = (min(max(errorSum.yaw + error.yaw * dt, -0.5), 0.5), min(max(errorSum.pitch + error.pitch * dt, -0.5), 0.5))
        let rate = lastError.map { ((error.yaw - $0.yaw) / dt, (error.pitch - $0.pitch) / dt) } ?? (0, 0)
        lastError = error
        lastCommand = (
            limited(proportional * error.yaw + integral * errorSum.yaw + derivative * rate.0, lastCommand.yaw),
            limited(proportional * error.pitch + integral * errorSum.pitch + derivative * rate.1, lastCommand.pitch)
        )
        return lastCommand
    }
}
