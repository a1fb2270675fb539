import DockSimulator
import DockTracking
import DockVocabulary
import TestSupport
import Testing

@testable import DockEvaluation

/// Re-identification from appearance descriptors (`Observation.appearance`), in closed loop and
/// virtual time: the same runs — the same boxes, drawn from the same seeds — with the simulated
/// detector's descriptors and without them.
@Suite(.onTheComputingThread) struct ReidentificationScenarioTests {
    /// One closed-loop run of `scenario` on `seed`, centred framing, with or without descriptors.
    static func run(
        _ scenario: Scenario, seed: UInt64, descriptors: Bool,
        tracker: SubjectTracker.Configuration = SubjectTracker.Configuration()
    ) -> ClosedLoop.Result {
        var scenario = scenario
        scenario.seed = seed
        scenario.detector.appearanceLength = descriptors ? 16 : 0
        var configuration = TrackingPipeline.Configuration()
        configuration.tracker = tracker
        var pipeline = TrackingPipeline(configuration: configuration)
        pipeline.framingMode = .center
        var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
        return loop.run()
    }

    static let seeds: [UInt64] = [23, 24, 25, 26, 27, 28, 29]

    /// The subject leaves by a door for ten seconds; a look-alike comes in by it, crosses the
    /// room and leaves; the subject comes back. With descriptors the subject is one identifier on
    /// every seed and the look-alike never has it; without, the subject comes back as a stranger.
    @Test func theSubjectComesBackUnderTheirIdentifierAndTheLookAlikeGetsANewOne() throws {
        let scenario = try loadScenario("look-alike-return")
        var kept = 0, strangers = 0
        for seed in Self.seeds {
            let with = Self.run(scenario, seed: seed, descriptors: true).identities()
            let without = Self.run(scenario, seed: seed, descriptors: false).identities()
            print(
                "look-alike-return seed \(seed): identities with descriptors \(with.mapValues { $0.sorted() }), "
                    + "without \(without.mapValues { $0.sorted() })")
            let subject = with[1] ?? [], lookAlike = with[2] ?? []
            #expect(subject.count == 1, "seed \(seed): the subject on one identifier: \(with)")
            #expect(!lookAlike.isEmpty && lookAlike.isDisjoint(with: subject), "seed \(seed): the look-alike someone else: \(with)")
            if subject.count == 1 { kept += 1 }
            if (without[1]?.count ?? 0) >= 2 { strangers += 1 }
        }
        print(
            "look-alike-return: subject on one identifier with descriptors on \(kept)/\(Self.seeds.count) seeds; "
                + "back as a stranger without them on \(strangers)/\(Self.seeds.count)")
        #expect(strangers == Self.seeds.count, "without descriptors nothing brings the subject back")
    }

    /// The look-alike is near enough that a loose threshold hands them the subject's identifier:
    /// the simulator makes the wrong re-identification possible, and this counts it.
    @Test func aLooseThresholdHandsTheLookAlikeTheSubjectsIdentifier() throws {
        let scenario = try loadScenario("look-alike-return")
        var loose = SubjectTracker.Configuration()
        loose.reidentificationDistance = 0.2
        loose.appearanceMatchDistance = 0.2
        var wrong = 0
        for seed in Self.seeds {
            let identities = Self.run(scenario, seed: seed, descriptors: true, tracker: loose).identities()
            if !(identities[2] ?? []).isDisjoint(with: identities[1] ?? []) { wrong += 1 }
        }
        print(
            "look-alike-return, reidentificationDistance 0.2: the look-alike took the subject's identifier on \(wrong)/\(Self.seeds.count) seeds"
        )
        #expect(wrong > 0)
    }

    /// `leave-and-return`: the subject vanishes in the middle of the picture and comes back six
    /// seconds later from the other side.
    @Test func leaveAndReturnKeepsItsIdentifierWithDescriptors() throws {
        let scenario = try loadScenario("leave-and-return")
        var kept = 0, keptWithout = 0
        for seed in Self.seeds.map({ $0 - 9 }) {
            let with = Self.run(scenario, seed: seed, descriptors: true)
            let without = Self.run(scenario, seed: seed, descriptors: false)
            print(
                "leave-and-return seed \(seed): with descriptors identities \(with.identities().mapValues { $0.sorted() }), "
                    + "primary switches \(with.primaryIDSwitches); without \(without.identities().mapValues { $0.sorted() }), "
                    + "\(without.primaryIDSwitches)")
            if with.identities()[1]?.count == 1 { kept += 1 }
            if without.identities()[1]?.count == 1 { keptWithout += 1 }
            #expect(with.identities()[1]?.count == 1, "seed \(seed)")
        }
        print("leave-and-return: one identifier with descriptors on \(kept)/\(Self.seeds.count) seeds, without on \(keptWithout)")
    }
}
