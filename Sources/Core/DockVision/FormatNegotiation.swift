/// What a camera offers, as `VIDIOC_ENUM_FMT` and `VIDIOC_ENUM_FRAMESIZES` list it.
public struct OfferedFormat: Hashable, Sendable {
    /// The four-character code.
    public var fourCC: UInt32
    /// The sizes it offers; empty when the driver lists none (then any size is asked for).
    public var sizes: [FrameSize]

    /// Creates an offer.
    public init(fourCC: UInt32, sizes: [FrameSize]) {
        self.fourCC = fourCC
        self.sizes = sizes
    }
}

/// A frame size, pixels.
public struct FrameSize: Hashable, Sendable, CustomStringConvertible {
    /// Width, pixels.
    public var width: Int
    /// Height, pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `640x360`.
    public var description: String { "\(width)x\(height)" }
}

/// The format and size to ask the camera for.
public struct FormatChoice: Hashable, Sendable {
    /// The pixel format.
    public var format: PixelFormat
    /// The size.
    public var size: FrameSize

    /// Creates a choice.
    public init(format: PixelFormat, size: FrameSize) {
        self.format = format
        self.size = size
    }
}

/// Why a camera's format cannot be used.
public enum FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The camera offers no format dockd-vision decodes (the codes it offers).
    case noDecodableFormat(offered: [String])
    /// The format asked for is not among the camera's (the one asked for, the codes offered).
    case formatNotOffered(PixelFormat, offered: [String])
    /// The driver answered `VIDIOC_S_FMT` with a format dockd-vision cannot decode.
    case driverChoseUndecodable(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .noDecodableFormat(let offered):
            "unsupported format: the camera offers \(offered.joined(separator: ", ")), none of YUYV, NV12, MJPG"
        case .formatNotOffered(let format, let offered):
            "unsupported format: --format \(format.rawValue.lowercased()) is not among the camera's "
                + "(\(offered.joined(separator: ", "))); try --format auto"
        case .driverChoseUndecodable(let code):
            "unsupported format: the driver set \(code) instead of the format asked for"
        }
    }
}

/// Chooses the format and size to ask for: the format by preference (auto: YUYV, NV12, MJPEG in
/// that order — uncompressed needs no decoding), the size the nearest the camera offers in that
/// format to the one wanted (by the sum of the differences in width and height; the larger of
/// two equally near).
public enum FormatNegotiation {
    /// The choice for `offered`.
    /// - Throws: `FormatError` when nothing offered can be decoded, or the format asked for is not offered.
    public static func choose(
        offered: [OfferedFormat], preference: FormatPreference, wanted: FrameSize
    ) throws(FormatError) -> FormatChoice {
        let codes = offered.map { PixelFormat.text(ofFourCC: $0.fourCC) }
        let order: [PixelFormat]
        switch preference {
        case .auto: order = [.yuyv, .nv12, .mjpeg]
        case .yuyv: order = [.yuyv]
        case .nv12: order = [.nv12]
        case .mjpeg: order = [.mjpeg]
        }
        for format in order {
            guard let offer = offered.first(where: { $0.fourCC == format.fourCC }) else { continue }
            return FormatChoice(format: format, size: nearest(wanted, among: offer.sizes))
        }
        if preference != .auto, offered.contains(where: { PixelFormat(fourCC: $0.fourCC) != nil }) {
            throw .formatNotOffered(order[0], offered: codes)
        }
        throw .noDecodableFormat(offered: codes)
    }

    /// The size among `sizes` nearest to `wanted`; `wanted` itself when none are listed.
    public static func nearest(_ wanted: FrameSize, among sizes: [FrameSize]) -> FrameSize {
        sizes.min { a, b in
            let da = abs(a.width - wanted.width) + abs(a.height - wanted.height)
            let db = abs(b.width - wanted.width) + abs(b.height - wanted.height)
            return da != db ? da < db : a.width * a.height > b.width * b.height
        } ?? wanted
    }
}
