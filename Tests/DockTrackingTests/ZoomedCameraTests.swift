import DockVocabulary
import Foundation
import Testing

@testable import DockTracking

/// A camera zoomed: the same box read through the zoomed field of view spans a fraction of the
/// angle — a box seen at 3× is a third of the angle (exactly so for the tangents; near the
/// centre, for the angles).
@Suite struct ZoomedCameraTests {
    static let camera = CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9)

    @Test func aBoxSeenAtThreeTimesIsAThirdOfTheAngle() throws {
        let zoomed = Self.camera.zoomed(by: 3)
        #expect(abs(tan(zoomed.horizontalFieldOfViewRadians / 2) * 3 - tan(Self.camera.horizontalFieldOfViewRadians / 2)) < 1e-12)
        let box = NormalizedRect(x: 0.48, y: 0.4, width: 0.04, height: 0.2)
        let wide = try #require(AngularBox(box: box, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        let tele = try #require(AngularBox(box: box, camera: zoomed, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        #expect(abs(tele.widthRadians * 3 / wide.widthRadians - 1) < 0.01, "\(tele.widthRadians) × 3 vs \(wide.widthRadians)")
        #expect(abs(tele.heightRadians * 3 / wide.heightRadians - 1) < 0.01)
        let off = NormalizedRect(x: 0.8, y: 0.4, width: 0.04, height: 0.2)
        let offWide = try #require(AngularBox(box: off, camera: Self.camera, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        let offTele = try #require(AngularBox(box: off, camera: zoomed, gimbalYawRadians: 0, gimbalPitchRadians: 0))
        #expect(abs(tan(offTele.yawRadians) * 3 / tan(offWide.yawRadians) - 1) < 0.01, "its direction's tangent a third")
    }

    @Test func aMagnificationOfOneOrLessOrNotFiniteChangesNothing() {
        for magnification in [1, 0.5, 0, -2, .nan, .infinity] {
            #expect(Self.camera.zoomed(by: magnification) == Self.camera, "\(magnification)")
        }
    }
}
