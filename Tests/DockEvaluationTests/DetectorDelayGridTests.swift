import DockSimulator
import DockTracking
import DockVocabulary
import Foundation
import TestSupport
import Testing

@testable import DockEvaluation

/// Slow and late detectors: a grid of frame rates × delays (each ±50 ms), a subject who walks
/// between two spots at 1.2 m/s, stops, and turns back, a detector that misses 10 % of the boxes
/// and errs by 3 % in position, in closed loop and virtual time. Prints the share of frames with
/// the subject within the framing tolerance (0.1) from 2 s on, as a Markdown table
/// (`swift test --filter DetectorDelayGridTests`), and holds the cells to their floors.
@Suite(.onTheComputingThread) struct DetectorDelayGridTests {
    static let framesPerSecond = [5, 10, 15, 30]
    static let delaysMilliseconds = [0, 150, 300, 500]
    static let seeds: [UInt64] = [51, 52, 53]

    /// The scenario of one cell: the delay is uniform in delay ± 50 ms (0 to 50 ms for none).
    static func scenario(framesPerSecond: Int, delayMilliseconds: Int, seed: UInt64) throws -> Scenario {
        let latency = max(0, delayMilliseconds - 50), jitter = delayMilliseconds == 0 ? 50 : 100
        return try Scenario.parse(
            """
            {"name": "walk-stop-turn-\(framesPerSecond)fps-\(delayMilliseconds)ms", "duration_s": 20, "seed": \(seed),
             "camera": {"fps": \(framesPerSecond)},
             "detector": {"miss_rate": 0.1, "position_noise": 0.03, "latency_ms": \(latency), "latency_jitter_ms": \(jitter)},
             "subjects": [{"id": 1, "kind": "person", "primary": true, "height_m": 1.75,
               "path": {"waypoints": [
                 {"t_s": 0, "x_m": -1.5, "y_m": 3.0}, {"t_s": 1, "x_m": -1.5, "y_m": 3.0},
                 {"t_s": 3.5, "x_m": 1.5, "y_m": 3.0}, {"t_s": 5, "x_m": 1.5, "y_m": 3.0},
                 {"t_s": 7.5, "x_m": -1.5, "y_m": 3.0}, {"t_s": 9, "x_m": -1.5, "y_m": 3.0},
                 {"t_s": 10.2, "x_m": 0, "y_m": 3.0}, {"t_s": 11, "x_m": -0.8, "y_m": 3.0},
                 {"t_s": 13.5, "x_m": 2.2, "y_m": 3.0}, {"t_s": 15, "x_m": 2.2, "y_m": 3.0},
                 {"t_s": 18, "x_m": -1.4, "y_m": 3.0}, {"t_s": 20, "x_m": -1.4, "y_m": 3.0}]}}]}
            """)
    }

    /// The share of frames within tolerance from 2 s on, over the seeds (frames pooled).
    static func cell(framesPerSecond: Int, delayMilliseconds: Int, tracker: SubjectTracker.Configuration) throws -> Double {
        var within = 0.0, frames = 0.0
        for seed in seeds {
            let scenario = try scenario(framesPerSecond: framesPerSecond, delayMilliseconds: delayMilliseconds, seed: seed)
            var configuration = TrackingPipeline.Configuration()
            configuration.tracker = tracker
            var pipeline = TrackingPipeline(configuration: configuration)
            pipeline.framingMode = .center
            var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
            let result = loop.run()
            let count = Double(result.framingErrors.filter { $0.captureTime >= .seconds(2) }.count)
            within += result.inToleranceShare(from: .seconds(2)) * count
            frames += count
        }
        return frames == 0 ? 0 : within / frames
    }

    static func table(_ tracker: SubjectTracker.Configuration) throws -> [[Double]] {
        try framesPerSecond.map { fps in
            try delaysMilliseconds.map { try cell(framesPerSecond: fps, delayMilliseconds: $0, tracker: tracker) }
        }
    }

    static func markdown(_ table: [[Double]]) -> String {
        var text = "| fps \\ delay | " + delaysMilliseconds.map { "\($0) ± 50 ms" }.joined(separator: " | ") + " |\n"
        text += "|---|" + delaysMilliseconds.map { _ in "---|" }.joined() + "\n"
        for (row, fps) in framesPerSecond.enumerated() {
            text += "| \(fps) | " + table[row].map { String(format1: $0 * 100) + " %" }.joined(separator: " | ") + " |\n"
        }
        return text
    }

    @Test func theGridOfSlowAndLateDetectors() throws {
        let table = try Self.table(SubjectTracker.Configuration())
        print("walk, stop, turn back; share of frames within tolerance from 2 s on, seeds \(Self.seeds):\n" + Self.markdown(table))
        // Floors a little under this code's figures (BENCHMARKS.md), so that a change that loses
        // the slow detectors shows; 10 fps / 300 ms at the 90 % (90.2 % here, 91.1 % on
        // twenty seeds not tuned on, 81–100, with the rule for late maneuvers,
        // `SubjectTracker.Configuration.lateManeuverRatio`; 86.1 % without it).
        let floors: [[Double]] = [
            [0.91, 0.88, 0.8, 0.66], [0.9, 0.89, 0.9, 0.75], [0.95, 0.93, 0.91, 0.75], [0.98, 0.96, 0.93, 0.8],
        ]
        for (row, fps) in Self.framesPerSecond.enumerated() {
            for (column, delay) in Self.delaysMilliseconds.enumerated() {
                #expect(table[row][column] >= floors[row][column], "\(fps) fps, \(delay) ms: \(table[row][column])")
            }
        }
    }

    /// The walker keeps their identifier through every stop and turn at 10 fps / 300 ms: a box
    /// that arrives after the walker stopped or set off is further from the retrodicted estimate
    /// than its fusion's S expects, and is gated against S plus what the walker may have done
    /// in the lag (`SubjectFilter.Prediction.gateCovariance`); gated against S alone, seed 52's
    /// walker was refused and born again as someone new.
    @Test func theWalkerKeepsTheirIdentifierAtTenFramesASecondAndThreeHundredMilliseconds() throws {
        for seed in Self.seeds {
            let scenario = try Self.scenario(framesPerSecond: 10, delayMilliseconds: 300, seed: seed)
            var pipeline = TrackingPipeline()
            pipeline.framingMode = .center
            var loop = ClosedLoop(scenario: scenario, pointer: .tracker(pipeline))
            let result = loop.run()
            #expect(result.primaryIDSwitches == 0, "seed \(seed): \(result.primaryIDSwitches) switches")
            #expect(result.identities()[1]?.count == 1, "seed \(seed): \(result.identities())")
        }
    }

    /// What the walk allows at all: the share of frames (from 2 s on) that a pointer with
    /// perfect information would keep within the tolerance — the subject's true bearing and
    /// bearing rate at the newest frame that has arrived (each frame late by the cell's delay,
    /// uniform in d ± 50 ms, seeded), extrapolated to the present at that rate, and a dock that
    /// points there at once. No detector noise, no misses, no filter, no motor; only the delay
    /// and the walk's sudden starts, stops and turns. The horizontal error only (the walk is
    /// level), in the tolerance's units: the bearing's distance from the image centre as a share
    /// of the image's width.
    static func ceiling(framesPerSecond: Int, delayMilliseconds: Int) throws -> Double {
        var within = 0, frames = 0
        for seed in seeds {
            let scenario = try scenario(framesPerSecond: framesPerSecond, delayMilliseconds: delayMilliseconds, seed: seed)
            var random = SimulationRandom(seed: seed)
            let subject = ResolvedSubject(scenario.subjects[0], durationSeconds: 20, random: &random)
            func bearing(_ seconds: Double) -> Double {
                guard let place = subject.position(atSeconds: seconds) else { return 0 }
                return atan2(place.xMeters, place.yMeters)
            }
            let halfWidth = tan(scenario.camera.information.horizontalFieldOfViewRadians / 2)
            let interval = 1 / Double(framesPerSecond)
            let (low, high) =
                delayMilliseconds == 0 ? (0.0, 0.05) : (Double(delayMilliseconds) / 1000 - 0.05, Double(delayMilliseconds) / 1000 + 0.05)
            let captures = (0..<(20 * framesPerSecond)).map { Double($0) * interval }
            let arrivals = captures.map { $0 + low + (high - low) * random.unit() }
            let byArrival = captures.indices.sorted { arrivals[$0] < arrivals[$1] }
            var arrived = 0, newestCapture: Double?
            for now in captures {
                while arrived < byArrival.count, arrivals[byArrival[arrived]] <= now {
                    newestCapture = max(newestCapture ?? 0, captures[byArrival[arrived]])
                    arrived += 1
                }
                guard now >= 2, let newest = newestCapture else { continue }
                let rate = (bearing(newest) - bearing(newest - 0.001)) / 0.001
                let pointing = bearing(newest) + rate * (now - newest)
                frames += 1
                if abs(tan(bearing(now) - pointing)) / (2 * halfWidth) <= scenario.criteria.framingToleranceFraction { within += 1 }
            }
        }
        return frames == 0 ? 0 : Double(within) / Double(frames)
    }

    /// The ceiling of every cell: the delay alone does not forbid the 90 % at 10 fps /
    /// 300 ms (a pointer that knew where the subject was and how fast it went when the newest
    /// box was captured keeps 98 % there), so what the tracker and controller lose is their own.
    @Test func theGridsCeilingWithPerfectInformation() throws {
        let table = try Self.framesPerSecond.map { fps in
            try Self.delaysMilliseconds.map { try Self.ceiling(framesPerSecond: fps, delayMilliseconds: $0) }
        }
        print("the same walk with perfect information, extrapolated over the delay:\n" + Self.markdown(table))
        #expect(table[1][2] >= 0.9, "10 fps, 300 ms: \(table[1][2])")
        for row in table { for cell in row { #expect(cell > 0 && cell <= 1) } }
    }
}

extension String {
    /// `value` with one decimal (the tests' tables; the standard library has no formatting).
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
