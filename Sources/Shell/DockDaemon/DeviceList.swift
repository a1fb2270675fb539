import DockLinks
public import DockSystem

/// `dockd --list-devices`: the devices the chosen protocol can use, and no others, with the one
/// dockd would take marked `*`. A dock-serial dock is a USB device found by its IDs, so only USB
/// serial devices are listed; a VISCA camera or a Pelco-D head may also hang on an on-board port
/// (`/dev/ttyS0`), so those are listed too, on one line; a UVC webcam is a video4linux device.
/// Virtual consoles (`/dev/tty0`...`/dev/tty63`, `/dev/console`, `/dev/ptmx`) are never listed:
/// no accessory is there. Pure: udev's lists and the V4L2 probe are passed in.
public enum DeviceList {
    /// The listing for `configuration` from udev's `serial` and `video` devices; `controls`
    /// probes a video device (nil: no pan/tilt, or not readable).
    public static func text(
        _ configuration: Configuration, serial: [SerialDeviceDescription], video: [SerialDeviceDescription],
        controls: (String) -> String?
    ) -> String {
        switch configuration.accessoryProtocol {
        case .uvc: videoLines(configuration, video, controls).joined(separator: "\n")
        case .dockSerial: serialLines(configuration, serial, onBoard: false).joined(separator: "\n")
        case .visca, .pelcoD: serialLines(configuration, serial, onBoard: true).joined(separator: "\n")
        case .digital: "a digital crop uses no device: it crops the picture the vision service reads"
        }
    }

    /// The listing for every accessory of the settings: without sections, the top level's as
    /// ``text(_:serial:video:controls:)`` gives it; with them, each section's under its name
    /// (`[accessory NAME]`), its lines indented.
    public static func text(
        accessories: [NamedAccessorySettings], hasSections: Bool, serial: [SerialDeviceDescription],
        video: [SerialDeviceDescription], controls: (String) -> String?
    ) -> String {
        let listings = accessories.map { accessory in
            (accessory.name, text(accessory.configuration, serial: serial, video: video, controls: controls))
        }
        guard hasSections else { return listings.map(\.1).joined(separator: "\n") }
        return listings.map { name, listing in
            "[accessory \(name)]\n"
                + listing.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// A console or a terminal multiplexer: a tty node no accessory can be on.
    static func isConsole(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if ["tty", "console", "ptmx"].contains(name) { return true }
        return name.hasPrefix("tty") && !name.dropFirst(3).isEmpty && name.dropFirst(3).allSatisfy(\.isNumber)
    }

    private static func serialLines(_ configuration: Configuration, _ devices: [SerialDeviceDescription], onBoard: Bool) -> [String] {
        let kind = configuration.accessoryProtocol == .dockSerial ? "dock" : "accessory"
        var lines: [String] = []
        if configuration.accessoryProtocol == .dockSerial {
            lines.append(
                "looking for a USB serial dock \(configuration.vendorID):\(configuration.productID)"
                    + (configuration.serialNumber.isEmpty ? "" : " serial \(configuration.serialNumber)")
                    + (configuration.device.isEmpty ? "" : "; --device \(configuration.device) is used as it is"))
        } else {
            lines.append(
                "serial ports for --protocol \(configuration.accessoryProtocol.rawValue) (--device names one"
                    + (configuration.device.isEmpty ? "" : "; now \(configuration.device)") + "):")
        }
        let usb = devices.filter { $0.vendorID != nil }
        let ports = onBoard ? devices.filter { $0.vendorID == nil && !isConsole($0.path) } : []
        if usb.isEmpty { lines.append("  no USB serial device is plugged in") }
        for device in usb {
            let isMatch =
                configuration.accessoryProtocol == .dockSerial && configuration.device.isEmpty
                && DeviceDiscovery.matches(
                    device, vendorID: configuration.vendorID, productID: configuration.productID,
                    serialNumber: configuration.serialNumber)
            let names = [device.manufacturer, device.product].compactMap { $0 }.joined(separator: " ")
            lines.append(
                "\(isMatch || device.path == configuration.device ? "*" : " ") \(device.path)  USB \(device.vendorID!):\(device.productID ?? "????")"
                    + (device.serialNumber.map { " serial \($0)" } ?? "") + (names.isEmpty ? "" : " (\(names))"))
        }
        if !ports.isEmpty {
            lines.append("  on-board serial ports: " + ports.map(\.path).joined(separator: " "))
        }
        if configuration.accessoryProtocol == .dockSerial, !usb.isEmpty,
            !usb.contains(where: {
                DeviceDiscovery.matches(
                    $0, vendorID: configuration.vendorID, productID: configuration.productID, serialNumber: configuration.serialNumber)
            })
        {
            lines.append("  none is the \(kind): plug it in, or give --vendor-id and --product-id (or --device)")
        }
        return lines
    }

    private static func videoLines(_ configuration: Configuration, _ found: [SerialDeviceDescription], _ controls: (String) -> String?)
        -> [String]
    {
        var videos = found
        if !configuration.device.isEmpty, !videos.contains(where: { $0.path == configuration.device }) {
            videos.append(SerialDeviceDescription(path: configuration.device))  // named, if udev does not know it (an emulated camera)
        }
        guard !videos.isEmpty else { return ["no camera: udev knows no video4linux device"] }
        var lines = ["cameras for --protocol uvc (* has pan/tilt controls dockd drives):"]
        for device in videos {
            let usb =
                device.vendorID.map { "USB \($0):\(device.productID ?? "????")" + (device.product.map { " (\($0))" } ?? "") } ?? "not USB"
            let probed = controls(device.path)
            lines.append("\(probed == nil ? " " : "*") \(device.path)  \(usb)  " + (probed ?? "no pan/tilt, or not readable"))
        }
        return lines
    }
}
