import Testing

@testable import DockSimulator

/// One axis of motor physics, stepped by hand.
@Suite struct PhysicsTests {
    static let parameters = AxisParameters(
        minimumRadians: -1, maximumRadians: 0.5, maximumSpeedRadiansPerSecond: 2,
        maximumAccelerationRadiansPerSecondSquared: 10, responseTimeSeconds: 0.02)

    @Test func speedAndAccelerationStayWithinTheirLimits() {
        var axis = AxisPhysics(parameters: Self.parameters)
        var previous = 0.0
        var largestStep = 0.0
        for _ in 0..<400 {
            axis.step(commandedRadiansPerSecond: -50, seconds: 0.001)
            largestStep = max(largestStep, abs(axis.motorRadiansPerSecond - previous))
            previous = axis.motorRadiansPerSecond
            #expect(abs(axis.motorRadiansPerSecond) <= 2 + 1e-9)
        }
        #expect(largestStep <= 10 * 0.001 + 1e-9, "no step changes the speed faster than 10 rad/s²")
        #expect(abs(axis.motorRadiansPerSecond + 2) < 1e-3, "reaches the speed limit")
    }

    @Test func hardStopsHoldTheAxis() {
        var axis = AxisPhysics(parameters: Self.parameters)
        for _ in 0..<2000 { axis.step(commandedRadiansPerSecond: 2, seconds: 0.001) }
        #expect(axis.motorRadians == 0.5)
        #expect(axis.isAtLimit)
        #expect(axis.motorRadiansPerSecond == 0)
        axis.step(commandedRadiansPerSecond: -1, seconds: 0.001)
        #expect(axis.motorRadians < 0.5, "leaves the stop at once when turned back")
    }

    @Test func theMotorFollowsWithAFirstOrderLag() {
        var axis = AxisPhysics(
            parameters: AxisParameters(
                minimumRadians: -3, maximumRadians: 3, maximumSpeedRadiansPerSecond: 2,
                maximumAccelerationRadiansPerSecondSquared: 1e6, responseTimeSeconds: 0.02))
        for _ in 0..<20 { axis.step(commandedRadiansPerSecond: 1, seconds: 0.001) }
        // After one time constant a first-order system has covered 1 − 1/e of the step.
        #expect(abs(axis.motorRadiansPerSecond - (1 - 1 / 2.718281828)) < 0.02)
    }

    @Test func backlashDelaysTheCameraAfterAReversal() {
        var parameters = Self.parameters
        parameters.backlashRadians = 0.02
        var axis = AxisPhysics(parameters: parameters)
        for _ in 0..<200 { axis.step(commandedRadiansPerSecond: 1, seconds: 0.001) }
        #expect(abs(axis.outputRadians - (axis.motorRadians - 0.01)) < 1e-9, "the camera trails by half the play")
        let turnedAt = axis.outputRadians
        for _ in 0..<400 { axis.step(commandedRadiansPerSecond: -1, seconds: 0.001) }
        #expect(axis.motorRadians < turnedAt, "the motor has come back")
        #expect(axis.outputRadians >= axis.motorRadians + 0.01 - 1e-9)
        #expect(abs(axis.outputRadians - (axis.motorRadians + 0.01)) < 1e-9, "and the camera now leads by half")
    }

    @Test func aBlockedMotorDoesNotMove() {
        var axis = AxisPhysics(parameters: Self.parameters)
        axis.isBlocked = true
        for _ in 0..<100 { axis.step(commandedRadiansPerSecond: 1, seconds: 0.001) }
        #expect(axis.motorRadians == 0 && axis.motorRadiansPerSecond == 0)
    }

    @Test(arguments: [7 as UInt64, 8, 9])
    func encoderNoiseHasItsStandardDeviation(seed: UInt64) {
        var parameters = Self.parameters
        parameters.encoderNoiseRadians = 0.001
        let axis = AxisPhysics(parameters: parameters)
        var random = SimulationRandom(seed: seed)
        let readings = (0..<20_000).map { _ in axis.encoderReading(using: &random) }
        let mean = readings.reduce(0, +) / Double(readings.count)
        let variance = readings.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(readings.count - 1)
        #expect(abs(mean) < 3e-5, "seed \(seed)")
        #expect(abs(variance.squareRoot() - 0.001) < 3e-5, "seed \(seed)")
    }
}
