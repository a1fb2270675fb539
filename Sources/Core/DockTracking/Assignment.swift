/// Optimal assignment of tracks to observations (the Hungarian method, Kuhn–Munkres, in the
/// shortest-augmenting-path form with potentials, O(n²m)): the pairing of rows to columns with the
/// least total cost, where a cost above the gate forbids a pair. Buffers are sized once for the
/// largest problem and reused, so solving allocates nothing.
public struct AssignmentSolver: Sendable {
    /// The most rows (tracks) a problem may have.
    public let maximumRows: Int
    /// The most columns (observations) a problem may have.
    public let maximumColumns: Int

    private var cost: [Double]
    private var rowPotential: [Double]
    private var columnPotential: [Double]
    private var columnMatch: [Int]
    private var way: [Int]
    private var minimum: [Double]
    private var used: [Bool]
    private var rowAssignment: [Int]
    /// Each pair's value as the Hungarian method would fill it in (row-major, `maximumColumns` a
    /// row), as `solveDisjoint` found them.
    private var values: [Double]
    /// `solveByComponents`' union-find over rows (0..<rows) and columns (rows...), its rows done,
    /// and one component's rows and columns.
    private var parent: [Int]
    private var rowDone: [Bool]
    private var componentRows: [Int]
    private var componentColumns: [Int]

    /// Prepares buffers for problems up to `maximumRows` × `maximumColumns`.
    public init(maximumRows: Int, maximumColumns: Int) {
        self.maximumRows = maximumRows
        self.maximumColumns = maximumColumns
        let size = max(maximumRows, maximumColumns) + 1
        cost = Array(repeating: 0, count: size * size)
        rowPotential = Array(repeating: 0, count: size)
        columnPotential = Array(repeating: 0, count: size)
        columnMatch = Array(repeating: 0, count: size)
        way = Array(repeating: 0, count: size)
        minimum = Array(repeating: 0, count: size)
        used = Array(repeating: false, count: size)
        rowAssignment = Array(repeating: -1, count: maximumRows)
        values = Array(repeating: 0, count: maximumRows * maximumColumns)
        parent = Array(repeating: 0, count: maximumRows + maximumColumns)
        rowDone = Array(repeating: false, count: maximumRows)
        componentRows = Array(repeating: 0, count: maximumRows)
        componentColumns = Array(repeating: 0, count: maximumColumns)
    }

    /// The cost the solver gives a forbidden pair: large enough never to be chosen over any
    /// allowed pairing, small enough to keep sums finite.
    static let forbidden = 1e12

    /// Solves a problem of `rows` × `columns` whose costs `cost(row, column)` gives; a pair whose
    /// cost is not finite or exceeds `gate` is never made.
    ///
    /// - Returns: for each row, its column, or -1 when it is left unpaired (read them with
    ///   `column(forRow:)`; the buffer is reused by the next call).
    ///
    /// With a finite `unpairedCost` U, leaving a row and a column unpaired costs U: a pair is
    /// made only where it costs less than U, and two pairs costing more together than one pair
    /// and U are not made to pair everything (without it, the most pairs allowed are made first).
    ///
    /// With a finite U, when no two pairs worth making (costing less than U) share a row or a
    /// column — people apart from each other, the usual frame — the answer is every such pair, and
    /// it is given without the Hungarian method (`allowsShortcut`: false only in the tests that
    /// hold the shortcuts to the Hungarian method's answers). When some do, the pairs worth making
    /// fall apart into groups that share no row or column with another group (two neighbours
    /// who contend, the others apart); each group is solved on its own — one row or one column by
    /// its best pair, a larger one by the Hungarian method on its rows and columns only — which is
    /// the same answer: a pair not worth making adds nothing, so the best assignment of the whole
    /// is the best of each group.
    public mutating func solve(
        rows: Int, columns: Int, gate: Double, unpairedCost: Double = .infinity, allowsShortcut: Bool = true,
        cost costOf: (Int, Int) -> Double
    ) {
        precondition(rows <= maximumRows && columns <= maximumColumns, "assignment problem larger than its buffers")
        for row in 0..<maximumRows { rowAssignment[row] = -1 }
        guard rows > 0, columns > 0 else { return }
        let isValued = unpairedCost.isFinite && allowsShortcut
        if isValued {
            if !solveDisjoint(rows: rows, columns: columns, gate: gate, unpairedCost: unpairedCost, cost: costOf) {
                solveByComponents(rows: rows, columns: columns)
            }
            return
        }
        // Square the problem: missing rows or columns cost nothing, forbidden pairs cost a lot.
        let n = max(rows, columns)
        let stride = n + 1
        for row in 1...n {
            for column in 1...n {
                var value = 0.0
                if row <= rows, column <= columns {
                    let given = costOf(row - 1, column - 1)
                    let allowed = given.isFinite && given <= gate
                    if unpairedCost.isFinite {
                        // A maximum-weight matching as a least-cost assignment: a pair is worth
                        // U − cost; a pair worth nothing is as good as leaving both unpaired.
                        value = allowed ? min(given - unpairedCost, 0) : 0
                    } else {
                        value = allowed ? given : Self.forbidden
                    }
                }
                cost[row * stride + column] = value
            }
        }
        hungarian(size: n)
        for column in 1...n {
            let row = columnMatch[column]
            guard row >= 1, row <= rows, column <= columns else { continue }
            let value = cost[row * stride + column]
            guard unpairedCost.isFinite ? value < 0 : value < Self.forbidden else { continue }
            rowAssignment[row - 1] = column - 1
        }
    }

    /// The Hungarian method on the square problem of `size` in `cost` (1-based, `size + 1` a
    /// row): each column's row in `columnMatch`.
    private mutating func hungarian(size n: Int) {
        let stride = n + 1
        for index in 0...n {
            rowPotential[index] = 0
            columnPotential[index] = 0
            columnMatch[index] = 0
            way[index] = 0
        }
        for row in 1...n {
            columnMatch[0] = row
            var column0 = 0
            for index in 0...n {
                minimum[index] = .infinity
                used[index] = false
            }
            repeat {
                used[column0] = true
                let row0 = columnMatch[column0]
                var delta = Double.infinity
                var column1 = 0
                for column in 1...n where !used[column] {
                    let reduced = cost[row0 * stride + column] - rowPotential[row0] - columnPotential[column]
                    if reduced < minimum[column] {
                        minimum[column] = reduced
                        way[column] = column0
                    }
                    if minimum[column] < delta {
                        delta = minimum[column]
                        column1 = column
                    }
                }
                for column in 0...n {
                    if used[column] {
                        rowPotential[columnMatch[column]] += delta
                        columnPotential[column] -= delta
                    } else {
                        minimum[column] -= delta
                    }
                }
                column0 = column1
            } while columnMatch[column0] != 0
            repeat {
                let column1 = way[column0]
                columnMatch[column0] = columnMatch[column1]
                column0 = column1
            } while column0 != 0
        }
    }

    /// With the pairs' values in `values` (from `solveDisjoint`, which found two pairs worth
    /// making in one row or column): each group of rows and columns linked by such pairs solved
    /// on its own (see `solve`).
    private mutating func solveByComponents(rows: Int, columns: Int) {
        func find(_ node: Int) -> Int {
            var node = node
            while parent[node] != node {
                parent[node] = parent[parent[node]]
                node = parent[node]
            }
            return node
        }
        for node in 0..<(rows + columns) { parent[node] = node }
        for row in 0..<rows {
            rowDone[row] = false
            for column in 0..<columns where values[row * maximumColumns + column] < 0 {
                let a = find(row), b = find(rows + column)
                if a != b { parent[a] = b }
            }
        }
        for first in 0..<rows where !rowDone[first] {
            let root = find(first)
            var rowCount = 0, columnCount = 0
            for row in first..<rows where !rowDone[row] && find(row) == root {
                rowDone[row] = true
                componentRows[rowCount] = row
                rowCount += 1
            }
            for column in 0..<columns where find(rows + column) == root {
                componentColumns[columnCount] = column
                columnCount += 1
            }
            guard columnCount > 0 else { continue }  // a row with no pair worth making
            if rowCount == 1 || columnCount == 1 {
                // One row (or column) and its pairs: the best of them.
                var best = (row: -1, column: -1, value: 0.0)
                for rowIndex in 0..<rowCount {
                    for columnIndex in 0..<columnCount {
                        let row = componentRows[rowIndex], column = componentColumns[columnIndex]
                        let value = values[row * maximumColumns + column]
                        if value < best.value { best = (row, column, value) }
                    }
                }
                rowAssignment[best.row] = best.column
                continue
            }
            let n = max(rowCount, columnCount), stride = n + 1
            for row in 1...n {
                for column in 1...n {
                    cost[row * stride + column] =
                        row <= rowCount && column <= columnCount
                        ? values[componentRows[row - 1] * maximumColumns + componentColumns[column - 1]] : 0
                }
            }
            hungarian(size: n)
            for column in 1...n {
                let row = columnMatch[column]
                guard row >= 1, row <= rowCount, column <= columnCount, cost[row * stride + column] < 0 else { continue }
                rowAssignment[componentRows[row - 1]] = componentColumns[column - 1]
            }
        }
    }

    /// With a finite `unpairedCost`: the pairs worth making (cost below it), when no two share a
    /// row or a column; then every one of them is in the least-cost assignment (each is worth
    /// something, and none stands in another's way) and nothing else is paired, which is what the
    /// Hungarian method answers too. Returns false, with `rowAssignment` all -1, when two do.
    /// Each cost is asked for once, as by the Hungarian method; the pairs' values are kept in
    /// `values` so that a problem that is not disjoint does not ask again.
    private mutating func solveDisjoint(
        rows: Int, columns: Int, gate: Double, unpairedCost: Double, cost costOf: (Int, Int) -> Double
    ) -> Bool {
        // `columnMatch` holds each column's row + 1 (0: none) while the pairs are looked for.
        for column in 0..<columns { columnMatch[column] = 0 }
        var isDisjoint = true
        for row in 0..<rows {
            var found = -1
            for column in 0..<columns {
                let given = costOf(row, column)
                let value = given.isFinite && given <= gate ? min(given - unpairedCost, 0) : 0
                values[row * maximumColumns + column] = value
                guard value < 0, isDisjoint else { continue }
                if found >= 0 || columnMatch[column] != 0 {
                    isDisjoint = false
                } else {
                    found = column
                    columnMatch[column] = row + 1
                }
            }
            if isDisjoint, found >= 0 { rowAssignment[row] = found }
        }
        if isDisjoint { return true }
        for row in 0..<rows { rowAssignment[row] = -1 }
        return false
    }

    /// The column paired with `row` by the last `solve`, or -1.
    public func column(forRow row: Int) -> Int { rowAssignment[row] }
}
