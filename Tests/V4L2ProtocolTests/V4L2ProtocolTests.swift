import Testing

@testable import V4L2Protocol

/// The V4L2 numbers, struct images and the ioctl framing against golden values.
@Suite struct V4L2ProtocolTests {
    /// The numbers `linux/videodev2.h` gives on x86_64 (a C program printing the macros, Debian
    /// 12 `linux-libc-dev`; `Protocol/uvc.md` §2) — computed here from the struct sizes.
    @Test func requestNumbersMatchTheCHeaders() {
        #expect(V4L2Request.queryCapability == 0x8068_5600)
        #expect(V4L2Request.getControl == 0xC008_561B)
        #expect(V4L2Request.setControl == 0xC008_561C)
        #expect(V4L2Request.queryControl == 0xC044_5624)
        #expect(V4L2Request.queryMenu == 0xC02C_5625)
        #expect(V4L2Request.getExtendedControls == 0xC020_5647)
        #expect(V4L2Request.setExtendedControls == 0xC020_5648)
        #expect(V4L2Request.tryExtendedControls == 0xC020_5649)
        #expect(V4L2Request.subscribeEvent == 0x4020_565A)
        #expect(V4L2Request.unsubscribeEvent == 0x4020_565B)
        #expect(V4L2Request.dequeueEvent == 0x8088_5659, "_IOR('V', 89, struct v4l2_event), 136 bytes")
        #expect(V4L2Request.queryExtendedControl == 0xC0E8_5667)
        #expect(V4L2Request.carriesControlArray(V4L2Request.setExtendedControls))
        #expect(!V4L2Request.carriesControlArray(V4L2Request.setControl))
    }

    /// The capture ioctls' numbers, from the same C program (`Protocol/uvc.md` §2), and the
    /// emulation's own.
    @Test func captureRequestNumbersMatchTheCHeaders() {
        #expect(V4L2Request.enumerateFormat == 0xC040_5602)
        #expect(V4L2Request.getFormat == 0xC0D0_5604)
        #expect(V4L2Request.setFormat == 0xC0D0_5605)
        #expect(V4L2Request.tryFormat == 0xC0D0_5640)
        #expect(V4L2Request.requestBuffers == 0xC014_5608)
        #expect(V4L2Request.queryBuffer == 0xC058_5609)
        #expect(V4L2Request.queueBuffer == 0xC058_560F)
        #expect(V4L2Request.exportBuffer == 0xC040_5610)
        #expect(V4L2Request.dequeueBuffer == 0xC058_5611)
        #expect(V4L2Request.streamOn == 0x4004_5612)
        #expect(V4L2Request.streamOff == 0x4004_5613)
        #expect(V4L2Request.getParameters == 0xC0CC_5615)
        #expect(V4L2Request.setParameters == 0xC0CC_5616)
        #expect(V4L2Request.enumerateInput == 0xC050_561A)
        #expect(V4L2Request.getInput == 0x8004_5626)
        #expect(V4L2Request.setInput == 0xC004_5627)
        #expect(V4L2Request.enumerateFrameSizes == 0xC02C_564A)
        #expect(V4L2Request.enumerateFrameIntervals == 0xC034_564B)
        #expect(V4L2Request.createBuffers == 0xC100_565C)
        #expect(V4L2Request.getSelection == 0xC040_565E)
        #expect(V4L2Request.emulatedPollState == 0x8008_56FE)
        #expect(V4L2Request.emulatedMap == 0x4018_56FD)
        #expect(V4L2Request.emulatedUnmap == 0x4008_56FC)
        #expect(V4L2Capture.yuyv == 0x5659_5559 && V4L2Capture.mjpeg == 0x4750_4A4D)
    }

    /// `struct v4l2_buffer`'s fields at the offsets `offsetof` gives on x86_64: timestamp at 24
    /// (seconds, then microseconds), sequence at 56, memory 60, `m.offset` 64, length 72.
    @Test func bufferImageHasTheCLayout() throws {
        var buffer = V4L2Buffer(index: 3)
        buffer.bytesUsed = 460_800
        buffer.flags = [.done, .timestampMonotonic]
        buffer.timestampSeconds = 1234
        buffer.timestampMicroseconds = 567_890
        buffer.sequence = 42
        buffer.offset = 462_848 * 3
        buffer.length = 460_800
        let image = buffer.bytes
        #expect(image.count == 88)
        #expect(Array(image[0..<4]) == [3, 0, 0, 0] && Array(image[4..<8]) == [1, 0, 0, 0])
        #expect(Array(image[12..<16]) == [0x04, 0x20, 0, 0])
        #expect(Array(image[24..<28]) == [0xD2, 0x04, 0, 0] && Array(image[32..<36]) == [0x52, 0xAA, 0x08, 0])
        #expect(image[56] == 42 && image[60] == 1)
        #expect(Array(image[64..<68]) == [0x00, 0x30, 0x15, 0x00] && Array(image[72..<76]) == [0x00, 0x08, 0x07, 0x00])
        #expect(try V4L2Buffer(bytes: image) == buffer)
        #expect(throws: V4L2DecodingError.self) { try V4L2Buffer(bytes: Array(image.prefix(80))) }
        var format = V4L2PixelFormat(width: 640, height: 360, pixelFormat: V4L2Capture.yuyv)
        format.sizeImage = 460_800
        #expect(format.bytes.count == 208 && Array(format.bytes[8..<12]) == [0x80, 0x02, 0, 0] && format.bytes[28] == 0x00)
        #expect(try V4L2PixelFormat(bytes: format.bytes) == format)
        #expect(try V4L2StreamParameters(bytes: V4L2StreamParameters(numerator: 1, denominator: 30).bytes).denominator == 30)
        #expect(V4L2StreamParameters(numerator: 1, denominator: 30).bytes[16] == 30, "timeperframe's denominator at 16")
    }

    @Test func extendedControlsImageHasTheCLayout() throws {
        let image = V4L2ExtendedControls.encode([(V4L2ControlID.panAbsolute, 36000), (V4L2ControlID.tiltAbsolute, -7200)])
        #expect(image.count == 32 + 2 * 20)
        #expect(Array(image[0..<8]) == [0x00, 0x00, 0x9A, 0x00, 2, 0, 0, 0])  // which = camera class, count 2
        #expect(Array(image[32..<36]) == [0x08, 0x09, 0x9A, 0x00])  // the first id
        #expect(Array(image[44..<48]) == [0xA0, 0x8C, 0x00, 0x00])  // its value at 12: 36000
        #expect(Array(image[64..<68]) == [0xE0, 0xE3, 0xFF, 0xFF])  // −7200 = 0xFFFFE3E0
        let decoded = try V4L2ExtendedControls.decode(image)
        #expect(decoded.controls.map(\.value) == [36000, -7200])
        #expect(throws: V4L2DecodingError.self) { try V4L2ExtendedControls.decode(Array(image.prefix(50))) }
    }

    @Test func queryExtendedControlRoundTrips() throws {
        let control = V4L2ControlDescription(
            id: V4L2ControlID.panSpeed, name: "Pan, Speed", minimum: -1, maximum: 160, step: 1,
            defaultValue: 0, flags: [.writeOnly])
        let image = V4L2QueryExtendedControl.encode(control)
        #expect(image.count == 232)
        #expect(Array(image[40..<48]) == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])  // minimum −1, 64-bit at 40
        #expect(try V4L2QueryExtendedControl.decode(image) == control)
        #expect(try V4L2QueryControl.decode(V4L2QueryControl.encode(control)) == control)
        #expect(throws: V4L2DecodingError.self) { try V4L2QueryExtendedControl.decode([0, 1]) }
    }

    /// The old query's step is read as unsigned; it was written back clamped to Int32, so a step
    /// above 2³¹ (a driver's −522 000 as read) came back as 2147483647 (fuzz target uvc,
    /// FuzzTesting/regressions/uvc/queryctrl-step-above-int32). A step past 32 bits is clamped.
    @Test func queryControlStepReadsBackAsItWasRead() throws {
        var image = V4L2QueryControl.request(id: V4L2ControlID.panAbsolute)
        image.replaceSubrange(48..<52, with: [0xF0, 0x08, 0xF8, 0xFF])  // 4294445296 as read
        let control = try V4L2QueryControl.decode(image)
        #expect(control.step == 4_294_445_296)
        #expect(try V4L2QueryControl.decode(V4L2QueryControl.encode(control)) == control)
        var wide = control
        wide.step = 1 << 40
        #expect(try V4L2QueryControl.decode(V4L2QueryControl.encode(wide)).step == UInt64(UInt32.max))
    }

    @Test func capabilityRoundTrips() throws {
        let capability = V4L2Capability(
            driver: "uvcvideo", card: "OBSBOT Tiny", busInfo: "usb-0000:00:14.0-1",
            version: 0x06_01_00, capabilities: 0x8420_0001, deviceCapabilities: 0x0420_0001)
        #expect(try V4L2Capability(bytes: capability.bytes) == capability)
        #expect(capability.versionText == "6.1.0")
    }

    /// Frames come out whole whether the bytes arrive at once, a byte at a time, or merged.
    @Test func framingSurvivesAnySplit() throws {
        let replies = [
            V4L2Frame.Reply(request: V4L2Request.setExtendedControls, errno: 0, bytes: [1, 2, 3]),
            V4L2Frame.Reply(request: V4L2Request.getControl, errno: LinuxErrno.io, bytes: []),
        ]
        let stream = replies.flatMap { $0.encode() }
        #expect(Array(stream[0..<12]) == [0x48, 0x56, 0x20, 0xC0, 0, 0, 0, 0, 3, 0, 0, 0])
        var whole = V4L2Frame.Decoder.replies()
        #expect(try whole.replies(stream) == replies)
        var bytewise = V4L2Frame.Decoder.replies()
        var collected: [V4L2Frame.Reply] = []
        for byte in stream { collected += try bytewise.replies([byte]) }
        #expect(collected == replies)
        let request = V4L2Frame.Request(request: V4L2Request.queryCapability, bytes: [9, 9])
        var requests = V4L2Frame.Decoder.requests()
        #expect(try requests.requests(request.encode()) == [request])
        var bad = V4L2Frame.Decoder.replies()
        #expect(throws: V4L2Frame.OversizedFrame.self) { try bad.replies([0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]) }
    }

    @Test func controlNamesAreV4L2CtlNames() {
        #expect(V4L2ControlID.id(named: "pan_absolute") == 0x009A_0908)
        #expect(V4L2ControlID.name(of: V4L2ControlID.tiltSpeed) == "tilt_speed")
        #expect(V4L2ControlID.id(named: "brightness") == nil)
    }
}
