/// `struct v4l2_event` (136 bytes on LP64) carrying a control event (`V4L2_EVENT_CTRL`), and the
/// `struct v4l2_event_subscription` (32 bytes) that asks for them: what `VIDIOC_DQEVENT` answers
/// and `VIDIOC_SUBSCRIBE_EVENT` takes. Offsets from Debian 12's `linux/videodev2.h` on x86_64
/// (`u` at 8, `pending` 72, `sequence` 76, `timestamp` 80, `id` 96; in `v4l2_event_ctrl`:
/// `changes` 0, `type` 4, `value` 8, `flags` 16, `minimum` 20, `maximum` 24, `step` 28,
/// `default_value` 32), held in `Tests/V4L2ProtocolTests`.
public enum V4L2Event {
    /// The struct's size.
    public static let size = 136
    /// `V4L2_EVENT_ALL`: in an unsubscription, every subscription.
    public static let allTypes: UInt32 = 0
    /// `V4L2_EVENT_CTRL`.
    public static let controlType: UInt32 = 3
    /// `V4L2_EVENT_CTRL_CH_VALUE`: the value changed.
    public static let valueChanged: UInt32 = 1
    /// `V4L2_EVENT_CTRL_CH_FLAGS`: the flags changed (sent with the initial event).
    public static let flagsChanged: UInt32 = 2
    /// `V4L2_EVENT_SUB_FL_SEND_INITIAL`: an event with the current value at once.
    public static let sendInitial: UInt32 = 1
    /// `V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK`: the file handle that changed the value hears it too.
    public static let allowFeedback: UInt32 = 2

    /// The answer to the emulation's events-pending request: the count's image.
    public static func pendingImage(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 4)
        bytes.put(UInt32(clamping: count), at: 0)
        return bytes
    }

    /// A subscription's type, id and flags, from its image; nil when it is too short.
    public static func subscription(_ bytes: [UInt8]) -> (type: UInt32, id: UInt32, flags: UInt32)? {
        guard bytes.count >= 12 else { return nil }
        return (bytes.uint32(at: 0), bytes.uint32(at: 4), bytes.uint32(at: 8))
    }

    /// A subscription's image.
    public static func subscriptionImage(type: UInt32, id: UInt32, flags: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes.put(type, at: 0)
        bytes.put(id, at: 4)
        bytes.put(flags, at: 8)
        return bytes
    }

    /// A control event's image.
    ///
    /// - Parameters:
    ///   - changes: what changed (`valueChanged`, `flagsChanged`).
    ///   - control: the control, with its range.
    ///   - value: its value now.
    ///   - pending: events still queued after this one.
    ///   - sequence: the file handle's event count, from 0.
    ///   - nanoseconds: the event's time on the emulation's clock.
    public static func control(
        changes: UInt32, control: V4L2ControlDescription, value: Int64, pending: UInt32,
        sequence: UInt32, nanoseconds: Int64
    ) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.put(controlType, at: 0)
        bytes.put(changes, at: 8)
        bytes.put(control.type, at: 12)
        bytes.put(value, at: 16)
        bytes.put(control.flags.rawValue, at: 24)
        bytes.put(Int32(clamping: control.minimum), at: 28)
        bytes.put(Int32(clamping: control.maximum), at: 32)
        bytes.put(Int32(clamping: control.step), at: 36)
        bytes.put(Int32(clamping: control.defaultValue), at: 40)
        bytes.put(pending, at: 72)
        bytes.put(sequence, at: 76)
        bytes.put(nanoseconds / 1_000_000_000, at: 80)
        bytes.put(nanoseconds % 1_000_000_000, at: 88)
        bytes.put(control.id, at: 96)
        return bytes
    }
}
