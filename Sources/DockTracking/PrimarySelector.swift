/// Chooses the subject the dock follows, and holds it: the client's selection first; else the
/// current primary for as long as its track lives (a passer-by or an occluder does not steal it);
/// after losing it, nobody for a few seconds unless a confirmed track appears near where it was
/// (re-acquisition: the dock holds still rather than jump to someone else); then the most salient
/// confirmed track — large, central, long-lived, a person before an object.
public struct PrimarySelector: Sendable {
    /// The primary's track identifier.
    public private(set) var primary: Int?
    private var lastYawRadians = 0.0
    private var lastPitchRadians = 0.0
    private var lostAt: Duration?

    /// How long after losing the primary a track near its last place is taken as the same subject.
    public static let reacquisitionWindow = Duration.seconds(3)
    /// How near, in radians.
    public static let reacquisitionRadius = 0.15

    /// Starts with no primary.
    public init() {}

    /// Chooses among `tracks` at `now`, the gimbal pointing at `gimbalYawRadians`.
    public mutating func choose(_ tracks: [SubjectTracker.Track], selection: [Int], gimbalYawRadians: Double,
                                gimbalPitchRadians: Double, now: Duration) -> Int? {
        let usable = tracks.filter { $0.phase != .tentative }
        if let selected = selection.first(where: { id in usable.contains { $0.identifier == id } }) {
            return hold(selected, usable)
        }
        if let current = primary, usable.contains(where: { $0.identifier == current }) {
            return hold(current, usable)
        }
        if primary != nil {
            primary = nil
            lostAt = now
        }
        if let lostAt, now - lostAt <= Self.reacquisitionWindow {
            // Hold still for the lost subject, taking it back when a track appears where it was.
            guard let near = usable.filter({ $0.phase == .confirmed }).min(by: { distanceFromLast($0) < distanceFromLast($1) }),
                distanceFromLast(near) <= Self.reacquisitionRadius
            else { return nil }
            return hold(near.identifier, usable)
        }
        let candidates = usable.filter { $0.phase == .confirmed }
        guard let best = candidates.max(by: { saliency($0, gimbalYawRadians, gimbalPitchRadians, now)
            < saliency($1, gimbalYawRadians, gimbalPitchRadians, now) })
        else { return nil }
        return hold(best.identifier, usable)
    }

    /// How much a track stands out: its angular area, its nearness to where the camera looks, its
    /// age up to a second, and whether it is a person.
    public func saliency(_ track: SubjectTracker.Track, _ gimbalYawRadians: Double, _ gimbalPitchRadians: Double,
                         _ now: Duration) -> Double {
        let box = track.filter.angularBox
        let area = max(box.widthRadians, 0) * max(box.heightRadians, 0)
        let offCentre = abs(box.yawRadians - gimbalYawRadians) + abs(box.pitchRadians - gimbalPitchRadians)
        let age = min(1, (now - track.born).trackerSeconds)
        let kind = track.kind == .object ? 0.5 : 1.0
        return area / (1 + 4 * offCentre) * (0.2 + 0.8 * max(age, 0)) * kind
    }

    private func distanceFromLast(_ track: SubjectTracker.Track) -> Double {
        abs(track.filter.angularBox.yawRadians - lastYawRadians) + abs(track.filter.angularBox.pitchRadians - lastPitchRadians)
    }

    private mutating func hold(_ identifier: Int, _ tracks: [SubjectTracker.Track]) -> Int {
        primary = identifier
        lostAt = nil
        if let track = tracks.first(where: { $0.identifier == identifier }) {
            lastYawRadians = track.filter.angularBox.yawRadians
            lastPitchRadians = track.filter.angularBox.pitchRadians
        }
        return identifier
    }
}
