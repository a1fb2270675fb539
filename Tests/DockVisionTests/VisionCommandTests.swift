import DockOptions
import DockVocabulary
import Testing

@testable import DockVision

@Suite struct VisionCommandTests {
    func parse(_ arguments: [String], files: [String: String] = [:]) throws(VisionCommand.Failure) -> VisionCommand {
        try VisionCommand.parse(arguments, readFile: { files[$0] })
    }

    @Test func defaultsWithoutAFile() throws {
        #expect(try parse([]) == .run(VisionSettings(), configurationPath: nil))
        #expect(VisionSettings().faceModelPath == "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml")
    }

    @Test func theFileThenTheFlagsWhichWin() throws {
        let file = """
            # the camera on the desk
            device = /dev/video2
            faces = haar
            body-every = 5   # bodies twice a second
            appearance = false
            """
        let command = try parse(["--body-every", "2", "--fov-deg=82.5"], files: ["/etc/dockd/vision.conf": file])
        var expected = VisionSettings()
        expected.device = "/dev/video2"
        expected.faces = .haar
        expected.bodyEvery = 2
        expected.fovDegrees = 82.5
        expected.sendsAppearance = false
        #expect(command == .run(expected, configurationPath: "/etc/dockd/vision.conf"))
        #expect(expected.faceModelPath == "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
    }

    @Test func badSettingsAreNamedWithTheirLine() {
        #expect(throws: VisionCommand.Failure.configuration("/etc/dockd/vision.conf:2: unknown setting 'colour'")) {
            try parse([], files: ["/etc/dockd/vision.conf": "device = /dev/video1\ncolour = red\n"])
        }
        #expect(
            throws: VisionCommand.Failure.configuration("/etc/dockd/vision.conf:1: --body-every needs a whole number from 1 to 30, got '0'")
        ) {
            try parse([], files: ["/etc/dockd/vision.conf": "body-every = 0"])
        }
        #expect(throws: VisionCommand.Failure.configuration("v.conf:1: expected 'key = value', got 'faces lbp'")) {
            try parse(["--config", "v.conf"], files: ["v.conf": "faces lbp"])
        }
        #expect(throws: VisionCommand.Failure.usage("--fov-deg needs a number above 0, at most 179, got '180'")) {
            try parse(["--fov-deg", "180"])
        }
        #expect(throws: VisionCommand.Failure.usage("cannot read settings file 'missing.conf'")) {
            try parse(["--config", "missing.conf"])
        }
        #expect(throws: VisionCommand.Failure.usage("unexpected argument 'now'")) { try parse(["now"]) }
    }

    /// Found by scripts/fuzz vision: a file's value that is also an option's name was read as
    /// that option, and the error named neither the file nor the line.
    @Test func aValueThatLooksLikeAnOptionStaysAValue() throws {
        let command = try parse(["--config", "v.conf"], files: ["v.conf": "faces = yunet\nface-model = --body-model-size\n"])
        guard case .run(let settings, _) = command else {
            Issue.record("not a run: \(command)")
            return
        }
        #expect(settings.faceModel == "--body-model-size")
        #expect(throws: VisionCommand.Failure.configuration("v.conf:1: --body-every needs a whole number from 1 to 30, got '--fps'")) {
            try parse(["--config", "v.conf"], files: ["v.conf": "body-every = --fps"])
        }
    }

    @Test func aDetectorThatNeedsAFileMustHaveOne() {
        #expect(
            throws: VisionCommand.Failure.configuration(
                "face-model: --faces yunet needs the YuNet ONNX file (face_detection_yunet_2022mar.onnx)")
        ) {
            try parse(["--faces", "yunet"])
        }
        #expect(throws: VisionCommand.Failure.configuration("body-model: --bodies onnx needs the ONNX person detector's file")) {
            try parse(["--bodies", "onnx"])
        }
        #expect(throws: VisionCommand.Failure.configuration("faces: with --faces none and --bodies none there is nothing to detect")) {
            try parse(["--faces", "none", "--bodies", "none"])
        }
    }

    @Test func helpVersionAndCompletions() throws {
        #expect(try parse(["--help"]) == .help)
        #expect(try parse(["-h"]) == .help)
        #expect(try parse(["--version"]) == .version)
        #expect(try parse(["--completions", "fish"]) == .completions(.fish))
        // Every setting is in the help with its default.
        for option in VisionOptions.settings {
            #expect(VisionCommand.helpText.contains(option.name), "\(option.name)")
            #expect(option.defaultText != nil, "\(option.name) shows no default")
        }
    }

    @Test func theTemplateReadsBackAsTheDefaults() throws {
        // Uncommenting every line of the installed file changes nothing.
        let template = SettingsFile.template(header: ["dockd-vision"], options: VisionOptions.settings)
        let uncommented = template.split(separator: "\n").map {
            $0.hasPrefix("#") && $0.contains(" = ") && !$0.hasPrefix("# ") ? String($0.dropFirst()) : String($0)
        }
        .joined(separator: "\n")
        #expect(try parse(["--config", "t"], files: ["t": uncommented]) == .run(VisionSettings(), configurationPath: "t"))
    }

    @Test func theCameraInformationFollowsTheSettings() {
        var settings = VisionSettings()
        settings.fovDegrees = 90
        #expect(
            settings.camera(width: 640, height: 360) == CameraInformation(horizontalFieldOfViewRadians: .pi / 2, aspectRatio: 640.0 / 360))
        settings.orientation = .rotatedClockwise
        settings.isMirrored = true
        // A picture delivered on its side: the dock-aligned picture is 640 wide again.
        #expect(
            settings.camera(width: 360, height: 640)
                == CameraInformation(
                    horizontalFieldOfViewRadians: .pi / 2, aspectRatio: 640.0 / 360, orientation: .rotatedClockwise, isMirrored: true))
    }
}
