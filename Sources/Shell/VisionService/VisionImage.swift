import CVision
public import DockVision

/// One frame made ready for the detectors (OpenCV's colour and grey images at the working size),
/// reused from frame to frame. Owned by one thread.
public final class VisionImage {
    let handle: OpaquePointer

    /// An empty image.
    public init() {
        guard let handle = dv_image_create() else { fatalError("dockd-vision: out of memory for an image") }
        self.handle = handle
    }

    deinit { dv_image_destroy(handle) }

    /// The working size (0 x 0 when empty).
    public var width: Int { Int(dv_image_width(handle)) }
    /// The working size.
    public var height: Int { Int(dv_image_height(handle)) }

    /// Decodes or converts a captured frame, scaled to `working`.
    ///
    /// - Parameters:
    ///   - bytes: The frame as the camera delivered it.
    ///   - format: Its pixel format.
    ///   - size: Its size.
    ///   - stride: Bytes a line (the Y plane's for NV12); 0: the least.
    ///   - working: The size to scale to.
    /// - Throws: `FrameError` when it cannot be checked or decoded; the image is then empty.
    public func set(
        _ bytes: UnsafeRawBufferPointer, format: PixelFormat, size: FrameSize, stride: Int, working: FrameSize
    ) throws(FrameError) {
        try FrameCheck.check(bytes, format: format, width: size.width, height: size.height, stride: stride)
        let code: dv_pixel_format =
            switch format {
            case .yuyv: DV_FORMAT_YUYV
            case .nv12: DV_FORMAT_NV12
            case .mjpeg: DV_FORMAT_MJPEG
            }
        // A JPEG twice the working size or more is decoded at a half, a quarter or an eighth
        // directly (libjpeg scales in its DCT, far cheaper than decoding whole and shrinking).
        var reduction = 1
        while format == .mjpeg, reduction < 8, size.width / (reduction * 2) >= working.width { reduction *= 2 }
        var error = dv_error()
        let status = dv_image_set(
            handle, code, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, Int32(size.width),
            Int32(size.height), Int32(stride), Int32(reduction), Int32(working.width), Int32(working.height), &error)
        guard status == DV_OK else { throw .undecodable(error.text) }
    }

    /// Reads an image file (a still photograph, a saved frame), scaled to `working` (nil: as it is).
    /// - Throws: `FrameError.undecodable` when it cannot be read.
    public func load(path: String, working: FrameSize? = nil) throws(FrameError) {
        var error = dv_error()
        let status = dv_image_load(handle, path, Int32(working?.width ?? 0), Int32(working?.height ?? 0), &error)
        guard status == DV_OK else { throw .undecodable(error.text) }
    }

    /// The colour image's bytes, B G R, row after row.
    public func bgrBytes() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        var error = dv_error()
        _ = bytes.withUnsafeMutableBufferPointer { dv_image_copy_bgr(handle, $0.baseAddress, $0.count, &error) }
        return bytes
    }

    /// The appearance of a person whose box is `box` (pixels of this image): the torso's
    /// hue-saturation histogram, of unit length; nil when the torso shows no pixel.
    public func appearance(of box: PixelBox) -> [Float]? {
        let torso = Appearance.torso(of: box)
        var histogram = [Float](repeating: 0, count: Appearance.hueBins * Appearance.saturationBins)
        var error = dv_error()
        let status = histogram.withUnsafeMutableBufferPointer {
            dv_image_hue_saturation_histogram(
                handle, Int32(torso.x.rounded(.down)), Int32(torso.y.rounded(.down)), Int32(torso.width.rounded()),
                Int32(torso.height.rounded()), Int32(Appearance.hueBins), Int32(Appearance.saturationBins), $0.baseAddress, &error)
        }
        guard status == DV_OK else { return nil }
        return Appearance.descriptor(histogram: histogram)
    }
}

extension dv_error {
    /// The message, as text.
    var text: String {
        withUnsafeBytes(of: message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
