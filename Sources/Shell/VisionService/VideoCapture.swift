import CV4L2
public import DockVision
import Glibc

/// Why the camera cannot be read. `unplugged` and `openFailed` are retried by the service; the
/// others are the camera's or the settings' fault and are retried too, more slowly.
public enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device cannot be opened (path, errno's text).
    case openFailed(path: String, reason: String)
    /// The device is not a video capture device that streams (path, what it lacks).
    case notACamera(path: String, reason: String)
    /// The camera went away mid-stream (`ENODEV`, or `POLLERR`/`POLLHUP` from poll).
    case unplugged(path: String)
    /// An ioctl failed (its name, errno's text).
    case requestFailed(request: String, reason: String)
    /// The camera's formats cannot be used.
    case format(FormatError)
    /// No frame came for this long.
    case stalled(Duration)

    /// What went wrong.
    public var description: String {
        switch self {
        case .openFailed(let path, let reason): "cannot open camera \(path): \(reason)"
        case .notACamera(let path, let reason): "\(path) is not a camera dockd-vision can stream: \(reason)"
        case .unplugged(let path): "camera unplugged: \(path) went away (ENODEV)"
        case .requestFailed(let request, let reason): "camera request \(request) failed: \(reason)"
        case .format(let error): "\(error)"
        case .stalled(let time): "camera stalled: no frame for \(time)"
        }
    }
}

/// One V4L2 camera streaming by memory-mapped buffers: formats negotiated, buffers queued and
/// dequeued, each frame handed out with its sequence number, its timestamp and its flags as the
/// driver gave them. Owned by one thread.
public final class VideoCapture {
    /// One frame, valid until it is given back with `requeue`.
    public struct Frame {
        /// The buffer's bytes (`bytesused` of them).
        public var bytes: UnsafeRawBufferPointer
        /// The driver's frame counter.
        public var sequence: UInt32
        /// The buffer's timestamp.
        public var timestamp: Duration
        /// The buffer's flags (`V4L2_BUF_FLAG_*`).
        public var flags: UInt32
        /// The buffer's index.
        var index: UInt32
    }

    /// The device's path.
    public let path: String
    /// The descriptor.
    public let descriptor: Int32
    /// The format and size the driver set, and its stride.
    public private(set) var format = FormatChoice(format: .yuyv, size: FrameSize(width: 0, height: 0))
    /// Bytes a line, as the driver set it.
    public private(set) var stride = 0
    /// Frames the service took a newer one over (it was busy).
    public private(set) var skippedFrames = 0
    private var mappings: [(address: UnsafeMutableRawPointer, length: Int)] = []
    private var isStreaming = false

    /// Opens the device and checks it captures video by streaming.
    /// - Throws: `CaptureError.openFailed` or `.notACamera`.
    public init(path: String) throws(CaptureError) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .openFailed(path: path, reason: Self.errorText()) }
        self.descriptor = descriptor
        var capability = v4l2_capability()
        do {
            try request(dv_VIDIOC_QUERYCAP, "QUERYCAP", &capability)
        } catch {
            close(descriptor)
            throw error
        }
        let capabilities =
            capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : capability.capabilities
        guard capabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 else {
            close(descriptor)
            throw .notACamera(path: path, reason: "no video capture")
        }
        guard capabilities & UInt32(V4L2_CAP_STREAMING) != 0 else {
            close(descriptor)
            throw .notACamera(path: path, reason: "no streaming I/O")
        }
    }

    deinit {
        stop()
        close(descriptor)
    }

    private static func errorText(_ number: Int32 = errno) -> String { String(cString: strerror(number)) }

    /// Performs one ioctl, again after EINTR.
    private func request<Value>(_ number: UInt, _ name: String, _ value: inout Value) throws(CaptureError) {
        while true {
            let result = withUnsafeMutablePointer(to: &value) { ioctl(descriptor, number, UnsafeMutableRawPointer($0)) }
            if result >= 0 { return }
            let number = errno
            if number == EINTR { continue }
            if number == ENODEV { throw .unplugged(path: path) }
            throw .requestFailed(request: name, reason: Self.errorText(number))
        }
    }

    /// The formats the camera offers, each with its listed sizes.
    /// - Throws: `CaptureError` when the camera goes away or refuses.
    public func offeredFormats() throws(CaptureError) -> [OfferedFormat] {
        var offered: [OfferedFormat] = []
        for index in 0..<UInt32(64) {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            do {
                try request(dv_VIDIOC_ENUM_FMT, "ENUM_FMT", &description)
            } catch .requestFailed {
                break  // EINVAL: the end of the list.
            }
            var sizes: [FrameSize] = []
            for sizeIndex in 0..<UInt32(256) {
                var size = v4l2_frmsizeenum()
                size.index = sizeIndex
                size.pixel_format = description.pixelformat
                do {
                    try request(dv_VIDIOC_ENUM_FRAMESIZES, "ENUM_FRAMESIZES", &size)
                } catch .requestFailed {
                    break
                }
                if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                    sizes.append(FrameSize(width: Int(size.discrete.width), height: Int(size.discrete.height)))
                } else {
                    break  // Stepwise or continuous: any size within; the driver rounds what is asked.
                }
            }
            offered.append(OfferedFormat(fourCC: description.pixelformat, sizes: sizes))
        }
        return offered
    }

    /// Sets the format and size (the driver may round the size), and asks for a frame rate.
    /// - Throws: `CaptureError.format` when the driver sets a format that cannot be decoded.
    public func configure(_ choice: FormatChoice, fps: Int) throws(CaptureError) {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(choice.size.width)
        format.fmt.pix.height = UInt32(choice.size.height)
        format.fmt.pix.pixelformat = choice.format.fourCC
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try request(dv_VIDIOC_S_FMT, "S_FMT", &format)
        guard let set = PixelFormat(fourCC: format.fmt.pix.pixelformat) else {
            throw .format(.driverChoseUndecodable(PixelFormat.text(ofFourCC: format.fmt.pix.pixelformat)))
        }
        self.format = FormatChoice(format: set, size: FrameSize(width: Int(format.fmt.pix.width), height: Int(format.fmt.pix.height)))
        stride = Int(format.fmt.pix.bytesperline)
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(max(1, fps)))
        // A camera without frame-rate control keeps its own: not an error.
        try? request(dv_VIDIOC_S_PARM, "S_PARM", &parameters)
    }

    /// Asks for `count` memory-mapped buffers, maps and queues them, and starts streaming.
    /// - Throws: `CaptureError` when the driver refuses or the camera goes away.
    public func start(bufferCount: Int = 4) throws(CaptureError) {
        var buffers = v4l2_requestbuffers()
        buffers.count = UInt32(bufferCount)
        buffers.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffers.memory = V4L2_MEMORY_MMAP.rawValue
        try request(dv_VIDIOC_REQBUFS, "REQBUFS", &buffers)
        guard buffers.count >= 2 else { throw .requestFailed(request: "REQBUFS", reason: "the driver gave \(buffers.count) buffers") }
        for index in 0..<buffers.count {
            var buffer = v4l2_buffer()
            buffer.index = index
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            try request(dv_VIDIOC_QUERYBUF, "QUERYBUF", &buffer)
            let length = Int(buffer.length)
            let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(buffer.m.offset))
            guard let address, address != MAP_FAILED else {
                throw .requestFailed(request: "mmap", reason: Self.errorText())
            }
            mappings.append((address, length))
            try request(dv_VIDIOC_QBUF, "QBUF", &buffer)
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try request(dv_VIDIOC_STREAMON, "STREAMON", &type)
        isStreaming = true
    }

    /// Takes the oldest frame the driver has filled (a caller that keeps every frame, as the
    /// output does); nil when none is ready.
    /// - Throws: `CaptureError.unplugged` when the camera went away.
    public func nextFrame() throws(CaptureError) -> Frame? {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        do {
            try request(dv_VIDIOC_DQBUF, "DQBUF", &buffer)
        } catch .requestFailed(_, let reason) where reason == Self.errorText(EAGAIN) {
            return nil
        }
        return frame(of: buffer)
    }

    private func frame(of buffer: v4l2_buffer) -> Frame {
        let mapping = mappings[Int(buffer.index)]
        let used = min(Int(buffer.bytesused), mapping.length)
        let timestamp = Duration.seconds(Int64(buffer.timestamp.tv_sec)) + .microseconds(Int64(buffer.timestamp.tv_usec))
        return Frame(
            bytes: UnsafeRawBufferPointer(start: mapping.address, count: used), sequence: buffer.sequence, timestamp: timestamp,
            flags: buffer.flags, index: buffer.index)
    }

    /// Takes the newest frame the driver has filled, giving the older ones straight back (they
    /// count as skipped); nil when none is ready.
    /// - Throws: `CaptureError.unplugged` when the camera went away.
    public func newestFrame() throws(CaptureError) -> Frame? {
        var newest: v4l2_buffer?
        while true {
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            do {
                try request(dv_VIDIOC_DQBUF, "DQBUF", &buffer)
            } catch .requestFailed(_, let reason) where reason == Self.errorText(EAGAIN) {
                break
            }
            if var older = newest {
                skippedFrames += 1
                try request(dv_VIDIOC_QBUF, "QBUF", &older)
            }
            newest = buffer
        }
        guard let buffer = newest else { return nil }
        return frame(of: buffer)
    }

    /// Gives a frame's buffer back to the driver.
    /// - Throws: `CaptureError.unplugged` when the camera went away.
    public func requeue(_ frame: Frame) throws(CaptureError) {
        var buffer = v4l2_buffer()
        buffer.index = frame.index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try request(dv_VIDIOC_QBUF, "QBUF", &buffer)
    }

    /// Waits up to `timeout` for a frame; true when one is ready.
    /// - Throws: `CaptureError.unplugged` on `POLLERR` or `POLLHUP` (and `ENODEV`).
    public func waitForFrame(timeout: Duration, alsoWatching other: Int32? = nil) throws(CaptureError) -> Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        if let other { descriptors.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let result = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if result < 0 {
            if errno == EINTR { return false }
            if errno == ENODEV { throw .unplugged(path: path) }
            throw .requestFailed(request: "poll", reason: Self.errorText())
        }
        let events = Int32(descriptors[0].revents)
        if events & (POLLERR | POLLHUP | POLLNVAL) != 0 { throw .unplugged(path: path) }
        return events & POLLIN != 0
    }

    /// Stops streaming and unmaps the buffers (the descriptor stays open until the capture is dropped).
    public func stop() {
        if isStreaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = withUnsafeMutablePointer(to: &type) { ioctl(descriptor, dv_VIDIOC_STREAMOFF, UnsafeMutableRawPointer($0)) }
            isStreaming = false
        }
        for mapping in mappings { munmap(mapping.address, mapping.length) }
        mappings.removeAll()
    }
}
