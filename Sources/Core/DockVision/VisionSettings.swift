public import DockOptions
public import DockVocabulary

/// What dockd-vision runs with: the camera, dockd, the detectors and how often they run.
public struct VisionSettings: Hashable, Sendable {
    /// The camera's V4L2 device.
    public var device = "/dev/video0"
    /// dockd's socket; empty: DockClient's defaults.
    public var socket = ""
    /// The accessory the camera is on (its name or serial number), when dockd serves several; empty: dockd's only one.
    public var accessory = ""
    /// The capture size asked for.
    public var width = 640
    /// The capture size asked for.
    public var height = 360
    /// Frames a second asked for.
    public var fps = 30
    /// The pixel format.
    public var format = FormatPreference.auto
    /// The width frames are scaled to before detection.
    public var detectWidth = 640
    /// The horizontal field of view, degrees.
    public var fovDegrees = 70.0
    /// How the picture is turned relative to the dock.
    public var orientation = ImageOrientation.up
    /// Whether the picture is mirrored.
    public var isMirrored = false
    /// The face detector.
    public var faces = FaceDetectorChoice.lbp
    /// The face detector's file; empty: Debian's cascade for lbp or haar.
    public var faceModel = ""
    /// The person detector.
    public var bodies = BodyDetectorChoice.hog
    /// The person network's file.
    public var bodyModel = ""
    /// The person network's input size.
    public var bodyModelSize = 640
    /// Bodies in every this-many-th frame.
    public var bodyEvery = 3
    /// The scale faces are searched at.
    public var faceScale = 0.5
    /// The scale people are searched at.
    public var bodyScale = 1.0
    /// The smallest face, pixels at the detection width.
    public var faceMinimumPixels = 24
    /// Whether people's colour histograms are sent.
    public var sendsAppearance = true
    /// Whether system tracking is turned on at each connection.
    public var turnsTrackingOn = true
    /// OpenCV's threads.
    public var threads = 1
    /// The output device frames are written to; empty: none.
    public var output = ""
    /// The output's pixel format.
    public var outputFormat = OutputFormatChoice.same
    /// The output's size, `WIDTHxHEIGHT`; empty: the camera's.
    public var outputSize = ""
    /// What the output shows.
    public var outputView = OutputView.full
    /// How much to log: error, warning, notice, info or debug.
    public var logLevel = "info"

    /// Debian's improved LBP frontal face cascade (opencv-data): a 45 x 45 window, so at half
    /// size it sees no face under 90 pixels (2 of 48 real faces found; not the default).
    public static let lbpImprovedCascade = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface_improved.xml"
    /// Debian's first LBP frontal face cascade (opencv-data), lbp's default: a 24 x 24 window,
    /// faces from 48 pixels at half size (23 of 48 real faces found at 5.4 ms a frame).
    public static let lbpCascade = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml"
    /// Debian's Haar frontal face cascade (opencv-data).
    public static let haarCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"

    /// The defaults.
    public init() {}

    /// The face detector's file: the one given, else Debian's cascade for lbp or haar.
    public var faceModelPath: String {
        guard faceModel.isEmpty else { return faceModel }
        switch faces {
        case .lbp: return Self.lbpCascade
        case .haar: return Self.haarCascade
        case .yunet, .none: return ""
        }
    }

    /// The camera as the tracker needs it, for pictures of `width` x `height` as delivered.
    public func camera(width: Int, height: Int) -> CameraInformation {
        // The field of view and aspect ratio are the dock-aligned picture's: a quarter turn
        // delivers it on its side.
        let swaps = orientation == .rotatedClockwise || orientation == .rotatedCounterclockwise
        let aspect = swaps ? Double(height) / Double(width) : Double(width) / Double(height)
        return CameraInformation(
            horizontalFieldOfViewRadians: fovDegrees * .pi / 180, aspectRatio: aspect, orientation: orientation,
            isMirrored: isMirrored)
    }

    /// The output's size; nil: the camera's (checked by `validated`).
    public var outputFrameSize: FrameSize? { (try? OutputPlan.size(parsing: outputSize)) ?? nil }

    /// Sets the values of parsed options over these settings.
    public mutating func apply(_ parsed: ParsedOptions) {
        if let value = parsed.text(VisionOptions.device) { device = value }
        if let value = parsed.text(VisionOptions.socket) { socket = value }
        if let value = parsed.text(VisionOptions.accessory) { accessory = value }
        if let value = parsed.wholeNumber(VisionOptions.width) { width = value }
        if let value = parsed.wholeNumber(VisionOptions.height) { height = value }
        if let value = parsed.wholeNumber(VisionOptions.fps) { fps = value }
        if let value = parsed.choice(VisionOptions.format, as: FormatPreference.self) { format = value }
        if let value = parsed.wholeNumber(VisionOptions.detectWidth) { detectWidth = value }
        if let value = parsed.number(VisionOptions.fov) { fovDegrees = value }
        if let value = parsed.choice(VisionOptions.orientation, as: ImageOrientation.self) { orientation = value }
        if let value = parsed.text(VisionOptions.mirrored) { isMirrored = value == "true" }
        if let value = parsed.choice(VisionOptions.faces, as: FaceDetectorChoice.self) { faces = value }
        if let value = parsed.text(VisionOptions.faceModel) { faceModel = value }
        if let value = parsed.choice(VisionOptions.bodies, as: BodyDetectorChoice.self) { bodies = value }
        if let value = parsed.text(VisionOptions.bodyModel) { bodyModel = value }
        if let value = parsed.wholeNumber(VisionOptions.bodyModelSize) { bodyModelSize = value }
        if let value = parsed.wholeNumber(VisionOptions.bodyEvery) { bodyEvery = value }
        if let value = parsed.number(VisionOptions.faceScale) { faceScale = value }
        if let value = parsed.number(VisionOptions.bodyScale) { bodyScale = value }
        if let value = parsed.wholeNumber(VisionOptions.faceMinimum) { faceMinimumPixels = value }
        if let value = parsed.text(VisionOptions.appearance) { sendsAppearance = value == "true" }
        if let value = parsed.text(VisionOptions.tracking) { turnsTrackingOn = value == "true" }
        if let value = parsed.wholeNumber(VisionOptions.threads) { threads = value }
        if let value = parsed.text(VisionOptions.output) { output = value }
        if let value = parsed.choice(VisionOptions.outputFormat, as: OutputFormatChoice.self) { outputFormat = value }
        if let value = parsed.text(VisionOptions.outputSize) { outputSize = value }
        if let value = parsed.choice(VisionOptions.outputView, as: OutputView.self) { outputView = value }
        if let value = parsed.text(VisionOptions.logLevel) { logLevel = value }
    }

    /// Checks what single settings cannot: a detector that needs a file has one.
    /// - Throws: `VisionCommand.Failure.configuration` naming the setting.
    public func validated() throws(VisionCommand.Failure) -> VisionSettings {
        if faces == .yunet, faceModel.isEmpty {
            throw .configuration("face-model: --faces yunet needs the YuNet ONNX file (face_detection_yunet_2022mar.onnx)")
        }
        if bodies == .onnx, bodyModel.isEmpty {
            throw .configuration("body-model: --bodies onnx needs the ONNX person detector's file")
        }
        if faces == .none, bodies == .none {
            throw .configuration("faces: with --faces none and --bodies none there is nothing to detect")
        }
        guard !device.isEmpty else { throw .configuration("device: needs the camera's device") }
        _ = try OutputPlan.size(parsing: outputSize)
        if output == device { throw .configuration("output: \(output) is the camera itself; name the loopback device's output") }
        return self
    }
}
