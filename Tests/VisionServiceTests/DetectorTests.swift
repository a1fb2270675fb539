import DockVision
import DockVocabulary
import Foundation
import Testing
import VisionService

/// Debian's opencv-doc photographs (scripts/install-deps installs it).
let examples = "/usr/share/doc/opencv-doc/examples/data"

@Suite struct DetectorTests {
    @Test func theHaarCascadeFindsTheFaceInAPhotograph() throws {
        // messi5.jpg (548 x 342): the player's face at x 220, y 88, 42 x 46 (scripts/vision-truth.txt,
        // made by eye). 42 pixels: too small for the default LBP cascade at half scale (its window
        // is 45 pixels there, 90 here), found by the Haar cascade at full scale.
        let image = VisionImage()
        try image.load(path: "\(examples)/messi5.jpg")
        var settings = VisionSettings()
        settings.faces = .haar
        settings.faceScale = 1
        let faces = try #require(try DetectorSet.faces(settings))
        #expect(faces.name == "haar")
        let found = try faces.detect(in: image)
        #expect(found.contains { $0.box.overlap(PixelBox(x: 220, y: 88, width: 42, height: 46)) >= 0.4 }, "\(found)")
        #expect(found.allSatisfy { $0.kind == .face && $0.confidence > 0 && $0.confidence <= 1 })
    }

    @Test func hogFindsThePeopleInAFrameOfVideo() throws {
        // vtest.avi's frame 575 (768 x 576), extracted with Debian's python3-opencv: among the
        // seven people in it, the woman in black at x 160, y 419, 63 x 157 and the man at the
        // right edge at x 719, y 238, 31 x 97 (scripts/vision-truth.txt, made by eye). HOG's
        // window is 128 pixels high: the frame is searched enlarged by 1.5.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vtest-575-\(getpid()).png").path
        let extract = Process()
        extract.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        extract.arguments = [
            "-c",
            "import cv2, sys; c = cv2.VideoCapture(sys.argv[1]); c.set(cv2.CAP_PROP_POS_FRAMES, 575); ok, f = c.read(); "
                + "sys.exit(0 if ok and cv2.imwrite(sys.argv[2], f) else 1)",
            "\(examples)/vtest.avi", path,
        ]
        try extract.run()
        extract.waitUntilExit()
        try #require(extract.terminationStatus == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let image = VisionImage()
        try image.load(path: path)
        let hog = try OpenCVDetector.hog(search: OpenCVDetector.Search(scaleStep: 1.2, minimumNeighbours: 2, stride: 8, inputScale: 1.5))
        let found = try hog.detect(in: image)
        #expect(found.contains { $0.box.overlap(PixelBox(x: 160, y: 419, width: 63, height: 157)) >= 0.4 }, "\(found)")
        #expect(found.contains { $0.box.overlap(PixelBox(x: 719, y: 238, width: 31, height: 97)) >= 0.4 }, "\(found)")
        #expect(found.allSatisfy { $0.kind == .body && $0.confidence > 0.5 })
    }

    @Test func aMissingModelAndAFileThatIsNotOneAreNamed() throws {
        var settings = VisionSettings()
        settings.faces = .yunet
        settings.faceModel = "/nonexistent/face_detection_yunet_2022mar.onnx"
        #expect(throws: DetectorError.modelMissing(path: settings.faceModel, reason: "No such file or directory")) {
            try DetectorSet.faces(settings)
        }
        let garbage = try TinyONNX.write(Array("this is not a network\n".utf8), name: "garbage.onnx")
        settings.faceModel = garbage
        #expect(throws: DetectorError.self) { try DetectorSet.faces(settings) }
        do {
            _ = try DetectorSet.faces(settings)
        } catch {
            guard case .notAModel(let path, _) = error else {
                Issue.record("expected notAModel, got \(error)")
                return
            }
            #expect(path == garbage)
            #expect(error.description.hasPrefix("not a model: \(garbage): "))
        }
        var cascade = VisionSettings()
        cascade.faceModel = garbage
        do {
            _ = try DetectorSet.faces(cascade)
            Issue.record("a cascade was read from \(garbage)")
        } catch {
            guard case .notAModel(let path, _) = error else {
                Issue.record("expected notAModel, got \(error)")
                return
            }
            #expect(path == garbage)
        }
        var network = VisionSettings()
        network.bodies = .onnx
        network.bodyModel = "/usr/share/doc"
        #expect(throws: DetectorError.notAModel(path: "/usr/share/doc", reason: "not a regular file")) { try DetectorSet.bodies(network) }
    }

    @Test func anONNXPersonDetectorLoadsAndItsOutputIsRead() throws {
        // Every candidate of the tiny network is its bias: a box centred at (2, 2) of the 4 x 4
        // input, 2 wide and 4 high, score 0.9. On a 640 x 360 picture: x 160...480, y 0...360.
        let path = try TinyONNX.write(TinyONNX.model(bias: [2, 2, 2, 4, 0.9]), name: "tiny-person.onnx")
        var settings = VisionSettings()
        settings.bodies = .onnx
        settings.bodyModel = path
        settings.bodyModelSize = 4
        let detector = try #require(try DetectorSet.bodies(settings))
        let image = VisionImage()
        var frame = [UInt8](repeating: 128, count: 640 * 360 * 2)
        try frame.withUnsafeBytes { raw in
            try image.set(
                raw, format: .yuyv, size: FrameSize(width: 640, height: 360), stride: 0, working: FrameSize(width: 640, height: 360))
        }
        let found = try detector.detect(in: image)
        #expect(found.count == 1)  // 16 identical candidates, one after non-maximum suppression
        let box = try #require(found.first)
        #expect(box.kind == .body)
        #expect(
            abs(box.box.x - 160) < 1e-3 && abs(box.box.y) < 1e-3 && abs(box.box.width - 320) < 1e-3 && abs(box.box.height - 360) < 1e-3,
            "\(box)")
        #expect(abs(box.confidence - 0.9) < 1e-6)
        frame[0] = 0
        // A score under the threshold: nothing.
        let quiet = try TinyONNX.write(TinyONNX.model(bias: [2, 2, 2, 4, 0.2]), name: "tiny-quiet.onnx")
        settings.bodyModel = quiet
        #expect(try #require(try DetectorSet.bodies(settings)).detect(in: image).isEmpty)
    }

    @Test func yunetOnANetworkThatIsNotYuNetFailsByName() throws {
        // The tiny network loads (it is valid ONNX), but it has none of YuNet's outputs.
        let path = try TinyONNX.write(TinyONNX.model(bias: [2, 2, 2, 4, 0.9]), name: "not-yunet.onnx")
        let image = VisionImage()
        try image.load(path: "\(examples)/messi5.jpg")
        do {
            let detector = try OpenCVDetector.yunet(path: path)
            #expect(throws: DetectorError.self) { try detector.detect(in: image) }
        } catch {
            guard case .notAModel = error else {
                Issue.record("expected a named error, got \(error)")
                return
            }
        }
    }
}
