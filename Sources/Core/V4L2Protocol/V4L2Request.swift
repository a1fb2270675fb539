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
        default: "ioctl 0x" + String(request, radix: 16)
        }
    }
}
