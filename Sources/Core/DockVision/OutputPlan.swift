public import DockVocabulary

/// The pixel format the virtual camera is given.
public enum OutputFormatChoice: String, CaseIterable, Hashable, Sendable {
    /// The camera's own format, as read (Motion-JPEG stays Motion-JPEG).
    case same
    /// Packed 4:2:2 (`YUYV`): what every video-call application takes.
    case yuyv
    /// 4:2:0, two planes (`NV12`).
    case nv12
}

/// What the virtual camera shows.
public enum OutputView: String, CaseIterable, Hashable, Sendable {
    /// The camera's whole picture.
    case full
    /// The crop that keeps the subject framed (`CropFramer`), scaled to the output's size.
    case framed
}

/// What dockd's tracker says of the framing, for the framed picture: its primary subject's person
/// box in the picture (nil: none), the framing mode and the region of interest, as of `time`; or,
/// where dockd's accessory is a digital pan-tilt-zoom of this picture, its crop window.
public struct TrackerFraming: Hashable, Sendable {
    /// The primary subject's person box.
    public var person: NormalizedRect?
    /// Where the tracker puts the subject.
    public var mode: FramingMode
    /// The part of the picture framing may use.
    public var region: NormalizedRect
    /// When dockd answered (monotonic).
    public var time: Duration
    /// dockd's accessory's crop window in the picture, where it is a crop of it (`fixed_picture`,
    /// `Dock.Status.crop`): the framed picture is that crop, and `person` is not in the picture's
    /// coordinates but the crop's.
    public var crop: NormalizedRect?

    /// Creates one.
    public init(person: NormalizedRect?, mode: FramingMode, region: NormalizedRect, time: Duration, crop: NormalizedRect? = nil) {
        self.person = person
        self.mode = mode
        self.region = region
        self.time = time
        self.crop = crop
    }
}

/// Why frames cannot go to the virtual camera as the settings ask.
public enum OutputPlanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A Motion-JPEG picture cannot be resized or cropped without being encoded again.
    case jpegNeedsConversion(FrameSize)
    /// The framed picture is a crop: Motion-JPEG cannot pass through.
    case framedJPEG
    /// YUYV and NV12 pair pixels: the output's width (and for NV12 its height) must be even.
    case oddSize(FrameSize, OutputFormatChoice)

    /// What went wrong, naming the setting to change.
    public var description: String {
        switch self {
        case .jpegNeedsConversion(let size):
            "output: the camera gives Motion-JPEG, which is not re-encoded: output-size \(size) needs output-format yuyv or nv12"
        case .framedJPEG:
            "output-view: framed crops the picture, which is not re-encoded as Motion-JPEG: it needs output-format yuyv or nv12"
        case .oddSize(let size, let format):
            "output-size: \(size) cannot be \(format.rawValue.uppercased()) (it needs an even width\(format == .nv12 ? " and height" : ""))"
        }
    }
}

/// How each frame read becomes a frame of the virtual camera: passed through as the driver filled
/// it (one copy, the `write`), or decoded, scaled and converted.
public struct OutputPlan: Hashable, Sendable {
    /// The format and size the output device is set to.
    public var format: FormatChoice
    /// Whether the captured bytes go out as they are.
    public var passesThrough: Bool
    /// Whether each frame is the framed crop.
    public var isFramed: Bool

    /// Creates a plan.
    public init(format: FormatChoice, passesThrough: Bool, isFramed: Bool = false) {
        self.format = format
        self.passesThrough = passesThrough
        self.isFramed = isFramed
    }

    /// The plan for frames of `input` (lines of `stride` bytes) given the settings' format, size
    /// (nil: the input's) and view. Bytes pass through when format and size are the input's, the
    /// view is the full picture and the lines carry no padding (a `write` takes a frame packed).
    /// - Throws: `OutputPlanError` when the settings cannot be met.
    public static func plan(
        input: FormatChoice, stride: Int, format: OutputFormatChoice, size: FrameSize?, view: OutputView = .full
    ) throws(OutputPlanError) -> OutputPlan {
        let size = size ?? input.size
        let pixelFormat: PixelFormat =
            switch format {
            case .same: input.format
            case .yuyv: .yuyv
            case .nv12: .nv12
            }
        let packed = input.format == .mjpeg || stride == 0 || stride == input.format.minimumStride(width: input.size.width)
        let framed = view == .framed
        if pixelFormat == input.format, size == input.size, packed, !framed {
            return OutputPlan(format: FormatChoice(format: pixelFormat, size: size), passesThrough: true)
        }
        if pixelFormat == .mjpeg { throw framed ? .framedJPEG : .jpegNeedsConversion(size) }
        let named: OutputFormatChoice = pixelFormat == .yuyv ? .yuyv : .nv12
        if size.width % 2 != 0 || (pixelFormat == .nv12 && size.height % 2 != 0) { throw .oddSize(size, named) }
        return OutputPlan(format: FormatChoice(format: pixelFormat, size: size), passesThrough: false, isFramed: framed)
    }

    /// The bytes one frame of the output takes (for a converted frame; a passed-through Motion-JPEG
    /// frame is as long as it is).
    public var frameBytes: Int {
        let size = format.size
        return switch format.format {
        case .yuyv: size.width * size.height * 2
        case .nv12: size.width * size.height * 3 / 2
        case .mjpeg: size.width * size.height * 2  // the driver's bound for one JPEG
        }
    }

    /// Parses `WIDTHxHEIGHT` (`1280x720`); nil for empty text.
    /// - Throws: `VisionCommand.Failure.configuration` naming the setting.
    public static func size(parsing text: String) throws(VisionCommand.Failure) -> FrameSize? {
        guard !text.isEmpty else { return nil }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (16...7680).contains(width),
            (16...4320).contains(height)
        else {
            throw .configuration("output-size: '\(text)' is not WIDTHxHEIGHT with a width of 16 to 7680 and a height of 16 to 4320")
        }
        return FrameSize(width: width, height: height)
    }
}
