import V4L2Protocol

/// One frame size of a format, with the frame intervals it runs at — as a UVC camera's frame
/// descriptor gives them: intervals in 100 ns units, the first the default.
public struct UVCVideoFrameSize: Hashable, Sendable {
    /// Width, pixels.
    public var width: Int
    /// Height, pixels.
    public var height: Int
    /// The frame intervals, 100 ns units, shortest first; the first is the default.
    public var intervals: [UInt32]

    /// Creates a frame size.
    public init(width: Int, height: Int, intervals: [UInt32]) {
        precondition(
            width > 0 && height > 0 && width % 2 == 0 && !intervals.isEmpty, "a frame size needs an even width, a height and an interval")
        self.width = width
        self.height = height
        self.intervals = intervals
    }
}

/// A format the camera offers, with its frame sizes.
public struct UVCVideoFormat: Hashable, Sendable {
    /// Its four-character code (`V4L2Capture.yuyv`, `.mjpeg`).
    public var pixelFormat: UInt32
    /// Its name as uvcvideo gives it.
    public var description: String
    /// Whether each frame is compressed (its size varies).
    public var isCompressed: Bool
    /// Its frame sizes; the first is the default.
    public var frameSizes: [UVCVideoFrameSize]

    /// Creates a format.
    public init(pixelFormat: UInt32, description: String, isCompressed: Bool, frameSizes: [UVCVideoFrameSize]) {
        precondition(!frameSizes.isEmpty, "a format needs a frame size")
        self.pixelFormat = pixelFormat
        self.description = description
        self.isCompressed = isCompressed
        self.frameSizes = frameSizes
    }

    /// Bytes per row of a frame of `width` (0 for a compressed format, as uvcvideo says).
    public func bytesPerLine(width: Int) -> Int { isCompressed ? 0 : width * 2 }

    /// The most bytes a frame of `size` takes (`sizeimage`; a UVC camera's
    /// `dwMaxVideoFrameSize`): two bytes a pixel, for both formats.
    public func maximumFrameBytes(_ size: UVCVideoFrameSize) -> Int { size.width * size.height * 2 }

    /// What the emulated camera offers — the emulation's, not any model's (the model files have
    /// controls only): packed YUYV 4:2:2 and Motion-JPEG, each at 16:9 sizes (the scenarios'
    /// cameras are 16:9, so every size shows the field of view the simulator projects with).
    /// YUYV is first, so its first size, 640×360 at 30 fps, is the default, as a camera's first
    /// format descriptor is uvcvideo's default.
    public static let emulated: [UVCVideoFormat] = [
        UVCVideoFormat(
            pixelFormat: V4L2Capture.yuyv, description: "YUYV 4:2:2", isCompressed: false,
            frameSizes: [
                UVCVideoFrameSize(width: 640, height: 360, intervals: [333_333, 666_666]),
                UVCVideoFrameSize(width: 320, height: 180, intervals: [333_333, 666_666]),
                UVCVideoFrameSize(width: 1280, height: 720, intervals: [1_000_000, 2_000_000]),
            ]),
        UVCVideoFormat(
            pixelFormat: V4L2Capture.mjpeg, description: "Motion-JPEG", isCompressed: true,
            frameSizes: [
                UVCVideoFrameSize(width: 640, height: 360, intervals: [333_333, 666_666]),
                UVCVideoFrameSize(width: 1280, height: 720, intervals: [333_333, 666_666]),
            ]),
    ]
}

extension UVCVideoFormat {
    /// A camera that offers only H.264 at 640×360 (`docksim --undecodable-format`), for a program's
    /// handling of a format it cannot decode: its frames hold YUYV bytes, not H.264 — nothing is
    /// meant to read them.
    public static let undecodable: [UVCVideoFormat] = [
        UVCVideoFormat(
            pixelFormat: V4L2Capture.h264, description: "H.264", isCompressed: true,
            frameSizes: [UVCVideoFrameSize(width: 640, height: 360, intervals: [333_333])])
    ]
}

/// A frame interval in 100 ns units as the fraction of a second V4L2 reports, reduced as
/// uvcvideo reduces it: the continued fraction of interval / 10⁷ to at most eight terms, cut
/// before the first term of 333 or more (past the first two) — 333 333 reads 1/30.
public func frameIntervalFraction(_ interval: UInt32) -> (numerator: UInt32, denominator: UInt32) {
    var terms: [UInt64] = []
    var (x, y) = (UInt64(interval), UInt64(10_000_000))
    while terms.count < 8, y != 0 {
        let term = x / y
        if term >= 333, terms.count >= 2 { break }
        terms.append(term)
        (x, y) = (y, x - term * y)
    }
    // The convergent: h/k with h = a·h₋₁ + h₋₂, k = a·k₋₁ + k₋₂.
    var (h, previousH): (UInt64, UInt64) = (1, 0)
    var (k, previousK): (UInt64, UInt64) = (0, 1)
    for term in terms {
        (h, previousH) = (term * h + previousH, h)
        (k, previousK) = (term * k + previousK, k)
    }
    return (UInt32(clamping: h), UInt32(clamping: k))
}
