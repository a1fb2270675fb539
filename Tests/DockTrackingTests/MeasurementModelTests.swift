import DockSimulator
import DockVocabulary
import Foundation
import Testing

@testable import DockTracking

/// The analytic measurement function and Jacobian against `AngularBox.project` and central
/// differences of it.
@Suite struct MeasurementModelTests {
    /// `project` of the state moved back by `lag`, as [cx, cy, w, h].
    func projected(_ state: [Double], lag: Double, camera: CameraInformation, yaw: Double, pitch: Double) -> [Double]? {
        let box = AngularBox(
            yawRadians: state[0] - state[2] * lag, pitchRadians: state[1] - state[3] * lag,
            widthRadians: state[4], heightRadians: state[5])
        guard let rect = box.project(camera: camera, gimbalYawRadians: yaw, gimbalPitchRadians: pitch) else { return nil }
        return [rect.center.x, rect.center.y, rect.width, rect.height]
    }

    @Test func theAnalyticJacobianMatchesCentralDifferencesForEveryOrientationAndMirroring() throws {
        var random = SimulationRandom(seed: 21)
        var checked = 0
        for orientation in ImageOrientation.allCases {
            for mirrored in [false, true] {
                let camera = CameraInformation(
                    horizontalFieldOfViewRadians: Double.random(in: 0.8...1.6, using: &random),
                    aspectRatio: Double.random(in: 0.6...2, using: &random),
                    orientation: orientation, isMirrored: mirrored)
                for _ in 0..<40 {
                    let yaw = Double.random(in: -1...1, using: &random), pitch = Double.random(in: -0.6...0.6, using: &random)
                    let state = [
                        yaw + Double.random(in: -0.3...0.3, using: &random), pitch + Double.random(in: -0.2...0.2, using: &random),
                        Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random),
                        Double.random(in: 0.02...0.3, using: &random), Double.random(in: 0.02...0.4, using: &random),
                    ]
                    let lag = [0, 0.05, 0.15].randomElement(using: &random)!
                    let model = try #require(MeasurementModel(camera: camera, gimbalYawRadians: yaw, gimbalPitchRadians: pitch))
                    let inline: InlineArray<6, Double> = [state[0], state[1], state[2], state[3], state[4], state[5]]
                    let (measurement, jacobian) = try #require(model.measure(inline, lagSeconds: lag))
                    let expected = try #require(projected(state, lag: lag, camera: camera, yaw: yaw, pitch: pitch))
                    for row in 0..<4 {
                        #expect(abs(measurement[row] - expected[row]) < 1e-12, "\(orientation) mirrored \(mirrored) row \(row)")
                    }
                    for column in 0..<6 {
                        var plus = state, minus = state
                        plus[column] += 1e-6
                        minus[column] -= 1e-6
                        let high = try #require(projected(plus, lag: lag, camera: camera, yaw: yaw, pitch: pitch))
                        let low = try #require(projected(minus, lag: lag, camera: camera, yaw: yaw, pitch: pitch))
                        for row in 0..<4 {
                            let numeric = (high[row] - low[row]) / 2e-6
                            #expect(
                                abs(jacobian[row * 6 + column] - numeric) < 1e-6 * max(1, abs(numeric)),
                                "\(orientation) mirrored \(mirrored): ∂h\(row)/∂x\(column) \(jacobian[row * 6 + column]) vs \(numeric)")
                        }
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 320)
    }

    @Test func behindTheCameraOrNotFiniteThereIsNoMeasurement() throws {
        let camera = CameraInformation(horizontalFieldOfViewRadians: 1.2, aspectRatio: 1.5)
        let model = try #require(MeasurementModel(camera: camera, gimbalYawRadians: .pi, gimbalPitchRadians: 0))
        #expect(model.measure([0, 0, 0, 0, 0.1, 0.1], lagSeconds: 0) == nil)
        let ahead = try #require(MeasurementModel(camera: camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        #expect(ahead.measure([.nan, 0, 0, 0, 0.1, 0.1], lagSeconds: 0) == nil)
        #expect(MeasurementModel(camera: camera, gimbalYawRadians: .infinity, gimbalPitchRadians: 0) == nil)
        #expect(
            MeasurementModel(
                camera: CameraInformation(horizontalFieldOfViewRadians: 0, aspectRatio: 1),
                gimbalYawRadians: 0, gimbalPitchRadians: 0) == nil)
    }
}
