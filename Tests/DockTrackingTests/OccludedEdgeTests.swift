import DockVocabulary
import Testing

@testable import DockTracking

/// Edges a nearer person hides (`SubjectTracker.Configuration.occludedEdgeTolerance`): which
/// boxes a box's edges lie along, and when an edge counts as cut for a track.
@Suite struct OccludedEdgeTests {
    /// A person behind (bottom at 0.6) and, nearer, someone whose box covers their left part.
    let behind = NormalizedRect(x: 0.40, y: 0.30, width: 0.06, height: 0.30)
    let nearerOnTheLeft = NormalizedRect(x: 0.33, y: 0.25, width: 0.08, height: 0.45)

    func occluders(_ box: NormalizedRect, _ others: [NormalizedRect], tolerance: Double = 0.1) -> ClippedEdges.Occluders {
        let all = [box] + others
        return all.withUnsafeBufferPointer { ClippedEdges.Occluders(of: box, among: $0, at: 0, tolerance: tolerance) }
    }

    @Test func aNearerBoxOverAnEdgeHidesIt() {
        let found = occluders(behind, [nearerOnTheLeft])
        #expect(found.left == nearerOnTheLeft && found.right == nil)
        // Its mirror image hides the right edge.
        let onTheRight = NormalizedRect(x: 0.45, y: 0.25, width: 0.08, height: 0.45)
        let mirrored = occluders(behind, [onTheRight])
        #expect(mirrored.right == onTheRight && mirrored.left == nil)
        // Ending a little short of the edge (within a tenth of the box's width): the edge is still where the view ends.
        let short = NormalizedRect(x: 0.33, y: 0.25, width: 0.0655, height: 0.45)
        #expect(occluders(behind, [short]).left == short)
        let shorter = NormalizedRect(x: 0.33, y: 0.25, width: 0.06, height: 0.45)
        #expect(occluders(behind, [shorter]).left == nil)
    }

    @Test func aBoxFartherAwayShorterOrAroundTheWholeBoxHidesNothing() {
        // Farther away (its bottom higher): it is the one behind.
        let farther = NormalizedRect(x: 0.33, y: 0.20, width: 0.08, height: 0.35)
        #expect(occluders(behind, [farther]) == ClippedEdges.Occluders())
        // Spanning less than half of the box's height (a child in front of the legs).
        let low = NormalizedRect(x: 0.33, y: 0.48, width: 0.08, height: 0.14)
        #expect(occluders(behind, [low]) == ClippedEdges.Occluders())
        // Around the whole box: the box is a part of that person (an upper body), not someone behind.
        let around = NormalizedRect(x: 0.38, y: 0.25, width: 0.12, height: 0.45)
        #expect(occluders(behind, [around]) == ClippedEdges.Occluders())
        // Negative tolerance reaches nothing beyond the span, but a box over the edge still hides it.
        #expect(occluders(behind, [nearerOnTheLeft], tolerance: 0).left == nearerOnTheLeft)
    }

    @Test func theNearestOfTwoIsTaken() {
        let nearest = NormalizedRect(x: 0.30, y: 0.25, width: 0.11, height: 0.50)
        #expect(occluders(behind, [nearerOnTheLeft, nearest]).left == nearest)
        #expect(occluders(behind, [nearest, nearerOnTheLeft]).left == nearest)
    }

    @Test func anEdgeIsCutOnlyForATrackBehindThatReachesPastIt() {
        let hidden = ClippedEdges.Occluders(left: nearerOnTheLeft)
        // The person's own track, reaching left past the box's edge under the nearer person: cut.
        let own = NormalizedRect(x: 0.385, y: 0.30, width: 0.075, height: 0.30)
        #expect(
            ClippedEdges(observed: behind, expected: own, margin: 0.002, occluders: hidden, hiddenMargin: 0.0075, depthMargin: 0.03)
                == .left)
        // A track expecting its person to end right of the edge (the box is wider there): measured.
        let inside = NormalizedRect(x: 0.42, y: 0.30, width: 0.05, height: 0.30)
        #expect(
            ClippedEdges(observed: behind, expected: inside, margin: 0.002, occluders: hidden, hiddenMargin: 0.0075, depthMargin: 0.03)
                == [])
        // The nearer person's own track is not behind itself: compared whole.
        let nearerTrack = NormalizedRect(x: 0.335, y: 0.26, width: 0.08, height: 0.44)
        #expect(
            ClippedEdges(observed: behind, expected: nearerTrack, margin: 0.002, occluders: hidden, hiddenMargin: 0.0075, depthMargin: 0.03)
                == [])
        // A track reaching past the nearer box's far side would show there: measured.
        let wide = NormalizedRect(x: 0.30, y: 0.30, width: 0.16, height: 0.30)
        #expect(
            ClippedEdges(observed: behind, expected: wide, margin: 0.002, occluders: hidden, hiddenMargin: 0.0075, depthMargin: 0.03) == [])
    }
}

extension ClippedEdges.Occluders {
    init(left: NormalizedRect? = nil, right: NormalizedRect? = nil) {
        self.init()
        self.left = left
        self.right = right
    }
}
