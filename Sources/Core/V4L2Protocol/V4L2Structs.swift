/// A malformed struct image: too short for its type.
public struct V4L2DecodingError: Error, Hashable, Sendable {
    /// The struct that was being read.
    public var structName: String
    /// The bytes there were.
    public var count: Int
    /// The bytes it needs.
    public var needed: Int
}

private func check(_ bytes: [UInt8], _ needed: Int, _ name: String) throws(V4L2DecodingError) {
    guard bytes.count >= needed else { throw V4L2DecodingError(structName: name, count: bytes.count, needed: needed) }
}

/// `struct v4l2_capability` (104 bytes): what `VIDIOC_QUERYCAP` answers.
public struct V4L2Capability: Hashable, Sendable {
    /// The struct's size.
    public static let size = 104
    /// The driver's name (`uvcvideo`).
    public var driver: String
    /// The device's name (`OBSBOT Tiny 2`).
    public var card: String
    /// Where it is on its bus (`usb-0000:00:14.0-1`).
    public var busInfo: String
    /// The driver's version, `KERNEL_VERSION` packed.
    public var version: UInt32
    /// The device's capabilities (`V4L2_CAP_*`).
    public var capabilities: UInt32
    /// This node's capabilities.
    public var deviceCapabilities: UInt32

    /// Creates a capability record.
    public init(
        driver: String, card: String, busInfo: String, version: UInt32, capabilities: UInt32,
        deviceCapabilities: UInt32
    ) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.version = version
        self.capabilities = capabilities
        self.deviceCapabilities = deviceCapabilities
    }

    /// Reads the struct's image.
    public init(bytes: [UInt8]) throws(V4L2DecodingError) {
        try check(bytes, Self.size, "v4l2_capability")
        driver = bytes.text(at: 0, count: 16)
        card = bytes.text(at: 16, count: 32)
        busInfo = bytes.text(at: 48, count: 32)
        version = bytes.uint32(at: 80)
        capabilities = bytes.uint32(at: 84)
        deviceCapabilities = bytes.uint32(at: 88)
    }

    /// The struct's image.
    public var bytes: [UInt8] {
        var image = [UInt8](repeating: 0, count: Self.size)
        image.put(text: driver, at: 0, count: 16)
        image.put(text: card, at: 16, count: 32)
        image.put(text: busInfo, at: 48, count: 32)
        image.put(version, at: 80)
        image.put(capabilities, at: 84)
        image.put(deviceCapabilities, at: 88)
        return image
    }

    /// The driver's version as `major.minor.patch`.
    public var versionText: String { "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)" }
}

/// What a control is, as `VIDIOC_QUERY_EXT_CTRL` (or, on an old driver, `VIDIOC_QUERYCTRL`) says.
public struct V4L2ControlDescription: Hashable, Sendable {
    /// The control's id (without the "next" bits).
    public var id: UInt32
    /// Its type (`V4L2ControlType` raw value).
    public var type: UInt32
    /// The kernel's name, `Pan (Absolute)`.
    public var name: String
    /// The lowest value — as the driver reports it, which for a UVC speed is −(the device's
    /// minimum), often −1.
    public var minimum: Int64
    /// The highest value.
    public var maximum: Int64
    /// The step between values.
    public var step: UInt64
    /// The default value.
    public var defaultValue: Int64
    /// Its flags.
    public var flags: V4L2ControlFlags

    /// Creates a description.
    public init(
        id: UInt32, type: UInt32 = V4L2ControlType.integer.rawValue, name: String, minimum: Int64, maximum: Int64,
        step: UInt64, defaultValue: Int64, flags: V4L2ControlFlags = []
    ) {
        self.id = id
        self.type = type
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.flags = flags
    }
}

/// `struct v4l2_query_ext_ctrl` (232 bytes).
public enum V4L2QueryExtendedControl {
    /// The struct's size.
    public static let size = 232

    /// The request for `id` (OR-ed with the "next" flags to enumerate).
    public static func request(id: UInt32) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: size)
        image.put(id, at: 0)
        return image
    }

    /// Reads the answer.
    public static func decode(_ bytes: [UInt8]) throws(V4L2DecodingError) -> V4L2ControlDescription {
        try check(bytes, size, "v4l2_query_ext_ctrl")
        return V4L2ControlDescription(
            id: bytes.uint32(at: 0), type: bytes.uint32(at: 4), name: bytes.text(at: 8, count: 32),
            minimum: bytes.int64(at: 40), maximum: bytes.int64(at: 48), step: UInt64(bitPattern: bytes.int64(at: 56)),
            defaultValue: bytes.int64(at: 64), flags: V4L2ControlFlags(rawValue: bytes.uint32(at: 72)))
    }

    /// The answer's image (element size 4, one element, no dimensions: a plain integer control).
    public static func encode(_ control: V4L2ControlDescription) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: size)
        image.put(control.id, at: 0)
        image.put(control.type, at: 4)
        image.put(text: control.name, at: 8, count: 32)
        image.put(control.minimum, at: 40)
        image.put(control.maximum, at: 48)
        image.put(Int64(bitPattern: control.step), at: 56)
        image.put(control.defaultValue, at: 64)
        image.put(control.flags.rawValue, at: 72)
        image.put(UInt32(4), at: 76)  // elem_size
        image.put(UInt32(1), at: 80)  // elems
        return image
    }
}

/// `struct v4l2_queryctrl` (68 bytes): the old query, 32-bit ranges.
public enum V4L2QueryControl {
    /// The struct's size.
    public static let size = 68

    /// The request for `id`.
    public static func request(id: UInt32) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: size)
        image.put(id, at: 0)
        return image
    }

    /// Reads the answer.
    public static func decode(_ bytes: [UInt8]) throws(V4L2DecodingError) -> V4L2ControlDescription {
        try check(bytes, size, "v4l2_queryctrl")
        return V4L2ControlDescription(
            id: bytes.uint32(at: 0), type: bytes.uint32(at: 4), name: bytes.text(at: 8, count: 32),
            minimum: Int64(bytes.int32(at: 40)), maximum: Int64(bytes.int32(at: 44)), step: UInt64(UInt32(bitPattern: bytes.int32(at: 48))),
            defaultValue: Int64(bytes.int32(at: 52)), flags: V4L2ControlFlags(rawValue: bytes.uint32(at: 56)))
    }

    /// The answer's image.
    public static func encode(_ control: V4L2ControlDescription) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: size)
        image.put(control.id, at: 0)
        image.put(control.type, at: 4)
        image.put(text: control.name, at: 8, count: 32)
        image.put(Int32(clamping: control.minimum), at: 40)
        image.put(Int32(clamping: control.maximum), at: 44)
        image.put(UInt32(clamping: control.step), at: 48)  // read back as unsigned, as decode reads it
        image.put(Int32(clamping: control.defaultValue), at: 52)
        image.put(control.flags.rawValue, at: 56)
        return image
    }
}

/// `struct v4l2_control` (8 bytes): one control for `G_CTRL`/`S_CTRL`.
public enum V4L2Control {
    /// The struct's size.
    public static let size = 8

    /// The image of `id` with `value`.
    public static func encode(id: UInt32, value: Int32) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: size)
        image.put(id, at: 0)
        image.put(value, at: 4)
        return image
    }

    /// Reads an image.
    public static func decode(_ bytes: [UInt8]) throws(V4L2DecodingError) -> (id: UInt32, value: Int32) {
        try check(bytes, size, "v4l2_control")
        return (bytes.uint32(at: 0), bytes.int32(at: 4))
    }
}

/// `struct v4l2_ext_controls` (32 bytes) with its array of packed `struct v4l2_ext_control`
/// (20 bytes each, `value` at 12), as one frame carries them: the header, its `controls`
/// pointer left zero, then the array — the transport points the pointer at it.
public enum V4L2ExtendedControls {
    /// The header's size.
    public static let headerSize = 32
    /// One control's size.
    public static let controlSize = 20

    /// The image of a request for `controls` (values ignored by `G_EXT_CTRLS`), in class `which`.
    public static func encode(
        which: UInt32 = V4L2ControlID.cameraClass, _ controls: [(id: UInt32, value: Int32)],
        errorIndex: UInt32 = 0
    ) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: headerSize + controlSize * controls.count)
        image.put(which, at: 0)
        image.put(UInt32(controls.count), at: 4)
        image.put(errorIndex, at: 8)
        for (index, control) in controls.enumerated() {
            let base = headerSize + controlSize * index
            image.put(control.id, at: base)
            image.put(control.value, at: base + 12)
        }
        return image
    }

    /// Reads a frame's image: the class, the error index, the controls and their values.
    public static func decode(_ bytes: [UInt8]) throws(V4L2DecodingError)
        -> (which: UInt32, errorIndex: UInt32, controls: [(id: UInt32, value: Int32)])
    {
        try check(bytes, headerSize, "v4l2_ext_controls")
        let count = Int(bytes.uint32(at: 4))
        guard count <= 1024 else {
            throw V4L2DecodingError(structName: "v4l2_ext_controls", count: bytes.count, needed: count * controlSize)
        }
        try check(bytes, headerSize + controlSize * count, "v4l2_ext_control array")
        let controls = (0..<count).map { index in
            let base = headerSize + controlSize * index
            return (id: bytes.uint32(at: base), value: bytes.int32(at: base + 12))
        }
        return (bytes.uint32(at: 0), bytes.uint32(at: 8), controls)
    }
}
