/// The `VIDIOC_*` request numbers, computed as `linux/ioctl.h`'s `_IOR`/`_IOW`/`_IOWR` do
/// (direction in bits 30–31, size in 16–29, type `'V'` in 8–15, number in 0–7) from the struct
/// sizes of the LP64 ABI — Swift imports the structs but not these function-like macros.
/// `Tests/V4L2ProtocolTests` holds them against the numbers the C headers give.
public enum V4L2Request {
    /// `_IOC_WRITE`: the caller passes the struct in.
    public static let write: UInt32 = 1
    /// `_IOC_READ`: the kernel fills the struct in.
    public static let read: UInt32 = 2

    /// `_IOC(direction, type, number, size)`.
    public static func number(direction: UInt32, type: UInt8, number: UInt8, size: Int) -> UInt32 {
        precondition(size >= 0 && size < 1 << 14, "an ioctl struct of \(size) bytes does not fit the size field")
        return direction << 30 | UInt32(size) << 16 | UInt32(type) << 8 | UInt32(number)
    }

    private static func v4l2(_ direction: UInt32, _ number: UInt8, _ size: Int) -> UInt32 {
        Self.number(direction: direction, type: UInt8(ascii: "V"), number: number, size: size)
    }

    /// `VIDIOC_QUERYCAP` = `_IOR('V', 0, struct v4l2_capability)`.
    public static let queryCapability = v4l2(read, 0, V4L2Capability.size)
    /// `VIDIOC_G_CTRL` = `_IOWR('V', 27, struct v4l2_control)`.
    public static let getControl = v4l2(read | write, 27, V4L2Control.size)
    /// `VIDIOC_S_CTRL` = `_IOWR('V', 28, struct v4l2_control)`.
    public static let setControl = v4l2(read | write, 28, V4L2Control.size)
    /// `VIDIOC_QUERYCTRL` = `_IOWR('V', 36, struct v4l2_queryctrl)`.
    public static let queryControl = v4l2(read | write, 36, V4L2QueryControl.size)
    /// `VIDIOC_QUERYMENU` = `_IOWR('V', 37, struct v4l2_querymenu)` (44 bytes).
    public static let queryMenu = v4l2(read | write, 37, 44)
    /// `VIDIOC_G_EXT_CTRLS` = `_IOWR('V', 71, struct v4l2_ext_controls)`.
    public static let getExtendedControls = v4l2(read | write, 71, V4L2ExtendedControls.headerSize)
    /// `VIDIOC_S_EXT_CTRLS` = `_IOWR('V', 72, struct v4l2_ext_controls)`.
    public static let setExtendedControls = v4l2(read | write, 72, V4L2ExtendedControls.headerSize)
    /// `VIDIOC_TRY_EXT_CTRLS` = `_IOWR('V', 73, struct v4l2_ext_controls)`.
    public static let tryExtendedControls = v4l2(read | write, 73, V4L2ExtendedControls.headerSize)
    /// `VIDIOC_SUBSCRIBE_EVENT` = `_IOW('V', 90, struct v4l2_event_subscription)` (32 bytes).
    public static let subscribeEvent = v4l2(write, 90, 32)
    /// `VIDIOC_UNSUBSCRIBE_EVENT` = `_IOW('V', 91, struct v4l2_event_subscription)`.
    public static let unsubscribeEvent = v4l2(write, 91, 32)
    /// `VIDIOC_DQEVENT` = `_IOR('V', 89, struct v4l2_event)` (136 bytes).
    public static let dequeueEvent = v4l2(read, 89, V4L2Event.size)
    /// The emulation's own request, no ioctl of V4L2's: how many events a file handle has
    /// waiting (`_IOR('V', 255, __u32)`, a number in V4L2's driver-private range that the
    /// preload library asks while a program waits in `poll` or `select`; `Protocol/uvc.md` §6).
    public static let emulatedEventsPending = v4l2(read, 255, 4)
    /// `VIDIOC_QUERY_EXT_CTRL` = `_IOWR('V', 103, struct v4l2_query_ext_ctrl)`.
    public static let queryExtendedControl = v4l2(read | write, 103, V4L2QueryExtendedControl.size)

    // Video capture (single-planar, memory-mapped streaming).

    /// `VIDIOC_ENUM_FMT` = `_IOWR('V', 2, struct v4l2_fmtdesc)`.
    public static let enumerateFormat = v4l2(read | write, 2, V4L2FormatDescription.size)
    /// `VIDIOC_G_FMT` = `_IOWR('V', 4, struct v4l2_format)`.
    public static let getFormat = v4l2(read | write, 4, V4L2PixelFormat.size)
    /// `VIDIOC_S_FMT` = `_IOWR('V', 5, struct v4l2_format)`.
    public static let setFormat = v4l2(read | write, 5, V4L2PixelFormat.size)
    /// `VIDIOC_REQBUFS` = `_IOWR('V', 8, struct v4l2_requestbuffers)`.
    public static let requestBuffers = v4l2(read | write, 8, V4L2RequestBuffers.size)
    /// `VIDIOC_QUERYBUF` = `_IOWR('V', 9, struct v4l2_buffer)`.
    public static let queryBuffer = v4l2(read | write, 9, V4L2Buffer.size)
    /// `VIDIOC_QBUF` = `_IOWR('V', 15, struct v4l2_buffer)`.
    public static let queueBuffer = v4l2(read | write, 15, V4L2Buffer.size)
    /// `VIDIOC_EXPBUF` = `_IOWR('V', 16, struct v4l2_exportbuffer)` (64 bytes).
    public static let exportBuffer = v4l2(read | write, 16, 64)
    /// `VIDIOC_DQBUF` = `_IOWR('V', 17, struct v4l2_buffer)`.
    public static let dequeueBuffer = v4l2(read | write, 17, V4L2Buffer.size)
    /// `VIDIOC_STREAMON` = `_IOW('V', 18, int)`.
    public static let streamOn = v4l2(write, 18, 4)
    /// `VIDIOC_STREAMOFF` = `_IOW('V', 19, int)`.
    public static let streamOff = v4l2(write, 19, 4)
    /// `VIDIOC_G_PARM` = `_IOWR('V', 21, struct v4l2_streamparm)`.
    public static let getParameters = v4l2(read | write, 21, V4L2StreamParameters.size)
    /// `VIDIOC_S_PARM` = `_IOWR('V', 22, struct v4l2_streamparm)`.
    public static let setParameters = v4l2(read | write, 22, V4L2StreamParameters.size)
    /// `VIDIOC_ENUMINPUT` = `_IOWR('V', 26, struct v4l2_input)`.
    public static let enumerateInput = v4l2(read | write, 26, V4L2Input.size)
    /// `VIDIOC_G_INPUT` = `_IOR('V', 38, int)`.
    public static let getInput = v4l2(read, 38, 4)
    /// `VIDIOC_S_INPUT` = `_IOWR('V', 39, int)`.
    public static let setInput = v4l2(read | write, 39, 4)
    /// `VIDIOC_TRY_FMT` = `_IOWR('V', 64, struct v4l2_format)`.
    public static let tryFormat = v4l2(read | write, 64, V4L2PixelFormat.size)
    /// `VIDIOC_ENUM_FRAMESIZES` = `_IOWR('V', 74, struct v4l2_frmsizeenum)`.
    public static let enumerateFrameSizes = v4l2(read | write, 74, V4L2FrameSize.size)
    /// `VIDIOC_ENUM_FRAMEINTERVALS` = `_IOWR('V', 75, struct v4l2_frmivalenum)`.
    public static let enumerateFrameIntervals = v4l2(read | write, 75, V4L2FrameInterval.size)
    /// `VIDIOC_CREATE_BUFS` = `_IOWR('V', 92, struct v4l2_create_buffers)` (256 bytes).
    public static let createBuffers = v4l2(read | write, 92, 256)
    /// `VIDIOC_G_SELECTION` = `_IOWR('V', 94, struct v4l2_selection)`.
    public static let getSelection = v4l2(read | write, 94, V4L2Selection.size)

    // The emulation's own requests (no ioctls of V4L2's; numbers in its driver-private range),
    // which the preload library makes for what a kernel driver learns without an ioctl.

    /// How a file handle stands for `poll`: `_IOR('V', 254, 8 bytes)` answering two `__u32`s,
    /// the events waiting and the capture state (`EmulatedPollState`).
    public static let emulatedPollState = v4l2(read, 254, 8)
    /// May the program map this range of the device: `_IOW('V', 253, 24 bytes)` — the offset
    /// and length (`__u64` each), `mmap`'s protection and flags (`__u32` each); answered with
    /// the errno `mmap` would fail with, or 0 (and the buffer counts as mapped).
    public static let emulatedMap = v4l2(write, 253, 24)
    /// The program unmapped the buffer at this offset: `_IOW('V', 252, __u64)`.
    public static let emulatedUnmap = v4l2(write, 252, 8)

    /// Whether the request's struct is a `v4l2_ext_controls`, whose `controls` pointer the
    /// transport must point at the control array that follows it in a frame.
    public static func carriesControlArray(_ request: UInt32) -> Bool {
        request == getExtendedControls || request == setExtendedControls || request == tryExtendedControls
    }

    /// The name of a request, for logs and transcripts.
    public static func name(of request: UInt32) -> String {
        switch request {
        case queryCapability: "QUERYCAP"
        case getControl: "G_CTRL"
        case setControl: "S_CTRL"
        case queryControl: "QUERYCTRL"
        case queryMenu: "QUERYMENU"
        case getExtendedControls: "G_EXT_CTRLS"
        case setExtendedControls: "S_EXT_CTRLS"
        case tryExtendedControls: "TRY_EXT_CTRLS"
        case subscribeEvent: "SUBSCRIBE_EVENT"
        case unsubscribeEvent: "UNSUBSCRIBE_EVENT"
        case dequeueEvent: "DQEVENT"
        case emulatedEventsPending: "events pending (emulation)"
        case queryExtendedControl: "QUERY_EXT_CTRL"
        case enumerateFormat: "ENUM_FMT"
        case getFormat: "G_FMT"
        case setFormat: "S_FMT"
        case tryFormat: "TRY_FMT"
        case requestBuffers: "REQBUFS"
        case queryBuffer: "QUERYBUF"
        case queueBuffer: "QBUF"
        case exportBuffer: "EXPBUF"
        case dequeueBuffer: "DQBUF"
        case streamOn: "STREAMON"
        case streamOff: "STREAMOFF"
        case getParameters: "G_PARM"
        case setParameters: "S_PARM"
        case enumerateInput: "ENUMINPUT"
        case getInput: "G_INPUT"
        case setInput: "S_INPUT"
        case enumerateFrameSizes: "ENUM_FRAMESIZES"
        case enumerateFrameIntervals: "ENUM_FRAMEINTERVALS"
        case createBuffers: "CREATE_BUFS"
        case getSelection: "G_SELECTION"
        case emulatedPollState: "poll state (emulation)"
        case emulatedMap: "mmap (emulation)"
        case emulatedUnmap: "munmap (emulation)"
        default: "ioctl 0x" + String(request, radix: 16)
        }
    }
}
