import DockNumbers

#if canImport(Glibc)
    import Glibc
#endif

/// A track's yaw rate as a second of its boxes shows it: the slope of a straight line fitted by
/// least squares to the track's yaw just after each box was fused, against the boxes' capture
/// times, each weighted by exp(−age / `window`). Six running sums, kept about the latest sample's
/// time: no storage per sample, no allocation.
///
/// The filter's own rate is what its last few boxes say (its acceleration noise lets it turn in a
/// few frames), so with box edges jittering by 5 to 10 % it can be half or twice the walker's pace
/// when the walker is hidden; extrapolated for a second of occlusion that leaves the expected box
/// well away from where the person comes out. The line through the positions of the last half
/// second says the pace much better, and is what the tracker gives a track it has missed (after
/// OC-SORT's observation-centric momentum: Cao et al., "Observation-Centric SORT", CVPR 2023).
public struct ObservedRate: Sendable, Hashable {
    /// The time constant of the weights, seconds.
    public let window: Double
    private var origin: Duration = .zero
    private var weight = 0.0, sumT = 0.0, sumTT = 0.0, sumY = 0.0, sumTY = 0.0, sumYY = 0.0
    /// Samples added (not weighted).
    public private(set) var samples = 0

    /// An empty fit with weights falling by e every `window` seconds.
    public init(window: Double) {
        self.window = window
    }

    /// Adds a box's yaw at its capture time. A sample older than the latest counts as of its own
    /// time (frames may arrive late, out of order); a non-finite one is ignored.
    public mutating func add(yawRadians yaw: Double, at time: Duration) {
        guard yaw.isFinite else { return }
        if samples == 0 { origin = time }
        let step = (time - origin).secondsValue
        if step > 0 {
            // Move the origin to `time` (t' = t − step), then age every weight by the step.
            sumTT -= 2 * step * sumT - step * step * weight
            sumT -= step * weight
            sumTY -= step * sumY
            let decay = window > 0 ? exp(-step / window) : 0
            weight *= decay
            sumT *= decay
            sumTT *= decay
            sumY *= decay
            sumTY *= decay
            sumYY *= decay
            origin = time
        }
        let t = min(step, 0)
        let w = t == 0 ? 1 : window > 0 ? exp(t / window) : 0
        weight += w
        sumT += w * t
        sumTT += w * t * t
        sumY += w * yaw
        sumTY += w * t * yaw
        sumYY += w * yaw * yaw
        samples += 1
    }

    /// The fitted rate, rad/s, and its variance, (rad/s)², or nil while the samples are too few
    /// (under `minimumSamples`, or an effective weight under 3) or span too little time (a
    /// weighted standard deviation of their times under `minimumSpread` seconds) to say it. The
    /// variance is the residuals' over the spread of the times and the weight, the residuals'
    /// variance at least `minimumResidual`² (rad²: a few boxes on a line say little of the noise).
    public func estimate(
        minimumSamples: Int = 5, minimumSpread: Double = 0.15,
        minimumResidual: Double = 0
    ) -> (rate: Double, variance: Double)? {
        guard samples >= minimumSamples, weight >= 3 else { return nil }
        let meanT = sumT / weight, meanY = sumY / weight
        let varianceT = sumTT / weight - meanT * meanT
        guard varianceT.isFinite, varianceT >= minimumSpread * minimumSpread else { return nil }
        let covariance = sumTY / weight - meanT * meanY
        let slope = covariance / varianceT
        let residual = max(0, sumYY / weight - meanY * meanY - slope * covariance) * weight / (weight - 2)
        let variance = max(residual, minimumResidual * minimumResidual) / (weight * varianceT)
        guard slope.isFinite, variance.isFinite else { return nil }
        return (slope, variance)
    }
}
