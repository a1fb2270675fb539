import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing

@testable import DockEvaluation

/// A presenter who walks out past the end of a ±90° dock's pan range and comes back — the way
/// they left, or from the other side — is framed again within a second of being back in the
/// picture, with the default lost behaviour, however long they were gone. Virtual time, fixed
/// seeds; "back in the picture" and "framed" are the simulator's own (`RunReport.returns`: the
/// body at least half in the image after a second or more out of it; the body's centre within
/// the framing tolerance of the image's).
@Suite(.onTheComputingThread) struct LostSubjectTests {
    /// The scenario files' presenter, gone `away` seconds (from 10 s), coming back on the right
    /// (the way they left) or on the left.
    static func presenter(away: Double, comesBackLeft: Bool, seed: UInt64 = 41) throws -> Scenario {
        let back = 10 + away, side = comesBackLeft ? -1.0 : 1.0
        return try Scenario.parse(
            """
            {"name": "presenter-away-\(away)", "duration_s": \(back + 14), "seed": \(seed),
             "accessory": {"yaw": {"min_deg": -90, "max_deg": 90}},
             "subjects": [{"id": 1, "kind": "person", "primary": true, "height_m": 1.75,
               "path": {"waypoints": [{"t_s": 0, "x_m": 0, "y_m": 3}, {"t_s": 4, "x_m": 0, "y_m": 3},
                 {"t_s": 7, "x_m": 3, "y_m": 1.2}, {"t_s": 9.5, "x_m": 2.4, "y_m": -2.2},
                 {"t_s": \(back), "x_m": \(2.4 * side), "y_m": -2.2}, {"t_s": \(back + 2.5), "x_m": \(3 * side), "y_m": 1.2},
                 {"t_s": \(back + 5.5), "x_m": \(0.3 * side), "y_m": 3}]},
               "absent": [{"from_s": 10, "to_s": \(back)}]}]}
            """)
    }

    static func run(_ scenario: Scenario, pipeline: TrackingPipeline = TrackingPipeline()) -> ClosedLoop.Result {
        var pipeline = pipeline
        pipeline.framingMode = .center
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
        return loop.run()
    }

    static func describe(_ result: ClosedLoop.Result) -> String {
        let returns = result.report.returns.map { record in
            "back at \(record.backSeconds) s, framed \(record.secondsToFrame.map { "\($0) s later" } ?? "never")"
        }
        return "\(result.report.scenarioName): \(returns.joined(separator: "; ")), in tolerance \(result.report.inToleranceShare ?? 0)"
    }
}

extension LostSubjectTests {
    /// The scenario files (`scripts/hil` runs them in real time), with the default lost behaviour.
    @Test(arguments: ["walk-out-and-back", "walk-out-come-back-left"])
    func thePresenterIsFramedWithinASecondOfBeingBackInThePicture(name: String) throws {
        let scenario = try loadScenario(name)
        let result = Self.run(scenario)
        print(Self.describe(result))
        let returns = result.report.returns
        #expect(returns.count == 1, "one return into the picture: \(Self.describe(result))")
        for record in returns {
            let seconds = try #require(record.secondsToFrame, "framed again: \(Self.describe(result))")
            #expect(seconds <= 1, "\(Self.describe(result))")
        }
        let unmet = result.report.verdicts(scenario.criteria).filter { !$0.isMet }.map { "\($0.criterion): \($0.detail)" }
        #expect(unmet.isEmpty, "the file's own criteria: \(unmet)")
    }

    /// However long they are gone — back while the dock still holds on the place they left, just
    /// as it turns home, or long after — and whichever side they come back by.
    @Test(arguments: [false, true])
    func whateverTheAbsenceTheReturnIsFramedWithinASecond(comesBackLeft: Bool) throws {
        // The default holds 5 s after the presenter walked out (about 9.3 s): the fine steps
        // straddle the moment the dock turns home.
        for away in [1.0, 2, 3, 3.6, 3.7, 3.8, 3.9, 4.0, 4.1, 4.2, 4.5, 5, 6, 8, 12, 20] {
            let result = Self.run(try Self.presenter(away: away, comesBackLeft: comesBackLeft))
            let returns = result.report.returns
            print("away \(away) s: \(Self.describe(result))")
            #expect(returns.count == 1, "away \(away) s: \(Self.describe(result))")
            #expect(
                returns.allSatisfy { ($0.secondsToFrame ?? .infinity) <= 1 },
                "away \(away) s: \(Self.describe(result))")
        }
    }
}
