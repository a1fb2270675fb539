import CVision
public import DockVision
public import DockVocabulary

/// How a captured frame becomes the virtual camera's, by an `OutputPlan`, without the device:
/// passed through as it came, or decoded (or colour-converted) to BGR, cut to the framed crop,
/// scaled to the output's size and packed as YUYV or NV12 into a buffer reused from frame to
/// frame. `VideoOutput` writes what it gives; `visionbench output` measures it. Owned by one
/// thread.
public final class OutputConverter {
    /// How frames become the output's.
    public let plan: OutputPlan
    /// The converted frame (empty when frames pass through), reused.
    private let converted: UnsafeMutableRawBufferPointer
    private let image = VisionImage()

    /// A converter for `plan`.
    public init(plan: OutputPlan) {
        self.plan = plan
        converted = .allocate(byteCount: plan.passesThrough ? 0 : plan.frameBytes, alignment: 16)
        dv_image_set_grey(image.handle, 0)  // the output needs colour only
    }

    deinit { converted.deallocate() }

    /// The output's bytes for one captured frame (`input`, lines of `stride` bytes): the frame
    /// itself when it passes through, else the converted frame (valid until the next call); for
    /// a framed plan, the `crop` of the picture (nil: the whole).
    /// - Throws: `OutputError.conversion` when the frame cannot be decoded or converted.
    public func convert(
        _ bytes: UnsafeRawBufferPointer, input: FormatChoice, stride: Int, crop: NormalizedRect? = nil
    ) throws(OutputError) -> UnsafeRawBufferPointer {
        if plan.passesThrough { return bytes }
        let whole = NormalizedRect(x: 0, y: 0, width: 1, height: 1)
        let region = plan.isFramed ? crop ?? whole : whole
        do {
            // A crop is cut from the whole picture; the whole picture is decoded at the output's size.
            try image.set(
                bytes, format: input.format, size: input.size, stride: stride, working: plan.isFramed ? input.size : plan.format.size)
        } catch {
            throw .conversion("\(error)")
        }
        let code = plan.format.format == .nv12 ? DV_FORMAT_NV12 : DV_FORMAT_YUYV
        var error = dv_error()
        let status = dv_image_write_yuv(
            image.handle, code, region.x, region.y, region.width, region.height, Int32(plan.format.size.width),
            Int32(plan.format.size.height), converted.baseAddress?.assumingMemoryBound(to: UInt8.self), converted.count, &error)
        guard status == DV_OK else { throw .conversion(error.text) }
        return UnsafeRawBufferPointer(converted)
    }
}
