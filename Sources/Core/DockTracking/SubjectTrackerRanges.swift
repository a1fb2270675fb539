public import DockNumbers

extension SubjectTracker.Configuration {
    /// The values each tunable setting accepts, in one table: `isValid` checks the configuration
    /// against it, and `dockctl replay`'s tracker options take their ranges (and so their errors
    /// and help) from it. Durations are in seconds.
    public enum Ranges {
        /// The most tracks at once.
        public static let maximumTracks = NumberRange(1...64)
        /// Any squared Mahalanobis gate, positive.
        public static let gate = NumberRange.above(0, atMost: 1e6)
        /// A gate or reach that 0 switches off.
        public static let coastingGate = NumberRange(0...1e6)
        public static let coastingReach = NumberRange(0...1e6)
        public static let distantReach = NumberRange(0...1e6)
        /// Confidences and overlaps are fractions.
        public static let fraction = NumberRange(0...1)
        public static let overlapWeight = NumberRange(0...1000)
        public static let unpairedCost = NumberRange.above(0, atMost: 1e6)
        /// A box may differ from the expected by a ratio above 1.
        public static let sizeRatioGate = NumberRange.above(1, atMost: 1e6)
        public static let confirmationHits = NumberRange(1...1000)
        public static let quickConfirmationConfidence = NumberRange(0...1000)
        /// The lifetimes of a track's phases, seconds, positive.
        public static let lifetimeSeconds = NumberRange.above(0, atMost: 3600)
        public static let coastTimeoutPerSeen = NumberRange(0...1000)
        public static let coastingRateWindowSeconds = NumberRange(0...60)
        /// Filter noise, positive.
        public static let noise = NumberRange.above(0, atMost: 1e6)
        public static let accelerationPerHeight = NumberRange(0...1000)
        public static let maneuverMemory = NumberRange(0...1000)
        /// A share of the mean square, below 1.
        public static let maneuverBias = NumberRange.from(0, below: 1)
        public static let maneuverHoldSeconds = NumberRange(0...60)
        /// After how many of the detector's frame intervals without a box a track is hidden (0: never).
        public static let hiddenAfterFrames = NumberRange(0...100)
        /// How long a lost track may come back by its appearance, seconds (0: never).
        public static let reidentificationWindowSeconds = NumberRange(0...3600)
    }

    /// Whether every setting the table covers is in its range (the confident threshold not below
    /// the least confidence is checked by `isValid` beside it).
    var isWithinRanges: Bool {
        typealias R = Ranges
        let fractions = [
            confidentThreshold, minimumConfidence, birthConfidence, minimumOverlap, minimumOverlapCoasting,
            minimumOverlapUnconfident, minimumOverlapHidden,
        ]
        let lifetimes = [tentativeTimeout, coastAfter, coastTimeout, vouchedCoastTimeout].map(\.secondsValue)
        let noises = [noise.accelerationNoise, noise.sizeNoise, noise.boxNoise, noise.boxNoiseFloor]
        return R.maximumTracks.contains(maximumTracks) && R.gate.contains(gate) && R.coastingGate.contains(coastingGate)
            && R.coastingReach.contains(coastingReach) && R.distantReach.contains(distantReach)
            && fractions.allSatisfy(R.fraction.contains) && R.overlapWeight.contains(overlapWeight)
            && R.unpairedCost.contains(unpairedCost) && R.sizeRatioGate.contains(sizeRatioGate)
            && R.confirmationHits.contains(confirmationHits) && R.quickConfirmationConfidence.contains(quickConfirmationConfidence)
            && lifetimes.allSatisfy(R.lifetimeSeconds.contains) && R.coastTimeoutPerSeen.contains(coastTimeoutPerSeen)
            && R.coastingRateWindowSeconds.contains(coastingRateWindow.secondsValue) && noises.allSatisfy(R.noise.contains)
            && R.accelerationPerHeight.contains(accelerationPerHeight) && R.accelerationPerHeight.contains(coastingAccelerationPerHeight)
            && R.maneuverMemory.contains(maneuverMemory) && R.maneuverBias.contains(maneuverBias)
            && R.maneuverHoldSeconds.contains(maneuverHold.secondsValue)
            && R.reidentificationWindowSeconds.contains(reidentificationWindow.secondsValue)
            && R.hiddenAfterFrames.contains(hiddenAfterFrames)
    }
}
