import DockVocabulary
import Foundation
import Testing

@testable import DockTracking

/// A track's acceleration noise while its person turns (`Configuration.maneuverMemory`): low for a
/// walker at a steady pace, however much its boxes jitter, high within frames of a turn. Virtual
/// time, 30 fps, seeded jitter.
extension SubjectTrackerTests {
    /// A small seeded generator of Gaussian jitter (Box–Muller over a 64-bit LCG).
    struct Jitter {
        var state: UInt64
        mutating func next() -> Double {
            func uniform() -> Double {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return (Double(state >> 11) + 0.5) / Double(1 << 53)
            }
            return (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
        }
    }

    /// A walker at 0.3 rad/s for 2.5 s who turns back at that speed for half a second; the
    /// steady noise of their track (a new track's first boxes raise it: its rate is not known
    /// yet), the noise each frame after the turn, and how far the track was from them each frame
    /// after it.
    func turningWalker(_ configuration: SubjectTracker.Configuration) throws
        -> (steady: Double, afterTurn: [Double], errors: [Double], identifiers: Set<Int>)
    {
        var tracker = SubjectTracker(configuration: configuration)
        var jitter = Jitter(state: 12)
        var steady = 0.0, afterTurn: [Double] = [], errors: [Double] = [], identifiers: Set<Int> = []
        for index in 0..<90 {
            let yaw = index < 75 ? -0.375 + 0.3 * Double(index) / 30 : 0.375 - 0.3 * Double(index - 75) / 30
            update(&tracker, [Observation(kind: .body, box: box(yaw: yaw + 0.003 * jitter.next()), confidence: 0.9)], at: index)
            let track = try #require(tracker.tracks.first { $0.phase != .tentative } ?? (index < 3 ? tracker.tracks.first : nil))
            if index == 74 { steady = track.filter.noise.accelerationNoise }
            if index >= 75 {
                afterTurn.append(track.filter.noise.accelerationNoise)
                errors.append(abs(track.filter.angularBox.yawRadians - yaw))
                identifiers.insert(track.identifier)
            }
        }
        return (steady, afterTurn, errors, identifiers)
    }

    @Test func aWalkerWhoTurnsBackRaisesTheirTracksNoiseWithinFrames() throws {
        let configuration = SubjectTracker.Configuration()
        let expectedSteady = SubjectTracker.accelerationNoise(heightRadians: 0.3, .body, configuration)
        let on = try turningWalker(configuration)
        #expect(abs(on.steady - expectedSteady) < 0.05 * expectedSteady, "at a steady pace the steady noise: \(on.steady)")
        let raisedAt = on.afterTurn.firstIndex { $0 > 2 * expectedSteady }
        #expect(raisedAt.map { $0 <= 6 } == true, "raised \(raisedAt.map(String.init) ?? "never") frames after the turn: \(on.afterTurn)")
        #expect(on.identifiers.count == 1)
        var off = configuration
        off.maneuverMemory = 0
        let without = try turningWalker(off)
        #expect(without.afterTurn.allSatisfy { abs($0 - expectedSteady) < 0.05 * expectedSteady }, "off: the noise never rises")
        // Held: half a second after the turn, the filter long caught up, the noise is still raised;
        // without the hold it fell back as soon as the boxes scattered again.
        var unheld = configuration
        unheld.maneuverHold = .zero
        let quick = try turningWalker(unheld)
        #expect(
            (on.afterTurn.last ?? 0) > 1.5 * expectedSteady && (quick.afterTurn.last ?? .infinity) < 1.2 * expectedSteady,
            "held \(on.afterTurn), not held \(quick.afterTurn)")
        // Catching up: from the fifth frame after the turn on, the track is nearer the walker.
        let lateOn = on.errors.dropFirst(5).reduce(0, +), lateOff = without.errors.dropFirst(5).reduce(0, +)
        #expect(lateOn < 0.8 * lateOff, "distance summed from the fifth frame after the turn: \(lateOn) rad with, \(lateOff) rad without")
    }

    @Test func jitterAloneKeepsTheSteadyNoise() throws {
        // A steady walker whose box edges jitter by 8 % of its size, as the benchmark's detector's do.
        var tracker = SubjectTracker()
        var jitter = Jitter(state: 7)
        var raised = 0, frames = 0
        let steady = SubjectTracker.accelerationNoise(heightRadians: 0.3, .body, tracker.configuration)
        for index in 0..<150 {
            let yaw = -0.3 + 0.2 * Double(index) / 30
            update(
                &tracker,
                [
                    Observation(
                        kind: .body, box: box(yaw: yaw + 0.008 * jitter.next(), pitch: 0.024 * jitter.next()),
                        confidence: 0.9)
                ], at: index)
            guard index >= 10, let track = tracker.tracks.first else { continue }
            frames += 1
            if track.filter.noise.accelerationNoise > 1.5 * steady { raised += 1 }
        }
        #expect(tracker.tracks.count == 1)
        #expect(Double(raised) < 0.1 * Double(frames), "raised in \(raised) of \(frames) frames")
    }

    @Test func maneuverSettingsAreChecked() {
        for change: (inout SubjectTracker.Configuration) -> Void in [
            { $0.maneuverMemory = -1 }, { $0.maneuverMemory = .nan }, { $0.maneuverBias = 1 }, { $0.maneuverBias = -0.1 },
            { $0.maneuverHold = .milliseconds(-1) },
        ] {
            var configuration = SubjectTracker.Configuration()
            change(&configuration)
            #expect(!configuration.isValid)
        }
    }
}
