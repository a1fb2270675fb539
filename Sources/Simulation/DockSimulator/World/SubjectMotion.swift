#if canImport(Glibc)
    import Glibc
#endif

/// A subject's path turned into timed waypoints (a random walk is drawn once, from the seed), so
/// its position at any time is a pure function of the time.
public struct ResolvedSubject: Hashable, Sendable {
    /// The subject as scripted.
    public let script: SubjectScript
    /// Timed points, at least one, in time order.
    public let waypoints: [Waypoint]

    /// Resolves a script over a run of `durationSeconds`.
    public init(_ script: SubjectScript, durationSeconds: Double, random: inout SimulationRandom) {
        self.script = script
        switch script.path {
        case .waypoints(let points):
            waypoints = points
        case .randomWalk(let walk):
            waypoints = Self.walk(walk, durationSeconds: durationSeconds, random: &random)
        }
    }

    /// Where the subject stands at `seconds` (x to the dock's right, y ahead, metres), or nil when
    /// it is not in the room.
    public func position(atSeconds seconds: Double) -> (xMeters: Double, yMeters: Double)? {
        guard script.isPresent(atSeconds: seconds), let first = waypoints.first, let last = waypoints.last else {
            return nil
        }
        if seconds <= first.timeSeconds { return (first.xMeters, first.yMeters) }
        if seconds >= last.timeSeconds { return (last.xMeters, last.yMeters) }
        // Binary search for the segment holding `seconds`.
        var low = 0, high = waypoints.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if waypoints[middle].timeSeconds <= seconds { low = middle } else { high = middle }
        }
        let a = waypoints[low], b = waypoints[high]
        let fraction = (seconds - a.timeSeconds) / (b.timeSeconds - a.timeSeconds)
        return (a.xMeters + (b.xMeters - a.xMeters) * fraction, a.yMeters + (b.yMeters - a.yMeters) * fraction)
    }

    private static func walk(_ walk: RandomWalk, durationSeconds: Double, random: inout SimulationRandom) -> [Waypoint] {
        let step = 0.1
        var x = walk.startXMeters, y = walk.startYMeters
        var heading = random.unit() * 2 * .pi
        var nextTurn = walk.turnIntervalSeconds
        var points = [Waypoint(timeSeconds: 0, xMeters: x, yMeters: y)]
        var time = 0.0
        while time < durationSeconds {
            time += step
            if time >= nextTurn {
                heading = random.unit() * 2 * .pi
                nextTurn += walk.turnIntervalSeconds
            }
            var dx = cos(heading) * walk.speedMetersPerSecond * step
            var dy = sin(heading) * walk.speedMetersPerSecond * step
            if !walk.xRangeMeters.contains(x + dx) {
                dx = -dx
                heading = .pi - heading
            }
            if !walk.yRangeMeters.contains(y + dy) {
                dy = -dy
                heading = -heading
            }
            x = min(max(x + dx, walk.xRangeMeters.lowerBound), walk.xRangeMeters.upperBound)
            y = min(max(y + dy, walk.yRangeMeters.lowerBound), walk.yRangeMeters.upperBound)
            points.append(Waypoint(timeSeconds: time, xMeters: x, yMeters: y))
        }
        return points
    }
}
