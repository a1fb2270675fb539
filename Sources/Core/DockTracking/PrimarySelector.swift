import DockNumbers
public import DockVocabulary

/// Chooses the subject the dock follows, and holds it: the client's selection first; else the
/// current primary for as long as its track lives (a passer-by or an occluder does not steal it);
/// after losing it, nobody for a few seconds unless a confirmed track appears near where it was
/// (re-acquisition: the dock holds still rather than jump to someone else); then the most salient
/// confirmed track — large, central, long-lived, a person before an object.
///
/// **Identity follows the person, not the identifier.** A track that coasts while its subject is
/// hidden can be handed someone else's detections (an occluder standing where it predicted the
/// subject), and a face or body may carry the subject's identifier onto that other person. So the
/// selector keeps the primary's appearance — the angular width and height of its body and of its
/// face, averaged while it is seen on its own (not coasting, no other subject's box over it) —
/// and, while another subject's box lies over it and for `recheckAfterOcclusion` after, checks
/// every tick that the primary still looks like that: a body (or, for a face seen without its
/// body, a face) whose size differs by more than `sizeTolerance` (either way, width or height) is
/// someone else. (Only then: a subject
/// alone in view keeps its tracks, and a child running about the edges of the image changes
/// size in ways no average foresees.) The
/// primary is then dropped as lost — the dock holds still — and the subjects that were over it
/// (its occluders) and the identifier itself are barred from taking it back: re-acquisition wants
/// a subject near the place it left, of its size, that is none of them. The window for that runs
/// 3 s from the loss, or from when no occluder stands over the place any more (someone who stops
/// in front of the subject for ten seconds does not use it up).
public struct PrimarySelector: Sendable {
    /// The primary's track identifier.
    public private(set) var primary: Int?
    private var lastYawRadians = 0.0
    private var lastPitchRadians = 0.0
    private var lostAt: Duration?
    /// The primary's appearance: its body's and its face's angular width and height, averaged.
    private var bodySize: Appearance?
    private var faceSize: Appearance?
    private struct Appearance: Sendable {
        var width: Double
        var height: Double
        /// Ticks averaged into each (only those with that extent wholly in view).
        var widthCount: Int
        var heightCount: Int
    }
    /// The camera and pose of this tick, to tell a box cut by the image's border (whose size says
    /// little) from one wholly in view.
    private var view: (camera: CameraInformation, yawRadians: Double, pitchRadians: Double)?
    /// Whether a primary is chosen automatically only among subjects whose centre is in view —
    /// the picture the camera shows, as `choose`'s camera and pose give it. Where the picture is a
    /// crop of a fixed wider one (`fixed_picture`), the tracker sees people the picture does not
    /// show, and a motorised camera would not have chosen them; a primary already chosen, or a
    /// client's selection, is held wherever it goes.
    public var choosesWithinView = false
    /// Subjects that may not take a lost primary back (its occluders, an identifier that was
    /// handed to someone else), and of those the occluders, who keep the window open while they
    /// stand over its place.
    private var barred: [Int] = []
    private var occluding: [Int] = []
    /// When another subject's box last lay over the primary's.
    private var lastContested: Duration?

    /// How much a primary's body or face may differ in angular size (as a ratio, either way)
    /// from its average before it is taken for someone else. A person 1.9 m away standing in front
    /// of one at 3 m is 1.5 times their size; a detector's noise on a size is a few percent and
    /// the average holds less; walking towards the dock at 1 m/s from 3 m changes the size by
    /// about 4 % per frame's worth of averaging.
    public static let sizeTolerance = 1.3
    /// The weight of each tick's size in the average, once it has that many (about a second at
    /// 30 Hz; the first ones are averaged evenly).
    static let sizeAveraging = 1.0 / 30
    /// How long after another subject's box last lay over the primary's its size is still checked
    /// (only then can it have been handed someone else's detections).
    public static let recheckAfterOcclusion = Duration.seconds(2)
    /// Ticks of average before sizes are compared with it.
    static let sizeMaturity = 15
    /// How far inside the image's border (normalised units) a box must be for its size to count.
    static let borderMargin = 0.02

    /// How long after losing the primary a track near its last place is taken as the same subject.
    public static let reacquisitionWindow = Duration.seconds(3)
    /// How near, in radians.
    public static let reacquisitionRadius = 0.15
    /// How long a subject must have been seen before it can be chosen automatically.
    public static let automaticChoiceAge = Duration.milliseconds(200)

    /// Starts with no primary.
    public init() {}

    /// Whether a lost primary is being waited for (the re-acquisition window is open), as of the
    /// last `choose`.
    public private(set) var isWaitingForLostPrimary = false

    /// Where the primary was last seen (the centre of its box, dock frame, radians); nil before
    /// any primary.
    public var lastPlace: (yawRadians: Double, pitchRadians: Double)? {
        hasPlace ? (lastYawRadians, lastPitchRadians) : nil
    }
    private var hasPlace = false

    /// Chooses among single tracks (each its own subject; tentative ones left out).
    public mutating func choose(
        _ tracks: [SubjectTracker.Track], selection: [Int], gimbalYawRadians: Double,
        gimbalPitchRadians: Double, now: Duration
    ) -> Int? {
        choose(
            tracks.filter { $0.phase != .tentative && !$0.isOutOfPicture }.map { FusedSubject(track: $0) }, selection: selection,
            gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians, now: now)
    }

    /// Chooses among `subjects` at `now`, the gimbal pointing at `gimbalYawRadians`, the images
    /// coming from `camera` (without it sizes are compared whatever the border does to them).
    public mutating func choose(
        _ subjects: [FusedSubject], selection: [Int], gimbalYawRadians: Double,
        gimbalPitchRadians: Double, now: Duration, camera: CameraInformation? = nil
    ) -> Int? {
        view = camera.map { ($0, gimbalYawRadians, gimbalPitchRadians) }
        if let selected = selection.first(where: { id in subjects.contains { $0.identifier == id } }) {
            return hold(selected, subjects)
        }
        if let current = primary, let subject = subjects.first(where: { $0.identifier == current }) {
            if hasOccluder(subject, subjects) { lastContested = now }
            let isAfterOcclusion = lastContested.map { now - $0 <= Self.recheckAfterOcclusion } ?? false
            if !isAfterOcclusion || looksLikePrimary(subject) {
                learn(subject, subjects)
                return hold(current, subjects)
            }
            // Someone else under the primary's identifier: lost, and neither they nor whoever
            // stood over the primary may take its place.
            occluding = occluders(of: subject, subjects)
            barred = occluding + [current]
            primary = nil
            lostAt = now
            isWaitingForLostPrimary = true
            return nil
        }
        if primary != nil {
            primary = nil
            lostAt = now
            barred = []
            occluding = []
        }
        if let since = lostAt, subjects.contains(where: { occluding.contains($0.identifier) && covers($0.angularBox) }) {
            // Whoever stood over the subject is still where it was: it may well be behind them.
            lostAt = max(since, now)
        }
        isWaitingForLostPrimary = lostAt.map { now - $0 <= Self.reacquisitionWindow } ?? false
        if let lostAt, now - lostAt <= Self.reacquisitionWindow {
            // Hold still for the lost subject, taking it back when a subject of its size appears
            // where it was.
            var nearest: FusedSubject?
            for subject in subjects
            where !subject.isCoasting && !barred.contains(subject.identifier) && looksLikePrimary(subject)
                && (nearest.map { distanceFromLast(subject) < distanceFromLast($0) } ?? true)
            {
                nearest = subject
            }
            guard let nearest, distanceFromLast(nearest) <= Self.reacquisitionRadius else { return nil }
            bodySize = nil
            faceSize = nil
            lastContested = nil
            return hold(nearest.identifier, subjects)
        }
        barred = []
        occluding = []
        // The most salient subject is chosen once it has been seen for a moment: the first one to
        // be confirmed does not win just by being first, nor an older one by being older.
        var best: (subject: FusedSubject, saliency: Double)?
        for subject in subjects where !subject.isCoasting && (!choosesWithinView || isCentreInView(subject.angularBox)) {
            let value = saliency(subject, gimbalYawRadians, gimbalPitchRadians, now)
            if best.map({ value > $0.saliency }) ?? true { best = (subject, value) }
        }
        guard let best, now - best.subject.born >= Self.automaticChoiceAge else { return nil }
        bodySize = nil
        faceSize = nil
        lastContested = nil
        return hold(best.subject.identifier, subjects)
    }

    /// Forgets the primary (tracking was turned off, or the dock re-attached).
    public mutating func reset() {
        primary = nil
        lostAt = nil
        isWaitingForLostPrimary = false
        hasPlace = false
        bodySize = nil
        faceSize = nil
        barred = []
        occluding = []
        lastContested = nil
    }

    /// Whether `subject`'s body and face are of the primary's size (each one that both have).
    private func looksLikePrimary(_ subject: FusedSubject) -> Bool {
        func matches(_ box: AngularBox?, _ size: Appearance?) -> Bool {
            guard let box, let size else { return true }
            let tolerance = Self.sizeTolerance, inView = isInView(box)
            let width =
                size.widthCount < Self.sizeMaturity || !inView.width
                || (box.widthRadians <= size.width * tolerance && box.widthRadians * tolerance >= size.width)
            let height =
                size.heightCount < Self.sizeMaturity || !inView.height
                || (box.heightRadians <= size.height * tolerance && box.heightRadians * tolerance >= size.height)
            return width && height
        }
        // The body when there is one (a face joined to it may be a neighbour's for a moment: the
        // fusion takes the nearest face lying on it), else the face.
        return subject.bodyTrack != nil ? matches(subject.angularBox, bodySize) : matches(subject.faceBox, faceSize)
    }

    /// Averages the primary's size, while it is seen on its own.
    private mutating func learn(_ subject: FusedSubject, _ subjects: [FusedSubject]) {
        guard !subject.isCoasting, !hasOccluder(subject, subjects) else { return }
        let isInView = self.isInView
        func average(_ size: inout Appearance?, _ box: AngularBox?, isCoasting: Bool) {
            guard let box, !isCoasting else { return }
            let inView = isInView(box)
            var new = size ?? Appearance(width: box.widthRadians, height: box.heightRadians, widthCount: 0, heightCount: 0)
            if inView.width {
                let weight = max(Self.sizeAveraging, 1 / Double(new.widthCount + 1))
                new.width += weight * (box.widthRadians - new.width)
                new.widthCount = min(new.widthCount + 1, 1_000_000)
            }
            if inView.height {
                let weight = max(Self.sizeAveraging, 1 / Double(new.heightCount + 1))
                new.height += weight * (box.heightRadians - new.height)
                new.heightCount = min(new.heightCount + 1, 1_000_000)
            }
            size = new
        }
        var body = bodySize, face = faceSize
        if subject.bodyTrack != nil { average(&body, subject.angularBox, isCoasting: subject.isBoxCoasting) }
        average(&face, subject.faceBox, isCoasting: subject.bodyTrack == nil && subject.isBoxCoasting)
        (bodySize, faceSize) = (body, face)
    }

    /// Whether `box`'s centre is in the image (true without a camera).
    private func isCentreInView(_ box: AngularBox) -> Bool {
        guard let view else { return true }
        guard let image = box.project(camera: view.camera, gimbalYawRadians: view.yawRadians, gimbalPitchRadians: view.pitchRadians)
        else { return false }
        let centre = image.center
        return centre.x >= 0 && centre.x <= 1 && centre.y >= 0 && centre.y <= 1
    }

    /// Whether `box`'s angular width and height are each wholly in view: the image's edges they
    /// span lie `borderMargin` inside its border (both true without a camera).
    private func isInView(_ box: AngularBox) -> (width: Bool, height: Bool) {
        guard let view else { return (true, true) }
        guard let image = box.project(camera: view.camera, gimbalYawRadians: view.yawRadians, gimbalPitchRadians: view.pitchRadians)
        else { return (false, false) }
        let margin = Self.borderMargin
        let across = image.x >= margin && image.x + image.width <= 1 - margin
        let down = image.y >= margin && image.y + image.height <= 1 - margin
        return view.camera.orientation.swapsAxes ? (down, across) : (across, down)
    }

    /// Whether another subject's box covers a fifth or more of `subject`'s (without building the
    /// list: this is asked every tick, and the pipeline allocates nothing per frame).
    private func hasOccluder(_ subject: FusedSubject, _ subjects: [FusedSubject]) -> Bool {
        subjects.contains { other in
            other.identifier != subject.identifier && Self.overlap(other.angularBox, subject.angularBox) >= 0.2
        }
    }

    /// The other subjects whose boxes cover a fifth or more of `subject`'s (asked when the primary
    /// is dropped).
    private func occluders(of subject: FusedSubject, _ subjects: [FusedSubject]) -> [Int] {
        subjects.filter { other in
            other.identifier != subject.identifier && Self.overlap(other.angularBox, subject.angularBox) >= 0.2
        }.map(\.identifier)
    }

    /// The share of `box`'s angular area that `other` covers.
    static func overlap(_ other: AngularBox, _ box: AngularBox) -> Double {
        let width =
            min(other.yawRadians + other.widthRadians / 2, box.yawRadians + box.widthRadians / 2)
            - max(other.yawRadians - other.widthRadians / 2, box.yawRadians - box.widthRadians / 2)
        let height =
            min(other.pitchRadians + other.heightRadians / 2, box.pitchRadians + box.heightRadians / 2)
            - max(other.pitchRadians - other.heightRadians / 2, box.pitchRadians - box.heightRadians / 2)
        let area = box.widthRadians * box.heightRadians
        return width > 0 && height > 0 && area > 0 ? width * height / area : 0
    }

    /// Whether `box` covers the place the primary was last seen.
    private func covers(_ box: AngularBox) -> Bool {
        abs(box.yawRadians - lastYawRadians) <= box.widthRadians / 2 && abs(box.pitchRadians - lastPitchRadians) <= box.heightRadians / 2
    }

    /// How much a subject stands out: its angular area, its nearness to where the camera looks,
    /// its age up to a second, and whether it is a person.
    public func saliency(
        _ subject: FusedSubject, _ gimbalYawRadians: Double, _ gimbalPitchRadians: Double,
        _ now: Duration
    ) -> Double {
        let box = subject.angularBox
        let area = max(box.widthRadians, 0) * max(box.heightRadians, 0)
        let offCentre = abs(box.yawRadians - gimbalYawRadians) + abs(box.pitchRadians - gimbalPitchRadians)
        let age = min(1, (now - subject.born).secondsValue)
        let kind = subject.kind == .object ? 0.5 : 1.0
        return area / (1 + 4 * offCentre) * (0.2 + 0.8 * max(age, 0)) * kind
    }

    private func distanceFromLast(_ subject: FusedSubject) -> Double {
        abs(subject.angularBox.yawRadians - lastYawRadians) + abs(subject.angularBox.pitchRadians - lastPitchRadians)
    }

    private mutating func hold(_ identifier: Int, _ subjects: [FusedSubject]) -> Int {
        primary = identifier
        lostAt = nil
        isWaitingForLostPrimary = false
        if let subject = subjects.first(where: { $0.identifier == identifier }) {
            hasPlace = true
            lastYawRadians = subject.angularBox.yawRadians
            lastPitchRadians = subject.angularBox.pitchRadians
        }
        return identifier
    }
}
