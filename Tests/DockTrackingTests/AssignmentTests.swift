import DockSimulator
import Testing

@testable import DockTracking

/// The Hungarian solver against brute force, and its gate.
@Suite struct AssignmentTests {
    /// The least total cost over all pairings (every row paired when rows ≤ columns), by trying them all.
    func bruteForce(_ cost: [[Double]]) -> Double {
        let rows = cost.count, columns = cost[0].count
        var best = Double.infinity
        func search(_ row: Int, _ used: Set<Int>, _ total: Double) {
            if row == rows {
                best = min(best, total)
                return
            }
            for column in 0..<columns where !used.contains(column) {
                search(row + 1, used.union([column]), total + cost[row][column])
            }
        }
        search(0, [], 0)
        return best
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
    func matchesBruteForce(seed: UInt64) {
        var random = SimulationRandom(seed: seed)
        var solver = AssignmentSolver(maximumRows: 8, maximumColumns: 8)
        for _ in 0..<40 {
            let rows = Int.random(in: 1...5, using: &random)
            let columns = Int.random(in: rows...6, using: &random)
            let cost = (0..<rows).map { _ in (0..<columns).map { _ in Double.random(in: 0...10, using: &random) } }
            solver.solve(rows: rows, columns: columns, gate: .infinity) { cost[$0][$1] }
            let columnsUsed = (0..<rows).map { solver.column(forRow: $0) }
            #expect(Set(columnsUsed).count == rows && !columnsUsed.contains(-1), "seed \(seed): every row paired once")
            let total = (0..<rows).map { cost[$0][columnsUsed[$0]] }.reduce(0, +)
            #expect(abs(total - bruteForce(cost)) < 1e-9, "seed \(seed): optimal")
        }
    }

    @Test func pairsAboveTheGateAreNeverMade() {
        var solver = AssignmentSolver(maximumRows: 4, maximumColumns: 4)
        let cost: [[Double]] = [[1, 9], [9, 9], [.nan, 2]]
        solver.solve(rows: 3, columns: 2, gate: 5) { cost[$0][$1] }
        #expect(solver.column(forRow: 0) == 0)
        #expect(solver.column(forRow: 1) == -1, "every pair of row 1 is above the gate")
        #expect(solver.column(forRow: 2) == 1)
        solver.solve(rows: 0, columns: 3, gate: 5) { _, _ in 0 }
        #expect(solver.column(forRow: 0) == -1)
    }

    /// The best total of pairs worth `unpaired − cost` each (any rows and columns left unpaired),
    /// by trying every pairing.
    func bruteForceWorth(_ cost: [[Double]], unpaired: Double) -> Double {
        let rows = cost.count, columns = cost[0].count
        var best = 0.0
        func search(_ row: Int, _ used: Set<Int>, _ worth: Double) {
            if row == rows {
                best = max(best, worth)
                return
            }
            search(row + 1, used, worth)
            for column in 0..<columns where !used.contains(column) && cost[row][column].isFinite && cost[row][column] < unpaired {
                search(row + 1, used.union([column]), worth + unpaired - cost[row][column])
            }
        }
        search(0, [], 0)
        return best
    }

    @Test(arguments: [11 as UInt64, 12, 13, 14, 15, 16])
    func withAnUnpairedCostThePairingIsWorthTheMost(seed: UInt64) {
        var random = SimulationRandom(seed: seed)
        var solver = AssignmentSolver(maximumRows: 8, maximumColumns: 8)
        for _ in 0..<40 {
            let rows = Int.random(in: 1...5, using: &random), columns = Int.random(in: 1...6, using: &random)
            let cost = (0..<rows).map { _ in
                (0..<columns).map { _ in
                    Double.random(in: 0...1, using: &random) < 0.3 ? .infinity : Double.random(in: 0...2, using: &random)
                }
            }
            solver.solve(rows: rows, columns: columns, gate: .greatestFiniteMagnitude, unpairedCost: 1.3) { cost[$0][$1] }
            let paired = (0..<rows).map { solver.column(forRow: $0) }
            let used = paired.filter { $0 >= 0 }
            #expect(Set(used).count == used.count, "seed \(seed): a column paired once at most")
            #expect(paired.indices.allSatisfy { paired[$0] < 0 || cost[$0][paired[$0]] < 1.3 }, "seed \(seed): only pairs worth something")
            let worth = paired.indices.filter { paired[$0] >= 0 }.map { 1.3 - cost[$0][paired[$0]] }.reduce(0, +)
            #expect(abs(worth - bruteForceWorth(cost, unpaired: 1.3)) < 1e-9, "seed \(seed): the best pairing")
        }
    }

    @Test func anUnpairedCostKeepsOneCheapPairOverTwoDearOnes() {
        // Row 0 fits column 0 well (0.1) and column 1 badly (0.8); row 1 fits only column 0 (0.7).
        // Pairing the most gives 0-1 and 1-0 (1.5 in all); leaving row 1 and column 1 unpaired at
        // 1.3 costs 1.4, so with that cost row 0 keeps column 0.
        var solver = AssignmentSolver(maximumRows: 2, maximumColumns: 2)
        let cost: [[Double]] = [[0.1, 0.8], [0.7, .infinity]]
        solver.solve(rows: 2, columns: 2, gate: .greatestFiniteMagnitude) { cost[$0][$1] }
        #expect(solver.column(forRow: 0) == 1 && solver.column(forRow: 1) == 0)
        solver.solve(rows: 2, columns: 2, gate: .greatestFiniteMagnitude, unpairedCost: 1.3) { cost[$0][$1] }
        #expect(solver.column(forRow: 0) == 0 && solver.column(forRow: 1) == -1)
    }

    /// The shortcuts (`solve`'s `allowsShortcut`) give the Hungarian method's answer: the one for
    /// pairs that share no row or column, on problems where most pairs are not worth making
    /// (people apart, as in most frames), and, where some contend, the one that solves each group
    /// of contending rows and columns on its own — on sparse problems and dense ones (up to 60 %
    /// of the pairs worth making: a few large groups) — each cost asked for once either way.
    @Test(arguments: [31 as UInt64, 32, 33, 34, 35, 36])
    func theShortcutsAnswerAsTheHungarianMethod(seed: UInt64) {
        var random = SimulationRandom(seed: seed)
        var solver = AssignmentSolver(maximumRows: 16, maximumColumns: 16)
        var hungarian = AssignmentSolver(maximumRows: 16, maximumColumns: 16)
        for _ in 0..<200 {
            let rows = Int.random(in: 1...16, using: &random), columns = Int.random(in: 1...16, using: &random)
            let worthy = Double.random(in: 0...0.6, using: &random)
            let cost = (0..<rows).map { _ in
                (0..<columns).map { _ in
                    Double.random(in: 0...1, using: &random) < worthy ? Double.random(in: 0...2, using: &random) : .infinity
                }
            }
            var asked = 0
            solver.solve(rows: rows, columns: columns, gate: .greatestFiniteMagnitude, unpairedCost: 1.3) {
                asked += 1
                return cost[$0][$1]
            }
            hungarian.solve(rows: rows, columns: columns, gate: .greatestFiniteMagnitude, unpairedCost: 1.3, allowsShortcut: false) {
                cost[$0][$1]
            }
            #expect(asked == rows * columns, "seed \(seed): each cost asked for once")
            for row in 0..<rows {
                #expect(solver.column(forRow: row) == hungarian.column(forRow: row), "seed \(seed): row \(row) of \(cost)")
            }
        }
    }
}
