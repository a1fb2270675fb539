/// The struct images of V4L2 video capture (single-planar, memory-mapped streaming), laid out as
/// Debian 12's `linux/videodev2.h` has them on x86_64 (LP64). A C program printing `sizeof` and
/// `offsetof` gave every size and offset used here; `Tests/V4L2ProtocolTests` holds them.
public enum V4L2Capture {
    /// `V4L2_BUF_TYPE_VIDEO_CAPTURE`: the one buffer type a UVC camera's capture node has.
    public static let videoCaptureType: UInt32 = 1
    /// `V4L2_MEMORY_MMAP`: buffers the driver allocates and the program maps.
    public static let memoryMapped: UInt32 = 1
    /// `V4L2_MEMORY_USERPTR`: buffers in the program's own memory.
    public static let memoryUserPointer: UInt32 = 2
    /// `V4L2_MEMORY_DMABUF`: buffers another device exported.
    public static let memoryDMABuffer: UInt32 = 4
    /// `V4L2_FIELD_NONE`: progressive frames.
    public static let fieldNone: UInt32 = 1
    /// `V4L2_COLORSPACE_SRGB`, what uvcvideo reports for a camera without a colour descriptor.
    public static let colorspaceSRGB: UInt32 = 8
    /// `V4L2_FMT_FLAG_COMPRESSED`.
    public static let compressedFormatFlag: UInt32 = 1
    /// `V4L2_CAP_TIMEPERFRAME`: the frame interval can be set.
    public static let timePerFrameCapability: UInt32 = 0x1000
    /// `V4L2_FRMSIZE_TYPE_DISCRETE` (also `V4L2_FRMIVAL_TYPE_DISCRETE`).
    public static let discrete: UInt32 = 1
    /// `V4L2_INPUT_TYPE_CAMERA`.
    public static let cameraInput: UInt32 = 2
    /// `V4L2_BUF_CAP_SUPPORTS_MMAP`: what `REQBUFS` says the queue takes.
    public static let supportsMemoryMapped: UInt32 = 1
    /// `V4L2_SEL_TGT_CROP_DEFAULT`.
    public static let cropDefaultTarget: UInt32 = 1
    /// `V4L2_SEL_TGT_CROP_BOUNDS`.
    public static let cropBoundsTarget: UInt32 = 2

    /// A four-character code (`v4l2_fourcc`), first character in the low byte.
    public static func fourCC(_ text: StaticString) -> UInt32 {
        precondition(text.utf8CodeUnitCount == 4, "a four-character code has four characters")
        return text.withUTF8Buffer { bytes in (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[$1]) << (8 * $1) } }
    }

    /// `V4L2_PIX_FMT_YUYV`: packed 4:2:2, Y0 U Y1 V.
    public static let yuyv = fourCC("YUYV")
    /// `V4L2_PIX_FMT_MJPEG`: each frame a JPEG.
    public static let mjpeg = fourCC("MJPG")
    /// `V4L2_PIX_FMT_NV12`: planar 4:2:0 (a format the emulated camera does not offer).
    public static let nv12 = fourCC("NV12")
    /// `V4L2_PIX_FMT_H264`: an H.264 stream (what no decoder of ours reads).
    public static let h264 = fourCC("H264")
}

/// `V4L2_BUF_FLAG_*`: a buffer's state and how its timestamp was taken.
public struct V4L2BufferFlags: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public var rawValue: UInt32
    /// Creates flags from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `MAPPED`: the program has it mapped.
    public static let mapped = V4L2BufferFlags(rawValue: 0x1)
    /// `QUEUED`: waiting for the driver to fill it.
    public static let queued = V4L2BufferFlags(rawValue: 0x2)
    /// `DONE`: filled, waiting to be dequeued.
    public static let done = V4L2BufferFlags(rawValue: 0x4)
    /// `ERROR`: filled, but the data may be damaged.
    public static let error = V4L2BufferFlags(rawValue: 0x40)
    /// `TIMESTAMP_MONOTONIC`: the timestamp is `CLOCK_MONOTONIC`.
    public static let timestampMonotonic = V4L2BufferFlags(rawValue: 0x2000)
    /// `TSTAMP_SRC_SOE`: taken at the start of exposure.
    public static let timestampStartOfExposure = V4L2BufferFlags(rawValue: 0x10000)
}

/// `struct v4l2_fmtdesc` (64 bytes): one format `VIDIOC_ENUM_FMT` lists.
public struct V4L2FormatDescription: Hashable, Sendable {
    /// The struct's size.
    public static let size = 64
    /// Which format, from 0.
    public var index: UInt32
    /// The buffer type.
    public var type: UInt32
    /// `V4L2_FMT_FLAG_*`.
    public var flags: UInt32
    /// Its name, `YUYV 4:2:2`.
    public var description: String
    /// Its four-character code.
    public var pixelFormat: UInt32

    /// Creates a description.
    public init(
        index: UInt32, type: UInt32 = V4L2Capture.videoCaptureType, flags: UInt32 = 0, description: String = "", pixelFormat: UInt32 = 0
    ) {
        self.index = index
        self.type = type
        self.flags = flags
        self.description = description
        self.pixelFormat = pixelFormat
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_fmtdesc")
        index = bytes.uint32(at: 0)
        type = bytes.uint32(at: 4)
        flags = bytes.uint32(at: 8)
        description = bytes.text(at: 12, count: 32)
        pixelFormat = bytes.uint32(at: 44)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(index, at: 0)
        image.put(type, at: 4)
        image.put(flags, at: 8)
        image.put(text: description, at: 12, count: 32)
        image.put(pixelFormat, at: 44)
        return image
    }
}

/// `struct v4l2_format` (208 bytes) holding a single-planar `struct v4l2_pix_format` at 8: what
/// `G_FMT`, `S_FMT` and `TRY_FMT` take and answer.
public struct V4L2PixelFormat: Hashable, Sendable {
    /// The struct's size.
    public static let size = 208
    /// The buffer type.
    public var type: UInt32
    /// Width, pixels.
    public var width: UInt32
    /// Height, pixels.
    public var height: UInt32
    /// The four-character code.
    public var pixelFormat: UInt32
    /// `V4L2_FIELD_*`.
    public var field: UInt32 = V4L2Capture.fieldNone
    /// Bytes from one row to the next (0 for a compressed format).
    public var bytesPerLine: UInt32 = 0
    /// The most bytes a frame takes.
    public var sizeImage: UInt32 = 0
    /// `V4L2_COLORSPACE_*`.
    public var colorspace: UInt32 = 0

    /// Creates a format.
    public init(type: UInt32 = V4L2Capture.videoCaptureType, width: UInt32, height: UInt32, pixelFormat: UInt32) {
        self.type = type
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_format")
        type = bytes.uint32(at: 0)
        width = bytes.uint32(at: 8)
        height = bytes.uint32(at: 12)
        pixelFormat = bytes.uint32(at: 16)
        field = bytes.uint32(at: 20)
        bytesPerLine = bytes.uint32(at: 24)
        sizeImage = bytes.uint32(at: 28)
        colorspace = bytes.uint32(at: 32)
    }

    /// The struct's image (the fields after `colorspace` zero: default encoding and range).
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(type, at: 0)
        image.put(width, at: 8)
        image.put(height, at: 12)
        image.put(pixelFormat, at: 16)
        image.put(field, at: 20)
        image.put(bytesPerLine, at: 24)
        image.put(sizeImage, at: 28)
        image.put(colorspace, at: 32)
        return image
    }
}

/// `struct v4l2_frmsizeenum` (44 bytes): `VIDIOC_ENUM_FRAMESIZES`, discrete sizes only.
public struct V4L2FrameSize: Hashable, Sendable {
    /// The struct's size.
    public static let size = 44
    /// Which size, from 0.
    public var index: UInt32
    /// The format asked about.
    public var pixelFormat: UInt32
    /// `V4L2_FRMSIZE_TYPE_*`.
    public var type: UInt32 = 0
    /// Width, pixels.
    public var width: UInt32 = 0
    /// Height, pixels.
    public var height: UInt32 = 0

    /// Creates an enumeration entry.
    public init(index: UInt32, pixelFormat: UInt32) {
        self.index = index
        self.pixelFormat = pixelFormat
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_frmsizeenum")
        index = bytes.uint32(at: 0)
        pixelFormat = bytes.uint32(at: 4)
        type = bytes.uint32(at: 8)
        width = bytes.uint32(at: 12)
        height = bytes.uint32(at: 16)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(index, at: 0)
        image.put(pixelFormat, at: 4)
        image.put(type, at: 8)
        image.put(width, at: 12)
        image.put(height, at: 16)
        return image
    }
}

/// `struct v4l2_frmivalenum` (52 bytes): `VIDIOC_ENUM_FRAMEINTERVALS`, discrete intervals only.
public struct V4L2FrameInterval: Hashable, Sendable {
    /// The struct's size.
    public static let size = 52
    /// Which interval, from 0.
    public var index: UInt32
    /// The format asked about.
    public var pixelFormat: UInt32
    /// The width asked about.
    public var width: UInt32
    /// The height asked about.
    public var height: UInt32
    /// `V4L2_FRMIVAL_TYPE_*`.
    public var type: UInt32 = 0
    /// The interval, seconds: numerator over denominator.
    public var numerator: UInt32 = 0
    /// The interval's denominator.
    public var denominator: UInt32 = 0

    /// Creates an enumeration entry.
    public init(index: UInt32, pixelFormat: UInt32, width: UInt32, height: UInt32) {
        self.index = index
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_frmivalenum")
        index = bytes.uint32(at: 0)
        pixelFormat = bytes.uint32(at: 4)
        width = bytes.uint32(at: 8)
        height = bytes.uint32(at: 12)
        type = bytes.uint32(at: 16)
        numerator = bytes.uint32(at: 20)
        denominator = bytes.uint32(at: 24)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(index, at: 0)
        image.put(pixelFormat, at: 4)
        image.put(width, at: 8)
        image.put(height, at: 12)
        image.put(type, at: 16)
        image.put(numerator, at: 20)
        image.put(denominator, at: 24)
        return image
    }
}

/// `struct v4l2_streamparm` (204 bytes) with its `v4l2_captureparm`: `G_PARM`, `S_PARM`.
public struct V4L2StreamParameters: Hashable, Sendable {
    /// The struct's size.
    public static let size = 204
    /// The buffer type.
    public var type: UInt32
    /// `V4L2_CAP_TIMEPERFRAME` when the interval can be set.
    public var capability: UInt32 = 0
    /// The frame interval, seconds: numerator over denominator.
    public var numerator: UInt32 = 0
    /// The interval's denominator.
    public var denominator: UInt32 = 0

    /// Creates parameters.
    public init(type: UInt32 = V4L2Capture.videoCaptureType, numerator: UInt32 = 0, denominator: UInt32 = 0) {
        self.type = type
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_streamparm")
        type = bytes.uint32(at: 0)
        capability = bytes.uint32(at: 4)
        numerator = bytes.uint32(at: 12)
        denominator = bytes.uint32(at: 16)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(type, at: 0)
        image.put(capability, at: 4)
        image.put(numerator, at: 12)
        image.put(denominator, at: 16)
        return image
    }
}

/// `struct v4l2_requestbuffers` (20 bytes): `VIDIOC_REQBUFS`.
public struct V4L2RequestBuffers: Hashable, Sendable {
    /// The struct's size.
    public static let size = 20
    /// How many buffers: asked for, then given.
    public var count: UInt32
    /// The buffer type.
    public var type: UInt32 = V4L2Capture.videoCaptureType
    /// `V4L2_MEMORY_*`.
    public var memory: UInt32 = V4L2Capture.memoryMapped
    /// `V4L2_BUF_CAP_*`: what the queue supports (answered).
    public var capabilities: UInt32 = 0

    /// Creates a request.
    public init(count: UInt32, type: UInt32 = V4L2Capture.videoCaptureType, memory: UInt32 = V4L2Capture.memoryMapped) {
        self.count = count
        self.type = type
        self.memory = memory
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_requestbuffers")
        count = bytes.uint32(at: 0)
        type = bytes.uint32(at: 4)
        memory = bytes.uint32(at: 8)
        capabilities = bytes.uint32(at: 12)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(count, at: 0)
        image.put(type, at: 4)
        image.put(memory, at: 8)
        image.put(capabilities, at: 12)
        return image
    }
}

/// `struct v4l2_buffer` (88 bytes on LP64): `QUERYBUF`, `QBUF`, `DQBUF`. The timestamp is a
/// `struct timeval` at 24 (seconds, then microseconds, 8 bytes each); for memory-mapped buffers
/// the union `m` at 64 holds the offset to map.
public struct V4L2Buffer: Hashable, Sendable {
    /// The struct's size.
    public static let size = 88
    /// Which buffer, from 0.
    public var index: UInt32
    /// The buffer type.
    public var type: UInt32 = V4L2Capture.videoCaptureType
    /// The bytes of the frame in it.
    public var bytesUsed: UInt32 = 0
    /// Its state and timestamp kind.
    public var flags: V4L2BufferFlags = []
    /// `V4L2_FIELD_*`.
    public var field: UInt32 = 0
    /// The capture time's seconds.
    public var timestampSeconds: Int64 = 0
    /// The capture time's microseconds.
    public var timestampMicroseconds: Int64 = 0
    /// The frame's number since streaming began (gaps are frames dropped).
    public var sequence: UInt32 = 0
    /// `V4L2_MEMORY_*`.
    public var memory: UInt32 = V4L2Capture.memoryMapped
    /// Where to map it (`m.offset`).
    public var offset: UInt32 = 0
    /// Its size, bytes.
    public var length: UInt32 = 0

    /// Creates a buffer record.
    public init(index: UInt32, type: UInt32 = V4L2Capture.videoCaptureType, memory: UInt32 = V4L2Capture.memoryMapped) {
        self.index = index
        self.type = type
        self.memory = memory
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_buffer")
        index = bytes.uint32(at: 0)
        type = bytes.uint32(at: 4)
        bytesUsed = bytes.uint32(at: 8)
        flags = V4L2BufferFlags(rawValue: bytes.uint32(at: 12))
        field = bytes.uint32(at: 16)
        timestampSeconds = bytes.int64(at: 24)
        timestampMicroseconds = bytes.int64(at: 32)
        sequence = bytes.uint32(at: 56)
        memory = bytes.uint32(at: 60)
        offset = bytes.uint32(at: 64)
        length = bytes.uint32(at: 72)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(index, at: 0)
        image.put(type, at: 4)
        image.put(bytesUsed, at: 8)
        image.put(flags.rawValue, at: 12)
        image.put(field, at: 16)
        image.put(timestampSeconds, at: 24)
        image.put(timestampMicroseconds, at: 32)
        image.put(sequence, at: 56)
        image.put(memory, at: 60)
        image.put(offset, at: 64)
        image.put(length, at: 72)
        return image
    }
}

/// `struct v4l2_input` (80 bytes): `VIDIOC_ENUMINPUT`.
public struct V4L2Input: Hashable, Sendable {
    /// The struct's size.
    public static let size = 80
    /// Which input, from 0.
    public var index: UInt32
    /// Its name.
    public var name: String = ""
    /// `V4L2_INPUT_TYPE_*`.
    public var type: UInt32 = 0

    /// Creates an input record.
    public init(index: UInt32, name: String = "", type: UInt32 = 0) {
        self.index = index
        self.name = name
        self.type = type
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_input")
        index = bytes.uint32(at: 0)
        name = bytes.text(at: 4, count: 32)
        type = bytes.uint32(at: 36)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(index, at: 0)
        image.put(text: name, at: 4, count: 32)
        image.put(type, at: 36)
        return image
    }
}

/// `struct v4l2_selection` (64 bytes): `VIDIOC_G_SELECTION`, the rectangle at 12.
public struct V4L2Selection: Hashable, Sendable {
    /// The struct's size.
    public static let size = 64
    /// The buffer type.
    public var type: UInt32
    /// `V4L2_SEL_TGT_*`.
    public var target: UInt32
    /// The rectangle's left edge.
    public var left: Int32 = 0
    /// The rectangle's top edge.
    public var top: Int32 = 0
    /// The rectangle's width.
    public var width: UInt32 = 0
    /// The rectangle's height.
    public var height: UInt32 = 0

    /// Creates a selection.
    public init(type: UInt32 = V4L2Capture.videoCaptureType, target: UInt32) {
        self.type = type
        self.target = target
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try requireSize(bytes, Self.size, "v4l2_selection")
        type = bytes.uint32(at: 0)
        target = bytes.uint32(at: 4)
        left = bytes.int32(at: 12)
        top = bytes.int32(at: 16)
        width = bytes.uint32(at: 20)
        height = bytes.uint32(at: 24)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(type, at: 0)
        image.put(target, at: 4)
        image.put(left, at: 12)
        image.put(top, at: 16)
        image.put(width, at: 20)
        image.put(height, at: 24)
        return image
    }
}

/// A four-byte `int` or `__u32` argument (`STREAMON`, `STREAMOFF`, `G_INPUT`, `S_INPUT`).
public enum V4L2Integer {
    /// Its image.
    public static func image(_ value: UInt32) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: 4)
        image.put(value, at: 0)
        return image
    }

    /// Reads it; nil when the image is short.
    public static func value(_ bytes: [UInt8]) -> UInt32? { bytes.count >= 4 ? bytes.uint32(at: 0) : nil }
}

private func requireSize(_ bytes: [UInt8], _ needed: Int, _ name: String) throws(V4L2DecodingError) {
    guard bytes.count >= needed else { throw V4L2DecodingError(structName: name, count: bytes.count, needed: needed) }
}
