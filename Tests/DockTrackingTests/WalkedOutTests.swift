import DockVocabulary
import Testing

@testable import DockTracking

/// The pipeline tells a primary who walked out of the picture from one who is hidden: it turns
/// after the first for a moment, and holds still for the second. Virtual time, 30 Hz.
extension TrackingPipelineTests {
    /// Follows a person walking at `rate` rad/s from yaw 0.5 with the gimbal left at 0 (the dock
    /// does not keep up: the test drives the pose), boxes clipped to the picture, until
    /// `lastBox` seconds; then nothing. Returns the pipeline and the yaw rates commanded once it
    /// has lost them (holding), one per tick, until two seconds after the last box.
    func losing(rate: Double, lastBox: Double) throws -> (pipeline: TrackingPipeline, rates: [Double]) {
        var pipeline = TrackingPipeline()
        let tick = Duration.nanoseconds(33_333_333)
        var now = Duration.zero
        var rates: [Double] = []
        for index in 0..<(Int(lastBox * 30) + 60) {
            now += tick
            let seconds = Double(index + 1) / 30
            // Every frame is delivered, empty once nothing of them is seen, as a detector does.
            var observations: [Observation] = []
            if seconds <= lastBox,
                let box = AngularBox(yawRadians: 0.5 + rate * seconds, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.3)
                    .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)?.intersection(.fullImage),
                box.width > 0.01
            {
                observations.append(Observation(kind: .body, box: box, confidence: 0.9))
            }
            pipeline.observe(observations, camera: Self.camera, captureTime: now, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            let step = pipeline.step(now: now, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            if step.activity == .holding { rates.append(step.yawRadiansPerSecond ?? 0) }
        }
        return (pipeline, rates)
    }

    @Test func aPrimaryWhoWalkedOutIsTurnedAfterAndOneWhoIsHiddenIsHeldFor() throws {
        // Walking left at 0.3 rad/s: out past the left border (−0.611 rad) after about 3.9 s,
        // boxes until the last sliver. The dock turns left (negative yaw rate) after them, then stops.
        let out = try losing(rate: -0.3, lastBox: 4.3)
        #expect(out.pipeline.lostPrimaryWalkedOut == .left)
        let turning = out.rates.prefix(29)
        #expect(
            turning.count == 29 && turning.dropFirst(3).allSatisfy { $0 < -0.2 } && turning.allSatisfy { $0 <= 0 },
            "turns after them for a second, their way: \(turning)")
        #expect(out.rates.suffix(10).allSatisfy { abs($0) < 1e-9 }, "then holds: \(out.rates.suffix(10))")

        // The same walker vanishing in the middle of the picture (hidden): it brakes at once.
        let hidden = try losing(rate: -0.3, lastBox: 2.5)
        #expect(hidden.pipeline.lostPrimaryWalkedOut == nil)
        // (It coasts, and the dock brakes, for its track's 1.5 s; then it holds, still.)
        #expect(
            hidden.rates.count > 5 && hidden.rates.allSatisfy { abs($0) < 1e-9 },
            "no turn after a hidden subject: \(hidden.rates.prefix(10))")
    }
}
