import DockNumbers
import DockProtocol

/// Where the dock points and how fast it turns, in SI units on the host's clock.
public struct Pose: Hashable, Sendable {
    /// Yaw, radians; positive pans right.
    public var yawRadians: Double
    /// Pitch, radians; positive tilts up.
    public var pitchRadians: Double
    /// Yaw rate, rad/s.
    public var yawRadiansPerSecond: Double
    /// Pitch rate, rad/s.
    public var pitchRadiansPerSecond: Double

    /// Creates a pose.
    public init(yawRadians: Double, pitchRadians: Double, yawRadiansPerSecond: Double = 0, pitchRadiansPerSecond: Double = 0) {
        self.yawRadians = yawRadians
        self.pitchRadians = pitchRadians
        self.yawRadiansPerSecond = yawRadiansPerSecond
        self.pitchRadiansPerSecond = pitchRadiansPerSecond
    }

    /// The home pose, at rest.
    public static let home = Pose(yawRadians: 0, pitchRadians: 0)
}

/// The last two seconds or so of telemetry on the host's clock, so that an observation can be
/// fused with the pose the camera had when its frame was captured. A fixed-size ring: no
/// allocation after creation.
public struct PoseHistory: Sendable {
    private var times: [Duration]
    private var poses: [Pose]
    private var newest = -1
    private var count = 0

    /// Creates an empty history of `capacity` samples.
    public init(capacity: Int = 128) {
        times = Array(repeating: .zero, count: capacity)
        poses = Array(repeating: .home, count: capacity)
    }

    /// Whether nothing has been recorded.
    public var isEmpty: Bool { count == 0 }

    /// The latest sample.
    public var latest: (time: Duration, pose: Pose)? {
        count == 0 ? nil : (times[newest], poses[newest])
    }

    /// Records a sample; samples must come in time order (an older one is ignored).
    public mutating func record(_ pose: Pose, at time: Duration) {
        if let latest, time <= latest.time { return }
        newest = (newest + 1) % times.count
        times[newest] = time
        poses[newest] = pose
        count = min(count + 1, times.count)
    }

    /// Forgets everything (the dock reset or went away).
    public mutating func removeAll() {
        newest = -1
        count = 0
    }

    /// The pose at `time`: interpolated between samples, or extrapolated from the newest sample's
    /// rates up to `horizon` past it; nil before the oldest sample or beyond the horizon.
    public func pose(at time: Duration, horizon: Duration = .milliseconds(100)) -> Pose? {
        guard let latest else { return nil }
        if time >= latest.time {
            guard time - latest.time <= horizon else { return nil }
            let seconds = (time - latest.time).secondsValue
            var pose = latest.pose
            pose.yawRadians += pose.yawRadiansPerSecond * seconds
            pose.pitchRadians += pose.pitchRadiansPerSecond * seconds
            return pose
        }
        // Walk back from the newest sample to the pair around `time`.
        var later = newest
        for _ in 1..<count {
            let earlier = (later - 1 + times.count) % times.count
            if times[earlier] <= time {
                let span = (times[later] - times[earlier]).secondsValue
                let fraction = span > 0 ? (time - times[earlier]).secondsValue / span : 0
                let a = poses[earlier], b = poses[later]
                return Pose(
                    yawRadians: a.yawRadians + (b.yawRadians - a.yawRadians) * fraction,
                    pitchRadians: a.pitchRadians + (b.pitchRadians - a.pitchRadians) * fraction,
                    yawRadiansPerSecond: a.yawRadiansPerSecond + (b.yawRadiansPerSecond - a.yawRadiansPerSecond) * fraction,
                    pitchRadiansPerSecond: a.pitchRadiansPerSecond + (b.pitchRadiansPerSecond - a.pitchRadiansPerSecond) * fraction)
            }
            later = earlier
        }
        return nil
    }
}
