#if canImport(Glibc)
    import Glibc
#endif

/// What the simulated detector's appearance descriptors look like: each person wears clothes
/// whose colour histogram (`length` bins, a few of them strong) is drawn once from the run's
/// seed; a look-alike's (`SubjectScript.looksLike`) is their model's turned away in a random
/// direction (no bin below zero) until their cosine distance is `lookAlikeDistance`: similar
/// clothes, not the same. Each frame's descriptor is that histogram
/// under the light where the person stands — a warm lamp on one side of the room, a cold window
/// on the other, tilting the bins by up to ±`lightingTilt` across the room — with each bin off by
/// Gaussian noise of `noise` of the mean bin. The same person so drifts by a cosine distance of
/// 0.01 to 0.03 across the room, the look-alike sits at about 0.1, and a tracker with a loose
/// threshold hands the look-alike the subject's identifier.
public struct AppearanceModel: Sendable {
    /// How far the light tilts the histogram from one side of the room to the other.
    public static let lightingTilt = 0.25
    /// Each bin's noise, a fraction of the mean bin.
    public static let noise = 0.08
    /// The cosine distance of a look-alike's histogram from its model's.
    public static let lookAlikeDistance = 0.1

    /// Each subject's histogram.
    public private(set) var histograms: [Int: [Double]] = [:]
    private var random: SimulationRandom

    /// Draws the histograms of `subjects` from `seed`.
    public init(subjects: [SubjectScript], length: Int, seed: UInt64) {
        var random = SimulationRandom(seed: seed)
        for subject in subjects {
            // A few strong bins over a faint floor: clothes of two or three colours.
            var histogram = (0..<length).map { _ in 0.05 + 0.1 * random.unit() }
            for _ in 0..<3 { histogram[Int(random.unit() * Double(length)) % length] += 0.5 + random.unit() }
            histograms[subject.identifier] = histogram
        }
        for subject in subjects {
            guard let model = subject.looksLike, let base = histograms[model] else { continue }
            let norm = Self.norm(base)
            // A direction across the model's: random, its part along the model removed.
            var turn = (0..<length).map { _ in random.gaussian(standardDeviation: 1) }
            let along = zip(turn, base).map { $0 * $1 }.reduce(0, +) / (norm * norm)
            turn = zip(turn, base).map { $0 - along * $1 }
            let turnNorm = Self.norm(turn)
            func turned(_ amount: Double) -> [Double] { zip(base, turn).map { max(0, $0 / norm + amount * $1 / turnNorm) } }
            func distance(_ amount: Double) -> Double {
                let other = turned(amount)
                return 1 - zip(base, other).map { $0 * $1 }.reduce(0, +) / (norm * Self.norm(other))
            }
            // Bisection: the distance grows with the turn (up to where every bin the turn
            // lowers is at zero, far beyond 0.1 for histograms with a floor).
            var low = 0.0, high = 4.0
            for _ in 0..<50 {
                let middle = (low + high) / 2
                if distance(middle) < Self.lookAlikeDistance { low = middle } else { high = middle }
            }
            histograms[subject.identifier] = turned(high)
        }
        self.random = random
    }

    /// The descriptor the detector sends for `subject` standing `xMeters` across the room.
    public mutating func descriptor(of subject: Int, xMeters: Double) -> [Float]? {
        guard let histogram = histograms[subject] else { return nil }
        let length = histogram.count
        let mean = histogram.reduce(0, +) / Double(length)
        let light = max(-1, min(1, xMeters / 3))
        return (0..<length).map { bin in
            let tilt = 1 + Self.lightingTilt * light * (2 * Double(bin) / Double(max(1, length - 1)) - 1)
            return Float(max(0, histogram[bin] * tilt + random.gaussian(standardDeviation: Self.noise * mean)))
        }
    }

    static func norm(_ values: [Double]) -> Double { values.map { $0 * $0 }.reduce(0, +).squareRoot() }
}
