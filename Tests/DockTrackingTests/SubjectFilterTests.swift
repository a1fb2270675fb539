import DockSimulator
import DockVocabulary
import Foundation
import Testing

@testable import DockTracking

/// The per-subject EKF, on synthetic boxes from the measurement model with seeded noise.
@Suite struct SubjectFilterTests {
    static let camera = CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9)

    /// A subject moving at constant angular rates; the gimbal pose at each frame from `gimbal`.
    func run(
        seconds: Double, seed: UInt64, gimbal: (Double) -> (Double, Double),
        fusedPose: (Double) -> (Double, Double)
    ) throws -> (error: Double, rate: Double) {
        var noise = SimulationRandom(seed: seed)
        func truth(_ t: Double) -> AngularBox {
            AngularBox(yawRadians: 0.1 + 0.3 * t, pitchRadians: 0.05 - 0.1 * t, widthRadians: 0.08, heightRadians: 0.2)
        }
        let (yaw0, pitch0) = gimbal(0)
        let first = try #require(truth(0).project(camera: Self.camera, gimbalYawRadians: yaw0, gimbalPitchRadians: pitch0))
        var filter = SubjectFilter(
            first: try #require(
                AngularBox(
                    box: first, camera: Self.camera,
                    gimbalYawRadians: yaw0, gimbalPitchRadians: pitch0)))
        let dt = 1.0 / 30
        var errors: [Double] = []
        var t = 0.0
        while t < seconds {
            t += dt
            filter.predict(seconds: dt)
            let (yaw, pitch) = gimbal(t)
            guard let box = truth(t).project(camera: Self.camera, gimbalYawRadians: yaw, gimbalPitchRadians: pitch) else { continue }
            let noisy = NormalizedRect(
                x: box.x + noise.gaussian(standardDeviation: 0.003), y: box.y + noise.gaussian(standardDeviation: 0.003),
                width: box.width * (1 + noise.gaussian(standardDeviation: 0.02)),
                height: box.height * (1 + noise.gaussian(standardDeviation: 0.02)))
            let (fusedYaw, fusedPitch) = fusedPose(t)
            let fused = filter.update(with: noisy, camera: Self.camera, gimbalYawRadians: fusedYaw, gimbalPitchRadians: fusedPitch)
            #expect(fused)
            if t > seconds / 2 {
                errors.append(
                    abs(filter.angularBox.yawRadians - truth(t).yawRadians)
                        + abs(filter.angularBox.pitchRadians - truth(t).pitchRadians))
            }
        }
        return (errors.reduce(0, +) / Double(errors.count), filter.rates.yawRadiansPerSecond)
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func aSteadyMoverIsFollowedAndItsRateLearned(seed: UInt64) throws {
        let result = try run(seconds: 3, seed: seed, gimbal: { _ in (0, 0) }, fusedPose: { _ in (0, 0) })
        #expect(result.error < 0.01, "seed \(seed): mean error \(result.error) rad")
        // The rate at one instant: with σa = 3 rad/s² the filter follows changes of rate quickly,
        // so a single estimate carries some of the boxes' noise.
        #expect(abs(result.rate - 0.3) < 0.08, "seed \(seed): yaw rate \(result.rate) rad/s")
    }

    @Test func thePoseAtCaptureTimeMattersOnAMovingGimbal() throws {
        // The gimbal pans at 0.5 rad/s; fusing with the pose 150 ms late misplaces every box.
        let gimbal: (Double) -> (Double, Double) = { t in (0.5 * t, 0) }
        let right = try run(seconds: 3, seed: 4, gimbal: gimbal, fusedPose: gimbal)
        let late = try run(seconds: 3, seed: 4, gimbal: gimbal, fusedPose: { t in (0.5 * (t + 0.15), 0) })
        #expect(right.error < 0.01)
        #expect(late.error > 3 * right.error, "capture-time pose \(right.error) rad vs late pose \(late.error) rad")
    }

    @Test func badInputChangesNothing() throws {
        let start = AngularBox(yawRadians: 0.2, pitchRadians: 0.1, widthRadians: 0.1, heightRadians: 0.2)
        var filter = SubjectFilter(first: start)
        let before = filter.angularBox
        for box in [
            NormalizedRect(x: .nan, y: 0.2, width: 0.1, height: 0.1), NormalizedRect(x: 0.2, y: 0.2, width: 0, height: 0.1),
            NormalizedRect(x: 0.2, y: .infinity, width: 0.1, height: 0.1),
        ] {
            let fused = filter.update(with: box, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            #expect(!fused)
        }
        #expect(filter.angularBox == before)
        // Behind the camera nothing can be explained either.
        let behind = filter.update(
            with: NormalizedRect(x: 0.4, y: 0.4, width: 0.1, height: 0.1), camera: Self.camera,
            gimbalYawRadians: .pi, gimbalPitchRadians: 0)
        #expect(!behind)
        filter.predict(seconds: -1)
        filter.predict(seconds: .nan)
        #expect(filter.angularBox == before, "negative or NaN steps do nothing")
        let variance = filter.covariance[0]
        filter.predict(seconds: 1e9)
        #expect(filter.covariance[0] > variance && filter.covariance[0].isFinite, "a huge step is capped, uncertainty grows")
    }

    @Test func theGateDistanceGrowsWithTheMiss() throws {
        let filter = SubjectFilter(first: AngularBox(yawRadians: 0, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.2))
        let here = try #require(filter.angularBox.project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        let near = try #require(filter.distance(to: here, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        var moved = here
        moved.x += 0.2
        let far = try #require(filter.distance(to: moved, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        #expect(near < 1e-6)
        #expect(far > 100)
    }

    /// A filter that has seen a still subject at the image centre for two seconds.
    static func settled(width: Double = 0.1, height: Double = 0.25, pitch: Double = 0) throws -> SubjectFilter {
        let truth = AngularBox(yawRadians: 0, pitchRadians: pitch, widthRadians: width, heightRadians: height)
        let box = try #require(truth.project(camera: camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        var filter = SubjectFilter(first: truth)
        for _ in 0..<60 {
            filter.predict(seconds: 1.0 / 30)
            filter.update(with: box, camera: camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)
        }
        return filter
    }

    /// Whether a late box is the track's is judged more widely the later it is: the gate allows
    /// for what the subject may have done in the lag (`Prediction.gateCovariance`). The filter
    /// is moved on over each lag first, as the tracker's is between a capture and the box's
    /// arrival.
    @Test func aLateBoxIsGatedMoreWidelyTheLaterItIs() throws {
        let settled = try Self.settled()
        // The same box, 0.03 to the right, captured now and 100, 300 and 500 ms ago.
        let box = try #require(
            AngularBox(yawRadians: 0, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.25)
                .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        let shifted = NormalizedRect(x: box.x + 0.03, y: box.y, width: box.width, height: box.height)
        var distances: [Double] = []
        for steps in [0, 3, 9, 15] {
            var filter = settled
            for _ in 0..<steps { filter.predict(seconds: 1.0 / 30) }
            distances.append(
                try #require(
                    filter.distance(
                        to: shifted, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0,
                        lagSeconds: Double(steps) / 30)))
        }
        for index in 1..<4 { #expect(distances[index] < distances[index - 1], "distances \(distances)") }
        // Fresh, the box is far outside a settled filter's expectation; 500 ms late, well inside.
        #expect(distances[0] > 30 && distances[3] < 10, "distances \(distances)")
    }

    /// A late box whose edge the image's border cut keeps the late box's wider gate: the cut
    /// prediction (`Prediction.clipped`) judges it against T (S + H Q₁ Hᵀ) Tᵀ, not T S Tᵀ.
    @Test func aCutLateBoxKeepsItsWiderGate() throws {
        var filter = try Self.settled()
        for _ in 0..<9 { filter.predict(seconds: 1.0 / 30) }
        let model = try #require(MeasurementModel(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        let box = try #require(
            AngularBox(yawRadians: 0, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.25)
                .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        let shifted = NormalizedRect(x: box.x + 0.03, y: box.y, width: box.width, height: box.height)
        for lag in [0.0, 0.3] {
            let cut = filter.prediction(model, lagSeconds: lag).clipped(.bottom)
            #expect(cut.isValid && cut.clippedEdges == .bottom)
            #expect(cut.isLate == (lag > 0))
            var fusionOnly = cut
            fusionOnly.isLate = false
            let gated = try #require(cut.distance(to: shifted)), fused = try #require(fusionOnly.distance(to: shifted))
            if lag > 0 { #expect(gated < 0.5 * fused, "gate \(gated), fusion's S \(fused)") } else { #expect(gated == fused) }
        }
    }

    /// A box that arrives late is worth what it was worth when it was captured: fused now with
    /// its lag (the retrodiction), it leaves the filter where fusing it at its capture and then
    /// moving on to now would have — state and covariance — when the filter has been moved ahead
    /// in its usual steps since. (The two earlier forms of `prediction` fail this: without a lag
    /// term the box counts as if fresh, with one step of Q(τ) added it counts for far less.)
    @Test func aLateBoxLeavesTheFilterWhereFusingItAtItsCaptureWould() throws {
        var walker = try Self.settled()
        walker.update(
            with: try #require(
                AngularBox(yawRadians: 0.02, pitchRadians: 0, widthRadians: 0.1, heightRadians: 0.25)
                    .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)),
            camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)
        let box = try #require(
            AngularBox(yawRadians: 0.05, pitchRadians: 0.01, widthRadians: 0.11, heightRadians: 0.26)
                .project(camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        for steps in [1, 3, 9, 15] {
            var atCapture = walker, late = walker
            atCapture.update(with: box, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            for _ in 0..<steps {
                atCapture.predict(seconds: 1.0 / 30)
                late.predict(seconds: 1.0 / 30)
            }
            let fused = late.update(
                with: box, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0, lagSeconds: Double(steps) / 30)
            #expect(fused)
            for index in 0..<6 {
                #expect(
                    abs(late.state[index] - atCapture.state[index]) < 1e-4 * max(1e-2, abs(atCapture.state[index] - walker.state[index])),
                    "\(steps) steps, state \(index): \(late.state[index]) against \(atCapture.state[index])")
            }
            for index in [0, 2, 7, 14, 21, 28, 35] {
                #expect(
                    abs(late.covariance[index] - atCapture.covariance[index]) < 1e-4 * atCapture.covariance[index],
                    "\(steps) steps, covariance \(index): \(late.covariance[index]) against \(atCapture.covariance[index])")
            }
        }
    }

}

extension SubjectFilterTests {
    @Test func forgettingThePitchRateLeavesTheRestAlone() {
        var filter = SubjectFilter(first: AngularBox(yawRadians: 0.1, pitchRadians: 0.05, widthRadians: 0.1, heightRadians: 0.3))
        for step in 1...5 {
            let box = AngularBox(
                yawRadians: 0.1 + 0.01 * Double(step), pitchRadians: 0.05 - 0.01 * Double(step),
                widthRadians: 0.1, heightRadians: 0.3
            ).project(
                camera: Self.camera, gimbalYawRadians: 0,
                gimbalPitchRadians: 0)!
            filter.predict(seconds: 1.0 / 30)
            filter.update(with: box, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0)
        }
        let before = filter
        filter.forgetPitchRate()
        #expect(filter.rates.pitchRadiansPerSecond == 0)
        #expect(filter.rates.yawRadiansPerSecond == before.rates.yawRadiansPerSecond)
        for index in 0..<6 where index != 3 { #expect(filter.state[index] == before.state[index]) }
        for row in 0..<6 {
            for column in 0..<6 {
                let expected = row == 3 || column == 3 ? 0 : before.covariance[row * 6 + column]
                #expect(filter.covariance[row * 6 + column] == expected, "P[\(row), \(column)]")
            }
        }
        // Predicted on, the pitch stays put and only the acceleration noise makes it uncertain.
        let pitch = filter.state[1]
        filter.predict(seconds: 0.5)
        #expect(filter.state[1] == pitch)
        #expect(filter.covariance[3 * 7] > 0 && filter.covariance[3 * 7].isFinite)
    }

    /// For a box on time the prediction's P Hᵀ and S skip H's rate columns (a rate moves nothing
    /// in no time): they are still the plain products P Hᵀ and H P Hᵀ + R, for a subject moving
    /// across a camera turned a quarter and mirrored (each delivered coordinate taken from another
    /// aligned one) with the gimbal turned away, after boxes that correlated every state.
    @Test func anOnTimePredictionIsTheProductOfPAndH() throws {
        var camera = Self.camera
        camera.orientation = .rotatedClockwise
        camera.isMirrored = true
        let (gimbalYaw, gimbalPitch) = (0.3, -0.1)
        var filter = SubjectFilter(first: AngularBox(yawRadians: 0.35, pitchRadians: -0.05, widthRadians: 0.1, heightRadians: 0.3))
        for step in 1...10 {
            let box = try #require(
                AngularBox(
                    yawRadians: 0.35 + 0.01 * Double(step), pitchRadians: -0.05 + 0.005 * Double(step),
                    widthRadians: 0.1 + 0.002 * Double(step), heightRadians: 0.3
                ).project(camera: camera, gimbalYawRadians: gimbalYaw, gimbalPitchRadians: gimbalPitch))
            filter.predict(seconds: 1.0 / 30)
            let fused = filter.update(with: box, camera: camera, gimbalYawRadians: gimbalYaw, gimbalPitchRadians: gimbalPitch)
            #expect(fused)
        }
        filter.predict(seconds: 1.0 / 30)
        let model = try #require(MeasurementModel(camera: camera, gimbalYawRadians: gimbalYaw, gimbalPitchRadians: gimbalPitch))
        let prediction = filter.prediction(model, lagSeconds: 0)
        let (measurement, h) = try #require(model.measure(filter.state, lagSeconds: 0))
        #expect(prediction.isValid)
        let p = filter.covariance
        // Every state is correlated with the rates, which the shortcut leaves out.
        for row in 0..<6 where row != 2 { #expect(abs(p[row * 6 + 2]) > 0, "P[\(row), 2]") }
        var pht = InlineArray<24, Double>(repeating: 0)
        for row in 0..<6 {
            for column in 0..<4 {
                for k in 0..<6 { pht[row * 4 + column] += p[row * 6 + k] * h[column * 6 + k] }
            }
        }
        var s = InlineArray<16, Double>(repeating: 0)
        for row in 0..<4 {
            for column in 0..<4 {
                for k in 0..<6 { s[row * 4 + column] += h[row * 6 + k] * pht[k * 4 + column] }
            }
        }
        for axis in 0..<2 {
            let deviation = max(abs(measurement[axis + 2]) * filter.noise.boxNoise, filter.noise.boxNoiseFloor)
            s[axis * 5] += deviation * deviation
            s[(axis + 2) * 5] += deviation * deviation
        }
        for index in 0..<4 { #expect(prediction.measurement[index] == measurement[index]) }
        // The same sums in the same order, but for the zero terms: the same numbers. S is worked
        // out for its upper triangle and mirrored; summed the other way, the lower one differs
        // by rounding.
        for index in 0..<24 { #expect(prediction.covarianceTimesJacobian[index] == pht[index], "P Hᵀ[\(index)]") }
        for row in 0..<4 {
            for column in row..<4 {
                #expect(prediction.innovationCovariance[row * 4 + column] == s[row * 4 + column], "S[\(row), \(column)]")
                #expect(prediction.innovationCovariance[column * 4 + row] == s[row * 4 + column])
                #expect(abs(s[column * 4 + row] - s[row * 4 + column]) <= 1e-12 * abs(s[0]))
            }
        }
    }
}
