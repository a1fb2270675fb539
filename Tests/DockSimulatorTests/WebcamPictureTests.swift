import DockVocabulary
import Testing

@testable import DockSimulator

#if canImport(Glibc)
    import Glibc
#endif

/// The emulated webcam's picture: the footage's files, the cutter that makes them, the scene the
/// simulator sees, and the renderer that draws it where the simulator's pinhole says.
@Suite struct WebcamPictureTests {
    static let camera = CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9)

    static func person(_ identifier: Int, from start: (Double, Double), to end: (Double, Double), absent: [ClosedRange<Double>] = [])
        -> SubjectScript
    {
        SubjectScript(
            identifier: identifier, kind: .person(heightMeters: 1.7), isPrimary: identifier == 1,
            path: .waypoints([
                Waypoint(timeSeconds: 0, xMeters: start.0, yMeters: start.1), Waypoint(timeSeconds: 10, xMeters: end.0, yMeters: end.1),
            ]), absences: absent)
    }

    static func resolved(_ scripts: [SubjectScript]) -> [ResolvedSubject] {
        var random = SimulationRandom(seed: 1)
        return scripts.map { ResolvedSubject($0, durationSeconds: 10, random: &random) }
    }

    static let setup = CameraSetup(information: camera, widthPixels: 640, heightPixels: 360, framesPerSecond: 30, mountHeightMeters: 1.2)

    // MARK: Footage files

    @Test func footageFilesRoundTripAndBadOnesAreNamed() throws {
        let footage = Footage.testPattern
        let files = footage.files
        let manifest = String(decoding: files[Footage.manifestName]!, as: UTF8.self)
        let read = try Footage.read(manifest: manifest) { files[$0] }
        #expect(read == footage)
        #expect(read.plate.width == 960 && read.people.count == 3)

        func error(_ manifest: String, _ load: (String) -> [UInt8]? = { files[$0] }) -> String {
            do {
                _ = try Footage.read(manifest: manifest, load: load)
                return "read"
            } catch {
                return error.message
            }
        }
        #expect(error(manifest) { $0 == "plate.yuv" ? nil : files[$0] } == "plate.yuv: missing")
        #expect(error(manifest) { $0 == "plate.yuv" ? [1, 2, 3] : files[$0] }.hasPrefix("plate.yuv: 3 bytes, not 960×720"))
        #expect(error(manifest) { $0 == "person-2.yuva" ? Array(files[$0]!.dropLast(7)) : files[$0] }.contains("person-2.yuva: shorter"))
        #expect(error(manifest) { $0 == "person-1.yuva" ? files[$0]! + [0] : files[$0] } == "person-1.yuva: 1 bytes past its frames")
        #expect(error(manifest.replacingFirst("\"focal_px\"", with: "\"focal\"")).contains("plate.focal_px: is required"))
        #expect(error(manifest.replacingFirst("\"stride_m\": 0.13", with: "\"stride_m\": -1")).contains("stride_m"))
        #expect(error(manifest.replacingFirst("\"source\"", with: "\"colour\": 1, \"source\"")).contains("colour: is not a known field"))
        #expect(error("{").hasPrefix("footage.json: line 1"))
    }

    // MARK: The cutter

    /// A textured background, a dark person 20 × 60 crossing it three pixels a frame, and a
    /// speck: the median of the frames is the background again, and the person is cut out of
    /// every frame (but the trimmed ends), facing right, the speck left out.
    @Test func theCutterFindsTheBackgroundAndThePerson() throws {
        let width = 200, height = 120
        func background(_ x: Int, _ y: Int) -> UInt8 { UInt8(100 + (x * 7 + y * 13) % 40) }
        var frames: [FootageImage] = []
        for index in 0..<40 {
            var y = [UInt8](repeating: 0, count: width * height)
            for row in 0..<height { for column in 0..<width { y[row * width + column] = background(column, row) } }
            let left = 10 + 3 * index
            for row in 30..<90 { for column in left..<(left + 20) { y[row * width + column] = 20 } }
            y[5 * width + 190] = 250  // a speck
            frames.append(
                FootageImage(
                    width: width, height: height, y: y, u: [UInt8](repeating: 128, count: y.count),
                    v: [UInt8](repeating: 128, count: y.count)))
        }
        let plate = FootageCutter.medianPlate(of: frames)
        let expected = (0..<(width * height)).map { background($0 % width, $0 / width) }
        #expect(plate.y.enumerated().filter { $0.offset != 5 * width + 190 }.allSatisfy { $0.element == expected[$0.offset] })
        var cutter = FootageCutter(plate: plate)
        for (index, frame) in frames.enumerated() { cutter.add(frame, index: index) }
        let people = cutter.people(count: 6)
        #expect(people.count == 1)
        let person = try #require(people.first)
        #expect(person.frames.count == 40 - 2 * cutter.trimmedFrames)
        #expect(person.walksRight)
        let first = person.frames[0]
        #expect(first.width == 24 && first.height == 64, "the region and a two-pixel margin")
        #expect(first.alpha?[32 * 24 + 12] == 255 && first.alpha?[0] == 0, "opaque inside, clear in the margin's corner")
        #expect(first.y[32 * 24 + 12] == 20)
        #expect(person.sources.first?.frame == cutter.trimmedFrames)
        #expect(person.sources.first?.x == 10 + 3 * cutter.trimmedFrames - 2)
    }

    // MARK: The scene

    @Test func theSceneHasThePeoplePresentFarthestFirst() {
        let subjects = Self.resolved([
            Self.person(1, from: (-1, 2), to: (1, 2)),
            Self.person(2, from: (0, 4), to: (0, 4)),
            Self.person(3, from: (0, 3), to: (0, 3), absent: [4...6]),
        ])
        let scene = VideoScene.make(
            subjects: subjects, camera: VirtualCamera(setup: Self.setup), yawRadians: 0, pitchRadians: 0, magnification: 1,
            captureTime: .seconds(5))
        let identifiers: [Int] = scene.people.map { $0.subjectIdentifier }
        #expect(identifiers == [2, 1], "the absent one is not drawn; the farther first")
        #expect(scene.people[1].movesRight == true && scene.people[0].movesRight == nil)
        #expect(abs(scene.people[1].walkedMeters - 1) < 1e-9 && scene.people[0].walkedMeters == 0)
        // Subject 1 stands at (0, 2), straight ahead: its body's box is centred.
        let nearBox = scene.people[1].box
        let nearCentre = nearBox.x + nearBox.width / 2
        #expect(abs(nearCentre - 0.5) < 1e-9)
        let zoomed = VideoScene.make(
            subjects: subjects, camera: VirtualCamera(setup: Self.setup), yawRadians: 0, pitchRadians: 0, magnification: 2,
            captureTime: .seconds(5))
        #expect(abs(tan(zoomed.camera.horizontalFieldOfViewRadians / 2) * 2 - tan(35 * Double.pi / 180)) < 1e-12)
        #expect(abs(zoomed.people[1].box.height - 2 * scene.people[1].box.height) < 1e-9, "twice the zoom, twice the size")
    }

    // MARK: The renderer

    /// The plate's homography: the picture's centre shows the plate's centre at rest, and the
    /// plate point straight ahead of a camera turned by θ, f·tan θ right of it.
    @Test func thePlateTurnsWithTheCamera() {
        let footage = Footage.testPattern
        func centre(yaw: Double, pitch: Double) -> (Double, Double) {
            let h = VideoRenderer.plateHomography(
                camera: Self.camera, yawRadians: yaw, pitchRadians: pitch, width: 640, height: 360, plateWidth: footage.plate.width,
                plateHeight: footage.plate.height, plateFocalPixels: footage.plateFocalPixels)
            let w = h[6] * 320 + h[7] * 180 + h[8]
            return ((h[0] * 320 + h[1] * 180 + h[2]) / w, (h[3] * 320 + h[4] * 180 + h[5]) / w)
        }
        let atRest = centre(yaw: 0, pitch: 0)
        #expect(abs(atRest.0 - 480) < 1e-9 && abs(atRest.1 - 360) < 1e-9)
        let turned = centre(yaw: 0.2, pitch: 0)
        #expect(abs(turned.0 - (480 + footage.plateFocalPixels * tan(0.2))) < 1e-9 && abs(turned.1 - 360) < 1e-9)
        let raised = centre(yaw: 0, pitch: 0.1)
        #expect(abs(raised.0 - 480) < 1e-9 && abs(raised.1 - (360 - footage.plateFocalPixels * tan(0.1))) < 1e-9, "up is up the plate")
    }

    /// A person is drawn over the box the pinhole projects, the plate around it; mirrored, at
    /// the mirrored place.
    @Test func aPersonIsDrawnWhereThePinholeSaysAndMirrored() {
        let subjects = Self.resolved([Self.person(1, from: (-0.5, 3), to: (-0.5, 3))])
        let scene = VideoScene.make(
            subjects: subjects, camera: VirtualCamera(setup: Self.setup), yawRadians: 0, pitchRadians: 0, magnification: 1,
            captureTime: .seconds(1))
        var renderer = VideoRenderer(footage: .testPattern)
        var empty = scene
        empty.people = []
        renderer.render(empty, width: 640, height: 360)
        let plateOnly = renderer.planes.y
        let drawn = renderer.render(scene, width: 640, height: 360)
        let picture = renderer.planes.y
        let box = scene.people[0].box
        #expect(drawn.count == 1)
        let rect = drawn[0]
        #expect(abs(rect.y - box.y * 360) < 1e-9 && abs(rect.height - box.height * 360) < 1e-9)
        let rectCentre = rect.x + rect.width / 2
        let boxCentre = (box.x + box.width / 2) * 640
        #expect(abs(rectCentre - boxCentre) < 1e-9)
        let centreRow = Int(rect.y + rect.height / 2), centreColumn = Int(rect.x + rect.width / 2)
        #expect(picture[centreRow * 640 + centreColumn] == 81, "the red silhouette's luma at the body's centre")
        let outside = centreRow * 640 + Int(rect.x + rect.width) + 3
        #expect(picture[outside] == plateOnly[outside], "the plate beside it")
        var mirrored = scene
        mirrored.camera.isMirrored = true
        let flipped = renderer.render(mirrored, width: 640, height: 360)
        #expect(abs(flipped[0].x - (640 - rect.x - rect.width)) < 1e-9)
        #expect(renderer.planes.y[centreRow * 640 + (639 - centreColumn)] == 81)
    }

    @Test func aWalkPlaysForwardsThenBackwards() {
        let frames = (0..<10).map { VideoRenderer.walkFrame(walkedMeters: Double($0) * 0.1 + 0.05, strideMeters: 0.1, frames: 4) }
        #expect(frames == [0, 1, 2, 3, 2, 1, 0, 1, 2, 3])
        #expect(VideoRenderer.walkFrame(walkedMeters: 5, strideMeters: 0.1, frames: 1) == 0)
        #expect(VideoRenderer.walkFrame(walkedMeters: .nan, strideMeters: 0.1, frames: 4) == 0)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        var copy = self
        if let range = copy.firstRange(of: target) { copy.replaceSubrange(range, with: replacement) }
        return copy
    }
}
