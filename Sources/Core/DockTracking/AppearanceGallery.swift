/// What one track looks like: a few of its appearance descriptors (`Observation.appearance`),
/// each scaled to unit length, compared with a new one by cosine distance.
///
/// Slot 0 is a running mean of every descriptor added (it forgets a detector's frame-to-frame
/// noise); the other slots are snapshots taken at least `snapshotInterval` apart, the oldest
/// overwritten first, so a subject seen under the window's light and then the lamp's is known
/// under both. The distance to a descriptor is the least over the slots (the nearest-neighbour
/// rule of DeepSORT: Wojke et al., "Simple Online and Realtime Tracking with a Deep Association
/// Metric", ICIP 2017). Storage is one buffer allocated when the first descriptor comes (or one of
/// another length); adding and comparing allocate nothing after that.
public struct AppearanceGallery: Sendable {
    /// The most descriptors kept: the mean and three snapshots.
    public static let capacity = 4
    /// How much of each new descriptor goes into the running mean.
    public static let meanWeight = 0.1
    /// The least time between two snapshots.
    public static let snapshotInterval: Duration = .seconds(1)

    /// The descriptors, `count` of `length` values each, one after the other.
    private var values: [Float] = []
    /// The length of its descriptors (0: empty).
    public private(set) var length = 0
    /// How many descriptors it holds.
    public private(set) var count = 0
    private var nextSnapshot = 1
    private var lastSnapshot: Duration = .zero

    /// Creates an empty gallery.
    public init() {}

    /// Whether it holds no descriptor.
    public var isEmpty: Bool { count == 0 }

    /// Adds a descriptor seen at `time`. One that is not finite or has no length (all zero) is
    /// ignored; one of another length than those held replaces them all (the client changed its
    /// feature).
    public mutating func add(_ descriptor: [Float], at time: Duration) {
        let norm = Self.norm(descriptor)
        guard norm > 0, norm.isFinite else { return }
        if descriptor.count != length || count == 0 {
            values = []
            values.reserveCapacity(Self.capacity * descriptor.count)
            for value in descriptor { values.append(Float(Double(value) / norm)) }
            length = descriptor.count
            count = 1
            nextSnapshot = 1
            lastSnapshot = time
            return
        }
        let length = self.length, weight = Self.meanWeight
        var meanNorm = 0.0
        values.withUnsafeMutableBufferPointer { values in
            for index in 0..<length {
                let mixed = (1 - weight) * Double(values[index]) + weight * Double(descriptor[index]) / norm
                values[index] = Float(mixed)
                meanNorm += mixed * mixed
            }
            meanNorm = meanNorm.squareRoot()
            if meanNorm > 0 { for index in 0..<length { values[index] = Float(Double(values[index]) / meanNorm) } }
        }
        guard time - lastSnapshot >= Self.snapshotInterval || count == 1 else { return }
        lastSnapshot = time
        if count < Self.capacity {
            for value in descriptor { values.append(Float(Double(value) / norm)) }
            count += 1
        } else {
            let start = nextSnapshot * length
            values.withUnsafeMutableBufferPointer { values in
                for index in 0..<length { values[start + index] = Float(Double(descriptor[index]) / norm) }
            }
        }
        nextSnapshot = nextSnapshot + 1 < Self.capacity ? nextSnapshot + 1 : 1
    }

    /// The cosine distance (1 − cos θ: 0 alike, 1 unrelated, 2 opposite) from the nearest of its
    /// descriptors to `descriptor`; nil when it is empty, the lengths differ, or `descriptor` has
    /// no direction.
    public func distance(to descriptor: [Float]) -> Double? {
        descriptor.withUnsafeBufferPointer { distance(to: $0, norm: Self.norm($0)) }
    }

    /// `distance(to:)` for a descriptor whose `norm` the caller worked out (once for every
    /// gallery it is compared with).
    func distance(to descriptor: UnsafeBufferPointer<Float>, norm: Double) -> Double? {
        guard count > 0, descriptor.count == length, norm > 0, norm.isFinite else { return nil }
        let length = self.length, count = self.count
        return values.withUnsafeBufferPointer { values in
            // The slots' dot products side by side, one lane each (a slot it does not hold
            // repeats the last it does, and is not read): each is the same sum in the same order
            // as one slot after another, but the four chains of additions do not wait for each
            // other (`capacity` is 4: a lane a slot).
            let starts = SIMD4(0, min(1, count - 1) * length, min(2, count - 1) * length, min(3, count - 1) * length)
            var dots = SIMD4<Double>(repeating: 0)
            for index in 0..<length {
                let lanes = SIMD4(
                    Double(values[starts[0] + index]), Double(values[starts[1] + index]),
                    Double(values[starts[2] + index]), Double(values[starts[3] + index]))
                dots += lanes * SIMD4(repeating: Double(descriptor[index]))
            }
            var best = Double.infinity
            for slot in 0..<count { best = min(best, 1 - dots[slot] / norm) }
            return max(0, best)
        }
    }

    /// The cosine distance between the nearest two of its descriptors and `other`'s; nil when
    /// either is empty or their lengths differ.
    public func distance(to other: AppearanceGallery) -> Double? {
        guard count > 0, other.count > 0, other.length == length else { return nil }
        let length = self.length
        return values.withUnsafeBufferPointer { mine in
            other.values.withUnsafeBufferPointer { theirs in
                var best = Double.infinity
                for slot in 0..<count {
                    for otherSlot in 0..<other.count {
                        var dot = 0.0
                        for index in 0..<length { dot += Double(mine[slot * length + index]) * Double(theirs[otherSlot * length + index]) }
                        best = min(best, 1 - dot)
                    }
                }
                return max(0, best)
            }
        }
    }

    /// The Euclidean length of `descriptor`, in doubles (NaN or infinity if a value is not finite).
    static func norm(_ descriptor: [Float]) -> Double {
        descriptor.withUnsafeBufferPointer { norm($0) }
    }

    /// The Euclidean length of `descriptor`, in doubles (NaN or infinity if a value is not finite).
    static func norm(_ descriptor: UnsafeBufferPointer<Float>) -> Double {
        var sum = 0.0
        for value in descriptor { sum += Double(value) * Double(value) }
        return sum.squareRoot()
    }
}
