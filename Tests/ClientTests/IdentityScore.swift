import DockTracking
import Testing

/// The identity scores of MOTChallenge (Ristani, Solera, Zou, Cucchiara and Tomasi, "Performance
/// Measures and a Data Set for Multi-Target, Multi-Camera Tracking", ECCV 2016 workshops): how
/// long each true subject keeps one tracker identity.
///
/// Ground-truth identities and tracker identities are paired once for the whole sequence, one to
/// one, so as to maximise the number of frames in which both of a pair exist and their boxes
/// overlap with IoU ≥ the threshold (0.5). Those frames are the identity true positives (IDTP);
/// every other tracker box is an identity false positive (IDFP), every other true box an identity
/// false negative (IDFN), and IDF1 = 2 IDTP / (2 IDTP + IDFP + IDFN).
struct IdentityScore: Equatable, CustomStringConvertible {
    /// Frames matched under the global pairing (IDTP).
    var truePositives: Int
    /// Tracker boxes not matched (IDFP).
    var falsePositives: Int
    /// Ground-truth boxes not matched (IDFN).
    var falseNegatives: Int

    /// IDF1, 0...1; 0 when there are no boxes at all.
    var f1: Double {
        let denominator = 2 * truePositives + falsePositives + falseNegatives
        return denominator == 0 ? 0 : Double(2 * truePositives) / Double(denominator)
    }

    var description: String {
        let rounded = (f1 * 1000).rounded() / 1000
        return "IDF1 \(rounded) (IDTP \(truePositives), IDFP \(falsePositives), IDFN \(falseNegatives))"
    }
}

extension IdentityScore {
    /// Scores `result` against `truth`; each file has at most one box per identifier and frame.
    init(truth: [MOTRecord], result: [MOTRecord], threshold: Double = 0.5) {
        let truthIdentifiers = Array(Set(truth.map(\.identifier))).sorted()
        let resultIdentifiers = Array(Set(result.map(\.identifier))).sorted()
        let truthIndex = Dictionary(uniqueKeysWithValues: truthIdentifiers.enumerated().map { ($1, $0) })
        let resultIndex = Dictionary(uniqueKeysWithValues: resultIdentifiers.enumerated().map { ($1, $0) })
        // Frames in which each pair overlaps enough.
        var overlaps = Array(repeating: Array(repeating: 0, count: resultIdentifiers.count), count: truthIdentifiers.count)
        let resultByFrame = Dictionary(grouping: result, by: \.frame)
        for box in truth {
            for candidate in resultByFrame[box.frame] ?? [] where box.box.intersectionOverUnion(candidate.box) >= threshold {
                overlaps[truthIndex[box.identifier]!][resultIndex[candidate.identifier]!] += 1
            }
        }
        // The pairing with the most overlapping frames: least total cost at cost −overlap. Every pair
        // is allowed (a pair that never overlaps adds nothing, as leaving both unpaired would), so
        // the solver's squared problem never has to take a forbidden pair.
        var matched = 0
        if !truthIdentifiers.isEmpty, !resultIdentifiers.isEmpty {
            var solver = AssignmentSolver(maximumRows: truthIdentifiers.count, maximumColumns: resultIdentifiers.count)
            solver.solve(rows: truthIdentifiers.count, columns: resultIdentifiers.count, gate: .infinity) { row, column in
                -Double(overlaps[row][column])
            }
            for row in truthIdentifiers.indices where solver.column(forRow: row) >= 0 {
                matched += overlaps[row][solver.column(forRow: row)]
            }
        }
        truePositives = matched
        falsePositives = result.count - matched
        falseNegatives = truth.count - matched
    }
}

/// The scorer itself, on cases small enough to count by hand.
@Suite struct IdentityScoreTests {
    /// A box of 100 × 200 px at `x`.
    static func box(_ frame: Int, _ identifier: Int, x: Double) -> MOTRecord {
        MOTRecord(frame: frame, identifier: identifier, box: PixelRect(x: x, y: 50, width: 100, height: 200), confidence: 1)
    }

    /// Two people, A (id 1) at x = 0 and B (id 2) at x = 500, in frames 1 to 10.
    static let twoPeople = (1...10).flatMap { [box($0, 1, x: 0), box($0, 2, x: 500)] }

    /// Track 1 on A and track 2 on B up to frame `last`, the other way round after it.
    static func swapped(after last: Int) -> [MOTRecord] {
        (1...10).flatMap { frame in
            frame <= last ? [box(frame, 1, x: 0), box(frame, 2, x: 500)] : [box(frame, 1, x: 500), box(frame, 2, x: 0)]
        }
    }

    @Test func aPerfectResultScoresOne() {
        // The tracker's identifiers need not be the ground truth's.
        let result = Self.twoPeople.map { MOTRecord(frame: $0.frame, identifier: $0.identifier + 40, box: $0.box, confidence: 1) }
        let score = IdentityScore(truth: Self.twoPeople, result: result)
        #expect(score == IdentityScore(truePositives: 20, falsePositives: 0, falseNegatives: 0))
        #expect(score.f1 == 1)
    }

    @Test func anIdentitySwapHalfwayHalvesIt() {
        // Track 1 follows A for frames 1-5 and B for 6-10; track 2 the other way round. The best
        // pairing (A-1, B-2, or A-2, B-1) keeps 5 + 5 frames: IDTP 10, IDFP 10, IDFN 10,
        // IDF1 = 20 / 40 = 0.5.
        let score = IdentityScore(truth: Self.twoPeople, result: Self.swapped(after: 5))
        #expect(score == IdentityScore(truePositives: 10, falsePositives: 10, falseNegatives: 10))
        #expect(score.f1 == 0.5)
    }

    @Test func aSwapAfterEightFramesCountsTheLongerStretch() {
        // Swapped for frames 9-10 only: pairs A-1 and B-2 keep 8 + 8 frames; IDF1 = 32 / 40 = 0.8.
        #expect(IdentityScore(truth: Self.twoPeople, result: Self.swapped(after: 8)).f1 == 0.8)
    }

    @Test func aFragmentedTrackCountsOnlyItsLongestPart() {
        // One person for 10 frames; track 1 on frames 1-4, track 2 on 5-10: IDTP 6, IDFP 4,
        // IDFN 4, IDF1 = 12 / 20 = 0.6.
        let truth = (1...10).map { Self.box($0, 1, x: 0) }
        let result = (1...10).map { Self.box($0, $0 <= 4 ? 1 : 2, x: 0) }
        #expect(IdentityScore(truth: truth, result: result) == IdentityScore(truePositives: 6, falsePositives: 4, falseNegatives: 4))
        #expect(IdentityScore(truth: truth, result: result).f1 == 0.6)
    }

    @Test func thePairingMaximisesFramesNotPairs() {
        // A (frames 1-10 and 12) and B (frame 11); track 1 is on A for frames 1-10 and on B in frame
        // 11, track 2 on A in frame 12. Pairing A-1 keeps 10 frames; pairing A-2 and B-1 would pair
        // both people but keep 2. IDTP 10 of 12 true and 12 tracker boxes: IDF1 = 20 / 24.
        let truth = (1...10).map { Self.box($0, 1, x: 0) } + [Self.box(11, 2, x: 500), Self.box(12, 1, x: 0)]
        let result = (1...10).map { Self.box($0, 1, x: 0) } + [Self.box(11, 1, x: 500), Self.box(12, 2, x: 0)]
        let score = IdentityScore(truth: truth, result: result)
        #expect(score == IdentityScore(truePositives: 10, falsePositives: 2, falseNegatives: 2))
        #expect(abs(score.f1 - 20.0 / 24) < 1e-12)
    }

    @Test func boxesOverlapOnlyFromHalfTheirUnion() {
        // Shifted by s px, two 100 px wide boxes have IoU (100 − s) / (100 + s): 0.5 at s = 100/3.
        let truth = [Self.box(1, 1, x: 0)]
        #expect(IdentityScore(truth: truth, result: [Self.box(1, 9, x: 33)]).truePositives == 1)
        #expect(IdentityScore(truth: truth, result: [Self.box(1, 9, x: 34)]).truePositives == 0)
        #expect(IdentityScore(truth: truth, result: [Self.box(2, 9, x: 0)]).truePositives == 0, "another frame")
    }

    @Test func anEmptyResultScoresZero() {
        let score = IdentityScore(truth: Self.twoPeople, result: [])
        #expect(score == IdentityScore(truePositives: 0, falsePositives: 0, falseNegatives: 20))
        #expect(score.f1 == 0)
        #expect(IdentityScore(truth: [], result: Self.twoPeople).f1 == 0, "boxes where nobody is")
        #expect(IdentityScore(truth: [], result: []).f1 == 0)
    }
}
