import DockSimulator
import DockTracking
import DockVocabulary
import Foundation
import TestSupport
import Testing
import V4L2Protocol

@testable import DockEvaluation

/// The slow-and-late detector grid at zoom: `DetectorDelayGridTests`' walk (stop, turn back) at
/// the same angles but 10 m away, so that the body fits the picture at 4× (at 3 m it is cut at
/// 2× already, and a cut body's centre is no measure of framing), seen through the emulated webcam (the generic model, its zoom table widened to 1×–4×)
/// zoomed once at the start to 1×, 2× or 4× (a client's `SetZoom`; no shot size), the camera app
/// sending the widest field of view, with the field of view following the zoom and without.
/// Prints one Markdown table per zoom (`swift test --filter ZoomDelayGridTests`); holds that at
/// 1× the setting changes nothing, and that at 2× and 4× following the zoom frames better over
/// the grid.
@Suite(.onTheComputingThread) struct ZoomDelayGridTests {
    static let framesPerSecond = [5, 10, 15, 30]
    static let delaysMilliseconds = [0, 150, 300, 500]
    static let seeds: [UInt64] = [51, 52]
    /// The zoom fractions of the 1×–4× table for 1×, 2× and 4×.
    static let zooms: [(magnification: Double, fraction: Double)] = [(1, 0), (2, 1.0 / 3), (4, 1)]

    /// `DetectorDelayGridTests.scenario`'s walk with every position scaled by 10 / 3: the same
    /// angles at 10 m.
    static func scenario(framesPerSecond: Int, delayMilliseconds: Int, seed: UInt64) throws -> Scenario {
        let latency = max(0, delayMilliseconds - 50), jitter = delayMilliseconds == 0 ? 50 : 100
        let path: [(Double, Double)] = [
            (0, -1.5), (1, -1.5), (3.5, 1.5), (5, 1.5), (7.5, -1.5), (9, -1.5), (10.2, 0), (11, -0.8), (13.5, 2.2), (15, 2.2),
            (18, -1.4), (20, -1.4),
        ]
        let waypoints = path.map { #"{"t_s": \#($0.0), "x_m": \#($0.1 * 10 / 3), "y_m": 10}"# }.joined(separator: ", ")
        return try Scenario.parse(
            """
            {"name": "far-walk-stop-turn-\(framesPerSecond)fps-\(delayMilliseconds)ms", "duration_s": 20, "seed": \(seed),
             "camera": {"fps": \(framesPerSecond)},
             "detector": {"miss_rate": 0.1, "position_noise": 0.03, "latency_ms": \(latency), "latency_jitter_ms": \(jitter)},
             "subjects": [{"id": 1, "kind": "person", "primary": true, "height_m": 1.75,
               "path": {"waypoints": [\(waypoints)]}}]}
            """)
    }

    /// The share of frames within tolerance from 2 s on, over the seeds (frames pooled).
    static func cell(framesPerSecond: Int, delayMilliseconds: Int, zoom: Double, following: Bool) throws -> Double {
        var within = 0.0, frames = 0.0
        for seed in seeds {
            let scenario = try Self.scenario(framesPerSecond: framesPerSecond, delayMilliseconds: delayMilliseconds, seed: seed)
            var pipeline = TrackingPipeline()
            pipeline.framingMode = .center
            var loop = ClosedLoop(
                scenario: scenario, pointer: .tracker(pipeline), uvc: ShotSizeTests.webcam(longest: 4),
                zoomFraction: zoom == 0 ? nil : zoom, fieldOfViewFollowsZoom: following)
            let result = loop.run()
            let count = Double(result.framingErrors.filter { $0.captureTime >= .seconds(2) }.count)
            within += result.inToleranceShare(from: .seconds(2)) * count
            frames += count
        }
        return frames == 0 ? 0 : within / frames
    }

    static func table(zoom: Double, following: Bool) throws -> [[Double]] {
        try framesPerSecond.map { fps in
            try delaysMilliseconds.map { try cell(framesPerSecond: fps, delayMilliseconds: $0, zoom: zoom, following: following) }
        }
    }

    /// A Markdown table's first two lines: the delays across.
    static let tableHeader =
        "| fps \\ delay | " + delaysMilliseconds.map { "\($0) ± 50 ms" }.joined(separator: " | ") + " |\n|---|"
        + delaysMilliseconds.map { _ in "---|" }.joined() + "\n"

    /// One zoom a test case, so that the two computing threads share the three (the whole grid on
    /// one thread was the last test `swift test` waited for). At 1× the setting cannot change a
    /// frame; that is held on the grid's first row, not computed twice over the whole grid.
    @Test(arguments: [0, 1, 2])
    func theGridAtOneTwoAndFourTimesWithAndWithoutTheFieldOfViewFollowingTheZoom(zoomIndex: Int) throws {
        let (magnification, fraction) = Self.zooms[zoomIndex]
        let with = try Self.table(zoom: fraction, following: true)
        if magnification == 1 {
            let row = try Self.delaysMilliseconds.map {
                try Self.cell(framesPerSecond: Self.framesPerSecond[0], delayMilliseconds: $0, zoom: fraction, following: false)
            }
            #expect(with[0] == row, "at the widest zoom the setting changes nothing")
            var text = Self.tableHeader
            for (row, fps) in Self.framesPerSecond.enumerated() {
                text += "| \(fps) | " + with[row].map { "\(String(format1: $0 * 100)) %" }.joined(separator: " | ") + " |\n"
            }
            print(
                "the walk through the webcam at 1× (following the zoom or not: the same), in tolerance from 2 s on, seeds "
                    + "\(Self.seeds), mean \(String(format1: with.joined().reduce(0, +) / 16 * 100)) %:\n" + text)
            return
        }
        let without = try Self.table(zoom: fraction, following: false)
        var text = Self.tableHeader
        for (row, fps) in Self.framesPerSecond.enumerated() {
            text +=
                "| \(fps) | "
                + zip(with[row], without[row]).map { "\(String(format1: $0 * 100)) / \(String(format1: $1 * 100)) %" }
                .joined(separator: " | ") + " |\n"
        }
        let meanWith = with.joined().reduce(0, +) / 16, meanWithout = without.joined().reduce(0, +) / 16
        print(
            "the walk through the webcam at \(magnification)×, in tolerance from 2 s on (following the zoom / not), seeds "
                + "\(Self.seeds), mean \(String(format1: meanWith * 100)) / \(String(format1: meanWithout * 100)) %:\n" + text)
        #expect(meanWith > meanWithout, "at \(magnification)× the field of view following the zoom frames better")
    }
}
