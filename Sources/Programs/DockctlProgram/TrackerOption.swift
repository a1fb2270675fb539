import DockNumbers
import DockOptions
import DockTracking

/// `replay`'s tracker options: each names a setting of `SubjectTracker.Configuration`, takes its
/// range from `SubjectTracker.Configuration.Ranges` (the table `isValid` checks with) and shows
/// the daemon's default, read from the configuration itself.
struct TrackerOption: Sendable {
    let option: Option
    /// Sets the setting from the option's checked value.
    let apply: @Sendable (inout SubjectTracker.Configuration, Double) -> Void

    typealias Configuration = SubjectTracker.Configuration

    /// A setting that is a number.
    init(
        _ name: String, _ placeholder: String, _ range: NumberRange, _ help: String,
        _ path: any WritableKeyPath<Configuration, Double> & Sendable
    ) {
        option = Option(
            name, .number(range), placeholder: placeholder, help: help,
            defaultText: NumberRange.text(Configuration()[keyPath: path]))
        apply = { $0[keyPath: path] = $1 }
    }

    /// A setting that is a count.
    init(
        _ name: String, _ placeholder: String, _ range: NumberRange, _ help: String,
        _ path: any WritableKeyPath<Configuration, Int> & Sendable
    ) {
        option = Option(
            name, .wholeNumber(Int(range.lowerBound)...Int(range.upperBound)), placeholder: placeholder, help: help,
            defaultText: String(Configuration()[keyPath: path]))
        apply = { $0[keyPath: path] = Int($1) }
    }

    /// A setting that is a duration, given in seconds.
    init(_ name: String, _ range: NumberRange, _ help: String, _ path: any WritableKeyPath<Configuration, Duration> & Sendable) {
        option = Option(
            name, .number(range), placeholder: "S", help: help,
            defaultText: NumberRange.text(Configuration()[keyPath: path].secondsValue))
        // The option's range holds it well within `fromSeconds`' billion seconds.
        apply = { $0[keyPath: path] = Duration.fromSeconds($1) ?? .zero }
    }

    typealias R = Configuration.Ranges

    static let all: [TrackerOption] = [
        TrackerOption(
            "--confident", "C", R.fraction, "boxes at least this confident are matched first and start tracks", \.confidentThreshold),
        TrackerOption("--birth-confidence", "C", R.fraction, "the least confidence of a box that starts a track", \.birthConfidence),
        TrackerOption("--min-confidence", "C", R.fraction, "boxes below this are ignored (not above --confident)", \.minimumConfidence),
        TrackerOption("--min-iou", "X", R.fraction, "the least IoU of a confident box with a track's expected box", \.minimumOverlap),
        TrackerOption(
            "--min-iou-coasting", "X", R.fraction, "... with a coasting track's (farther ones: --coasting-gate)",
            \.minimumOverlapCoasting),
        TrackerOption(
            "--min-iou-hidden", "X", R.fraction, "... with a hidden track's (one a frame came without: --hidden-after)",
            \.minimumOverlapHidden),
        TrackerOption(
            "--hidden-after", "N", R.hiddenAfterFrames,
            "a confirmed track unseen for N frame intervals, not yet coasting, is hidden (0: never)", \.hiddenAfterFrames),
        TrackerOption(
            "--min-iou-weak", "X", R.fraction, "the least IoU of an unconfident box with a confirmed track's",
            \.minimumOverlapUnconfident),
        TrackerOption(
            "--size-ratio", "X", R.sizeRatioGate, "the most a box's width or height may differ from the expected, as a ratio",
            \.sizeRatioGate),
        TrackerOption("--gate", "X", R.gate, "the squared Mahalanobis distance gate", \.gate),
        TrackerOption(
            "--coasting-gate", "X", R.coastingGate, "a coasting track may take a box it does not overlap within this gate (0: never)",
            \.coastingGate),
        TrackerOption(
            "--coasting-reach", "R", R.coastingReach, "... and only within R of its box's sizes of where it was expected",
            \.coastingReach),
        TrackerOption(
            "--distant-reach", "R", R.distantReach, "a confirmed track may take a box it does not overlap within R of its sizes",
            \.distantReach),
        TrackerOption("--iou-weight", "W", R.overlapWeight, "a pair's cost is d²/gate + W × (1 − IoU)", \.overlapWeight),
        TrackerOption(
            "--unpaired-cost", "U", R.unpairedCost, "leaving a track and a box unpaired costs U (plus W where nothing overlaps)",
            \.unpairedCost),
        TrackerOption("--confirm-hits", "N", R.confirmationHits, "hits that confirm a new track", \.confirmationHits),
        TrackerOption(
            "--quick-confirm", "C", R.quickConfirmationConfidence,
            "confirm from the second hit once the hits' confidences add up to C", \.quickConfirmationConfidence),
        TrackerOption(
            "--tentative-timeout", R.lifetimeSeconds, "seconds a new track may go unseen before it is dropped", \.tentativeTimeout),
        TrackerOption(
            "--coast-after", R.lifetimeSeconds, "seconds unseen before a confirmed track coasts (is no longer written)",
            \.coastAfter),
        TrackerOption("--coast-timeout", R.lifetimeSeconds, "seconds a coasting track lives unseen", \.coastTimeout),
        TrackerOption(
            "--coast-timeout-per-seen", "R", R.coastTimeoutPerSeen, "... at most R times as long as it was seen (0: no such limit)",
            \.coastTimeoutPerSeen),
        TrackerOption(
            "--vouched-coast-timeout", R.lifetimeSeconds, "... or, while weak boxes it overlaps vouch for it, up to S",
            \.vouchedCoastTimeout),
        TrackerOption(
            "--coasting-rate-window", R.coastingRateWindowSeconds,
            "a missed track walks on at the pace of about its last S of boxes (0: its filter's rate)", \.coastingRateWindow),
        TrackerOption("--max-tracks", "N", R.maximumTracks, "the most tracks at once", \.maximumTracks),
        TrackerOption(
            "--acceleration-noise", "A", R.noise, "the most angular acceleration noise of a track, rad/s²",
            \.noise.accelerationNoise),
        TrackerOption(
            "--acceleration-per-height", "K", R.accelerationPerHeight,
            "a track's acceleration noise per radian of its height (0: every track gets --acceleration-noise)",
            \.accelerationPerHeight),
        TrackerOption(
            "--coasting-acceleration-per-height", "K", R.accelerationPerHeight, "... while it coasts (0: as above)",
            \.coastingAccelerationPerHeight),
        TrackerOption(
            "--maneuver-memory", "N", R.maneuverMemory,
            "... rising towards --acceleration-noise while its last N or so boxes fall on one side (0: never)", \.maneuverMemory),
        TrackerOption(
            "--maneuver-bias", "B", R.maneuverBias, "... from when their mean makes up this share of their mean square",
            \.maneuverBias),
        TrackerOption(
            "--maneuver-hold", R.maneuverHoldSeconds, "... and, once raised, comes down over about S seconds (0: at once)",
            \.maneuverHold),
        TrackerOption(
            "--reidentification-window", R.reidentificationWindowSeconds,
            "seconds a lost track may come back under its id by its appearance (0: never)", \.reidentificationWindow),
        TrackerOption("--size-noise", "S", R.noise, "the random walk of its angular size, rad/√s", \.noise.sizeNoise),
        TrackerOption("--box-noise", "F", R.noise, "a box's error as a fraction of its size", \.noise.boxNoise),
        TrackerOption("--box-noise-floor", "F", R.noise, "the least error of a box coordinate, image units", \.noise.boxNoiseFloor),
    ]
}
