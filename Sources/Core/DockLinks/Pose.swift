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
    /// The zoom, as a fraction of the accessory's zoom range (0 the widest, 1 the longest); nil
    /// when the link does not know it.
    public var zoomFraction: Double?

    /// Creates a pose.
    public init(
        yawRadians: Double, pitchRadians: Double, yawRadiansPerSecond: Double = 0, pitchRadiansPerSecond: Double = 0,
        zoomFraction: Double? = nil
    ) {
        self.yawRadians = yawRadians
        self.pitchRadians = pitchRadians
        self.yawRadiansPerSecond = yawRadiansPerSecond
        self.pitchRadiansPerSecond = pitchRadiansPerSecond
        self.zoomFraction = zoomFraction
    }

    /// The home pose, at rest.
    public static let home = Pose(yawRadians: 0, pitchRadians: 0)
}

/// The last two seconds or so of telemetry on the host's clock, so that an observation can be
/// fused with the pose the camera had when its frame was captured — its zoom too, where the link
/// knows it, so that the frame's field of view is the one it was taken with. A fixed-size ring: no
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

    /// The zoom stepped to `fraction` at `time` (a zoom that jumps, as a digital one or the
    /// emulation's does): the history keeps the old zoom up to just before `time` and the new
    /// one from `time` on, rather than a ramp between the samples around it. Samples newer than
    /// `time` (none, normally) take the new zoom too.
    public mutating func zoomStepped(to fraction: Double?, at time: Duration) {
        guard let latest else { return }
        // The samples at or after `time`, set aside, newest last.
        var after: [(time: Duration, pose: Pose)] = []
        while let newestSample = self.latest, newestSample.time >= time, count > 1 {
            after.insert(newestSample, at: 0)
            newest = (newest - 1 + times.count) % times.count
            count -= 1
        }
        if let old = pose(at: time - .microseconds(1), horizon: .seconds(3600)) {
            record(old, at: time - .microseconds(1))
        }
        if after.first.map({ $0.time > time }) ?? true, var now = pose(at: time, horizon: .seconds(3600)) ?? Optional(latest.pose) {
            now.zoomFraction = fraction
            record(now, at: time)
        }
        for var sample in after {
            sample.pose.zoomFraction = fraction
            record(sample.pose, at: sample.time)
        }
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
                // The zoom as the pose: between two samples that know it, in a straight line;
                // otherwise as the earlier one says (a zoom first known later was not known then).
                let zoom = a.zoomFraction.map { earlierZoom in
                    b.zoomFraction.map { earlierZoom + ($0 - earlierZoom) * fraction } ?? earlierZoom
                }
                return Pose(
                    yawRadians: a.yawRadians + (b.yawRadians - a.yawRadians) * fraction,
                    pitchRadians: a.pitchRadians + (b.pitchRadians - a.pitchRadians) * fraction,
                    yawRadiansPerSecond: a.yawRadiansPerSecond + (b.yawRadiansPerSecond - a.yawRadiansPerSecond) * fraction,
                    pitchRadiansPerSecond: a.pitchRadiansPerSecond + (b.pitchRadiansPerSecond - a.pitchRadiansPerSecond) * fraction,
                    zoomFraction: zoom)
            }
            later = earlier
        }
        return nil
    }
}
