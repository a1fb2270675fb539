import Foundation
import Testing

@testable import DockTracking

/// The pace a track's boxes show: a weighted straight line through its recent positions.
@Suite struct ObservedRateTests {
    func time(_ seconds: Double) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }

    @Test func aLineThroughJitteredPositionsGivesThePace() throws {
        // 0.2 rad/s, each position off by ±4 mrad in turn (a box edge's jitter): the last two
        // positions alone would say 0.2 ± 0.24 rad/s, the fit says 0.2 within a few percent.
        var fit = ObservedRate(window: 0.5)
        for index in 0..<30 {
            let t = Double(index) / 30
            fit.add(yawRadians: 0.2 * t + (index % 2 == 0 ? 0.004 : -0.004), at: time(t))
        }
        let estimate = try #require(fit.estimate())
        #expect(abs(estimate.rate - 0.2) < 0.01, "\(estimate.rate)")
        #expect(estimate.variance > 0 && estimate.variance.squareRoot() < 0.05, "\(estimate.variance)")
    }

    @Test func theLatestHalfSecondCountsMost() throws {
        // Two seconds at 0.1 rad/s, then one at 0.3: a half-second window says nearly 0.3 (the
        // older positions, far from the mean time, still pull a little), a ten-second one says
        // much less.
        var recent = ObservedRate(window: 0.5), long = ObservedRate(window: 10)
        var yaw = 0.0
        for index in 0..<90 {
            yaw += (index < 60 ? 0.1 : 0.3) / 30
            recent.add(yawRadians: yaw, at: time(Double(index) / 30))
            long.add(yawRadians: yaw, at: time(Double(index) / 30))
        }
        let rate = try #require(recent.estimate()).rate, longRate = try #require(long.estimate()).rate
        #expect(abs(rate - 0.3) < 0.08, "\(rate)")
        #expect(longRate < rate - 0.05, "\(longRate) against \(rate)")
    }

    @Test func tooFewOrTooCloseSamplesSayNothing() {
        var fit = ObservedRate(window: 0.5)
        for index in 0..<4 { fit.add(yawRadians: 0.01 * Double(index), at: time(Double(index) / 30)) }
        #expect(fit.estimate() == nil, "four samples")
        var burst = ObservedRate(window: 0.5)
        for index in 0..<10 { burst.add(yawRadians: 0.001 * Double(index), at: time(Double(index) / 1000)) }
        #expect(burst.estimate() == nil, "ten samples within 10 ms span too little time")
        var nonFinite = ObservedRate(window: 0.5)
        nonFinite.add(yawRadians: .nan, at: time(0))
        #expect(nonFinite.samples == 0)
    }

    @Test func samplesArrivingOutOfOrderFitTheSameLine() throws {
        let samples: [(Double, Double)] = (0..<20).map { index in
            let t = Double(index) / 30
            let jitter = 0.003 * Double(index % 3)
            return (t, 0.15 * t + jitter)
        }
        var inOrder = ObservedRate(window: 0.5), shuffled = ObservedRate(window: 0.5)
        for (t, yaw) in samples { inOrder.add(yawRadians: yaw, at: time(t)) }
        for index in [3, 0, 1, 2, 7, 4, 6, 5, 10, 8, 9, 11, 14, 12, 13, 15, 18, 16, 17, 19] {
            shuffled.add(yawRadians: samples[index].1, at: time(samples[index].0))
        }
        let a = try #require(inOrder.estimate()), b = try #require(shuffled.estimate())
        #expect(abs(a.rate - b.rate) < 1e-9 && abs(a.variance - b.variance) < 1e-12, "\(a) \(b)")
    }

    @Test func theVarianceHasAFloorAndShrinksWithMoreSamples() throws {
        // Positions exactly on a line: the residuals say nothing, the floor stands in for them.
        var fit = ObservedRate(window: 10)
        for index in 0..<20 { fit.add(yawRadians: 0.1 * Double(index) / 30, at: time(Double(index) / 30)) }
        let few = try #require(fit.estimate(minimumResidual: 0.005))
        #expect(abs(few.rate - 0.1) < 1e-9 && few.variance > 0)
        for index in 20..<80 { fit.add(yawRadians: 0.1 * Double(index) / 30, at: time(Double(index) / 30)) }
        let many = try #require(fit.estimate(minimumResidual: 0.005))
        #expect(many.variance < few.variance / 5, "\(few.variance) → \(many.variance)")
    }

    /// The running sums age by exp(−step / window) at each sample: with steps that change often,
    /// repeat and come back, the fitted rate is the weighted least-squares line's, worked out here
    /// from every sample's own weight.
    @Test func irregularStepsGiveTheWeightedLine() throws {
        let window = 0.5
        var fit = ObservedRate(window: window)
        let steps: [Double] = [1.0 / 30, 1.0 / 30, 1.0 / 15, 0.05, 1.0 / 30, 0.1, 0.1, 1.0 / 30, 0.02, 1.0 / 15, 1.0 / 30, 1.0 / 30]
        var samples: [(t: Double, yaw: Double)] = []
        var t = 0.0
        for (index, step) in steps.enumerated() {
            t += step
            let yaw = 0.3 * t + (index % 3 == 0 ? 0.01 : -0.005)
            samples.append((t, yaw))
            fit.add(yawRadians: yaw, at: time(t))
        }
        let last = try #require(samples.last).t
        var (weight, sumT, sumY, sumTT, sumTY) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for sample in samples {
            let w = exp(-(last - sample.t) / window), age = sample.t - last
            weight += w
            sumT += w * age
            sumY += w * sample.yaw
            sumTT += w * age * age
            sumTY += w * age * sample.yaw
        }
        let meanT = sumT / weight
        let covariance: Double = sumTY / weight - meanT * sumY / weight
        let variance: Double = sumTT / weight - meanT * meanT
        let slope = covariance / variance
        let estimate = try #require(fit.estimate())
        #expect(abs(estimate.rate - slope) < 1e-9, "\(estimate.rate) against \(slope)")
        #expect(abs(estimate.rate - 0.3) < 0.05)
    }
}
