import DockSimulator
import DockVocabulary
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

    /// What the association's early refusal rests on: a box that does not meet the expected box
    /// does not meet it either once the expected box is cut like it at the picture's border
    /// (`ClippedEdges.clip` only shrinks a box), so its overlap is 0 both ways. On random boxes
    /// about the borders, many of them cut there.
    @Test func aCutExpectedBoxMeetsNoBoxTheWholeOneDidNot() {
        var random = SimulationRandom(seed: 9)
        var cut = 0
        for _ in 0..<20_000 {
            func box() -> NormalizedRect {
                let x = random.unit() * 1.4 - 0.3, y = random.unit() * 1.4 - 0.3
                let width = random.unit() * 0.5, height = random.unit() * 0.5
                // Cut by the picture, as a detector's box is.
                let left = max(0, x), top = max(0, y), right = min(1, x + width), bottom = min(1, y + height)
                return NormalizedRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
            }
            let observed = box(), expected = box()
            guard observed.width > 0, observed.height > 0 else { continue }
            let edges = ClippedEdges(observed: observed, expected: expected, margin: 0.01)
            let clipped = edges.clip(expected, like: observed)
            if !edges.isEmpty { cut += 1 }
            if !expected.intersects(observed) {
                #expect(!clipped.intersects(observed), "\(expected) cut to \(clipped) against \(observed)")
                #expect(clipped.intersectionOverUnion(observed) == 0)
            }
        }
        #expect(cut > 2000, "\(cut) cut")
    }
}
