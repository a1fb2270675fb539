import DockNumbers
import DockProtocol
import DockTracking
import DockVocabulary
import TestSupport
import Testing

@testable import DockSimulator

/// Every example scenario, run in virtual time against a minimal host.
@Suite(.onTheComputingThread) struct ScenarioRunTests {
    @Test func thereAreAtLeastEightExampleScenariosAndAllParse() throws {
        let names = try scenarioFileNames()
        #expect(names.count >= 8)
        var scenarioNames = Set<String>()
        for name in names {
            let scenario = try loadScenario(name)
            #expect(scenario.name + ".json" == name, "a scenario's name matches its file")
            #expect(scenarioNames.insert(scenario.name).inserted)
            #expect(scenario.primarySubject != nil, "\(name) names the subject to follow")
        }
    }

    @Test func everyScenarioRunsWithSaneGroundTruth() throws {
        for name in try scenarioFileNames() {
            let scenario = try loadScenario(name)
            var host = SimulationHost(scenario: scenario)
            host.run()
            let truths = host.output.truths
            let expectedFrames = Int(scenario.duration.secondsValue * scenario.camera.framesPerSecond)
            #expect(abs(truths.count - expectedFrames) <= 1, "\(name): one ground-truth frame per camera frame")
            #expect(zip(truths, truths.dropFirst()).allSatisfy { $0.captureTime < $1.captureTime })

            for truth in truths {
                for part in truth.parts {
                    #expect(
                        part.box.x.isFinite && part.box.y.isFinite && part.box.width > 0 && part.box.height > 0,
                        "\(name): finite, non-empty boxes")
                    #expect((0...1).contains(part.inFrameFraction) && part.visibleFraction <= part.inFrameFraction + 1e-12)
                    #expect(
                        !part.wasReported || part.visibleFraction >= scenario.detector.minimumVisibleFraction,
                        "\(name): only visible parts are reported")
                    #expect(truth.presentSubjects.contains(part.subjectIdentifier))
                }
            }
            let batches = host.output.batches
            #expect(
                batches.count >= truths.count - Int(0.5 * scenario.camera.framesPerSecond),
                "\(name): all but the last moments' frames delivered")
            for batch in batches {
                #expect(batch.deliveryTime - batch.captureTime >= scenario.detector.latency)
                #expect(batch.deliveryTime - batch.captureTime <= scenario.detector.latency + scenario.detector.latencyJitter)
                for observation in batch.observations {
                    #expect(
                        observation.box.isUsable && observation.box.maxX <= 1 + 1e-9 && observation.box.maxY <= 1 + 1e-9,
                        "\(name): observations inside the image")
                    #expect((0.3...0.99).contains(observation.confidence))
                }
            }
            // The primary subject is seen at the start (the dock begins pointing straight ahead at it).
            let primary = try #require(scenario.primarySubject)
            #expect(
                truths.prefix(5).contains { $0.parts.contains { $0.subjectIdentifier == primary.identifier && $0.inFrameFraction > 0 } },
                "\(name): the primary subject starts in view")

            let faults = host.simulation.faultLog
            #expect(faults.count == scenario.faults.count, "\(name): every fault injected")
            for fault in faults {
                #expect(fault.isSurvived, "\(name): the host got back to the dock after \(fault.kind)")
            }
        }
    }

    @Test func theDropoutScenarioMissesAboutThirtyPercent() throws {
        let scenario = try loadScenario("dropout-latency.json")
        var host = SimulationHost(scenario: scenario)
        host.run()
        let visible = host.output.truths.flatMap(\.parts).filter { $0.visibleFraction >= scenario.detector.minimumVisibleFraction }
        let reported = visible.filter(\.wasReported)
        let missRate = 1 - Double(reported.count) / Double(visible.count)
        #expect(visible.count > 500)
        #expect(abs(missRate - 0.3) < 0.04, "measured miss rate \(missRate)")
    }

    @Test func theCrossingHidesThePrimaryForAboutASecond() throws {
        let scenario = try loadScenario("crossing.json")
        var host = SimulationHost(scenario: scenario)
        host.run()
        let hiddenFrames = host.output.truths.filter { truth in
            truth.parts.contains { $0.subjectIdentifier == 1 && $0.kind == .body && $0.inFrameFraction > 0.9 && $0.visibleFraction < 0.2 }
        }
        let seconds = Double(hiddenFrames.count) / scenario.camera.framesPerSecond
        #expect((0.6...2.0).contains(seconds), "primary hidden for \(seconds) s")
    }

    @Test func hostSilenceTripsTheFailsafeWithinItsTimeout() throws {
        let scenario = try loadScenario("host-silence.json")
        var host = SimulationHost(scenario: scenario)
        host.run(step: .milliseconds(5))
        let fault = try #require(host.simulation.faultLog.first)
        #expect(fault.kind == "host_silence")
        #expect(fault.stoppedAfterSeconds != nil)
        let failsafe = host.framesFromDock.compactMap(\.fault).filter { $0.code == .failsafeStop }
        #expect(failsafe.map(\.isActive) == [true, false], "raised during the silence, cleared after it")
    }

    @Test func unplugAndReplugEndsTheSessionAndAFreshOneFollows() throws {
        let scenario = try loadScenario("unplug-replug.json")
        var host = SimulationHost(scenario: scenario)
        host.run()
        #expect(host.output.linkChanges == [.unplugged, .replugged])
        let infos = host.framesFromDock.filter { if case .info = $0.message { true } else { false } }
        #expect(infos.count == 2, "one session before the unplug, one after")
        let fault = try #require(host.simulation.faultLog.first)
        #expect(try #require(fault.recoveredAfterSeconds) <= 0.3)
    }

    @Test func lineNoiseDamagesFramesButTheSessionSurvives() throws {
        let scenario = try loadScenario("line-noise.json")
        var host = SimulationHost(scenario: scenario)
        host.run()
        #expect(host.badRunsFromDock > 0, "the host saw damaged frames")
        #expect(host.simulation.firmware.badFrameCount > 0, "the dock saw damaged frames")
        #expect(host.simulation.faultLog.first?.isSurvived == true)
    }

    @Test func aRunIsTheSameEveryTime() throws {
        let scenario = try loadScenario("group-of-four.json")
        var first = SimulationHost(scenario: scenario), second = SimulationHost(scenario: scenario)
        first.run()
        second.run()
        #expect(first.output.truths == second.output.truths)
        #expect(first.output.batches == second.output.batches)
        #expect(first.output.bytesToHost == second.output.bytesToHost)
    }
}

extension ScenarioRunTests {
    @Test func aMinuteRunsInVirtualTime() throws {
        var scenario = try loadScenario("group-of-four.json")
        scenario.duration = .seconds(60)
        var host = SimulationHost(scenario: scenario)
        host.run()
        #expect(abs(host.output.truths.count - 1800) <= 1)
        #expect(host.simulation.firmware.goodFrameCount >= 590, "a heartbeat every 100 ms for a minute")
        #expect(host.framesFromDock.filter { $0.telemetry != nil }.count >= 2990, "50 Hz telemetry for a minute")
    }
}

extension ScenarioRunTests {
    @Test func theDefaultSceneParsesAndShowsItsPerson() throws {
        var scenario = Scenario.defaultScene
        #expect(scenario.duration == .seconds(3600))
        scenario.duration = .seconds(2)
        var host = SimulationHost(scenario: scenario)
        host.run()
        #expect(host.output.truths.allSatisfy { $0.parts.contains { $0.subjectIdentifier == 1 && $0.inFrameFraction > 0.5 } })
    }
}
