import CUdev
import Glibc

/// A serial device as udev describes it.
public struct SerialDeviceDescription: Hashable, Sendable {
    /// The device node (`/dev/ttyACM0`).
    public var path: String
    /// The USB vendor ID (4 hex digits), when the port is on USB.
    public var vendorID: String?
    /// The USB product ID.
    public var productID: String?
    /// The USB serial number.
    public var serialNumber: String?
    /// The USB manufacturer string.
    public var manufacturer: String?
    /// The USB product string.
    public var product: String?

    /// Creates a description.
    public init(
        path: String, vendorID: String? = nil, productID: String? = nil, serialNumber: String? = nil,
        manufacturer: String? = nil, product: String? = nil
    ) {
        self.path = path
        self.vendorID = vendorID
        self.productID = productID
        self.serialNumber = serialNumber
        self.manufacturer = manufacturer
        self.product = product
    }
}

/// Serial devices through libudev: every `tty` device node, with the USB identity of the device
/// it belongs to.
public enum DeviceDiscovery {
    /// The `tty` devices udev knows now.
    public static func serialDevices() -> [SerialDeviceDescription] { devices(subsystem: "tty") }

    /// The `video4linux` devices udev knows now (`/dev/videoN`: webcams, capture cards).
    public static func videoDevices() -> [SerialDeviceDescription] { devices(subsystem: "video4linux") }

    /// The devices of a udev subsystem, with the USB identity of the device each is on.
    public static func devices(subsystem: String) -> [SerialDeviceDescription] {
        guard let udev = udev_new() else { return [] }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, subsystem)
        udev_enumerate_scan_devices(enumerate)
        var devices: [SerialDeviceDescription] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            guard let description = describe(device) else { continue }
            devices.append(description)
        }
        return devices.sorted { $0.path < $1.path }
    }

    /// A udev `tty` device as a description: its node, and the identity of the USB device it is on.
    static func describe(_ device: OpaquePointer) -> SerialDeviceDescription? {
        guard let node = udev_device_get_devnode(device) else { return nil }
        var description = SerialDeviceDescription(path: String(cString: node))
        if let usb = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device") {
            func attribute(_ name: String) -> String? {
                udev_device_get_sysattr_value(usb, name).map { String(cString: $0) }
            }
            description.vendorID = attribute("idVendor")
            description.productID = attribute("idProduct")
            description.serialNumber = attribute("serial")
            description.manufacturer = attribute("manufacturer")
            description.product = attribute("product")
        }
        return description
    }

    /// Whether a device is the configured dock: its USB vendor and product IDs, and its serial
    /// number when one is configured.
    public static func matches(
        _ device: SerialDeviceDescription, vendorID: String, productID: String,
        serialNumber: String
    ) -> Bool {
        device.vendorID?.lowercased() == vendorID.lowercased() && device.productID?.lowercased() == productID.lowercased()
            && (serialNumber.isEmpty || device.serialNumber == serialNumber)
    }
}
