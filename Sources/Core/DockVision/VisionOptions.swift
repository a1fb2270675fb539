import DockNumbers
public import DockOptions
import DockVocabulary

/// dockd-vision's settings, declared once: each is a line of `/etc/dockd/vision.conf` (`key =
/// value`) and a flag (`--key value`), and `dockd-vision --help` and the completions list them
/// with their defaults.
public enum VisionOptions {
    /// The camera.
    public static let device = Option(
        "--device", .file, placeholder: "PATH", help: "the camera's V4L2 device", defaultText: VisionSettings().device)
    /// dockd's socket.
    public static let socket = Option(
        "--socket", .file, placeholder: "PATH",
        help: "dockd's control socket; empty: $DOCKD_SOCKET, the user's own dockd, then /run/dockd/dockd.sock",
        defaultText: "")
    /// Which accessory the camera is on, when dockd serves several.
    public static let accessory = Option(
        "--accessory", .text, placeholder: "NAME",
        help: "the accessory the camera is on, by its name or serial number (dockctl list), needed when dockd serves several; "
            + "empty: dockd's only one",
        defaultText: "")
    /// The capture size asked of the camera.
    public static let width = Option(
        "--width", .wholeNumber(16...7680), placeholder: "PIXELS",
        help: "the picture's width to ask the camera for (it gives the nearest it has)", defaultText: "640")
    /// The capture size asked of the camera.
    public static let height = Option(
        "--height", .wholeNumber(16...4320), placeholder: "PIXELS", help: "the picture's height to ask the camera for",
        defaultText: "360")
    /// The frame rate asked of the camera.
    public static let fps = Option(
        "--fps", .wholeNumber(1...240), placeholder: "N", help: "frames a second to ask the camera for", defaultText: "30")
    /// The pixel format.
    public static let format = Option(
        "--format", .choice(FormatPreference.allCases.map(\.rawValue)),
        help: "the pixel format: auto takes YUYV, then NV12, then MJPEG (decoded), whichever the camera has first",
        defaultText: FormatPreference.auto.rawValue)
    /// The width detectors work at.
    public static let detectWidth = Option(
        "--detect-width", .wholeNumber(64...1920), placeholder: "PIXELS",
        help: "frames are scaled to this width (keeping their shape) before detection; wider finds smaller faces, slower",
        defaultText: "640")
    /// The camera's field of view.
    public static let fov = Option(
        "--fov-deg", .number(.above(0, atMost: 179)), placeholder: "DEGREES",
        help: "the camera's horizontal field of view, degrees (the tracker turns boxes into angles with it)",
        defaultText: "70")
    /// How the picture is turned.
    public static let orientation = Option(
        "--orientation", .choice(ImageOrientation.allCases.map(\.rawValue)),
        help: "how the picture is turned relative to the dock", defaultText: ImageOrientation.up.rawValue)
    /// Whether the picture is mirrored.
    public static let mirrored = Option(
        "--mirrored", .choice(["true", "false"]), help: "whether the camera mirrors its picture left to right",
        defaultText: "false")
    /// The face detector.
    public static let faces = Option(
        "--faces", .choice(FaceDetectorChoice.allCases.map(\.rawValue)),
        help: "the face detector: lbp or haar (Debian's opencv-data cascades), yunet (--face-model), none",
        defaultText: FaceDetectorChoice.lbp.rawValue)
    /// The face detector's model file.
    public static let faceModel = Option(
        "--face-model", .file,
        help: "the face detector's file: a cascade's XML (empty: Debian's for lbp or haar), YuNet's 2022mar ONNX for yunet",
        defaultText: "")
    /// The body detector.
    public static let bodies = Option(
        "--bodies", .choice(BodyDetectorChoice.allCases.map(\.rawValue)),
        help: "the person detector: hog (built into OpenCV), onnx (--body-model), none",
        defaultText: BodyDetectorChoice.hog.rawValue)
    /// The body detector's model.
    public static let bodyModel = Option(
        "--body-model", .file, help: "with --bodies onnx: the ONNX person detector's file", defaultText: "")
    /// The body network's input size.
    public static let bodyModelSize = Option(
        "--body-model-size", .wholeNumber(32...2048), placeholder: "PIXELS",
        help: "with --bodies onnx: the network's input width and height", defaultText: "640")
    /// How often bodies are looked for.
    public static let bodyEvery = Option(
        "--body-every", .wholeNumber(1...30), placeholder: "N",
        help: "look for bodies in every N-th frame (faces are looked for in every frame)", defaultText: "3")
    /// The scale faces are searched at.
    public static let faceScale = Option(
        "--face-scale", .number(NumberRange(0.25...2)), placeholder: "FACTOR",
        help: "the frame is scaled by this before faces are searched for: 0.5 finds faces of 48 pixels and more at 640 wide (LBP), 1 of 24",
        defaultText: "0.5")
    /// The scale people are searched at.
    public static let bodyScale = Option(
        "--body-scale", .number(NumberRange(0.25...2)), placeholder: "FACTOR",
        help: "the frame is scaled by this before people are searched for: HOG finds people of 100 / FACTOR pixels and taller",
        defaultText: "1")
    /// The smallest face.
    public static let faceMinimum = Option(
        "--face-min-px", .wholeNumber(8...1000), placeholder: "PIXELS",
        help: "the smallest face looked for, pixels at --detect-width", defaultText: "24")
    /// Appearance descriptors.
    public static let appearance = Option(
        "--appearance", .choice(["true", "false"]),
        help: "send each person's colour histogram, for the tracker's re-identification", defaultText: "true")
    /// System tracking on when connected.
    public static let tracking = Option(
        "--tracking", .choice(["true", "false"]),
        help: "turn dockd's system tracking on each time the service connects (a webcam has no tracking button)",
        defaultText: "true")
    /// OpenCV's threads.
    public static let threads = Option(
        "--threads", .wholeNumber(1...64), placeholder: "N", help: "threads OpenCV's detectors may use", defaultText: "1")
    /// The virtual camera.
    public static let output = Option(
        "--output", .file, placeholder: "PATH",
        help: "a V4L2 output device (v4l2loopback's) to write every frame read to, as a camera for other programs; empty: none",
        defaultText: "")
    /// The virtual camera's pixel format.
    public static let outputFormat = Option(
        "--output-format", .choice(OutputFormatChoice.allCases.map(\.rawValue)),
        help: "the output's pixel format: same passes the camera's frames through untouched (one copy), yuyv or nv12 convert",
        defaultText: OutputFormatChoice.same.rawValue)
    /// The virtual camera's size.
    public static let outputSize = Option(
        "--output-size", .text, placeholder: "WIDTHxHEIGHT",
        help: "the output's size (1280x720); empty: the camera's (another size is scaled, not for Motion-JPEG with output-format same)",
        defaultText: "")
    /// What the virtual camera shows.
    public static let outputView = Option(
        "--output-view", .choice(OutputView.allCases.map(\.rawValue)),
        help: "what the output shows: full, the camera's picture; framed, the crop that keeps the person framed (converted)",
        defaultText: OutputView.full.rawValue)
    /// How much to log.
    public static let logLevel = Option(
        "--log-level", .choice(["error", "warning", "notice", "info", "debug"]), help: "how much to log",
        defaultText: "info")

    /// Every setting, in the order help lists them.
    public static let settings: [Option] = [
        device, socket, accessory, width, height, fps, format, detectWidth, fov, orientation, mirrored, faces, faceModel,
        bodies, bodyModel, bodyModelSize, bodyEvery, faceScale, bodyScale, faceMinimum, appearance, tracking, threads, output,
        outputFormat, outputSize, outputView, logLevel,
    ]

    /// The settings file read by default.
    public static let config = Option(
        "--config", .file, help: "read settings from FILE (an empty FILE reads none)", defaultText: VisionCommand.defaultConfigurationPath)
    /// Completion scripts.
    public static let completions = Option(
        "--completions", .choice(Completions.Shell.allCases.map(\.rawValue)), placeholder: "SHELL",
        help: "print the completion script for bash, zsh or fish, and exit")
    /// Help.
    public static let help = Option("--help", help: "show this help", aliases: ["-h"])
    /// The version.
    public static let version = Option("--version", help: "print the version and exit")

    /// Every option the command line takes.
    public static let all: [Option] = [config] + settings + [completions, help, version]

    /// The command line's declaration, for the completions.
    public static let program = ProgramSpec(name: "dockd-vision", globalOptions: all, commands: [])
}

/// Which pixel format to take.
public enum FormatPreference: String, CaseIterable, Hashable, Sendable {
    /// The first the camera has of YUYV, NV12, MJPEG.
    case auto
    /// Packed 4:2:2.
    case yuyv
    /// 4:2:0, two planes.
    case nv12
    /// Motion JPEG, decoded.
    case mjpeg
}

/// The face detectors.
public enum FaceDetectorChoice: String, CaseIterable, Hashable, Sendable {
    /// Debian's LBP frontal face cascade (improved).
    case lbp
    /// Debian's Haar frontal face cascade (default).
    case haar
    /// YuNet, from a file.
    case yunet
    /// No faces.
    case none
}

/// The person detectors.
public enum BodyDetectorChoice: String, CaseIterable, Hashable, Sendable {
    /// OpenCV's HOG people detector.
    case hog
    /// An ONNX network, from a file.
    case onnx
    /// No bodies.
    case none
}
