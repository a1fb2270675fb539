#if canImport(Glibc)
    import Glibc
#endif

/// The simulator's only source of randomness: SplitMix64, seeded from the scenario, so that a run
/// is the same every time it is replayed with the same seed.
public struct SimulationRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// A normally distributed number (Box–Muller).
    public mutating func gaussian(mean: Double = 0, standardDeviation: Double) -> Double {
        guard standardDeviation > 0 else { return mean }
        let u1 = max(unit(), 1e-300), u2 = unit()
        return mean + standardDeviation * sqrt(-2 * log(u1)) * cos(2 * .pi * u2)
    }

    /// A generator for a sub-part of the simulation, independent of this one's later draws.
    public mutating func split() -> SimulationRandom { SimulationRandom(seed: next()) }
}
