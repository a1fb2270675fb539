import DockVocabulary
import Foundation
import Testing

@testable import DockSimulator
@testable import DockTracking

/// The measurement model: boxes to angles and back, and agreement with the simulator's camera.
@Suite struct AngularMeasurementTests {
    static let camera = CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9)

    @Test func aBoxAtTheCentreIsWhereTheGimbalPoints() throws {
        let box = NormalizedRect(x: 0.45, y: 0.4, width: 0.1, height: 0.2)
        let angular = try #require(AngularBox(box: box, camera: Self.camera, gimbalYawRadians: 0.3, gimbalPitchRadians: -0.1))
        #expect(abs(angular.yawRadians - 0.3) < 1e-9 && abs(angular.pitchRadians + 0.1) < 1e-9)
        #expect(angular.widthRadians > 0 && angular.heightRadians > 0)
        #expect(
            AngularBox(
                box: NormalizedRect(x: 0.1, y: 0.1, width: 0, height: 0.2), camera: Self.camera,
                gimbalYawRadians: 0, gimbalPitchRadians: 0) == nil, "a box without size is refused")
        #expect(
            AngularBox(
                box: NormalizedRect(x: .nan, y: 0.1, width: 0.1, height: 0.2), camera: Self.camera,
                gimbalYawRadians: 0, gimbalPitchRadians: 0) == nil)
    }

    @Test func boxesRoundTripThroughAnglesForEveryOrientationAndMirroring() throws {
        var random = SimulationRandom(seed: 11)
        for orientation in ImageOrientation.allCases {
            for mirrored in [false, true] {
                let camera = CameraInformation(
                    horizontalFieldOfViewRadians: 1.1, aspectRatio: 1.5, orientation: orientation,
                    isMirrored: mirrored)
                for _ in 0..<50 {
                    let width = Double.random(in: 0.02...0.3, using: &random), height = Double.random(in: 0.02...0.3, using: &random)
                    let box = NormalizedRect(
                        x: Double.random(in: 0...(1 - width), using: &random),
                        y: Double.random(in: 0...(1 - height), using: &random), width: width, height: height)
                    let yaw = Double.random(in: -2...2, using: &random), pitch = Double.random(in: -0.5...0.8, using: &random)
                    let angular = try #require(AngularBox(box: box, camera: camera, gimbalYawRadians: yaw, gimbalPitchRadians: pitch))
                    let back = try #require(angular.project(camera: camera, gimbalYawRadians: yaw, gimbalPitchRadians: pitch))
                    #expect(abs(back.x - box.x) < 1e-9 && abs(back.y - box.y) < 1e-9, "\(orientation) \(mirrored)")
                    #expect(abs(back.width - box.width) < 1e-9 && abs(back.height - box.height) < 1e-9)
                }
            }
        }
    }

    @Test func theSimulatorsCameraAndTheMeasurementModelAgree() throws {
        // A thin object far away projects to a small box; its angles must be the object's direction.
        let setup = CameraSetup(
            information: Self.camera, widthPixels: 1280, heightPixels: 720, framesPerSecond: 30,
            mountHeightMeters: 1.2)
        let virtualCamera = VirtualCamera(setup: setup)
        for (gimbalYaw, gimbalPitch) in [(0.0, 0.0), (0.4, 0.1), (-0.5, -0.2)] {
            for (x, y, height) in [(0.5, 4.0, 1.3), (-1.0, 5.0, 1.0), (1.5, 6.0, 1.6)] {
                let part = SubjectPart(
                    subjectIdentifier: 1, kind: .object, xMeters: x, yMeters: y, widthMeters: 0.02,
                    bottomMeters: height - 0.01, topMeters: height + 0.01)
                let projection = try #require(virtualCamera.project(part, yawRadians: gimbalYaw, pitchRadians: gimbalPitch))
                let angular = try #require(
                    AngularBox(
                        box: projection.box, camera: Self.camera,
                        gimbalYawRadians: gimbalYaw, gimbalPitchRadians: gimbalPitch))
                let up = height - 1.2
                #expect(abs(angular.yawRadians - atan2(x, y)) < 1e-3, "yaw of (\(x), \(y))")
                #expect(abs(angular.pitchRadians - atan2(up, (x * x + y * y).squareRoot())) < 1e-3, "pitch of (\(x), \(y))")
            }
        }
    }
}
