import DockNumbers
public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif
/// Many subjects at once: each frame's observations are associated with the tracks by optimal
/// assignment (faces with faces, bodies with bodies, objects with objects), each track runs its own
/// `SubjectFilter`, and tracks live through a tentative → confirmed → coasting → deleted lifecycle,
/// so a subject keeps its ID through short misses and occlusions while a false detection never
/// becomes a subject.
///
/// Association is in stages, after ByteTrack (Zhang et al., "ByteTrack: Multi-Object Tracking by
/// Associating Every Detection Box", ECCV 2022): the confident observations first, against the
/// confirmed and coasting tracks whose expected boxes they overlap; then the confident ones left
/// against the tracks left, without overlap — a subject that outran its box, within the
/// Mahalanobis gate, or one that came out from behind someone a little away from where its track
/// coasted, within a tighter gate and reach (a stage of its own, so such a far pair never displaces
/// an overlapping one); then the unconfident observations against the confirmed tracks left (a
/// half-hidden person gives a weak box, and it keeps the track; a weak box nobody expects is
/// dropped); then the unconfident ones left against the coasting tracks they overlap as much,
/// which only keeps such a track from being deleted (nothing is fused, the track stays coasting);
/// then the confident observations left against the tentative tracks. A confirmed track the
/// detector missed in the frame before is paired more strictly (`hiddenAfterFrames`). Only
/// a confident observation that nothing took starts a track. A pair's cost is 1 − IoU of the
/// observation and the box the track expects, plus its squared Mahalanobis distance over the
/// gate, so overlap decides and the filter's uncertainty breaks ties; a pair is allowed only
/// within the gate and with the sizes alike (a nearer person is larger: a coasting track is not
/// handed someone else standing where it was predicted).
public struct SubjectTracker: Sendable {
    /// Tuning. The defaults were chosen on the benchmark's tuning seeds (`scripts/mot-bench`,
    /// seeds 1 to 3 of TUD-Campus and TUD-Stadtmitte at three levels of degraded detections) and
    /// checked on its held-out seeds and on every simulator scenario; BENCHMARKS.md has the figures.
    public struct Configuration: Hashable, Sendable {
        /// The most tracks at once.
        public var maximumTracks = 16
        /// Gate on the squared Mahalanobis distance (χ² with 4 degrees of freedom: 30 lets through
        /// all but 5 in a million true matches). Wide on purpose: a subject that turns sharply must
        /// stay its own track; overlap and size do the rest.
        public var gate = 30.0
        /// A coasting track may be paired with a confident observation that does not overlap the
        /// box it expects (it has drifted while unseen) within this squared Mahalanobis distance;
        /// 0: never.
        public var coastingGate = 5.0
        /// And only when the observation's centre is within this many of the expected box's
        /// widths and heights of the expected centre (a walker hidden for a second is found again
        /// near where it was going; the person next to it is not taken instead).
        public var coastingReach = 1.5
        /// A confirmed track seen in the last frames may take a box it does not overlap only this
        /// many of its box's sizes from the expected centre (a young track's rate is still unknown,
        /// so its gate is wide: without a reach it takes the next person along).
        public var distantReach = 1.0
        /// A confirmed track whose last box is older than this many of the detector's frame
        /// intervals (`frameInterval`) — a frame came without it — but not older than `coastAfter`
        /// is hidden, and is held to tighter pairing than a track seen in the frame before, not
        /// only once it coasts: a box must overlap its expected box by `minimumOverlapHidden`, or
        /// (not overlapping it) lie within `coastingGate` and `coastingReach` of it, as for a
        /// coasting track — not merely by `minimumOverlap`, or within the wide `gate` and
        /// `distantReach`. Those are for a person who outran their box, seen in the frame before;
        /// a person hidden for a frame or two is about where their track expects them, and a
        /// confident box that barely touches that place is more often someone else — a still
        /// false positive, a newcomer. (On `scripts/mot-bench`'s TUD-Campus easy, seed 25, a track
        /// hidden two frames took a false positive 0.6 box widths aside and a third of a height
        /// below its person, IoU 0.17, and its person came back under a new identifier.) With a
        /// slow detector (10 frames a second or fewer) no frame comes within `coastAfter` after a
        /// missed one, and the rule never applies: between two of its frames a walker may be a box
        /// width away. 0: no track is hidden.
        public var hiddenAfterFrames = 1.5
        /// Observations at least this confident are matched first and may start tracks; weaker
        /// ones only keep a confirmed track alive.
        public var confidentThreshold = 0.55
        /// Observations less confident than this are ignored.
        public var minimumConfidence = 0.1
        /// An unmatched confident observation starts a track only when at least this confident.
        public var birthConfidence = 0.6
        /// How much overlap counts in a pair's cost against the Mahalanobis distance: the cost is
        /// d² / gate + `overlapWeight` × (1 − IoU).
        public var overlapWeight = 1.0
        /// The least IoU between a confident observation and the box a track expects.
        public var minimumOverlap = 0.1
        /// The least IoU between a confident observation and the box a hidden track expects (see
        /// `hiddenAfterFrames`). 0.2, not `minimumOverlapCoasting`'s 0.4: on `scripts/mot-bench`'s
        /// seeds 1–30 both kept TUD-Campus easy's main subject on one identifier, and 0.2 made 25
        /// fewer identifier switches over the 30 rows (0.25: 21); on the slow-detector grid 0.4
        /// cost 2.4 points at 30 frames a second without delay, 0.2 nothing there (both 1.7 at 15
        /// frames a second, 150 ms late). BENCHMARKS.md, 2026-12-05, has the figures.
        public var minimumOverlapHidden = 0.2
        /// The least IoU between a confident observation and the box a coasting track expects in
        /// the overlapping stage (a lost track is not moved by a box that barely touches where it
        /// should be: such a pair is for the distant stage, with its tighter reach).
        public var minimumOverlapCoasting = 0.4
        /// What leaving a track and an observation unpaired costs, over the stage's least cost
        /// (`overlapWeight` in the distant stage, where nothing overlaps; 0 elsewhere): two pairs
        /// are made instead of one only when together they cost less than the one and this
        /// (ByteTrack's assignment threshold works so); infinity: the most pairs allowed.
        public var unpairedCost = 1.3
        /// The least IoU between an unconfident observation and the box a confirmed track expects.
        public var minimumOverlapUnconfident = 0.4
        /// The most an observation's width or height may differ from the expected one, as a ratio
        /// (1.8: up to 1.8 times as large, or 1/1.8 as large; box edges that wander by 10 % make
        /// a tighter ratio split people into several tracks).
        public var sizeRatioGate = 1.8
        /// Hits that confirm a tentative track.
        public var confirmationHits = 3
        /// A tentative track is confirmed sooner, from its second hit, once the confidences of its
        /// hits add up to this (1.8: two boxes of 0.9): a clearly seen person is followed at once,
        /// a doubtful box waits for `confirmationHits`.
        public var quickConfirmationConfidence = 1.8
        /// How long a tentative track may go unseen before it is dropped (at least as long as a
        /// confirmed one goes before it coasts: see `coastAfterFrames`).
        public var tentativeTimeout: Duration = .milliseconds(300)
        /// How long a confirmed track goes without an observation fused before it counts as coasting
        /// — at least `coastAfterFrames` of the detector's frame intervals (`frameInterval`).
        public var coastAfter: Duration = .milliseconds(150)
        /// A track coasts only once this many of the detector's frame intervals have passed
        /// without a box for it (with `coastAfter` the least): at 5 or 10 frames a second,
        /// 150 ms is shorter than the time between two frames, and every track coasted — and the
        /// dock braked — between every two boxes. 2.5: one missed frame, or a frame that arrives
        /// 50 ms later than the one before, is not a miss. 0: `coastAfter` alone.
        public var coastAfterFrames = 2.5
        /// How long a confirmed track coasts unseen before it is deleted.
        public var coastTimeout: Duration = .milliseconds(1500)
        /// A track coasts at most this many times as long as it was seen, first box to last (up to
        /// `coastTimeout`, at least twice `coastAfter`): a track confirmed on a few frames is as
        /// likely a false positive's as a person's, and only a track seen for a while is worth
        /// carrying through a second unseen, where it would take the box of whoever comes by.
        /// 0: `coastTimeout` for every track.
        public var coastTimeoutPerSeen = 4.0
        /// How long it may coast at most while weak boxes it overlaps keep vouching for it (each
        /// keeps it `coastTimeout` longer, up to this since anything was last fused).
        public var vouchedCoastTimeout: Duration = .milliseconds(2000)
        /// A track that starts to coast walks on at the yaw rate its boxes of about this long show
        /// (`ObservedRate`, weights falling by e over it), not at its filter's, which the last few
        /// jittered boxes set; `.zero`: the filter's.
        public var coastingRateWindow: Duration = .milliseconds(500)
        /// Filter noise: `SubjectFilter.Noise`'s, except a box error of 8 % of its size (real
        /// detectors' edges wander by 5 to 10 %). Its `accelerationNoise` is the most any track
        /// gets when `accelerationPerHeight` is set.
        public var noise: SubjectFilter.Noise = {
            var noise = SubjectFilter.Noise()
            noise.boxNoise = 0.08
            return noise
        }()
        /// Each track's angular acceleration noise in proportion to its angular height, rad/s² per
        /// radian (per body height, for a face 7 of its heights), at most `noise.accelerationNoise`
        /// and at least 0.2 rad/s²: a subject's angular acceleration is its acceleration over its
        /// distance, and so is its angular size. 0 gives every track `noise.accelerationNoise`.
        public var accelerationPerHeight = 2.5
        /// The same for a coasting track, 0: as `accelerationPerHeight`. A seen track's noise is
        /// high so that it follows a turn within frames; a hidden walker is a walker at a steady
        /// pace, and this is how fast the region it may be in grows.
        public var coastingAccelerationPerHeight = 1.0
        /// A seen track's acceleration noise rises while its person turns, starts or stops: while
        /// its last boxes (memory about this many) fall on one side of where it expected them
        /// rather than scattered about it. `maneuverBias` is the share of their mean square that
        /// their mean makes up (1: every box off by the same; about 0.15 for jitter alone) above
        /// which the noise rises, reaching `noise.accelerationNoise` at 1. A walker at a steady
        /// pace keeps the low noise that holds its track on its path through a crowd; a child
        /// changing direction every half second gets the high one within a few frames,
        /// however small its boxes' jitter. Only boxes at most `maneuverMaximumLag` old count. 0: off.
        public var maneuverMemory = 4.0
        /// See `maneuverMemory`.
        public var maneuverBias = 0.3
        /// Once raised, the noise comes down over about this long (e-folding), however the next
        /// boxes fall: a child who turned once turns again, and the boxes of a filter that has
        /// just caught up scatter before the next turn shows.
        public var maneuverHold: Duration = .milliseconds(500)
        /// The oldest a box may be (from capture to the tracker's time) for its offset to count
        /// towards `maneuverMemory`'s bias: later ones speak of the past through the lag's linear
        /// approximation. On the slow-detector grid (BENCHMARKS.md) 400 ms lifted the 10 fps /
        /// 150 ms cell from 85 to 91 % but cost the 300 ms column 3 to 9 points, so it stays 150.
        public var maneuverMaximumLag: Duration = .milliseconds(150)
        /// A box older than `maneuverMaximumLag` may tell of a start, stop or turn that happened
        /// since its track's previous box, which the filter alone takes two or three late boxes to
        /// follow while the dock turns the wrong way. Where such a box falls far from where the
        /// track was at its capture on an axis — the squared offset of its direction (as the
        /// camera saw it, in the track's angular widths or heights) beyond this many times the
        /// track's running mean of them, `Track.offsetSquare`, so that far is judged against this
        /// detector's own jitter (and the track's own prediction error) rather than the filter's
        /// noise model (8 % of a box, where the slow-detector grid's detector errs by 3 % and a
        /// seated person's noisy one by 5 %) — the box is fused twice: as it is, and with the
        /// track's rate on that axis allowed a change of variance `lateManeuverVariance` at the
        /// previous box's capture (the least change that explains the box, so one box is never
        /// over-explained, however soon after that capture the subject turned). The two estimates
        /// are mixed by how likely each makes the offset, from `lateManeuverPrior` — after an
        /// interacting multiple model filter's combination, with the two hypotheses judged by the
        /// offset alone — so an outlier of the jitter moves the rate by as little as it is likely
        /// to be a maneuver. A track whose previous box is older than it goes unseen before it
        /// coasts is not judged: it has drifted as a walker may.
        ///
        /// On the slow-detector grid's 10 fps / 300 ms walk, ten seeds not the test's own (61–70):
        /// off 90.0 % of frames in tolerance, 2.5 92.0 %, 4 92.0 %, 9 91.8 %. A first form that
        /// took every box beyond 9 for a maneuver (no mixing) made 92.2 %, but a still person's
        /// jitter moved its rate up to 0.27 rad/s (`aStillPersonsJitterIsNotAManeuver`: 0.15 now,
        /// 0.11 with the rule off, after the first 2 s); BENCHMARKS.md, session 16. Boxes that
        /// arrive within `maneuverMaximumLag` — `scripts/mot-bench`'s and the replays' among
        /// them — and boxes the border cut are untouched. 0: off.
        public var lateManeuverRatio = 4.0
        /// The probability that a late box follows a maneuver before it is seen (see
        /// `lateManeuverRatio`): 0.02, a start, stop or turn every five seconds at 10 frames a
        /// second. 0.05 made the same walk 92.0 % too, but let a noisy seated person's jitter
        /// (`still-noisy`'s detector, boxes 250–350 ms late, five seeds at 30 and at 10 frames a
        /// second) shake the dock by 0.17° in one of the ten runs, where the rule off leaves at
        /// most 0.06° and 0.02 0.08°; 0.01 made the walk 91.9 %.
        public var lateManeuverPrior = 0.02
        /// The variance of the rate change a maneuver brings, (rad/s)² (see `lateManeuverRatio`):
        /// (0.5 rad/s)², a walker's start or half a turn at 3 m. 1: 91.9 % on the seeds above.
        public var lateManeuverVariance = 0.25
        /// How many boxes `Track.offsetSquare` averages over, about (the newest weighs 1/this once
        /// there are as many).
        public var lateManeuverMemory = 10.0
        /// A box edge within this of the image's border, either side (normalised units), that the
        /// track expects at or beyond it is cut, and not measured: the box's uncut edges place the
        /// track and its size stays the track's, so a person walking out of the picture is not dragged back in,
        /// nor shrunk, by the part the picture still shows (see `ClippedEdges`). Negative: every
        /// edge measured, as if each box were whole.
        public var clippedEdgeMargin = 0.002
        /// A body's box whose left or right edge lies along a confident, nearer body's box — one
        /// whose bottom edge is lower in the picture, that spans at least half of its height and
        /// reaches past that edge, the edge within its span or within this share of the box's
        /// width beyond it — is seen up to that someone, not to its person's edge: for a track
        /// behind them (its expected bottom above theirs by more than this share of its height)
        /// that reaches at least as far (within this share of its width), and no farther than
        /// their far side, that edge may be cut and not measured, as at the picture's border
        /// (`ClippedEdges`). A detector reports a half-hidden person whole or up to the one in
        /// front, so such a pair is judged both ways and the cheaper counts. A person passing
        /// behind a neighbour gives a box that shrinks from that side, and then grows back from
        /// it; measured whole, those boxes drag the track's centre away from the hidden side and
        /// teach it a pace its person does not have, so that it coasts off ahead, into the
        /// neighbour, and the person coming out again is too far from it and comes back as someone
        /// new (on `scripts/mot-bench`'s crowd model, TUD-Campus easy; `crowdScene` in the tests).
        /// Negative: every edge measured.
        public var occludedEdgeTolerance = 0.1
        /// How long a track whose subject walked out of the picture (`Track.outOfPicture`) is kept,
        /// frozen as it was when it left, for someone coming back on that side; zero: such tracks
        /// coast and die like any other.
        public var outOfPictureTimeout: Duration = .seconds(20)
        /// Only a track seen at least this long (first box to last) is kept when it walks out: a
        /// passer-by crossing the picture is not waited for, and in a street of them every
        /// newcomer would fit some passer-by's height.
        public var outOfPictureAfterSeen: Duration = .seconds(3)
        /// Someone comes back on a side when their box's centre is within this of that side's
        /// border (normalised units), or their box overlaps where the track left.
        public var reentryReach = 0.2
        /// The most a box's angular height may differ from an out-of-picture track's, as a ratio
        /// either way, for it to bring the track back (tighter than `sizeRatioGate`: nothing but
        /// the height says it is the same person).
        public var reentrySizeRatio = 1.25
        /// How long a track may be brought back under its identifier by its appearance
        /// (`Observation.appearance`, see `AppearanceGallery`) once it was lost — deleted after
        /// coasting, or out of the picture — counted from when it was last fused: a new track
        /// whose descriptors are within `reidentificationDistance` of such a track's, and of no
        /// other's, takes its identifier when it is confirmed. Zero: never.
        public var reidentificationWindow: Duration = .seconds(30)
        /// The most cosine distance between a new track's descriptors and a lost one's for it to
        /// be the same person (see `reidentificationWindow`); a look-alike in similar clothes is
        /// usually farther, the same person under other light nearer.
        public var reidentificationDistance = 0.06
        /// Only a track seen at least this long (first box to last) is kept for re-identification
        /// when it is lost: a false positive's few boxes are nobody to come back.
        public var reidentificationAfterSeen: Duration = .seconds(1)
        /// In association, a track and an observation whose descriptors are farther apart than
        /// this (cosine distance) are not paired: clearly somebody else.
        public var appearanceVetoDistance = 0.4
        /// A pair whose descriptors are within this costs `appearanceBonus` less: clearly the same.
        public var appearanceMatchDistance = 0.06
        /// See `appearanceMatchDistance`; 0: appearance only vetoes.
        public var appearanceBonus = 0.5

        public init() {}

        /// Whether every setting is usable: each tunable one within its range of `Ranges` (counts
        /// from 1, at most 64 tracks, thresholds within 0...1, positive lifetimes and noise...),
        /// the confident threshold not below the least confidence, and the fixed ones sane.
        public var isValid: Bool {
            isWithinRanges && minimumConfidence <= confidentThreshold
                && coastAfterFrames.isFinite && (0...100).contains(coastAfterFrames) && maneuverMaximumLag >= .zero
                && clippedEdgeMargin.isFinite && clippedEdgeMargin < 0.5 && occludedEdgeTolerance.isFinite
                && occludedEdgeTolerance < 1 && outOfPictureTimeout >= .zero && outOfPictureAfterSeen >= .zero
                && reentryReach.isFinite && (0...1).contains(reentryReach) && reentrySizeRatio.isFinite && reentrySizeRatio > 1
                && (0...2).contains(reidentificationDistance) && reidentificationAfterSeen >= .zero
                && (0...2).contains(appearanceVetoDistance) && (0...2).contains(appearanceMatchDistance)
                && appearanceBonus.isFinite && appearanceBonus >= 0
                && lateManeuverRatio.isFinite && lateManeuverRatio >= 0 && lateManeuverVariance.isFinite && lateManeuverVariance > 0
                && lateManeuverMemory.isFinite && lateManeuverMemory >= 1 && lateManeuverPrior.isFinite
                && (0...1).contains(lateManeuverPrior)
        }
    }

    /// Where a track is in its life.
    public enum Phase: Hashable, Sendable {
        case tentative, confirmed, coasting
    }

    /// A side of the picture (of the delivered image) a subject walked out of.
    public enum PictureSide: Hashable, Sendable {
        case left, right
    }

    /// One tracked subject.
    public struct Track: Sendable {
        /// Its identifier: stable for its life, never reused — except that a new track recognised
        /// by its appearance as a lost one takes the lost one's (`Configuration.reidentificationWindow`).
        public internal(set) var identifier: Int
        /// What it is.
        public let kind: SubjectKind
        /// Its filter.
        public var filter: SubjectFilter
        /// Where it is in its life.
        public var phase: Phase
        /// Observations fused so far.
        public var hits: Int
        /// The sum of their confidences.
        public var confidenceSum: Double = 0
        /// The detector's identifier on the last observation fused, if it sent one.
        public var detectorIdentifier: Int? = nil
        /// When it was last seen (capture time).
        public var lastSeen: Duration
        /// The tracker's time when it was last fused: a track coasts when nothing has been fused
        /// into it for a while, however late the frames arrive.
        public var lastFused: Duration
        /// The tracker's time when a weak box last vouched for it while it coasted (see
        /// `Stage.vouching`): it keeps the track from being deleted but fuses nothing. Nil: never
        /// (not time zero, which in a tracker started at zero vouched for every track through its
        /// first `coastTimeout`).
        public var lastVouched: Duration? = nil
        /// When it was first seen.
        public let born: Duration
        /// The yaw rate its fused boxes show (see `Configuration.coastingRateWindow`).
        public var observedRate = ObservedRate(window: 0.5)
        /// Whether its filter's yaw rate was replaced by `observedRate`'s since its last box.
        public var walksOnObservedRate = false
        /// The running means of where its boxes' centres fell from where it expected them, in its
        /// box's widths and heights, and of their squares (see `Configuration.maneuverMemory`).
        public var innovationMean: (x: Double, y: Double) = (0, 0)
        public var innovationSquare = 0.0
        /// The share of `innovationSquare` the mean makes up: 0 to 1.
        public var maneuver: Double {
            innovationSquare > 0
                ? min(1, (innovationMean.x * innovationMean.x + innovationMean.y * innovationMean.y) / innovationSquare) : 0
        }
        /// The running mean square of its late boxes' offsets from where it was at their capture
        /// (boxes older than `Configuration.maneuverMaximumLag`, whole ones: not those the border
        /// cut): of their direction in yaw (`[0]`) and pitch (`[1]`), in its own angular width and
        /// height, each offset counted at most as nine times the mean before it (a maneuver's
        /// boxes are not the detector's jitter). NaN before the first; the filter's noise model
        /// (`noise.boxNoise`²) counts as one more box until `Configuration.lateManeuverMemory`
        /// have come. See `Configuration.lateManeuverRatio`.
        public var offsetSquare: InlineArray<2, Double> = InlineArray(repeating: .nan)
        /// How many late boxes `offsetSquare` has counted.
        public var offsetSamples = 0
        /// How far its acceleration noise is raised, 0 (steady) to 1 (`noise.accelerationNoise`):
        /// set by its boxes when fused, decayed by every prediction (see `Configuration.maneuverHold`).
        public var maneuverLevel = 0.0
        /// The side of the picture its subject walked out of, while it is out (nil: in the
        /// picture, seen or hidden). Such a track coasts no more: its filter is kept as it was
        /// when it left — direction, size, height, rates — and it is not associated as usual,
        /// only matched first, before any track is born, with a confident box of its kind that
        /// comes in on that side (or where it left) with its height; it lives
        /// `Configuration.outOfPictureTimeout` from `leftPictureAt`.
        public var outOfPicture: PictureSide? = nil
        /// The tracker's time when it went out of the picture.
        public var leftPictureAt: Duration = .zero
        /// Whether it walked out of the picture (see `outOfPicture`).
        public var isOutOfPicture: Bool { outOfPicture != nil }
        /// What it looks like, from the descriptors of the observations fused into it.
        public var appearance = AppearanceGallery()
        /// Whether a new track took its identifier this frame (it is removed at the frame's end).
        var isSuperseded = false
    }

    /// A track that was lost (deleted after coasting unseen, or out of the picture too long),
    /// kept for `Configuration.reidentificationWindow` so that its person can come back under
    /// its identifier.
    public struct LostTrack: Sendable {
        /// Its identifier.
        public let identifier: Int
        /// What it was.
        public let kind: SubjectKind
        /// What it looked like.
        public let appearance: AppearanceGallery
        /// The tracker's time when it was last fused.
        public let lastFused: Duration
    }

    /// The settings.
    public private(set) var configuration: Configuration
    /// The live tracks.
    public private(set) var tracks: [Track] = []
    /// The lost tracks that may still be recognised by their appearance, oldest first.
    public private(set) var lostTracks: [LostTrack] = []
    /// The time the filters have been predicted to.
    public private(set) var time: Duration = .zero
    private var nextIdentifier = 1
    /// The newest capture time of any frame fused so far.
    private var latestCapture: Duration = .zero
    /// The detector's frame interval, seconds: a running mean (weight 0.1) of the time between
    /// the captures of successive frames, those within a second; 0 before the second frame.
    public private(set) var frameInterval = 0.0
    /// `coastAfter`, or `coastAfterFrames` frame intervals if that is longer.
    var effectiveCoastAfter: Duration {
        let frames = configuration.coastAfterFrames * frameInterval
        guard frames.isFinite, frames > configuration.coastAfter.secondsValue else { return configuration.coastAfter }
        return Duration.fromSeconds(frames) ?? configuration.coastAfter
    }
    private var solver: AssignmentSolver
    // Per-frame buffers, sized once.
    private var predictions: [SubjectFilter.Prediction] = []
    private var rows: [Int] = []
    private var columns: [Int] = []
    private var assigned: [Bool] = []
    private var matched: [Bool] = []
    /// Each track's phase at the start of the frame's association, read once: reading a field of
    /// a `Track` in the array in a loop can copy the whole track.
    private var phases: [Phase] = []
    private var kinds: [SubjectKind] = []
    private var detectorIdentifiers: [Int?] = []
    /// Each track's expected box this frame (from its prediction).
    private var expectedBoxes: [NormalizedRect] = []
    /// Each observation's class this frame: 0 ignored, 1 confident, 2 unconfident.
    private var classes: [UInt8] = []
    /// Each observation's box this frame if it is a usable body's, as a nearer subject that may
    /// hide part of another (see `Configuration.occludedEdgeTolerance`); an empty box above the
    /// picture otherwise, which hides nothing.
    private var occluderBoxes: [NormalizedRect] = []
    /// The nearer bodies' boxes each observation's left and right edges lie along this frame.
    private var hiddenEdges: [ClippedEdges.Occluders] = []
    /// Whether each track is out of the picture at the start of the frame's association.
    private var isOut: [Bool] = []
    /// Whether each track takes part in the frame's association: in the picture, with a valid
    /// prediction.
    private var isAssociable: [Bool] = []
    /// Whether each track is hidden this frame (see `Configuration.hiddenAfterFrames`).
    private var isHidden: [Bool] = []
    /// The appearance distance of each track (row) from each observation (column, `count` a
    /// row) this frame; NaN where either has no descriptor.
    private var appearanceDistances: [Double] = []

    /// How long a lost track may be brought back by its appearance
    /// (`Configuration.reidentificationWindow`), the one setting that may change while the
    /// tracker runs (the daemon's `reidentification-window-s`, on a reload): a shorter window
    /// forgets the lost tracks it no longer covers at the next prediction. A value outside
    /// `Configuration.Ranges.reidentificationWindowSeconds` is clamped into it.
    public var reidentificationWindow: Duration {
        get { configuration.reidentificationWindow }
        set {
            let range = Configuration.Ranges.reidentificationWindowSeconds
            let seconds = min(max(newValue.secondsValue, range.lowerBound), range.upperBound)
            configuration.reidentificationWindow = .milliseconds(Int64((seconds * 1000).rounded()))
        }
    }

    /// Creates an empty tracker.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        tracks.reserveCapacity(configuration.maximumTracks)
        solver = AssignmentSolver(maximumRows: configuration.maximumTracks, maximumColumns: 64)
        predictions.reserveCapacity(configuration.maximumTracks)
        rows.reserveCapacity(configuration.maximumTracks)
        columns.reserveCapacity(solver.maximumColumns)
        assigned.reserveCapacity(solver.maximumColumns)
        matched.reserveCapacity(configuration.maximumTracks)
        phases.reserveCapacity(configuration.maximumTracks)
        kinds.reserveCapacity(configuration.maximumTracks)
        detectorIdentifiers.reserveCapacity(configuration.maximumTracks)
        expectedBoxes.reserveCapacity(configuration.maximumTracks)
        classes.reserveCapacity(solver.maximumColumns)
        occluderBoxes.reserveCapacity(solver.maximumColumns)
        hiddenEdges.reserveCapacity(solver.maximumColumns)
        isOut.reserveCapacity(configuration.maximumTracks)
        isAssociable.reserveCapacity(configuration.maximumTracks)
        isHidden.reserveCapacity(configuration.maximumTracks)
        appearanceDistances.reserveCapacity(configuration.maximumTracks * solver.maximumColumns)
        lostTracks.reserveCapacity(configuration.maximumTracks)
    }

    /// Takes an identifier no track has or will have (for a subject split from another,
    /// `SubjectFusion.fuse`'s `freshIdentifier`).
    public mutating func reserveIdentifier() -> Int {
        defer { nextIdentifier += 1 }
        return nextIdentifier
    }

    /// Drops every track; identifiers go on from where they were, so none is ever reused.
    public mutating func removeAll() {
        tracks.removeAll(keepingCapacity: true)
        lostTracks.removeAll(keepingCapacity: true)
    }

    /// Predicts every track to `now` and retires those unseen for too long, and any whose estimate
    /// has become meaningless (not finite, or wider or taller than any camera sees: 2.5 rad).
    public mutating func predict(to now: Duration) {
        guard now > time else { return }
        let seconds = (now - time).secondsValue
        let coastAfter = effectiveCoastAfter
        let hold = configuration.maneuverHold.secondsValue
        let maneuverDecay = hold > 0 ? exp(-seconds / hold) : 0
        // Through a pointer: reading a field of an element in place, not a copy of the track.
        tracks.withUnsafeMutableBufferPointer { tracks in
            for index in tracks.indices where tracks[index].outOfPicture == nil {
                let height = tracks[index].filter.state[5]
                // Missed: frames captured `coastAfter` after its last box have come without it
                // (not merely boxes arriving late, or the daemon predicting to the present).
                let missed = tracks[index].phase != .tentative && latestCapture - tracks[index].lastSeen > coastAfter
                tracks[index].filter.noise.accelerationNoise = Self.accelerationNoise(
                    heightRadians: height, tracks[index].kind,
                    coasting: missed, maneuver: tracks[index].maneuverLevel,
                    configuration)
                tracks[index].maneuverLevel *= maneuverDecay
                // A lost track keeps its yaw rate (a walker hidden behind someone walks on) but not
                // its pitch rate: a vertical rate comes from the jitter of a few boxes or from the
                // last half-hidden ones, people do not keep one up, and extrapolated for a second it
                // carries the expected box off where its person was lost, below every gate.
                if tracks[index].phase != .tentative && now - tracks[index].lastFused > coastAfter {
                    tracks[index].filter.forgetPitchRate()
                }
                // Once missed, it walks on at the pace of its last boxes (`ObservedRate`), not at
                // the rate the last few of them left in its filter.
                if missed, !tracks[index].walksOnObservedRate,
                    let fit = tracks[index].observedRate.estimate(
                        minimumResidual: configuration.noise.boxNoise * tracks[index].filter.state[4])
                {
                    tracks[index].filter.setYawRate(fit.rate, variance: fit.variance)
                    tracks[index].walksOnObservedRate = true
                }
                tracks[index].filter.predict(seconds: seconds)
            }
        }
        time = now
        // No confirmed track is deleted sooner than this after its last box (see `coastTimeout`).
        // (Twice a duration as a sum: `Duration * Int` is generic over the integer, unspecialised,
        // and was 1 % of the tracker's time.)
        let shortestCoast = min(configuration.coastTimeout, coastAfter + coastAfter)
        func isOver(_ track: borrowing Track) -> Bool {
            let box = track.filter.angularBox
            guard box.yawRadians.isFinite, box.pitchRadians.isFinite, box.widthRadians.isFinite, box.heightRadians.isFinite,
                box.widthRadians < 2.5, box.heightRadians < 2.5
            else { return true }
            if track.outOfPicture != nil { return now - track.leftPictureAt > configuration.outOfPictureTimeout }
            switch track.phase {
            case .tentative: return now - track.lastFused > max(configuration.tentativeTimeout, coastAfter)
            case .confirmed, .coasting:
                // A weak box that vouched for it buys it as long again as its own boxes earned it.
                let earned = Self.coastTimeout(seen: track.lastSeen - track.born, configuration)
                return now - track.lastFused > shortestCoast && now - track.lastFused > earned
                    && (track.lastVouched.map { now - $0 > earned } ?? true
                        || now - track.lastFused > configuration.vouchedCoastTimeout)
            }
        }
        let window = configuration.reidentificationWindow
        if window > .zero {
            lostTracks.removeAll { now - $0.lastFused > window }
            for index in tracks.indices
            where !tracks[index].appearance.isEmpty && tracks[index].phase != .tentative
                && tracks[index].lastSeen - tracks[index].born >= configuration.reidentificationAfterSeen
                && now - tracks[index].lastFused <= window && isOver(tracks[index])
            {
                if lostTracks.count >= configuration.maximumTracks { lostTracks.removeFirst() }
                lostTracks.append(
                    LostTrack(
                        identifier: tracks[index].identifier, kind: tracks[index].kind,
                        appearance: tracks[index].appearance, lastFused: tracks[index].lastFused))
            }
        }
        tracks.removeAll { isOver($0) }
        for index in tracks.indices where tracks[index].phase == .confirmed && now - tracks[index].lastFused > coastAfter {
            tracks[index].phase = .coasting
        }
    }

    /// How long a confirmed track seen over `seen` (its first box to its last) may coast unseen:
    /// `coastTimeoutPerSeen` times that, at least `coastAfter` more, at most `coastTimeout`.
    static func coastTimeout(seen: Duration, _ configuration: borrowing Configuration) -> Duration {
        let ratio = configuration.coastTimeoutPerSeen
        guard ratio > 0 else { return configuration.coastTimeout }
        // Beyond a billion seconds (a track seen for years) it has earned the longest.
        guard let earned = Duration.fromSeconds(seen.secondsValue * ratio) else { return configuration.coastTimeout }
        return min(configuration.coastTimeout, max(earned, configuration.coastAfter + configuration.coastAfter))
    }

    /// The level (0...1) a bias share (`Track.maneuver`) raises the noise to.
    static func maneuverLevel(_ maneuver: Double, _ configuration: borrowing Configuration) -> Double {
        let bias = configuration.maneuverBias
        guard maneuver > bias else { return 0 }
        return min(1, (maneuver - bias) / (1 - bias))
    }

    /// The angular acceleration noise of a track of `kind` with the given angular height (see
    /// `Configuration.accelerationPerHeight`), raised by a maneuver `level` (see `maneuverLevel`).
    static func accelerationNoise(
        heightRadians: Double, _ kind: SubjectKind, coasting: Bool = false, maneuver level: Double = 0,
        _ configuration: borrowing Configuration
    ) -> Double {
        let most = configuration.noise.accelerationNoise, perHeight = configuration.accelerationPerHeight
        guard perHeight > 0, heightRadians.isFinite else { return most }
        let height = heightRadians * (kind == .face ? 7 : 1)
        if coasting, configuration.coastingAccelerationPerHeight > 0 {
            return min(most, max(0.05, configuration.coastingAccelerationPerHeight * height))
        }
        let steady = min(most, max(0.2, perHeight * height))
        return level > 0 ? steady + (most - steady) * min(1, level) : steady
    }

    /// The association stages, in order.
    enum Stage {
        /// Confident observations against confirmed and coasting tracks, overlapping.
        case confident
        /// Confident observations left against the confirmed and coasting tracks left, not
        /// overlapping: a subject that outran its box, or came out from behind someone away from
        /// where its track coasted. A stage of its own, so that such a far pair never displaces
        /// an overlapping one.
        case distant
        /// Unconfident observations against the confirmed tracks left.
        case unconfident
        /// Unconfident observations left against the coasting tracks, overlapping as much as in
        /// `unconfident`: a weak box where a coasting track expects its person is evidence the
        /// person is still there, half hidden. It keeps the track from being deleted but is not
        /// fused (the rates a few half-hidden boxes teach are wrong) and does not confirm it again.
        case vouching
        /// Confident observations left against tentative tracks.
        case tentative
    }

    /// The cost of pairing a track with an observation's box, or infinity when the pair is not
    /// allowed at this stage, from the box's squared Mahalanobis distance from the track's
    /// prediction (nil: not comparable) and the pair's `overlap` as `allowedOverlap` gave it.
    ///
    /// When the detector gave the observation an identifier and the track has one, the same
    /// identifier makes the pair 1 cheaper and lifts the overlap floor (the detector vouches for
    /// it), a different one makes it 1 dearer (a detector that lost and found a person again
    /// gives a new identifier, so it is not forbidden).
    ///
    /// When both have appearance descriptors, a pair farther apart than `appearanceVetoDistance`
    /// is not allowed, and one within `appearanceMatchDistance` costs `appearanceBonus` less.
    static func cost(
        distance: Double?, overlap: Double, phase: Phase, isHidden: Bool = false, stage: Stage,
        sameDetectorIdentifier: Bool? = nil, appearanceDistance: Double? = nil, configuration: borrowing Configuration
    ) -> Double {
        guard let distance, distance <= configuration.gate else { return .infinity }
        // A coasting or hidden track's far pair only within `coastingGate` (see `allowedOverlap`).
        if stage == .distant, phase == .coasting || isHidden, distance > configuration.coastingGate { return .infinity }
        var appearanceCost = 0.0
        if let appearanceDistance, appearanceDistance <= configuration.appearanceMatchDistance {
            appearanceCost = -configuration.appearanceBonus
        }
        let identityCost = sameDetectorIdentifier.map { $0 ? -1.0 : 1.0 } ?? 0
        return configuration.overlapWeight * (1 - overlap) + distance / configuration.gate + identityCost + appearanceCost
    }

    /// The cost of pairing the track whose prediction is `predictions[track]` (its expected box
    /// `expected`) with an observation's box (see `cost`), and the edges of the box not measured
    /// for it: those the picture's border cut, compared with the expected box cut alike, on the
    /// measured part only (`ClippedEdges`). A box whose edge lies along a nearer subject's box
    /// (`occluders`) may be seen to that subject's edge or whole — a detector reports either, for
    /// a person half behind someone — so it is judged both ways, that edge cut and not, and the
    /// likelier (the cheaper pair) counts.
    static func pairCost(
        _ box: NormalizedRect, occluders: ClippedEdges.Occluders, expected: NormalizedRect,
        _ predictions: UnsafeBufferPointer<SubjectFilter.Prediction>, _ track: Int, phase: Phase, isHidden: Bool, stage: Stage,
        sameDetectorIdentifier: Bool?, appearanceDistance: Double?, _ configuration: borrowing Configuration
    ) -> (cost: Double, edges: ClippedEdges) {
        func judged(_ edges: ClippedEdges, _ configuration: borrowing Configuration) -> Double {
            guard
                let overlap = allowedOverlap(
                    expected: edges.clip(expected, like: box), box, phase: phase, isHidden: isHidden, stage: stage,
                    sameDetectorIdentifier: sameDetectorIdentifier, appearanceDistance: appearanceDistance,
                    configuration: configuration)
            else { return .infinity }
            let distance = edges.isEmpty ? predictions[track].distance(to: box) : predictions[track].clipped(edges).distance(to: box)
            return cost(
                distance: distance, overlap: overlap, phase: phase, isHidden: isHidden, stage: stage,
                sameDetectorIdentifier: sameDetectorIdentifier, appearanceDistance: appearanceDistance,
                configuration: configuration)
        }
        let whole = cutEdges(box, expected: expected, occluders: ClippedEdges.Occluders(), configuration)
        let best = (cost: judged(whole, configuration), edges: whole)
        guard occluders != ClippedEdges.Occluders() else { return best }
        let hidden = cutEdges(box, expected: expected, occluders: occluders, configuration)
        guard hidden != whole else { return best }
        let cut = judged(hidden, configuration)
        return cut < best.cost ? (cut, hidden) : best
    }

    /// The overlap (IoU) of an observation's box with the box the track expects, or nil when the
    /// pair is not allowed at this stage for any reason but its Mahalanobis distance: descriptors
    /// too far apart, sizes too unlike, too little overlap, or (in the distant stage) too far
    /// from the expected centre. Cheap, so the tracker asks it first and works the distance out
    /// only for the few pairs it allows (`cost`).
    static func allowedOverlap(
        expected expectedBox: NormalizedRect, _ box: NormalizedRect, phase: Phase, isHidden: Bool = false, stage: Stage,
        sameDetectorIdentifier: Bool? = nil, appearanceDistance: Double? = nil, configuration: borrowing Configuration
    ) -> Double? {
        if let appearanceDistance, appearanceDistance > configuration.appearanceVetoDistance { return nil }
        let expectedWidth = expectedBox.width, expectedHeight = expectedBox.height
        guard expectedWidth > 0, expectedHeight > 0 else { return nil }
        let ratio = configuration.sizeRatioGate
        let widthRatio = box.width / expectedWidth, heightRatio = box.height / expectedHeight
        guard widthRatio <= ratio, widthRatio * ratio >= 1, heightRatio <= ratio, heightRatio * ratio >= 1 else { return nil }
        let overlap = expectedBox.intersectionOverUnion(box)
        let vouched = sameDetectorIdentifier == true
        switch stage {
        case .confident, .tentative:
            let least =
                phase == .coasting
                ? configuration.minimumOverlapCoasting : isHidden ? configuration.minimumOverlapHidden : configuration.minimumOverlap
            guard overlap >= least || vouched else { return nil }
        case .unconfident, .vouching:
            guard overlap >= configuration.minimumOverlapUnconfident || vouched else { return nil }
        case .distant:
            // A track seen in the last frames within the Mahalanobis gate; a coasting or hidden one
            // only within `coastingGate` (`cost`) and `coastingReach` of its box: while unseen its
            // box drifted and its covariance grew enough to take in a neighbour.
            let across = (box.x + box.width / 2 - expectedBox.x - expectedWidth / 2) / expectedWidth
            let down = (box.y + box.height / 2 - expectedBox.y - expectedHeight / 2) / expectedHeight
            let reach = (across * across + down * down).squareRoot()
            let farthest = phase == .coasting || isHidden ? configuration.coastingReach : configuration.distantReach
            guard reach <= farthest else { return nil }
        }
        return overlap
    }

    /// Fuses one frame's observations, captured at `captureTime` with the gimbal at the given pose.
    /// A frame from the future first moves the tracker there; a late one is fused with each track
    /// moved back by the lag. Observations without a usable box, or less confident than
    /// `minimumConfidence`, are ignored. In the steady state (no track born) this allocates
    /// nothing: the per-frame buffers are the tracker's own.
    public mutating func update(
        _ observations: [Observation], camera: CameraInformation, captureTime: Duration,
        gimbalYawRadians: Double, gimbalPitchRadians: Double
    ) {
        guard let model = MeasurementModel(camera: camera, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians)
        else { return }
        if captureTime > latestCapture, latestCapture > .zero {
            let interval = (captureTime - latestCapture).secondsValue
            if interval < 1 { frameInterval = frameInterval == 0 ? interval : frameInterval + 0.1 * (interval - frameInterval) }
        }
        latestCapture = max(latestCapture, captureTime)
        if captureTime > time { predict(to: captureTime) }
        let lag = captureTime < time ? (time - captureTime).secondsValue : 0
        let count = min(observations.count, solver.maximumColumns)
        assigned.removeAll(keepingCapacity: true)
        classes.removeAll(keepingCapacity: true)
        var observedKinds: (face: Bool, body: Bool, object: Bool) = (false, false, false)
        for index in 0..<count {
            assigned.append(false)
            let observation = observations[index]
            let confidence = observation.confidence
            guard observation.box.isUsable, confidence.isFinite, confidence >= configuration.minimumConfidence else {
                classes.append(0)
                continue
            }
            classes.append(confidence >= configuration.confidentThreshold ? 1 : 2)
            switch observation.kind {
            case .face: observedKinds.face = true
            case .body: observedKinds.body = true
            case .object: observedKinds.object = true
            }
        }
        findHiddenEdges(observations, count: count)
        matched.removeAll(keepingCapacity: true)
        phases.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        detectorIdentifiers.removeAll(keepingCapacity: true)
        isOut.removeAll(keepingCapacity: true)
        isAssociable.removeAll(keepingCapacity: true)
        isHidden.removeAll(keepingCapacity: true)
        expectedBoxes.removeAll(keepingCapacity: true)
        let hiddenAfter = configuration.hiddenAfterFrames * frameInterval, hiddenAtMost = configuration.coastAfter.secondsValue
        // Each prediction is worked out where it is kept (one per track, a few hundred bytes: not
        // returned and copied in).
        if predictions.count > tracks.count { predictions.removeLast(predictions.count - tracks.count) }
        while predictions.count < tracks.count { predictions.append(.invalid) }
        for index in tracks.indices {
            tracks[index].filter.prediction(model, lagSeconds: lag, into: &predictions[index])
            let expected = predictions[index].measurement
            expectedBoxes.append(
                NormalizedRect(
                    x: expected[0] - expected[2] / 2, y: expected[1] - expected[3] / 2,
                    width: expected[2], height: expected[3]))
            matched.append(false)
            phases.append(tracks[index].phase)
            kinds.append(tracks[index].kind)
            detectorIdentifiers.append(tracks[index].detectorIdentifier)
            isOut.append(tracks[index].outOfPicture != nil)
            isAssociable.append(predictions[index].isValid && tracks[index].outOfPicture == nil)
            let unseen = (captureTime - tracks[index].lastSeen).secondsValue
            isHidden.append(hiddenAfter > 0 && tracks[index].phase == .confirmed && unseen > hiddenAfter && unseen <= hiddenAtMost)
        }
        fillAppearanceDistances(observations, count: count)
        // A frame late enough for the rule for late maneuvers (`Configuration.lateManeuverRatio`)
        // takes the model along, to work a track's prediction out again.
        let late =
            configuration.lateManeuverRatio > 0 && time - captureTime > configuration.maneuverMaximumLag
            ? LateFrame(
                model: model, lagSeconds: lag, camera: camera, gimbalYawRadians: gimbalYawRadians,
                gimbalPitchRadians: gimbalPitchRadians) : nil
        for kind in SubjectKind.allCases {
            let isObserved =
                switch kind {
                case .face: observedKinds.face
                case .body: observedKinds.body
                case .object: observedKinds.object
                }
            guard isObserved else { continue }
            associate(.confident, kind, observations, count: count, captureTime: captureTime, late: late)
            associate(.distant, kind, observations, count: count, captureTime: captureTime, late: late)
            associate(.unconfident, kind, observations, count: count, captureTime: captureTime, late: late)
            associate(.vouching, kind, observations, count: count, captureTime: captureTime, late: late)
            associate(.tentative, kind, observations, count: count, captureTime: captureTime, late: late)
        }
        if configuration.outOfPictureTimeout > .zero {
            markTracksOutOfPicture()
            bringBack(
                observations, count: count, camera: camera, captureTime: captureTime,
                gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians)
        }
        // Confident observations nobody took start tentative tracks, while there is room.
        for index in 0..<count where !assigned[index] && tracks.count < configuration.maximumTracks {
            let observation = observations[index]
            guard observation.box.isUsable, observation.confidence >= configuration.birthConfidence,
                observation.confidence >= configuration.confidentThreshold,
                let angular = AngularBox(
                    box: observation.box, camera: camera, gimbalYawRadians: gimbalYawRadians,
                    gimbalPitchRadians: gimbalPitchRadians)
            else { continue }
            var noise = configuration.noise
            noise.accelerationNoise = Self.accelerationNoise(heightRadians: angular.heightRadians, observation.kind, configuration)
            var observedRate = ObservedRate(window: configuration.coastingRateWindow.secondsValue)
            observedRate.add(yawRadians: angular.yawRadians, at: captureTime)
            var track = Track(
                identifier: nextIdentifier, kind: observation.kind,
                filter: SubjectFilter(first: angular, noise: noise),
                phase: .tentative, hits: 1, confidenceSum: observation.confidence,
                detectorIdentifier: observation.identifier, lastSeen: captureTime, lastFused: time, born: captureTime,
                observedRate: observedRate)
            if let appearance = observation.appearance { track.appearance.add(appearance, at: captureTime) }
            tracks.append(track)
            nextIdentifier += 1
        }
        if configuration.reidentificationWindow > .zero { reidentifyConfirmedTracks() }
    }

    /// Fills `hiddenEdges` for the frame (see `Configuration.occludedEdgeTolerance`): for each
    /// usable body's box, the nearer bodies' boxes its edges lie along.
    private mutating func findHiddenEdges(_ observations: [Observation], count: Int) {
        occluderBoxes.removeAll(keepingCapacity: true)
        hiddenEdges.removeAll(keepingCapacity: true)
        let tolerance = configuration.occludedEdgeTolerance
        let nobody = NormalizedRect(x: 0, y: -1, width: 0, height: 0)
        for index in 0..<count {
            let isBody = classes[index] != 0 && observations[index].kind == .body
            occluderBoxes.append(isBody && classes[index] == 1 ? observations[index].box : nobody)
        }
        occluderBoxes.withUnsafeBufferPointer { boxes in
            for index in 0..<count {
                guard tolerance >= 0, classes[index] != 0, observations[index].kind == .body else {
                    hiddenEdges.append(ClippedEdges.Occluders())
                    continue
                }
                hiddenEdges.append(ClippedEdges.Occluders(of: boxes[index], among: boxes, at: index, tolerance: tolerance))
            }
        }
    }

    /// The edges of `box` the tracker does not measure against `expected`: those the picture's
    /// border cut, and those a nearer subject hides (`occluders`) from a subject behind them, where
    /// `expected` reaches at least as far (see `ClippedEdges`).
    static func cutEdges(
        _ box: NormalizedRect, expected: NormalizedRect, occluders: ClippedEdges.Occluders, _ configuration: borrowing Configuration
    ) -> ClippedEdges {
        let tolerance = configuration.occludedEdgeTolerance
        return ClippedEdges(
            observed: box, expected: expected, margin: configuration.clippedEdgeMargin, occluders: occluders,
            hiddenMargin: tolerance * expected.width, depthMargin: tolerance * expected.height)
    }

    /// Fills `appearanceDistances` for the frame: NaN but where a track and an observation of
    /// one kind both have descriptors (only pairs of one kind are ever compared). Each
    /// observation's descriptor length is worked out once, not once per track, and the galleries
    /// are read in place.
    private mutating func fillAppearanceDistances(_ observations: [Observation], count: Int) {
        appearanceDistances.removeAll(keepingCapacity: true)
        appearanceDistances.append(contentsOf: repeatElement(.nan, count: tracks.count * count))
        tracks.withUnsafeBufferPointer { tracks in
            observations.withUnsafeBufferPointer { observations in
                appearanceDistances.withUnsafeMutableBufferPointer { distances in
                    for index in 0..<count {
                        guard let appearance = observations[index].appearance else { continue }
                        let kind = observations[index].kind
                        appearance.withUnsafeBufferPointer { descriptor in
                            let norm = AppearanceGallery.norm(descriptor)
                            for track in tracks.indices where tracks[track].kind == kind {
                                guard let distance = tracks[track].appearance.distance(to: descriptor, norm: norm) else { continue }
                                distances[track * count + index] = distance
                            }
                        }
                    }
                }
            }
        }
    }

    /// Tracks confirmed in this frame whose appearance is within `reidentificationDistance` of
    /// one lost track's (or out-of-picture track's) of their kind, lost within
    /// `reidentificationWindow`, and of no other lost or live track's, take its identifier: the
    /// person came back. A look-alike near two lost people, or near someone still in the picture,
    /// is left a stranger (a stranger handed an old identifier costs more than a returning
    /// subject given a new one).
    private mutating func reidentifyConfirmedTracks() {
        var isAnySuperseded = false
        let limit = configuration.reidentificationDistance, window = configuration.reidentificationWindow
        for index in tracks.indices where index < phases.count ? phases[index] == .tentative : true {
            guard tracks[index].phase == .confirmed, !tracks[index].appearance.isEmpty else { continue }
            let kind = tracks[index].kind
            var found: (lost: Int?, out: Int?, distance: Double)?
            var rivals = 0
            for lost in lostTracks.indices where lostTracks[lost].kind == kind && time - lostTracks[lost].lastFused <= window {
                guard let distance = lostTracks[lost].appearance.distance(to: tracks[index].appearance), distance <= limit else { continue }
                rivals += 1
                if found.map({ distance < $0.distance }) ?? true { found = (lost, nil, distance) }
            }
            for other in tracks.indices
            where other != index && tracks[other].kind == kind && !tracks[other].isSuperseded
                && tracks[other].phase != .tentative
            {
                guard let distance = tracks[other].appearance.distance(to: tracks[index].appearance), distance <= limit else { continue }
                rivals += 1
                if tracks[other].isOutOfPicture, time - tracks[other].lastFused <= window,
                    found.map({ distance < $0.distance }) ?? true
                {
                    found = (nil, other, distance)
                }
            }
            guard rivals == 1, let found else { continue }
            if let lost = found.lost {
                tracks[index].identifier = lostTracks[lost].identifier
                lostTracks.remove(at: lost)
            } else if let out = found.out {
                tracks[index].identifier = tracks[out].identifier
                tracks[out].isSuperseded = true
                isAnySuperseded = true
            }
        }
        if isAnySuperseded { tracks.removeAll { $0.isSuperseded } }
    }

    /// A confirmed or coasting track seen for `outOfPictureAfterSeen`, not seen in this frame,
    /// whose expected box's centre lies beyond the picture's left or right border has walked out
    /// on that side: it is frozen there (see `Track.outOfPicture`).
    private mutating func markTracksOutOfPicture() {
        for index in predictions.indices
        where !matched[index] && isAssociable[index] && phases[index] != .tentative
            && tracks[index].lastSeen - tracks[index].born >= configuration.outOfPictureAfterSeen
        {
            let expected = expectedBoxes[index], centre = expected.x + expected.width / 2
            let side: PictureSide? = centre < 0 ? .left : centre > 1 ? .right : nil
            guard let side else { continue }
            tracks[index].outOfPicture = side
            tracks[index].leftPictureAt = time
            tracks[index].phase = .coasting
        }
    }

    /// Confident observations nobody took that come in on the side an out-of-picture track of
    /// their kind left by (their centre within `reentryReach` of that border, or overlapping the
    /// box it left with), with its height (within `reentrySizeRatio`, unless the border cuts the
    /// box's top or bottom), bring that track back under its identifier, its filter started again
    /// from the box (a box the border cuts grows to its person as they come in: `ClippedEdges`) —
    /// but only when the pairing is unambiguous: the box is the only one that fits the track and
    /// the track the only one that fits the box. Where people come and go in numbers (a street)
    /// anyone of a height may be anyone else, and a stranger handed an old identifier costs more
    /// than a returning subject given a new one; a person who leaves a room and comes back, or one
    /// of a few who step out, is brought back.
    private mutating func bringBack(
        _ observations: [Observation], count: Int, camera: CameraInformation, captureTime: Duration,
        gimbalYawRadians: Double, gimbalPitchRadians: Double
    ) {
        guard isOut.contains(true) else { return }
        func fits(_ track: Int, _ index: Int) -> Bool {
            guard let side = tracks[track].outOfPicture, isOut.indices.contains(track), !assigned[index], classes[index] == 1,
                observations[index].kind == tracks[track].kind, observations[index].confidence >= configuration.birthConfidence
            else { return false }
            let box = observations[index].box, centre = box.x + box.width / 2
            let onSide = side == .left ? centre <= configuration.reentryReach : centre >= 1 - configuration.reentryReach
            guard onSide || expectedBoxes[track].intersectionOverUnion(box) > 0,
                let angular = AngularBox(
                    box: box, camera: camera, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians)
            else { return false }
            // Someone who clearly looks otherwise is somebody else, whatever their height.
            let appearance = appearanceDistances[track * count + index]
            if !appearance.isNaN, appearance > configuration.reidentificationDistance { return false }
            let margin = max(configuration.clippedEdgeMargin, 0)
            if abs(box.y) <= margin || abs(box.maxY - 1) <= margin { return true }
            let ratio = angular.heightRadians / tracks[track].filter.state[5], most = configuration.reentrySizeRatio
            return ratio <= most && ratio * most >= 1
        }
        for track in tracks.indices where tracks[track].outOfPicture != nil {
            var only: Int?, fitting = 0
            for index in 0..<count where fits(track, index) {
                fitting += 1
                only = index
            }
            guard fitting == 1, let index = only else { continue }
            var rivals = 0
            for other in tracks.indices where tracks[other].outOfPicture != nil && fits(other, index) { rivals += 1 }
            guard rivals == 1 else { continue }
            let best = (track: track, observation: index)
            let observation = observations[best.observation]
            guard
                let angular = AngularBox(
                    box: observation.box, camera: camera, gimbalYawRadians: gimbalYawRadians,
                    gimbalPitchRadians: gimbalPitchRadians)
            else { continue }
            var noise = configuration.noise
            noise.accelerationNoise = Self.accelerationNoise(heightRadians: angular.heightRadians, observation.kind, configuration)
            tracks[best.track].filter = SubjectFilter(first: angular, noise: noise)
            tracks[best.track].outOfPicture = nil
            tracks[best.track].phase = .confirmed
            tracks[best.track].hits += 1
            tracks[best.track].confidenceSum += observation.confidence
            tracks[best.track].lastSeen = captureTime
            tracks[best.track].lastFused = time
            tracks[best.track].walksOnObservedRate = false
            tracks[best.track].observedRate = ObservedRate(window: configuration.coastingRateWindow.secondsValue)
            tracks[best.track].observedRate.add(yawRadians: angular.yawRadians, at: captureTime)
            tracks[best.track].innovationMean = (0, 0)
            tracks[best.track].innovationSquare = 0
            tracks[best.track].maneuverLevel = 0
            if let identifier = observation.identifier { tracks[best.track].detectorIdentifier = identifier }
            if let appearance = observation.appearance { tracks[best.track].appearance.add(appearance, at: captureTime) }
            assigned[best.observation] = true
        }
    }

    /// One association stage for one kind: pairs the stage's tracks and observations not yet
    /// paired by optimal assignment and fuses each pair.
    private mutating func associate(
        _ stage: Stage, _ kind: SubjectKind, _ observations: [Observation], count: Int,
        captureTime: Duration, late: LateFrame?
    ) {
        rows.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        for index in isAssociable.indices where kinds[index] == kind && !matched[index] && isAssociable[index] {
            let phase = phases[index]
            let isRow =
                switch stage {
                case .confident, .distant: phase != .tentative
                case .unconfident: phase == .confirmed
                case .vouching: phase == .coasting
                case .tentative: phase == .tentative
                }
            if isRow { rows.append(index) }
        }
        guard !rows.isEmpty else { return }
        let wanted: UInt8 = stage == .unconfident || stage == .vouching ? 2 : 1
        for index in 0..<count where !assigned[index] && classes[index] == wanted && observations[index].kind == kind {
            columns.append(index)
        }
        guard !columns.isEmpty else { return }
        // The costs read the per-frame buffers through pointers: no retain, no bounds check, no
        // copy of a prediction per pair — nor of the settings (some 600 bytes, ten times a frame).
        let unpaired = configuration.unpairedCost + (stage == .distant ? configuration.overlapWeight : 0)
        // (Asked once: binding the late frame copies it.)
        let isLate = late != nil
        let hiddenEdges = hiddenEdges
        // Every stage but the distant one asks a pair's boxes to overlap (`allowedOverlap`), unless
        // the detector vouches for it: a pair whose boxes do not meet at all — most of a frame's —
        // is refused before anything else about it is worked out.
        let needsOverlap =
            stage != .distant
            && min(
                configuration.minimumOverlap, configuration.minimumOverlapHidden, configuration.minimumOverlapCoasting,
                configuration.minimumOverlapUnconfident) > 0
        withUnsafePointer(to: &configuration) { settings in
            rows.withUnsafeBufferPointer { rows in
                columns.withUnsafeBufferPointer { columns in
                    predictions.withUnsafeBufferPointer { predictions in
                        expectedBoxes.withUnsafeBufferPointer { expectedBoxes in
                            phases.withUnsafeBufferPointer { phases in
                                isHidden.withUnsafeBufferPointer { isHidden in
                                    detectorIdentifiers.withUnsafeBufferPointer { trackIdentifiers in
                                        appearanceDistances.withUnsafeBufferPointer { appearanceDistances in
                                            observations.withUnsafeBufferPointer { observations in
                                                solver.solve(
                                                    rows: rows.count, columns: columns.count, gate: .greatestFiniteMagnitude,
                                                    unpairedCost: unpaired
                                                ) { row, column in
                                                    let track = rows[row], observation = columns[column]
                                                    let box = observations[observation].box
                                                    var same: Bool?
                                                    if let mine = trackIdentifiers[track], let theirs = observations[observation].identifier
                                                    {
                                                        same = mine == theirs
                                                    }
                                                    // (The expected box cut like this one, below, lies within the
                                                    // whole one: if the whole one does not meet it, neither does that.)
                                                    if needsOverlap, same != true, !expectedBoxes[track].intersects(box) {
                                                        return .infinity
                                                    }
                                                    let appearance = appearanceDistances[track * count + observation]
                                                    return Self.pairCost(
                                                        box, occluders: hiddenEdges[observation], expected: expectedBoxes[track],
                                                        predictions, track, phase: phases[track], isHidden: isHidden[track],
                                                        stage: stage, sameDetectorIdentifier: same,
                                                        appearanceDistance: appearance.isNaN ? nil : appearance,
                                                        settings.pointee
                                                    ).cost
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for row in rows.indices {
            let column = solver.column(forRow: row)
            guard column >= 0 else { continue }
            let trackIndex = rows[row], observationIndex = columns[column]
            if stage == .vouching {
                assigned[observationIndex] = true
                matched[trackIndex] = true
                self.tracks[trackIndex].lastVouched = time
                continue
            }
            let box = observations[observationIndex].box
            let expected = expectedBoxes[trackIndex]
            // The edges the pair was judged with: a box a nearer subject may have cut is taken as cut
            // or as whole, whichever fitted the track better.
            var edges = Self.cutEdges(box, expected: expected, occluders: ClippedEdges.Occluders(), configuration)
            if hiddenEdges[observationIndex] != ClippedEdges.Occluders() {
                var same: Bool?
                if let mine = detectorIdentifiers[trackIndex], let theirs = observations[observationIndex].identifier {
                    same = mine == theirs
                }
                let appearance = appearanceDistances[trackIndex * count + observationIndex]
                edges = predictions.withUnsafeBufferPointer { predictions in
                    Self.pairCost(
                        box, occluders: hiddenEdges[observationIndex], expected: expected, predictions, trackIndex,
                        phase: phases[trackIndex], isHidden: isHidden[trackIndex], stage: stage, sameDetectorIdentifier: same,
                        appearanceDistance: appearance.isNaN ? nil : appearance, configuration
                    ).edges
                }
            }
            let isFused: Bool
            if !edges.isEmpty {
                isFused = self.tracks[trackIndex].filter.update(with: box, predictions[trackIndex].clipped(edges))
            } else if isLate {
                isFused = fuseLate(trackIndex, box, late!, captureTime: captureTime)
            } else {
                // (The prediction read in place: through the array's subscript it is copied.)
                isFused = predictions.withUnsafeBufferPointer { self.tracks[trackIndex].filter.update(with: box, $0[trackIndex]) }
            }
            guard isFused else { continue }
            // Boxes much later than the present tell of the past, through the lag's linear
            // approximation; only those about as fresh as a frame tell of a turn.
            if configuration.maneuverMemory > 0, time - captureTime <= configuration.maneuverMaximumLag {
                let (x, y) = edges.offset(of: box, from: expected)
                let weight = 1 / max(1, configuration.maneuverMemory)
                self.tracks[trackIndex].innovationMean.x += weight * (x - self.tracks[trackIndex].innovationMean.x)
                self.tracks[trackIndex].innovationMean.y += weight * (y - self.tracks[trackIndex].innovationMean.y)
                self.tracks[trackIndex].innovationSquare += weight * (x * x + y * y - self.tracks[trackIndex].innovationSquare)
                let level = Self.maneuverLevel(self.tracks[trackIndex].maneuver, configuration)
                self.tracks[trackIndex].maneuverLevel = max(level, self.tracks[trackIndex].maneuverLevel)
            }
            assigned[observationIndex] = true
            matched[trackIndex] = true
            self.tracks[trackIndex].hits += 1
            self.tracks[trackIndex].confidenceSum += observations[observationIndex].confidence
            if let identifier = observations[observationIndex].identifier { self.tracks[trackIndex].detectorIdentifier = identifier }
            if let appearance = observations[observationIndex].appearance {
                self.tracks[trackIndex].appearance.add(appearance, at: captureTime)
            }
            self.tracks[trackIndex].lastSeen = max(self.tracks[trackIndex].lastSeen, captureTime)
            self.tracks[trackIndex].lastFused = time
            if configuration.coastingRateWindow > .zero {
                let yaw = self.tracks[trackIndex].filter.state[0]
                self.tracks[trackIndex].observedRate.add(yawRadians: yaw, at: captureTime)
            }
            self.tracks[trackIndex].walksOnObservedRate = false
            let hits = self.tracks[trackIndex].hits, confidenceSum = self.tracks[trackIndex].confidenceSum
            if phases[trackIndex] == .coasting || hits >= configuration.confirmationHits
                || (hits >= 2 && confidenceSum >= configuration.quickConfirmationConfidence)
            {
                self.tracks[trackIndex].phase = .confirmed
            }
        }
    }
}

extension SubjectTracker {
    /// The most one box's squared offset counts in `Track.offsetSquare`, in multiples of the mean
    /// before it (three of the jitter's deviations): a maneuver's boxes are not the jitter.
    static let offsetCap = 9.0

    /// A frame late enough for the rule for late maneuvers (`Configuration.lateManeuverRatio`):
    /// what working a box's place and a track's prediction out again takes.
    struct LateFrame {
        let model: MeasurementModel
        let lagSeconds: Double
        let camera: CameraInformation
        let gimbalYawRadians: Double
        let gimbalPitchRadians: Double
    }

    /// Fuses whole box `box` of a frame late enough for the rule for late maneuvers into track
    /// `index`: a late box far from where the track expected it may tell of a maneuver
    /// (`Configuration.lateManeuverRatio`), and is then fused both ways, the two estimates mixed by
    /// how likely each is. False when the box cannot be fused. (A function of its own, out of
    /// line: a frame this late is rare, and inlined its late frame was copied for every pair.)
    @inline(never)
    private mutating func fuseLate(_ index: Int, _ box: NormalizedRect, _ late: LateFrame, captureTime: Duration) -> Bool {
        let maneuver = lateManeuver(index, box, late, captureTime: captureTime)
        // (Copied only then, and through a pointer: a filter is a few hundred bytes, a track read
        // through the array's subscript can be copied whole.)
        let turned = maneuver.probability > 0 ? tracks.withUnsafeBufferPointer { $0[index].filter } : nil
        guard tracks[index].filter.update(with: box, predictions[index]) else { return false }
        if var turned {
            for axis in 0..<2 where maneuver.axes[axis] {
                turned.allowRateChange(axis: axis, variance: configuration.lateManeuverVariance, secondsAgo: maneuver.secondsAgo)
            }
            // (The track's prediction is not read again this frame: it is matched.)
            turned.prediction(late.model, lagSeconds: late.lagSeconds, into: &predictions[index])
            if turned.update(with: box, predictions[index]) {
                tracks[index].filter.mix(with: turned, share: maneuver.probability)
            }
        }
        return true
    }

    /// The rule for a late box that tells of a maneuver (`Configuration.lateManeuverRatio`), for
    /// a whole box of `late` about to be fused into track `index`: the probability that the
    /// track's rate changed on the far `axes` (0: yaw, 1: pitch) since its previous box, and when
    /// that box was captured (seconds before now); 0 when the box is not far, or the track's
    /// previous box is older than a track goes unseen before it coasts (`coastAfter`: a track
    /// found again has drifted as a walker may, and its offset says nothing of a turn). The
    /// offsets are the box's direction, as the camera saw it, against the track's estimate at the
    /// box's capture, in the track's widths and heights: whatever way the image is turned or
    /// mirrored. Counts them into `Track.offsetSquare` either way.
    mutating func lateManeuver(_ index: Int, _ box: NormalizedRect, _ late: LateFrame, captureTime: Duration)
        -> (probability: Double, axes: InlineArray<2, Bool>, secondsAgo: Double)
    {
        let none = (probability: 0.0, axes: InlineArray<2, Bool>(repeating: false), secondsAgo: 0.0)
        guard
            let seen = AngularBox(
                box: box, camera: late.camera, gimbalYawRadians: late.gimbalYawRadians, gimbalPitchRadians: late.gimbalPitchRadians)
        else { return none }
        let lag = late.lagSeconds, coastAfter = effectiveCoastAfter
        let model = configuration.noise.boxNoise * configuration.noise.boxNoise
        // Through a pointer: reading a field of a track in the array can copy the whole track.
        return tracks.withUnsafeMutableBufferPointer { tracks in
            let state = tracks[index].filter.state
            let sizes: InlineArray<2, Double> = [max(state[4], 1e-6), max(state[5], 1e-6)]
            let offsets: InlineArray<2, Double> = [
                remainder(seen.yawRadians - (state[0] - state[2] * lag), 2 * .pi) / sizes[0],
                (seen.pitchRadians - (state[1] - state[3] * lag)) / sizes[1],
            ]
            let sinceLast = captureTime - tracks[index].lastSeen
            let gap = sinceLast.secondsValue
            let isJudged = sinceLast > .zero && sinceLast <= coastAfter
            let ratio = configuration.lateManeuverRatio
            // A running mean: of every late box so far (and the model's figure, as one more) until
            // there are `lateManeuverMemory` of them, then weighing the newest 1/memory.
            let samples = tracks[index].offsetSamples
            let weight = 1 / min(Double(samples) + 2, configuration.lateManeuverMemory)
            tracks[index].offsetSamples = samples + 1
            var axes = none.axes
            var logRatio = 0.0
            for axis in 0..<2 {
                let square = offsets[axis] * offsets[axis]
                guard square.isFinite else { continue }
                // Before its first late box a track's jitter is taken as the filter's model has it.
                let stored = tracks[index].offsetSquare[axis]
                let known = max(stored.isNaN ? model : stored, Self.leastOffsetSquare)
                if isJudged, square > ratio * known {
                    // The offset under either hypothesis: the detector's jitter as this track's
                    // late boxes have shown it, or that and a rate change of variance v at the
                    // previous box's capture (v gap² of the direction, in the track's sizes).
                    let turned = known + configuration.lateManeuverVariance * gap * gap / (sizes[axis] * sizes[axis])
                    logRatio += 0.5 * log(known / turned) + 0.5 * square * (1 / known - 1 / turned)
                    axes[axis] = true
                }
                tracks[index].offsetSquare[axis] = known + weight * (min(square, Self.offsetCap * known) - known)
            }
            guard axes[0] || axes[1] else { return none }
            let prior = configuration.lateManeuverPrior
            let odds = prior / (1 - prior) * exp(min(logRatio, 700))
            return (odds.isFinite ? odds / (1 + odds) : 1, axes, gap + lag)
        }
    }

    /// The least `Track.offsetSquare` (a hundredth of a track's size, squared): a detector
    /// without jitter would otherwise make every offset far.
    static let leastOffsetSquare = 1e-4
}
