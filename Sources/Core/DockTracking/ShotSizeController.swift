import DockNumbers
public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// What the host knows of the accessory's zoom at a tick: how many times the picture is
/// magnified now (the zoom in the pose history, through the model's or profile's table) and at
/// the longest end.
public struct ZoomOptics: Hashable, Sendable {
    /// The magnification now, ≥ 1.
    public var magnification: Double
    /// The magnification at the longest end, ≥ 1.
    public var maximumMagnification: Double

    /// Creates optics.
    public init(magnification: Double, maximumMagnification: Double) {
        self.magnification = magnification
        self.maximumMagnification = maximumMagnification
    }
}

/// The zoom half of the framing: holds the subject at a shot size (`ShotSize`) by choosing the
/// magnification, as the pan and tilt (`FramingController`) hold it at its place. Both act on
/// the same box — the part of the subject the shot is about (`framedBox`: the face for head and
/// half-body shots, the body for a full shot, the selected subjects' joint box for a group) —
/// and the pan's reach bounds the zoom, so the two do not fight:
///
/// - **Size.** The magnification that gives the box its share of the picture's height (the
///   picture's height at m× is the widest one's over m: a box h high at 1× is m h high at m×),
///   averaged over `sizeSmoothingSeconds` so that a detector's noisy box sizes do not move it.
/// - **Hysteresis.** The zoom holds while the size is within `startBand` of the target (as a
///   ratio: ±10 %) and, once moving, goes on until it is within `settleBand` (±3 %); a zoom in
///   does not begin within `reversalHoldSeconds` of the last zoom out.
/// - **Rate.** The magnification changes by at most `zoomInRate` (in) or `zoomOutRate` (out) per
///   second, as a ratio (e^rate per second): slow in, as an operator does; fast out, since out is
///   where safety is.
/// - **A subject who walked out of the picture** (the pipeline's `lostPrimaryWalkedOut`) is
///   zoomed out from at once, all the way, while the dock turns after them (`widen`).
/// - **Keep the subject in the picture.** The box, where it is now relative to where the dock
///   points, grown by how far it may go before the dock catches up — its angular rate over
///   `reactionSeconds`, and the part of its rate the pan cannot follow (beyond the fastest the
///   dock pans) over `escapeHorizonSeconds` — and by `uncertaintyDeviations` standard deviations
///   of its direction, must fit within `edgeMargin` of the picture. A magnification above what
///   that allows is zoomed out of at once, whatever the bands say: a subject breaking into a run,
///   or one whose estimate grows uncertain, is kept in the picture by zooming out ahead of them.
///   A zoom in stops at `zoomInShare` of that bound, so the next step of a walker does not
///   zoom out again.
/// - **Never in on a coasting track.** A subject whose box is a prediction (its track not seen
///   in the latest frames) or whose newest box is older than `freshEvidenceSeconds` is not
///   zoomed in on; it may still be zoomed out from.
///
/// It is a value handed the time (`now`); it reads no clock. Its output is the magnification
/// wanted; the host turns it into the accessory's zoom fraction by the same table.
public struct ShotSizeController: Sendable {
    /// Tuning.
    public struct Configuration: Hashable, Sendable {
        /// `head`: the face's share of the picture's height. A head-and-shoulders shot shows the
        /// head and about as much again below the chin, with headroom: the face about a third.
        public var headFaceShare = 0.33
        /// `half`: the face's share of the picture's height, the picture reaching the hips.
        public var halfFaceShare = 0.2
        /// `full`: the body's share of the picture's height (headroom above, a little floor below).
        public var fullBodyShare = 0.8
        /// `group`: the joint box's share of the picture's height or width, whichever fills first.
        public var groupShare = 0.8
        /// A face box's height as a share of a standing person's (about one in eight: the
        /// simulator's is 0.12; a face detector's box is forehead to chin), to size a head shot
        /// from a body seen without its face, or a full shot from a face alone.
        public var faceShareOfBody = 0.125
        /// The ratio (as a natural logarithm) the size may be off before the zoom moves:
        /// ln 1.1, ±10 %.
        public var startBand = 0.1
        /// The ratio (natural logarithm) within which a zoom in motion stops: ln 1.03.
        public var settleBand = 0.03
        /// The fastest zoom in, natural logarithm of the magnification per second: 0.35 doubles
        /// it in 2 s.
        public var zoomInRate = 0.35
        /// The fastest zoom out, natural logarithm per second: 2 quarters it in 0.7 s (a camera's
        /// own zoom may be slower: a VISCA camera's takes 2 to 5 s end to end).
        public var zoomOutRate = 2.0
        /// No zoom in begins within this long of the last zoom out, seconds.
        public var reversalHoldSeconds = 2.0
        /// Time constant of the average of the size, seconds.
        public var sizeSmoothingSeconds = 0.7
        /// How far ahead a subject's own motion is allowed for: a detector's delay and the dock's
        /// start, seconds.
        public var reactionSeconds = 0.5
        /// How far ahead the part of the motion the pan cannot follow is allowed for, seconds.
        public var escapeHorizonSeconds = 1.5
        /// Standard deviations of the estimate's direction kept in the picture.
        public var uncertaintyDeviations = 3.0
        /// The share of the half-picture (from its centre to its edge) the subject's far edge, with
        /// its allowances, may reach.
        public var edgeMargin = 0.95
        /// A zoom in stops at this share of the magnification the picture's edge allows.
        public var zoomInShare = 0.9
        /// The oldest the newest box may be for a zoom in, seconds.
        public var freshEvidenceSeconds = 0.4
        /// How long the zoom may sit away from the controller's command (a client's `SetZoom`,
        /// the lost behaviour's zoom out) before the controller takes it as where it starts from.
        public var adoptSeconds = 2.0

        /// The defaults.
        public init() {}
    }

    /// What the controller sees of the subject at a tick.
    public struct Subject: Sendable {
        /// The box the shot is about, in the dock's frame (`framedBox`).
        public var box: AngularBox
        /// Its angular rates, rad/s.
        public var yawRadiansPerSecond: Double
        /// Its angular rates, rad/s.
        public var pitchRadiansPerSecond: Double
        /// How well its direction is known.
        public var uncertainty: SubjectUncertainty
        /// Whether its box is a prediction (its track coasts).
        public var isCoasting: Bool
        /// Seconds since the capture of its newest box.
        public var evidenceAgeSeconds: Double
        /// Its face's box, when one is seen: a full shot's body cut by the picture's edge is sized
        /// from it.
        public var face: AngularBox?

        /// Creates what the controller sees.
        public init(
            box: AngularBox, yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double, uncertainty: SubjectUncertainty,
            isCoasting: Bool, evidenceAgeSeconds: Double, face: AngularBox? = nil
        ) {
            self.face = face
            self.box = box
            self.yawRadiansPerSecond = yawRadiansPerSecond
            self.pitchRadiansPerSecond = pitchRadiansPerSecond
            self.uncertainty = uncertainty
            self.isCoasting = isCoasting
            self.evidenceAgeSeconds = evidenceAgeSeconds
        }
    }

    /// Why the zoom moves (or not) at a tick.
    public enum Reason: Hashable, Sendable {
        /// The size is within its band, or the zoom may not move in: holding.
        case holding
        /// Zooming for the size.
        case size
        /// Zooming out to keep the subject in the picture (its motion, its uncertainty, its place).
        case keepInPicture
    }

    /// The settings.
    public let configuration: Configuration
    /// The magnification commanded, once the controller has begun.
    public private(set) var magnification: Double?
    /// Why, at the last step.
    public private(set) var reason = Reason.holding
    /// Times the zoom turned from in to out or out to in.
    public private(set) var reversals = 0
    private var averageLogSize: Double?
    private var lastStep: Duration?
    /// The direction of the last step's change (0: it held).
    private var lastDirection = 0
    /// The direction of the last change there was.
    private var lastMovingDirection: Int?
    private var lastOutAt: Duration?
    private var awaySince: Duration?

    /// Creates a controller that has not begun.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The box a shot size is about, for `subject` (and, for `group`, the other subjects
    /// `members`): the face for `head` and `half` (the top eighth of the body when no face is
    /// seen), the body for `full` (eight faces down from the face's top when only a face is
    /// seen), the box the tracker frames for a `fraction` or `off`, and the joint box of the
    /// subject and `members` for `group`.
    public func framedBox(_ shot: ShotSize, subject: FusedSubject, members: [FusedSubject] = []) -> AngularBox {
        let share = configuration.faceShareOfBody
        switch shot {
        case .off, .fraction: return subject.angularBox
        case .head, .half:
            if let face = subject.faceBox { return face }
            let body = subject.angularBox
            let height = body.heightRadians * share
            return AngularBox(
                yawRadians: body.yawRadians, pitchRadians: body.pitchRadians + body.heightRadians / 2 - height / 2,
                widthRadians: body.widthRadians * 0.35, heightRadians: height)
        case .full:
            guard subject.kind == .face, let face = subject.faceBox, share > 0 else { return subject.angularBox }
            let height = face.heightRadians / share
            return AngularBox(
                yawRadians: face.yawRadians, pitchRadians: face.pitchRadians + face.heightRadians / 2 - height / 2,
                widthRadians: face.widthRadians / 0.35, heightRadians: height)
        case .group:
            var low = subject.angularBox.yawRadians - subject.angularBox.widthRadians / 2
            var high = subject.angularBox.yawRadians + subject.angularBox.widthRadians / 2
            var bottom = subject.angularBox.pitchRadians - subject.angularBox.heightRadians / 2
            var top = subject.angularBox.pitchRadians + subject.angularBox.heightRadians / 2
            for member in members where member.identifier != subject.identifier {
                let box = member.angularBox
                low = min(low, box.yawRadians - box.widthRadians / 2)
                high = max(high, box.yawRadians + box.widthRadians / 2)
                bottom = min(bottom, box.pitchRadians - box.heightRadians / 2)
                top = max(top, box.pitchRadians + box.heightRadians / 2)
            }
            return AngularBox(
                yawRadians: (low + high) / 2, pitchRadians: (bottom + top) / 2, widthRadians: high - low, heightRadians: top - bottom)
        }
    }

    /// The share of the picture's height a shot size gives its box (`framedBox`); nil for `off`.
    public func share(_ shot: ShotSize) -> Double? {
        switch shot {
        case .off: nil
        case .head: configuration.headFaceShare
        case .half: configuration.halfFaceShare
        case .full: configuration.fullBodyShare
        case .group: configuration.groupShare
        case .fraction(let share): share
        }
    }

    /// The magnification to command at `now` for `shot`, the subject seen as `subject` (nil: no
    /// subject — the controller lets go of the zoom), the camera at its widest as `widest`, the
    /// gimbal at the given pose, the dock panning at most `panSpeedRadiansPerSecond`; nil when
    /// the zoom is left alone (`off`, no subject, an unknown zoom). `target` is where the
    /// framing puts the box's centre once the box has the shot's size (delivered image).
    public mutating func step(
        shot: ShotSize, subject: Subject?, optics: ZoomOptics, widest: CameraInformation, gimbalYawRadians: Double,
        gimbalPitchRadians: Double, target: NormalizedPoint = NormalizedPoint(x: 0.5, y: 0.5), panSpeedRadiansPerSecond: Double,
        now: Duration
    ) -> Double? {
        let seconds = lastStep.map { max(0, (now - $0).secondsValue) } ?? 0
        lastStep = now
        let highest = optics.maximumMagnification
        guard shot.isActive, let subject, widest.isValid, optics.magnification.isFinite, highest.isFinite, highest >= 1,
            let sizes = measure(
                shot, subject, widest: widest, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians,
                target: widest.dockAlignedPoint(fromDelivered: target), magnification: max(optics.magnification, 1),
                panSpeedRadiansPerSecond: panSpeedRadiansPerSecond)
        else {
            letGo()
            return nil
        }
        func clamped(_ value: Double) -> Double { min(max(value, 1), highest) }
        var commanded = magnification.map(clamped) ?? clamped(optics.magnification)
        // The zoom moved away from the command (a client zoomed, the lost behaviour zoomed out)
        // and stayed there: start from where it is.
        if abs(log(clamped(optics.magnification) / commanded)) > configuration.settleBand, lastDirection == 0 {
            if let since = awaySince, now - since >= .milliseconds(Int64(configuration.adoptSeconds * 1000)) {
                commanded = clamped(optics.magnification)
                awaySince = nil
            } else if awaySince == nil {
                awaySince = now
            }
        } else {
            awaySince = nil
        }
        // The size, averaged (as a logarithm: a ratio is what matters).
        let logSize = log(clamped(sizes.bySize))
        let alpha = averageLogSize == nil ? 1 : min(1, seconds / max(configuration.sizeSmoothingSeconds, 1e-3))
        let average = (averageLogSize ?? logSize) + alpha * (logSize - (averageLogSize ?? logSize))
        averageLogSize = average
        let bound = clamped(sizes.inPicture)
        var direction = 0
        var goal = commanded
        if bound < commanded {
            direction = -1
            goal = min(bound, exp(average))
            reason = .keepInPicture
        } else {
            let wanted = clamped(min(exp(average), configuration.zoomInShare * sizes.inPicture))
            let error = log(wanted / commanded)
            let inBand = lastDirection > 0 ? configuration.settleBand : configuration.startBand
            let outBand = lastDirection < 0 ? configuration.settleBand : configuration.startBand
            let mayZoomIn =
                !subject.isCoasting && subject.evidenceAgeSeconds <= configuration.freshEvidenceSeconds
                && lastOutAt.map { now - $0 >= .milliseconds(Int64(configuration.reversalHoldSeconds * 1000)) } ?? true
            if error > inBand, mayZoomIn {
                direction = 1
                goal = wanted
            } else if error < -outBand {
                direction = -1
                goal = wanted
            }
            reason = direction == 0 ? .holding : .size
        }
        if direction != 0 {
            let most = (direction > 0 ? configuration.zoomInRate : configuration.zoomOutRate) * seconds
            let change = min(max(log(goal / commanded), -most), most)
            commanded = clamped(commanded * exp(change))
            if let previous = lastMovingDirection, previous != direction { reversals += 1 }
            lastMovingDirection = direction
            if direction < 0 { lastOutAt = now }
        }
        lastDirection = direction
        magnification = commanded
        return commanded
    }

    /// The magnification that gives the box its share (`bySize`), and the most at which it stays
    /// in the picture with its allowances (`inPicture`); nil when the box is not in front.
    ///
    /// The pan and tilt keep the box's centre at `target` (a point of the dock-aligned picture,
    /// whatever the zoom), so at m× the box is at the target plus m times its error from it now
    /// (angles grow with the magnification; the target does not), and its far edge — with the
    /// allowances for motion and uncertainty, which are angles too — must stay within
    /// `edgeMargin` of the half-picture: |t| + m (|e| + a + w / 2) ≤ margin / 2 across, and the
    /// same for its centre (w = 0) and its motion (no uncertainty) up and down. The target is
    /// where the box goes once it has the shot's size (`target` is handed so).
    func measure(
        _ shot: ShotSize, _ subject: Subject, widest: CameraInformation, gimbalYawRadians: Double, gimbalPitchRadians: Double,
        target: NormalizedPoint, magnification: Double, panSpeedRadiansPerSecond: Double
    ) -> (bySize: Double, inPicture: Double)? {
        // The widest picture as the dock sees it (upright, not mirrored): offsets from its centre
        // grow with the magnification.
        let aligned = CameraInformation(horizontalFieldOfViewRadians: widest.horizontalFieldOfViewRadians, aspectRatio: widest.aspectRatio)
        guard let box = subject.box.project(camera: aligned, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians),
            box.width.isFinite, box.height.isFinite, box.width > 0, box.height > 0, target.x.isFinite, target.y.isFinite
        else { return nil }
        let c = configuration
        var bySize: Double
        switch shot {
        case .off: return nil
        case .head: bySize = c.headFaceShare / box.height
        case .half: bySize = c.halfFaceShare / box.height
        case .full:
            // A body cut by the picture's edge is seen shorter than it is: its face, where one is
            // seen, says how tall it is (eight faces).
            var height = box.height
            if let face = subject.face, c.faceShareOfBody > 0,
                let faceBox = face.project(camera: aligned, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians),
                faceBox.height.isFinite
            {
                height = max(height, faceBox.height / c.faceShareOfBody)
            }
            bySize = c.fullBodyShare / height
        case .fraction(let share): bySize = share / box.height
        case .group: bySize = c.groupShare / max(box.height, box.width)
        }
        // Allowances, as shares of the widest picture: an angle a near the centre spans
        // tan(a) / (2 tan(fov / 2)) of it.
        let halfWidth = tan(aligned.horizontalFieldOfViewRadians / 2), halfHeight = halfWidth / aligned.aspectRatio
        func allowance(_ rate: Double, _ deviation: Double = 0) -> Double {
            let speed = rate.isFinite ? abs(rate) : 0
            let beyond = max(0, speed - max(panSpeedRadiansPerSecond, 0))
            let angle =
                speed * c.reactionSeconds + beyond * c.escapeHorizonSeconds
                + c.uncertaintyDeviations * (deviation.isFinite ? max(deviation, 0) : 1)
            return tan(min(angle, 1.5))
        }
        func bound(centre: Double, half: Double, target: Double, allowance: Double) -> Double {
            let offset = target - 0.5
            let error = abs(centre - 0.5 - offset / magnification)
            let room = c.edgeMargin * 0.5 - abs(offset)
            return room > 0 ? room / max(error + allowance + half, 1e-6) : 1
        }
        let across = bound(
            centre: box.center.x, half: box.width / 2, target: target.x,
            allowance: allowance(subject.yawRadiansPerSecond, subject.uncertainty.yawRadians) / (2 * halfWidth))
        // Up and down, the box's centre and its motion are what must stay in: a full shot's feet
        // may touch the picture's edge, a head shot's chest is cut by it, and people leave a
        // picture sideways (a tall box's uncertainty up and down is mostly its size's).
        let upDown = bound(
            centre: box.center.y, half: 0, target: target.y,
            allowance: allowance(subject.pitchRadiansPerSecond) / (2 * halfHeight))
        let inPicture = min(across, upDown)
        guard bySize.isFinite, inPicture.isFinite else { return nil }
        bySize = max(bySize, 1e-6)
        return (bySize, inPicture)
    }

    /// The magnification to command at `now` while the subject is out of the picture, having
    /// walked out of it: towards the widest at the zoom-out rate, so that the turn after them
    /// finds them in a picture as wide as the camera has.
    public mutating func widen(optics: ZoomOptics, now: Duration) -> Double? {
        let seconds = lastStep.map { max(0, (now - $0).secondsValue) } ?? 0
        lastStep = now
        guard optics.magnification.isFinite, optics.maximumMagnification.isFinite else { return nil }
        let from = min(max(magnification ?? optics.magnification, 1), max(optics.maximumMagnification, 1))
        let widened = max(1, from * exp(-configuration.zoomOutRate * seconds))
        if widened < from {
            if let previous = lastMovingDirection, previous > 0 { reversals += 1 }
            lastMovingDirection = -1
            lastOutAt = now
        }
        lastDirection = 0
        averageLogSize = nil
        magnification = widened
        reason = .keepInPicture
        return widened
    }

    /// The controller lets go of the zoom (no subject, or the shot is off): it starts afresh from
    /// where the zoom is when it next has a subject.
    public mutating func letGo() {
        magnification = nil
        averageLogSize = nil
        lastDirection = 0
        awaySince = nil
        reason = .holding
    }

    /// Forgets everything (another dock attached), the reversal count too.
    public mutating func reset() {
        letGo()
        lastStep = nil
        lastOutAt = nil
        lastMovingDirection = nil
        reversals = 0
    }
}
