/// Why a captured frame is not used. Each is counted and logged (the first of a run of them), and
/// the next frame is taken: a bad frame never stops the service.
public enum FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The buffer holds fewer bytes than the format and size need (bytes used, bytes needed).
    case truncated(bytes: Int, needed: Int)
    /// An MJPEG frame that does not start with a JPEG's start-of-image marker.
    case notJPEG(bytes: Int)
    /// An MJPEG frame whose end-of-image marker is missing: cut short in transfer.
    case jpegCutShort(bytes: Int)
    /// The decoder refused the frame (its message).
    case undecodable(String)
    /// The driver flagged the buffer as damaged (`V4L2_BUF_FLAG_ERROR`).
    case flaggedByDriver

    /// What was wrong with the frame.
    public var description: String {
        switch self {
        case .truncated(let bytes, let needed): "bad frame: \(bytes) bytes, its format and size need \(needed)"
        case .notJPEG(let bytes): "corrupt MJPEG frame: \(bytes) bytes without a JPEG start marker"
        case .jpegCutShort(let bytes): "corrupt MJPEG frame: \(bytes) bytes without a JPEG end marker (cut short)"
        case .undecodable(let message): "corrupt frame: \(message)"
        case .flaggedByDriver: "bad frame: the driver flagged the buffer as damaged"
        }
    }
}

/// The checks a frame passes before it is decoded.
public enum FrameCheck {
    /// Checks `bytes` as a frame of `format`.
    ///
    /// An MJPEG frame must start with FF D8 and end with FF D9 (trailing zero bytes allowed:
    /// some cameras pad the buffer); an uncompressed one must hold its whole size.
    /// - Throws: `FrameError` saying what is wrong.
    public static func check(
        _ bytes: UnsafeRawBufferPointer, format: PixelFormat, width: Int, height: Int, stride: Int
    ) throws(FrameError) {
        switch format {
        case .mjpeg:
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG(bytes: bytes.count) }
            var end = bytes.count
            while end > 2, bytes[end - 1] == 0 { end -= 1 }
            guard end >= 4, bytes[end - 2] == 0xFF, bytes[end - 1] == 0xD9 else { throw .jpegCutShort(bytes: bytes.count) }
        case .yuyv, .nv12:
            let needed = format.minimumBytes(width: width, height: height, stride: max(stride, format.minimumStride(width: width))) ?? 0
            guard bytes.count >= needed else { throw .truncated(bytes: bytes.count, needed: needed) }
        }
    }
}
