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
}
