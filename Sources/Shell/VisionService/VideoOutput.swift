import CV4L2
import CVision
public import DockVision
public import DockVocabulary
import Glibc

/// Why frames cannot go to the output device. Every one is logged once and retried (the device
/// every `VisionRunner.reopenInterval`); none stops the capture and detection.
public enum OutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No such device (`ENOENT`): v4l2loopback not loaded, or another number.
    case missing(path: String)
    /// It cannot be opened (path, errno's text).
    case openFailed(path: String, reason: String)
    /// It is not a video output device dockd-vision can write (path, what it lacks).
    case notAnOutput(path: String, reason: String)
    /// Another program writes it, or its readers hold another format (`EBUSY`).
    case busy(path: String)
    /// The device does not take the format and size asked (what it answered).
    case formatRefused(path: String, asked: FormatChoice, answer: String)
    /// The device went away (`ENODEV`).
    case gone(path: String)
    /// A write failed (errno's text).
    case writeFailed(path: String, reason: String)
    /// The settings cannot be met for this camera's frames.
    case plan(OutputPlanError)
    /// A frame could not be converted for the output (the shim's word).
    case conversion(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .missing(let path):
            "output device missing: \(path) does not exist (is v4l2loopback loaded? modprobe v4l2loopback exclusive_caps=1)"
        case .openFailed(let path, let reason): "cannot open output device \(path): \(reason)"
        case .notAnOutput(let path, let reason): "\(path) is not a video output device: \(reason)"
        case .busy(let path): "output device busy: \(path) is written by another program or read in another format (EBUSY)"
        case .formatRefused(let path, let asked, let answer):
            "output device \(path) refuses \(asked.format.rawValue) \(asked.size): \(answer)"
        case .gone(let path): "output device gone: \(path) went away (ENODEV)"
        case .writeFailed(let path, let reason): "writing a frame to \(path) failed: \(reason)"
        case .plan(let error): "\(error)"
        case .conversion(let message): "output frame not converted: \(message)"
        }
    }
}

/// A V4L2 output device (v4l2loopback's output side) written one frame at a time with `write()`
/// after `VIDIOC_S_FMT` on `V4L2_BUF_TYPE_VIDEO_OUTPUT`, from the capture thread: the driver
/// copies the frame into its ring of buffers, which every reader maps (one copy, whatever the
/// readers), and stamps it. The descriptor is non-blocking: v4l2loopback's write never waits for a
/// reader, and a driver that would is answered by dropping the frame (counted). Owned by one thread.
public final class VideoOutput {
    /// The device's path.
    public let path: String
    /// How frames become the output's.
    public let plan: OutputPlan
    /// Frames written.
    public private(set) var written = 0
    /// Frames the device would not take at once (`EAGAIN`), dropped.
    public private(set) var dropped = 0
    private let descriptor: Int32
    private let converter: OutputConverter

    /// Opens `path`, checks it takes video by `write()`, and sets the plan's format.
    /// - Throws: `OutputError` naming what is wrong.
    public init(path: String, plan: OutputPlan, fps: Int) throws(OutputError) {
        self.path = path
        self.plan = plan
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: throw .missing(path: path)
            case EBUSY: throw .busy(path: path)
            default: throw .openFailed(path: path, reason: Self.errorText())
            }
        }
        self.descriptor = descriptor
        converter = OutputConverter(plan: plan)
        // Every property is set: a failure from here releases the output, whose deinit closes the
        // descriptor.
        try configure(fps: fps)
    }

    deinit { close(descriptor) }

    private static func errorText(_ number: Int32 = errno) -> String { String(cString: strerror(number)) }

    private func request<Value>(_ number: UInt, _ name: String, _ value: inout Value) -> Int32 {
        while true {
            let result = withUnsafeMutablePointer(to: &value) { ioctl(descriptor, number, UnsafeMutableRawPointer($0)) }
            if result >= 0 { return 0 }
            if errno != EINTR { return errno }
        }
    }

    private func configure(fps: Int) throws(OutputError) {
        var capability = v4l2_capability()
        let failed = request(dv_VIDIOC_QUERYCAP, "QUERYCAP", &capability)
        if failed == ENOTTY || failed == EINVAL { throw .notAnOutput(path: path, reason: "not a V4L2 device") }
        if failed == ENODEV { throw .gone(path: path) }
        if failed != 0 { throw .notAnOutput(path: path, reason: "VIDIOC_QUERYCAP: \(Self.errorText(failed))") }
        let capabilities =
            capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : capability.capabilities
        guard capabilities & UInt32(V4L2_CAP_VIDEO_OUTPUT) != 0 else {
            throw .notAnOutput(
                path: path,
                reason: "no video output (a camera's capture side, or a loopback device another program already writes)")
        }
        guard capabilities & UInt32(V4L2_CAP_READWRITE) != 0 else {
            throw .notAnOutput(path: path, reason: "it takes no write()")
        }
        let asked = plan.format
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        format.fmt.pix.width = UInt32(asked.size.width)
        format.fmt.pix.height = UInt32(asked.size.height)
        format.fmt.pix.pixelformat = asked.format.fourCC
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        format.fmt.pix.bytesperline = asked.format == .mjpeg ? 0 : UInt32(asked.format.minimumStride(width: asked.size.width))
        format.fmt.pix.sizeimage = UInt32(plan.frameBytes)
        format.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB.rawValue
        switch request(dv_VIDIOC_S_FMT, "S_FMT", &format) {
        case 0: break
        case EBUSY: throw .busy(path: path)
        case ENODEV: throw .gone(path: path)
        case let number: throw .formatRefused(path: path, asked: asked, answer: "VIDIOC_S_FMT: \(Self.errorText(number))")
        }
        let set = FrameSize(width: Int(format.fmt.pix.width), height: Int(format.fmt.pix.height))
        guard format.fmt.pix.pixelformat == asked.format.fourCC, set == asked.size else {
            throw .formatRefused(
                path: path, asked: asked, answer: "it set \(PixelFormat.text(ofFourCC: format.fmt.pix.pixelformat)) \(set)")
        }
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        parameters.parm.output.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(max(1, fps)))
        // The rate readers are told; a device without it is not wrong.
        _ = request(dv_VIDIOC_S_PARM, "S_PARM", &parameters)
    }

    /// Writes one captured frame (`input`, lines of `stride` bytes), converted when the plan says
    /// so: for a framed plan, the `crop` of it (nil: the whole). Returns false when the device
    /// would not take it at once (dropped, counted).
    /// - Throws: `OutputError.gone`, `.writeFailed` or `.conversion`.
    public func write(
        _ bytes: UnsafeRawBufferPointer, input: FormatChoice, stride: Int, crop: NormalizedRect? = nil
    ) throws(OutputError) -> Bool {
        try send(converter.convert(bytes, input: input, stride: stride, crop: crop))
    }

    private func send(_ bytes: UnsafeRawBufferPointer) throws(OutputError) -> Bool {
        while true {
            let result = Glibc.write(descriptor, bytes.baseAddress, bytes.count)
            if result >= 0 {
                written += 1
                return true
            }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                dropped += 1
                return false
            case ENODEV: throw .gone(path: path)
            default: throw .writeFailed(path: path, reason: Self.errorText())
            }
        }
    }
}
