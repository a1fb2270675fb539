import DockVocabulary
import Foundation
import Testing

@testable import DockSimulator

/// The pinhole camera on the dock and the image conventions it shares with the tracker.
@Suite struct CameraTests {
    static let setup = CameraSetup(
        information: CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9),
        widthPixels: 1280, heightPixels: 720, framesPerSecond: 30, mountHeightMeters: 1.2)
    static let halfField = 35 * Double.pi / 180

    func point(
        _ x: Double, _ y: Double, _ z: Double, yaw: Double = 0, pitch: Double = 0,
        setup: CameraSetup = setup
    ) -> NormalizedPoint? {
        VirtualCamera(setup: setup).dockAlignedPoint(x: x, y: y, z: z, yawRadians: yaw, pitchRadians: pitch)
    }

    @Test func straightAheadIsTheCentre() throws {
        let centre = try #require(point(0, 3, 0))
        #expect(abs(centre.x - 0.5) < 1e-12 && abs(centre.y - 0.5) < 1e-12)
    }

    @Test func halfTheFieldOfViewIsTheEdge() throws {
        let right = try #require(point(3 * tan(Self.halfField), 3, 0))
        #expect(abs(right.x - 1) < 1e-12 && abs(right.y - 0.5) < 1e-12)
        let left = try #require(point(-3 * tan(Self.halfField), 3, 0))
        #expect(abs(left.x) < 1e-12)
        let verticalHalf = Self.setup.information.verticalFieldOfViewRadians / 2
        let top = try #require(point(0, 3, 3 * tan(verticalHalf)))
        #expect(abs(top.y) < 1e-12 && abs(top.x - 0.5) < 1e-12)
        #expect(point(0, -3, 0) == nil, "behind the camera projects nowhere")
    }

    @Test func turningTheDockMovesTheSubjectTheOtherWay() throws {
        // Pan right by half the field: what was straight ahead is now at the left edge.
        let panned = try #require(point(0, 3, 0, yaw: Self.halfField))
        #expect(abs(panned.x) < 1e-12 && abs(panned.y - 0.5) < 1e-12)
        // And what was at the right edge is now in the middle.
        let followed = try #require(point(3 * tan(Self.halfField), 3, 0, yaw: Self.halfField))
        #expect(abs(followed.x - 0.5) < 1e-12)
        // Tilt up by half the vertical field: the horizon drops to the bottom edge.
        let tilted = try #require(point(0, 3, 0, pitch: Self.setup.information.verticalFieldOfViewRadians / 2))
        #expect(abs(tilted.y - 1) < 1e-12 && abs(tilted.x - 0.5) < 1e-12)
    }

    @Test func mirroringAndOrientationMoveBoxesAsTheUserSeesThem() throws {
        var mirrored = Self.setup
        mirrored.information.isMirrored = true
        let part = SubjectPart(
            subjectIdentifier: 1, kind: .body, xMeters: 1, yMeters: 3, widthMeters: 0.4,
            bottomMeters: 0.5, topMeters: 1.5)
        let upright = try #require(VirtualCamera(setup: Self.setup).project(part, yawRadians: 0, pitchRadians: 0))
        let flipped = try #require(VirtualCamera(setup: mirrored).project(part, yawRadians: 0, pitchRadians: 0))
        #expect(upright.box.center.x > 0.5, "a subject to the right shows right")
        #expect(abs(flipped.box.center.x - (1 - upright.box.center.x)) < 1e-12, "and left in a mirrored image")

        var turned = Self.setup
        turned.information.orientation = .rotatedClockwise
        let rotated = try #require(VirtualCamera(setup: turned).project(part, yawRadians: 0, pitchRadians: 0))
        #expect(abs(rotated.box.center.y - upright.box.center.x) < 1e-12, "the dock's right is the image's bottom")
        #expect(abs(rotated.box.width - upright.box.height) < 1e-12)
    }

    @Test func deliveredAndDockAlignedCoordinatesRoundTrip() {
        let points = [NormalizedPoint(x: 0.1, y: 0.2), NormalizedPoint(x: 0.9, y: 0.35), .center]
        for orientation in ImageOrientation.allCases {
            for isMirrored in [false, true] {
                let camera = CameraInformation(
                    horizontalFieldOfViewRadians: 1, aspectRatio: 1.5,
                    orientation: orientation, isMirrored: isMirrored)
                for point in points {
                    let back = camera.dockAlignedPoint(fromDelivered: camera.deliveredPoint(fromDockAligned: point))
                    #expect(abs(back.x - point.x) < 1e-12 && abs(back.y - point.y) < 1e-12, "\(orientation) \(isMirrored)")
                }
            }
        }
        let upward = CameraInformation(horizontalFieldOfViewRadians: 1, aspectRatio: 1, orientation: .rotatedClockwise)
        let top = upward.deliveredPoint(fromDockAligned: NormalizedPoint(x: 0.5, y: 0))
        #expect(top == NormalizedPoint(x: 1, y: 0.5), "turned clockwise, the dock's up is at the image's right")
    }

    @Test func aRayThroughAPointProjectsBackToIt() throws {
        let camera = Self.setup.information
        let point = NormalizedPoint(x: 0.27, y: 0.81)
        let ray = camera.cameraRay(throughDockAligned: point)
        let back = try #require(camera.dockAlignedPoint(right: ray.right * 4, up: ray.up * 4, forward: ray.forward * 4))
        #expect(abs(back.x - point.x) < 1e-12 && abs(back.y - point.y) < 1e-12)
    }
}

/// The detector's flaws, measured over many seeded frames.
@Suite struct DetectorTests {
    static let box = NormalizedRect(x: 0.4, y: 0.3, width: 0.2, height: 0.4)

    func projection(_ identifier: Int, _ box: NormalizedRect, distance: Double, kind: SubjectKind = .body) -> PartProjection {
        PartProjection(
            part: SubjectPart(
                subjectIdentifier: identifier, kind: kind, xMeters: 0, yMeters: distance,
                widthMeters: 0.4, bottomMeters: 0, topMeters: 1.7),
            box: box, inFrameFraction: 1, distanceMeters: distance)
    }

    func parameters(miss: Double = 0, noise: Double = 0, falsePositives: Double = 0) -> DetectorParameters {
        DetectorParameters(
            missRate: miss, positionNoise: noise, sizeNoise: noise, falsePositivesPerFrame: falsePositives,
            latency: .milliseconds(100), latencyJitter: .milliseconds(20), reportsFaces: true,
            reportsBodies: true, minimumVisibleFraction: 0.5)
    }

    @Test(arguments: [101 as UInt64, 102, 103])
    func missRateAndNoiseMatchTheirSettings(seed: UInt64) {
        var detector = DetectorModel(parameters: parameters(miss: 0.2, noise: 0.05), random: SimulationRandom(seed: seed))
        var reported = 0
        var errors: [Double] = []
        let frames = 5000
        for frame in 0..<frames {
            let (batch, _) = detector.detect(
                [projection(1, Self.box, distance: 3)], captureTime: .milliseconds(frame * 33),
                camera: CameraTests.setup.information)
            for observation in batch.observations {
                reported += 1
                errors.append(observation.box.center.x - Self.box.center.x)
            }
            #expect(batch.deliveryTime - batch.captureTime >= .milliseconds(100))
            #expect(batch.deliveryTime - batch.captureTime <= .milliseconds(120))
        }
        let missRate = 1 - Double(reported) / Double(frames)
        let mean = errors.reduce(0, +) / Double(errors.count)
        let deviation = (errors.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(errors.count - 1)).squareRoot()
        #expect(abs(missRate - 0.2) < 0.02, "seed \(seed): miss rate \(missRate)")
        #expect(abs(mean) < 0.001, "seed \(seed): unbiased")
        #expect(abs(deviation - 0.05 * 0.2) < 0.001, "seed \(seed): centre noise \(deviation)")
    }

    @Test func aNearerBodyHidesWhatIsBehindIt() {
        var detector = DetectorModel(parameters: parameters(), random: SimulationRandom(seed: 5))
        let behind = projection(1, Self.box, distance: 4)
        let inFront = projection(2, NormalizedRect(x: 0.35, y: 0.2, width: 0.3, height: 0.6), distance: 2)
        let (batch, truth) = detector.detect([behind, inFront], captureTime: .zero, camera: CameraTests.setup.information)
        #expect(batch.observations.count == 1)
        #expect(truth.first { $0.subjectIdentifier == 1 }?.visibleFraction == 0)
        #expect(truth.first { $0.subjectIdentifier == 1 }?.wasReported == false)
        #expect(truth.first { $0.subjectIdentifier == 2 }?.wasReported == true)
    }

    @Test func falsePositivesArriveAtTheirRate() {
        var detector = DetectorModel(parameters: parameters(falsePositives: 0.5), random: SimulationRandom(seed: 6))
        var count = 0
        for _ in 0..<4000 {
            count += detector.detect([], captureTime: .zero, camera: CameraTests.setup.information).batch.observations.count
        }
        #expect(abs(Double(count) / 4000 - 0.5) < 0.04)
    }
}
