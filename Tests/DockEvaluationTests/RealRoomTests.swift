import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing

@testable import DockEvaluation

/// Framing in a real room, in virtual time with fixed seeds: someone standing in front of the
/// subject or beside them does not take the subject over, late boxes do not shake the dock, and a
/// still subject gets a still camera.
@Suite(.onTheComputingThread) struct RealRoomTests {
    static func run(_ scenario: Scenario) -> ClosedLoop.Result {
        var pipeline = TrackingPipeline()
        pipeline.framingMode = .center
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
        return loop.run()
    }

    static func describe(_ result: ClosedLoop.Result) -> String {
        let report = result.report
        var text =
            "\(report.scenarioName) seed \(report.seed): in tolerance \(report.inToleranceShare ?? 0), "
            + "ID switches \(report.primaryIDSwitches.map(String.init) ?? "-"), "
            + "person switches \(report.primaryPersonSwitches.map(String.init) ?? "-")"
        if let still = report.stillness {
            text +=
                ", still \(still.seconds) s: \(still.commandReversalsPerSecond) reversals/s, jitter \(still.jitterRMSDegrees)°, "
                + "moving commands \(still.movingCommandShare ?? -1)"
        }
        return text
    }

    @Test(arguments: ["occluder-in-front", "occluder-beside"])
    func aColleagueInFrontOrBesideNeverTakesTheSubjectOver(name: String) throws {
        let result = Self.run(try loadScenario(name))
        print(Self.describe(result))
        #expect((result.report.inToleranceShare ?? 0) >= 0.85, "\(Self.describe(result))")
        #expect(result.report.primaryPersonSwitches == 0, "\(Self.describe(result))")
        #expect(result.finallyFollowed == 1, "the dock ends on the subject: \(Self.describe(result))")
    }

    @Test(arguments: [23, 101, 202, 303, 404] as [UInt64])
    func aStillSubjectGetsAStillCamera(seed: UInt64) throws {
        var scenario = try loadScenario("still-noisy")
        scenario.seed = seed
        let result = Self.run(scenario)
        print(Self.describe(result))
        let still = try #require(result.report.stillness, "seed \(seed): never still")
        #expect(still.seconds > 25)
        #expect((result.report.inToleranceShare ?? 0) >= 0.95, "\(Self.describe(result))")
        #expect(still.commandReversalsPerSecond <= 1, "\(Self.describe(result))")
        #expect(still.jitterRMSDegrees <= 0.1, "\(Self.describe(result))")
    }

    @Test(arguments: ["late-still", "late-still-10fps", "late-walk", "late-walk-10fps"])
    func lateBoxesOfVaryingLatencyDoNotShakeTheDock(name: String) throws {
        let scenario = try loadScenario(name)
        #expect(scenario.detector.latency == .milliseconds(250) && scenario.detector.latencyJitter == .milliseconds(100))
        let result = Self.run(scenario)
        print(Self.describe(result))
        #expect((result.report.inToleranceShare ?? 0) >= 0.9, "\(Self.describe(result))")
        #expect(result.report.primaryPersonSwitches == 0, "\(Self.describe(result))")
    }

    /// The edge of the documented operating range: boxes 500 ms late, give or take 250 ms.
    @Test(arguments: ["late-still", "late-walk"])
    func halfASecondOfLatencyWithJitterOfHalfThatStillFrames(name: String) throws {
        var scenario = try loadScenario(name)
        scenario.detector.latency = .milliseconds(500)
        scenario.detector.latencyJitter = .milliseconds(250)
        let result = Self.run(scenario)
        print("500 ± 250 ms: " + Self.describe(result))
        #expect((result.report.inToleranceShare ?? 0) >= 0.85, "\(Self.describe(result))")
        #expect(result.report.primaryPersonSwitches == 0 && result.primaryIDSwitches == 0, "\(Self.describe(result))")
        if let still = result.report.stillness {
            #expect(still.commandReversalsPerSecond <= 1, "\(Self.describe(result))")
        }
    }
}
