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
    /// How long a subject must have been seen before it can be chosen automatically.
    public static let automaticChoiceAge = Duration.milliseconds(200)

    /// Starts with no primary.
    public init() {}

    /// Chooses among single tracks (each its own subject; tentative ones left out).
    public mutating func choose(_ tracks: [SubjectTracker.Track], selection: [Int], gimbalYawRadians: Double,
                                gimbalPitchRadians: Double, now: Duration) -> Int? {
        choose(tracks.filter { $0.phase != .tentative }.map { FusedSubject(track: $0) }, selection: selection,
               gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians, now: now)
    }

    /// Chooses among `subjects` at `now`, the gimbal pointing at `gimbalYawRadians`.
    public mutating func choose(_ subjects: [FusedSubject], selection: [Int], gimbalYawRadians: Double,
                                gimbalPitchRadians: Double, now: Duration) -> Int? {
        if let selected = selection.first(where: { id in subjects.contains { $0.identifier == id } }) {
            return hold(selected, subjects)
        }
        if let current = primary, subjects.contains(where: { $0.identifier == current }) {
            return hold(current, subjects)
        }
        if primary != nil {
            primary = nil
            lostAt = now
        }
        if let lostAt, now - lostAt <= Self.reacquisitionWindow {
            // Hold still for the lost subject, taking it back when a subject appears where it was.
            var nearest: FusedSubject?
            for subject in subjects where !subject.isCoasting
                && (nearest.map { distanceFromLast(subject) < distanceFromLast($0) } ?? true) {
                nearest = subject
            }
            guard let nearest, distanceFromLast(nearest) <= Self.reacquisitionRadius else { return nil }
            return hold(nearest.identifier, subjects)
        }
        // The most salient subject is chosen once it has been seen for a moment: the first one to
        // be confirmed does not win just by being first, nor an older one by being older.
        var best: (subject: FusedSubject, saliency: Double)?
        for subject in subjects where !subject.isCoasting {
            let value = saliency(subject, gimbalYawRadians, gimbalPitchRadians, now)
            if best.map({ value > $0.saliency }) ?? true { best = (subject, value) }
        }
        guard let best, now - best.subject.born >= Self.automaticChoiceAge else { return nil }
        return hold(best.subject.identifier, subjects)
    }

    /// Forgets the primary (tracking was turned off, or the dock re-attached).
    public mutating func reset() {
        primary = nil
        lostAt = nil
    }

    /// How much a subject stands out: its angular area, its nearness to where the camera looks,
    /// its age up to a second, and whether it is a person.
    public func saliency(_ subject: FusedSubject, _ gimbalYawRadians: Double, _ gimbalPitchRadians: Double,
                         _ now: Duration) -> Double {
        let box = subject.angularBox
        let area = max(box.widthRadians, 0) * max(box.heightRadians, 0)
        let offCentre = abs(box.yawRadians - gimbalYawRadians) + abs(box.pitchRadians - gimbalPitchRadians)
        let age = min(1, (now - subject.born).trackerSeconds)
        let kind = subject.kind == .object ? 0.5 : 1.0
        return area / (1 + 4 * offCentre) * (0.2 + 0.8 * max(age, 0)) * kind
    }

    private func distanceFromLast(_ subject: FusedSubject) -> Double {
        abs(subject.angularBox.yawRadians - lastYawRadians) + abs(subject.angularBox.pitchRadians - lastPitchRadians)
    }

    private mutating func hold(_ identifier: Int, _ subjects: [FusedSubject]) -> Int {
        primary = identifier
        lostAt = nil
        if let subject = subjects.first(where: { $0.identifier == identifier }) {
            lastYawRadians = subject.angularBox.yawRadians
            lastPitchRadians = subject.angularBox.pitchRadians
        }
        return identifier
    }
}
