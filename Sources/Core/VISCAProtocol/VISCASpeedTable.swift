/// A published speed table: step → degrees per second, interpolated between the listed points.
///
/// VISCA drives an axis at a speed *step* (`VV`, `WW`), not an angular rate, and the steps are
/// far from linear (Telycam: pan step 1 is 1 °/s, step 24 is 120 °/s). A table lists the steps a
/// manual gives; the steps between two listed ones are interpolated linearly. Step 0 is stop.
public struct VISCASpeedTable: Hashable, Sendable {
    /// The listed steps, from 1, strictly increasing.
    public let steps: [UInt8]
    /// The listed speeds, degrees per second, strictly increasing, one for each of `steps`.
    public let degreesPerSecond: [Double]
    /// The speed of every step from 0 (stop) to `maximumStep`, rad/s.
    private let radiansPerSecondByStep: [Double]

    /// Creates a table from its points.
    ///
    /// - Throws: `.invalidSpeedTable` when there are no points, the first is not step 1, the
    ///   steps or the speeds are not strictly increasing, or a speed is not finite and above 0.
    public init(points: [(step: UInt8, degreesPerSecond: Double)]) throws(VISCAError) {
        guard let first = points.first else { throw .invalidSpeedTable(reason: "no points") }
        guard first.step == 1 else {
            throw .invalidSpeedTable(reason: "the first point must be step 1 (step 0 is stop), got step \(first.step)")
        }
        for (index, point) in points.enumerated() {
            guard point.degreesPerSecond.isFinite, point.degreesPerSecond > 0 else {
                throw .invalidSpeedTable(
                    reason: "step \(point.step) has speed \(point.degreesPerSecond); speeds must be finite and above 0")
            }
            guard point.step != 0xFF else { throw .invalidSpeedTable(reason: "step 255 cannot be sent (0xFF ends a packet)") }
            guard index > 0 else { continue }
            let previous = points[index - 1]
            guard point.step > previous.step else {
                throw .invalidSpeedTable(reason: "steps must increase, got \(previous.step) then \(point.step)")
            }
            guard point.degreesPerSecond > previous.degreesPerSecond else {
                throw .invalidSpeedTable(
                    reason:
                        "speeds must increase with the step, got \(previous.degreesPerSecond) °/s at step \(previous.step) and \(point.degreesPerSecond) °/s at step \(point.step)"
                )
            }
        }
        steps = points.map(\.step)
        degreesPerSecond = points.map(\.degreesPerSecond)
        var table = [0.0]
        for step in 1...Int(steps[steps.count - 1]) {
            let upper = steps.firstIndex { Int($0) >= step }!
            let degrees: Double
            if Int(steps[upper]) == step {
                degrees = degreesPerSecond[upper]
            } else {
                let lowerStep = Double(steps[upper - 1]), upperStep = Double(steps[upper])
                let fraction = (Double(step) - lowerStep) / (upperStep - lowerStep)
                degrees = degreesPerSecond[upper - 1] + fraction * (degreesPerSecond[upper] - degreesPerSecond[upper - 1])
            }
            table.append(degrees * .pi / 180)
        }
        radiansPerSecondByStep = table
    }

    /// The table's points, as given.
    public var points: [(step: UInt8, degreesPerSecond: Double)] {
        Array(zip(steps, degreesPerSecond)).map { (step: $0.0, degreesPerSecond: $0.1) }
    }

    /// The fastest step.
    public var maximumStep: UInt8 { steps[steps.count - 1] }

    /// The fastest speed, rad/s.
    public var maximumRadiansPerSecond: Double { radiansPerSecondByStep[radiansPerSecondByStep.count - 1] }

    /// The speed of `step`, rad/s: 0 for step 0, interpolated between listed steps, the fastest
    /// step's speed above `maximumStep`.
    public func radiansPerSecond(step: UInt8) -> Double {
        radiansPerSecondByStep[min(Int(step), radiansPerSecondByStep.count - 1)]
    }

    /// The step for a wanted speed (magnitude; 0 or below the half of step 1 → 0 = stop), with hysteresis: keeps `current` while the wanted speed stays within `hysteresis` (fraction of the gap to the neighbouring step) of it, so a speed wobbling at a step boundary does not chatter.
    ///
    /// Without `current`, the answer is the step whose speed is nearest (a boundary lies halfway
    /// between two neighbouring steps, and between stop and step 1 at half of step 1). With
    /// `current`, the answer moves off `current` only once the wanted speed is past that
    /// halfway boundary by more than `hysteresis` times the gap between `current` and the
    /// neighbour it moves towards: with the default 0.3, from step k to k + 1 at 80 % of the way,
    /// and back down at 20 %.
    ///
    /// - Parameters:
    ///   - radiansPerSecond: the wanted speed; its sign is ignored (the direction byte carries it),
    ///     NaN counts as 0, and anything above the fastest step gives the fastest step.
    ///   - current: the step being sent now, if any (ignored above `maximumStep`).
    ///   - hysteresis: 0...0.5 (clamped); 0 is no hysteresis.
    public func step(for radiansPerSecond: Double, current: UInt8?, hysteresis: Double = 0.3) -> UInt8 {
        let wanted = radiansPerSecond.isNaN ? 0 : abs(radiansPerSecond)
        let speeds = radiansPerSecondByStep
        let nearest = nearestStep(wanted)
        guard let current, Int(current) < speeds.count, Int(current) != nearest else { return UInt8(nearest) }
        let held = Int(current)
        let margin = 0.5 + min(max(hysteresis.isNaN ? 0 : hysteresis, 0), 0.5)
        if nearest > held {
            let threshold = speeds[held] + margin * (speeds[held + 1] - speeds[held])
            return wanted <= threshold ? current : UInt8(nearest)
        } else {
            let threshold = speeds[held] - margin * (speeds[held] - speeds[held - 1])
            return wanted >= threshold ? current : UInt8(nearest)
        }
    }

    /// The step whose speed is nearest `wanted` (rad/s, ≥ 0); at a halfway point, the lower step.
    private func nearestStep(_ wanted: Double) -> Int {
        let speeds = radiansPerSecondByStep
        guard wanted < speeds[speeds.count - 1] else { return speeds.count - 1 }
        // The first step at least as fast as wanted, then the nearer of it and the one below.
        var low = 0, high = speeds.count - 1
        while low < high {
            let middle = (low + high) / 2
            if speeds[middle] < wanted { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        return wanted - speeds[low - 1] <= speeds[low] - wanted ? low - 1 : low
    }
}
