import Testing
import VISCAProtocol

/// Speed tables: their checks, interpolation, and the rad/s → step mapping with hysteresis.
@Suite struct VISCASpeedTableTests {
    /// Telycam TLC-700's pan steps (user manual p. 13), degrees per second.
    static let telycamPan: [Double] = [
        1, 1.5, 2.2, 2.4, 2.6, 2.8, 3.0, 3.2, 3.4, 3.8, 4.5, 6, 9, 15, 19, 25, 32, 38, 45, 58,
        75, 88, 105, 120,
    ]

    static func telycam() throws -> VISCASpeedTable {
        try VISCASpeedTable(points: telycamPan.enumerated().map { (step: UInt8($0.offset + 1), degreesPerSecond: $0.element) })
    }

    static func radians(_ degreesPerSecond: Double) -> Double { degreesPerSecond * .pi / 180 }

    @Test func refusesTablesThatCannotBeRead() {
        let cases: [(String, [(step: UInt8, degreesPerSecond: Double)])] = [
            ("empty", []),
            ("starts at 2", [(2, 1), (3, 2)]),
            ("starts at 0", [(0, 0.3), (1, 1)]),
            ("steps repeat", [(1, 1), (1, 2)]),
            ("steps fall", [(1, 1), (5, 2), (4, 3)]),
            ("speeds repeat", [(1, 1), (2, 1)]),
            ("speeds fall", [(1, 2), (2, 1)]),
            ("zero speed", [(1, 0)]),
            ("NaN", [(1, 1), (2, .nan)]),
            ("infinite", [(1, 1), (2, .infinity)]),
            ("step 255", [(1, 1), (255, 2)]),
        ]
        for (name, points) in cases {
            #expect(throws: VISCAError.self, "\(name)") { try VISCASpeedTable(points: points) }
            do {
                _ = try VISCASpeedTable(points: points)
            } catch {
                #expect(error.name == "invalid_speed_table", "\(name)")
                #expect(error.description.count > 25, "\(name): \(error)")
            }
        }
    }

    @Test func listedStepsAreExactAndTheOthersInterpolated() throws {
        let table = try VISCASpeedTable(points: [(1, 1), (4, 4), (8, 20)])
        #expect(table.maximumStep == 8)
        #expect(table.radiansPerSecond(step: 0) == 0)
        #expect(abs(table.radiansPerSecond(step: 1) - Self.radians(1)) < 1e-12)
        #expect(abs(table.radiansPerSecond(step: 2) - Self.radians(2)) < 1e-12)
        #expect(abs(table.radiansPerSecond(step: 4) - Self.radians(4)) < 1e-12)
        #expect(abs(table.radiansPerSecond(step: 6) - Self.radians(12)) < 1e-12)
        #expect(abs(table.radiansPerSecond(step: 8) - Self.radians(20)) < 1e-12)
        #expect(table.radiansPerSecond(step: 200) == table.radiansPerSecond(step: 8), "above the table: its fastest")
        #expect(table.points.map(\.step) == [1, 4, 8])
    }

    @Test func withoutACurrentStepTheNearestIsChosen() throws {
        let table = try Self.telycam()
        for (index, degrees) in Self.telycamPan.enumerated() {
            #expect(table.step(for: Self.radians(degrees), current: nil) == UInt8(index + 1), "\(degrees) °/s")
            #expect(table.step(for: -Self.radians(degrees), current: nil) == UInt8(index + 1), "the sign is ignored")
        }
        #expect(table.step(for: 0, current: nil) == 0)
        #expect(table.step(for: Self.radians(0.49), current: nil) == 0, "below half of step 1: stop")
        #expect(table.step(for: Self.radians(0.51), current: nil) == 1)
        #expect(table.step(for: Self.radians(7.4), current: nil) == 12, "6 and 9 °/s: 7.4 is nearer 6")
        #expect(table.step(for: Self.radians(7.6), current: nil) == 13)
        #expect(table.step(for: Self.radians(500), current: nil) == 24)
        #expect(table.step(for: .infinity, current: nil) == 24)
        #expect(table.step(for: .nan, current: nil) == 0)
    }

    @Test func aCurrentStepIsKeptUntilTheSpeedIsWellPastTheBoundary() throws {
        let table = try Self.telycam()
        // Steps 12 and 13 are 6 and 9 °/s: the boundary is 7.5, and with hysteresis 0.3 the
        // step goes up past 6 + 0.8 × 3 = 8.4 and down below 9 − 0.8 × 3 = 6.6.
        #expect(table.step(for: Self.radians(8.3), current: 12) == 12)
        #expect(table.step(for: Self.radians(8.5), current: 12) == 13)
        #expect(table.step(for: Self.radians(6.7), current: 13) == 13)
        #expect(table.step(for: Self.radians(6.5), current: 13) == 12)
        // Far from the current step the nearest wins at once.
        #expect(table.step(for: Self.radians(100), current: 1) == 23)
        #expect(table.step(for: 0, current: 20) == 0)
        // Stop and step 1 (1 °/s): out of stop above 0.8, back to stop below 0.2.
        #expect(table.step(for: Self.radians(0.7), current: 0) == 0)
        #expect(table.step(for: Self.radians(0.9), current: 0) == 1)
        #expect(table.step(for: Self.radians(0.3), current: 1) == 1)
        #expect(table.step(for: Self.radians(0.1), current: 1) == 0)
        // No hysteresis is the nearest step.
        #expect(table.step(for: Self.radians(7.6), current: 12, hysteresis: 0) == 13)
        // A current step beyond the table is ignored.
        #expect(table.step(for: Self.radians(7.4), current: 99) == 12)
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func aSpeedWobblingAtABoundaryDoesNotChatter(seed: UInt64) throws {
        let table = try Self.telycam()
        var random = SeededGenerator(seed: seed)
        for boundary in 1..<24 {
            let low = table.radiansPerSecond(step: UInt8(boundary)), high = table.radiansPerSecond(step: UInt8(boundary + 1))
            let middle = (low + high) / 2, gap = high - low
            var current: UInt8? = nil
            var changes = 0
            for _ in 0..<500 {
                let wanted = middle + gap * Double.random(in: -0.25...0.25, using: &random)
                let step = table.step(for: wanted, current: current)
                if let current, step != current { changes += 1 }
                current = step
                #expect(step == UInt8(boundary) || step == UInt8(boundary + 1))
            }
            #expect(changes == 0, "seed \(seed), boundary \(boundary): \(changes) changes")
            // Without hysteresis the same wobble chatters.
            var nearestChanges = 0, previous: UInt8? = nil
            for _ in 0..<500 {
                let step = table.step(for: middle + gap * Double.random(in: -0.25...0.25, using: &random), current: nil)
                if let previous, previous != step { nearestChanges += 1 }
                previous = step
            }
            #expect(nearestChanges > 50, "seed \(seed), boundary \(boundary)")
        }
    }

    @Test func aRampUpAndDownVisitsEveryStepOnceEachWay() throws {
        let table = try Self.telycam()
        var current: UInt8? = nil
        var visited: [UInt8] = []
        let top = Self.radians(130)
        for index in 0...2000 {
            let wanted = top * (index <= 1000 ? Double(index) / 1000 : Double(2000 - index) / 1000)
            let step = table.step(for: wanted, current: current)
            if step != visited.last { visited.append(step) }
            current = step
        }
        #expect(visited == Array(0...24) + Array((0...23).reversed()))
    }
}
