/// The pixel formats dockd-vision decodes, by their V4L2 four-character codes.
public enum PixelFormat: String, CaseIterable, Hashable, Sendable {
    /// Packed 4:2:2, Y0 U Y1 V (`V4L2_PIX_FMT_YUYV`).
    case yuyv = "YUYV"
    /// 4:2:0, a Y plane then interleaved U and V (`V4L2_PIX_FMT_NV12`).
    case nv12 = "NV12"
    /// A JPEG image a frame (`V4L2_PIX_FMT_MJPEG`).
    case mjpeg = "MJPG"

    /// The format's four-character code as V4L2 packs it (`v4l2_fourcc`: the first letter lowest).
    public var fourCC: UInt32 { Self.fourCC(rawValue) }

    /// The format of a four-character code; nil for one dockd-vision cannot decode.
    public init?(fourCC: UInt32) {
        guard let format = Self.allCases.first(where: { $0.fourCC == fourCC }) else { return nil }
        self = format
    }

    /// A code's four letters as text (`H264`), unprintable bytes as `?`.
    public static func text(ofFourCC code: UInt32) -> String {
        String(
            (0..<4).map { index -> Character in
                let byte = UInt8(truncatingIfNeeded: code >> (8 * UInt32(index)))
                return (0x20...0x7e).contains(byte) ? Character(Unicode.Scalar(byte)) : "?"
            })
    }

    /// The code of four ASCII letters.
    public static func fourCC(_ letters: String) -> UInt32 {
        letters.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The bytes a frame needs at least, for an uncompressed format (nil for MJPEG): `stride`
    /// bytes a line (the Y plane's for NV12).
    public func minimumBytes(width: Int, height: Int, stride: Int) -> Int? {
        switch self {
        case .yuyv: stride * (height - 1) + width * 2
        case .nv12: stride * height * 3 / 2
        case .mjpeg: nil
        }
    }

    /// The least stride a line of `width` pixels takes.
    public func minimumStride(width: Int) -> Int {
        switch self {
        case .yuyv: width * 2
        case .nv12, .mjpeg: width
        }
    }
}
