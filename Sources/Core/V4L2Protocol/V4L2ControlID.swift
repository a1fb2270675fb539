/// The V4L2 controls a UVC PTZ camera is driven by (`linux/v4l2-controls.h`, class camera
/// 0x009a0000), with the flags that enumeration reports. Numbers only: the kernel's header is
/// not imported by this pure target.
public enum V4L2ControlID {
    /// The camera control class; `V4L2_CTRL_ID2WHICH` of every control here.
    public static let cameraClass: UInt32 = 0x009a_0000
    /// `V4L2_CID_PAN_RELATIVE`: write-only, unit undefined (not mapped by uvcvideo's table).
    public static let panRelative: UInt32 = 0x009a_0904
    /// `V4L2_CID_TILT_RELATIVE`.
    public static let tiltRelative: UInt32 = 0x009a_0905
    /// `V4L2_CID_PAN_ABSOLUTE`: arc-seconds, positive pans right.
    public static let panAbsolute: UInt32 = 0x009a_0908
    /// `V4L2_CID_TILT_ABSOLUTE`: arc-seconds, positive tilts up.
    public static let tiltAbsolute: UInt32 = 0x009a_0909
    /// `V4L2_CID_ZOOM_ABSOLUTE`: unit of the camera's own.
    public static let zoomAbsolute: UInt32 = 0x009a_090d
    /// `V4L2_CID_ZOOM_CONTINUOUS`: sign is the direction, 0 stops.
    public static let zoomContinuous: UInt32 = 0x009a_090f
    /// `V4L2_CID_PAN_SPEED`: sign is the direction, 0 stops, unit undefined.
    public static let panSpeed: UInt32 = 0x009a_0920
    /// `V4L2_CID_TILT_SPEED`.
    public static let tiltSpeed: UInt32 = 0x009a_0921

    /// The controls a UVC PTZ session asks for, in the order it asks.
    public static let ptzControls: [UInt32] = [panAbsolute, tiltAbsolute, panSpeed, tiltSpeed, zoomAbsolute, zoomContinuous]

    /// The `v4l2-ctl` name of a control (its kernel name lower-cased, `(`/`)` dropped, spaces as `_`).
    public static func name(of id: UInt32) -> String? {
        switch id {
        case panRelative: "pan_relative"
        case tiltRelative: "tilt_relative"
        case panAbsolute: "pan_absolute"
        case tiltAbsolute: "tilt_absolute"
        case zoomAbsolute: "zoom_absolute"
        case zoomContinuous: "zoom_continuous"
        case panSpeed: "pan_speed"
        case tiltSpeed: "tilt_speed"
        default: nil
        }
    }

    /// The id of a control by its `v4l2-ctl` name.
    public static func id(named name: String) -> UInt32? {
        ([panRelative, tiltRelative] + ptzControls).first { Self.name(of: $0) == name }
    }
}

/// The `flags` of a queried control (`V4L2_CTRL_FLAG_*`), and the "next" bits OR-ed into an id
/// to enumerate.
public struct V4L2ControlFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    /// Creates the set from its raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `DISABLED`: the control is not there; skip it.
    public static let disabled = V4L2ControlFlags(rawValue: 0x0001)
    /// `GRABBED`: another file handle holds it.
    public static let grabbed = V4L2ControlFlags(rawValue: 0x0002)
    /// `READ_ONLY`.
    public static let readOnly = V4L2ControlFlags(rawValue: 0x0004)
    /// `INACTIVE`: present but without effect now (an auto mode holds it).
    public static let inactive = V4L2ControlFlags(rawValue: 0x0010)
    /// `WRITE_ONLY`: reading it is an error.
    public static let writeOnly = V4L2ControlFlags(rawValue: 0x0040)
    /// `VOLATILE`: its value changes by itself.
    public static let volatile = V4L2ControlFlags(rawValue: 0x0080)
    /// `NEXT_CTRL`, OR-ed into an id: the next control after it.
    public static let nextControl = V4L2ControlFlags(rawValue: 0x8000_0000)
    /// `NEXT_COMPOUND`, OR-ed into an id: include compound controls in the walk.
    public static let nextCompound = V4L2ControlFlags(rawValue: 0x4000_0000)
}

/// `enum v4l2_ctrl_type` values that PTZ controls use.
public enum V4L2ControlType: UInt32, Hashable, Sendable {
    /// A signed 32-bit integer.
    case integer = 1
    /// A boolean.
    case boolean = 2
    /// A menu.
    case menu = 3
    /// A button (write-only trigger).
    case button = 4
    /// A signed 64-bit integer.
    case integer64 = 5
    /// A control class heading.
    case controlClass = 6
}

/// The Linux errno values the V4L2 layer tells apart (`asm-generic/errno-base.h`).
public enum LinuxErrno {
    /// Interrupted: try again.
    public static let interrupted: Int32 = 4
    /// No such entry: no event waiting (`VIDIOC_DQEVENT` on a non-blocking handle).
    public static let noEntry: Int32 = 2
    /// I/O error: the camera did not answer this control (some firmware, for some controls).
    public static let io: Int32 = 5
    /// Try again.
    public static let again: Int32 = 11
    /// Busy.
    public static let busy: Int32 = 16
    /// No such device: the camera was unplugged.
    public static let noDevice: Int32 = 19
    /// Invalid argument: no such control, or a value the driver refuses.
    public static let invalid: Int32 = 22
    /// Not a typewriter: the driver does not know the ioctl.
    public static let notTTY: Int32 = 25
    /// Out of range.
    public static let range: Int32 = 34
    /// Permission denied (a read of a write-only control, a write of a read-only one).
    public static let access: Int32 = 13
}
