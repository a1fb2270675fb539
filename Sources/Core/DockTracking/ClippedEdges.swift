import DockVocabulary

/// The edges of an observed box that the image's border cut, as the tracker's measurement model
/// sees them: a detector reports only the part of a subject the picture shows, so a box that
/// touches the border tells where its uncut edges are, and of a cut edge only that the subject
/// reaches at least that far.
///
/// An edge counts as cut when the observed box ends at the border there (within a margin either
/// side: a detector that reports boxes reaching past the picture measured that edge) and the
/// box its track expects reaches at least as far (within the same margin): then the two agree,
/// and the edge says nothing. One the border touches while the track expects it well inside is
/// measured as usual — the subject reaches at least to the border, so the edge moved or grew that
/// way, and measuring it pulls it outwards, towards the truth (a censored measurement, treated as
/// a track born from a clipped box needs it to grow to its person's size). Nothing here ever pulls
/// an estimate inwards because the picture ended.
///
/// The measurement [centre x, centre y, width, height] then becomes, per axis: both numbers when
/// neither edge is cut; the uncut edge's position in the centre's place, and nothing in the
/// size's, when one is (the size is the track's); nothing at all when both are (a subject wider
/// than the picture). "Nothing" is a row of the linear map `transform` that is zero, whose
/// innovation is zero and whose variance is 1: it adds nothing to a Mahalanobis distance and
/// fuses nothing, so the 4 × 4 arithmetic of the filter is kept.
struct ClippedEdges: OptionSet, Hashable, Sendable {
    let rawValue: UInt8

    static let left = ClippedEdges(rawValue: 1)
    static let top = ClippedEdges(rawValue: 2)
    static let right = ClippedEdges(rawValue: 4)
    static let bottom = ClippedEdges(rawValue: 8)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The edges of `observed` that the border cut off something `expected` reaches to; `margin`
    /// in normalised units. Empty when `margin` is negative (every edge measured).
    ///
    /// With `occluders` (the nearer bodies' boxes that `observed`'s left and right edges lie
    /// along, see `Occluders`), such an edge counts as cut too when `expected` is a subject behind
    /// that box — its bottom edge higher than the box's by more than `depthMargin` (normalised
    /// units) — that reaches at least as far as the edge (within `hiddenMargin`) and no farther
    /// than that box's far side (within `hiddenMargin`): a person passing behind someone is seen up
    /// to that someone's edge, and the box's edge there is where the view ends, not where the
    /// person does — as at the border. The nearer subject's own track is not behind itself, and is
    /// compared with the box whole.
    init(
        observed box: NormalizedRect, expected: NormalizedRect, margin: Double, occluders: Occluders = Occluders(),
        hiddenMargin: Double = 0, depthMargin: Double = 0
    ) {
        var edges: ClippedEdges = []
        if margin >= 0 {
            if abs(box.x) <= margin, expected.x <= box.x + margin { edges.insert(.left) }
            if abs(box.y) <= margin, expected.y <= box.y + margin { edges.insert(.top) }
            if abs(box.maxX - 1) <= margin, expected.maxX >= box.maxX - margin { edges.insert(.right) }
            if abs(box.maxY - 1) <= margin, expected.maxY >= box.maxY - margin { edges.insert(.bottom) }
        }
        if let left = occluders.left, expected.maxY < left.maxY - depthMargin, expected.x <= box.x + hiddenMargin,
            expected.x >= left.x - hiddenMargin
        {
            edges.insert(.left)
        }
        if let right = occluders.right, expected.maxY < right.maxY - depthMargin, expected.maxX >= box.maxX - hiddenMargin,
            expected.maxX <= right.maxX + hiddenMargin
        {
            edges.insert(.right)
        }
        self = edges
    }

    /// The nearer subjects' boxes that a box's left and right edges lie along (see `init`).
    struct Occluders: Hashable, Sendable {
        /// The box hiding what lies left of the box's left edge; nil: none.
        var left: NormalizedRect?
        /// The box hiding what lies right of the box's right edge; nil: none.
        var right: NormalizedRect?

        /// None.
        init() {}

        /// For body box `box`, among `others` (every usable body's box this frame, `box` at
        /// `index`), the nearer ones its left and right edges lie along: a box whose bottom edge is
        /// lower in the upright picture (on a floor seen from above the horizon, the nearer
        /// person), that spans at least half of `box`'s height, and that reaches past the edge on
        /// the outside while ending inside `box` on the other, the edge within its span or within
        /// `tolerance` of `box`'s width beyond it; the nearest such box on each side. A box within
        /// another's span is left whole (a part of the nearer person, not someone behind them).
        init(of box: NormalizedRect, among others: UnsafeBufferPointer<NormalizedRect>, at index: Int, tolerance: Double) {
            let reach = tolerance * box.width
            for other in others.indices where other != index {
                let nearer = others[other]
                guard nearer.maxY > box.maxY, min(box.maxY, nearer.maxY) - max(box.y, nearer.y) >= 0.5 * box.height else { continue }
                if nearer.x < box.x, box.x <= nearer.maxX + reach, nearer.maxX < box.maxX, (left?.maxY ?? -1) < nearer.maxY {
                    left = nearer
                }
                if nearer.maxX > box.maxX, box.maxX >= nearer.x - reach, nearer.x > box.x, (right?.maxY ?? -1) < nearer.maxY {
                    right = nearer
                }
            }
        }
    }

    /// `expected` cut where `observed` was: the box a detector would have reported for it.
    /// Its width or height is zero when nothing of it is left.
    func clip(_ expected: NormalizedRect, like observed: NormalizedRect) -> NormalizedRect {
        guard !isEmpty else { return expected }
        var left = expected.x, top = expected.y, right = expected.maxX, bottom = expected.maxY
        if contains(.left) { left = max(left, observed.x) }
        if contains(.top) { top = max(top, observed.y) }
        if contains(.right) { right = min(right, observed.maxX) }
        if contains(.bottom) { bottom = min(bottom, observed.maxY) }
        return NormalizedRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// How far the observed box moved from the expected one, in the expected box's widths and
    /// heights, from what is measured: the centres' difference on an axis with no cut edge, the
    /// uncut edges' on one with one (as far as a box that moves whole), none on one with both.
    func offset(of observed: NormalizedRect, from expected: NormalizedRect) -> (x: Double, y: Double) {
        func axis(
            _ low: ClippedEdges, _ high: ClippedEdges, observedLow: Double, observedHigh: Double,
            expectedLow: Double, expectedHigh: Double
        ) -> Double {
            let size = expectedHigh - expectedLow
            guard size > 0 else { return 0 }
            switch (contains(low), contains(high)) {
            case (false, false): return ((observedLow + observedHigh) - (expectedLow + expectedHigh)) / 2 / size
            case (true, false): return (observedHigh - expectedHigh) / size
            case (false, true): return (observedLow - expectedLow) / size
            case (true, true): return 0
            }
        }
        return (
            axis(.left, .right, observedLow: observed.x, observedHigh: observed.maxX, expectedLow: expected.x, expectedHigh: expected.maxX),
            axis(.top, .bottom, observedLow: observed.y, observedHigh: observed.maxY, expectedLow: expected.y, expectedHigh: expected.maxY)
        )
    }

    /// T v: the measured part of a vector of [centre x, centre y, width, height] (see the type).
    func transform(_ v: InlineArray<4, Double>) -> InlineArray<4, Double> {
        var out = v
        for axis in 0..<2 {
            let (low, high) = axis == 0 ? (ClippedEdges.left, ClippedEdges.right) : (ClippedEdges.top, ClippedEdges.bottom)
            switch (contains(low), contains(high)) {
            case (false, false): break
            case (true, false):
                out[axis] = v[axis] + v[axis + 2] / 2
                out[axis + 2] = 0
            case (false, true):
                out[axis] = v[axis] - v[axis + 2] / 2
                out[axis + 2] = 0
            case (true, true):
                out[axis] = 0
                out[axis + 2] = 0
            }
        }
        return out
    }

    /// M Tᵀ for a matrix M of `count` / 4 rows and 4 columns (row-major): `transform` applied to each row.
    func transformingRows<let count: Int>(of matrix: InlineArray<count, Double>) -> InlineArray<count, Double> {
        var out = matrix
        for row in 0..<(count / 4) {
            let t = transform([matrix[row * 4], matrix[row * 4 + 1], matrix[row * 4 + 2], matrix[row * 4 + 3]])
            for column in 0..<4 { out[row * 4 + column] = t[column] }
        }
        return out
    }

    /// T M for a 4 × 4 matrix M (row-major): `transform` applied to each column.
    func transformingColumns(of matrix: InlineArray<16, Double>) -> InlineArray<16, Double> {
        var out = matrix
        for column in 0..<4 {
            let t = transform([matrix[column], matrix[4 + column], matrix[8 + column], matrix[12 + column]])
            for row in 0..<4 { out[row * 4 + column] = t[row] }
        }
        return out
    }

    /// The rows of `transform` that are zero: a measurement dropped.
    func isDropped(_ row: Int) -> Bool {
        switch row {
        case 0: contains(.left) && contains(.right)
        case 1: contains(.top) && contains(.bottom)
        case 2: contains(.left) || contains(.right)
        default: contains(.top) || contains(.bottom)
        }
    }
}
