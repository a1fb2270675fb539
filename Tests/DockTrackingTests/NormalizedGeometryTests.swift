import DockSimulator
import Testing

@testable import DockTracking

/// `NormalizedRect`'s overlap tests, which the tracker's association relies on agreeing.
@Suite struct NormalizedGeometryTests {
    /// `intersects` says what `intersection` and `intersectionOverUnion` say (the association refuses
    /// a pair by it before working out anything else, where an overlap is asked): on random boxes
    /// on a coarse grid, so that many share an edge or a corner only, and on boxes with no size.
    @Test func intersectsAgreesWithTheIntersection() {
        var random = SimulationRandom(seed: 7)
        func coordinate() -> Double { Double(Int(random.unit() * 8)) / 8 }
        var counts = (meeting: 0, touching: 0, apart: 0)
        for _ in 0..<20_000 {
            let a = NormalizedRect(x: coordinate(), y: coordinate(), width: coordinate(), height: coordinate())
            let b = NormalizedRect(x: coordinate(), y: coordinate(), width: coordinate(), height: coordinate())
            let meets = a.intersects(b)
            #expect(meets == (a.intersection(b) != nil), "\(a) \(b)")
            #expect(meets == (a.intersectionOverUnion(b) > 0), "\(a) \(b)")
            #expect(meets == b.intersects(a))
            let touches = a.maxX == b.x || b.maxX == a.x || a.maxY == b.y || b.maxY == a.y
            if meets { counts.meeting += 1 } else if touches { counts.touching += 1 } else { counts.apart += 1 }
        }
        // Each case came up often.
        #expect(counts.meeting > 1000 && counts.touching > 1000 && counts.apart > 1000, "\(counts)")
        let box = NormalizedRect(x: 0.2, y: 0.2, width: 0.3, height: 0.3)
        #expect(!box.intersects(NormalizedRect(x: 0.3, y: 0.3, width: 0, height: 0.1)))
        #expect(!box.intersects(NormalizedRect(x: 0.5, y: 0.2, width: 0.1, height: 0.3)))
        #expect(box.intersects(NormalizedRect(x: 0.49, y: 0.49, width: 0.1, height: 0.1)))
    }
}
