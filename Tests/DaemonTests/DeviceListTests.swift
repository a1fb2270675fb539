import DockDaemon
import DockLinks
import DockSystem
import Testing

/// `dockd --list-devices`'s text from udev's lists: a machine's 64 virtual consoles and its
/// on-board ports are not a dock, and a webcam is no serial device.
@Suite struct DeviceListTests {
    static let consoles =
        ["/dev/console", "/dev/ptmx", "/dev/tty"].map { SerialDeviceDescription(path: $0) }
        + (0..<64).map { SerialDeviceDescription(path: "/dev/tty\($0)") }
    static let onBoard = [SerialDeviceDescription(path: "/dev/ttyS0"), SerialDeviceDescription(path: "/dev/ttyS1")]
    static let dock = SerialDeviceDescription(
        path: "/dev/ttyACM0", vendorID: "1209", productID: "d0c0", serialNumber: "DK1-0042", manufacturer: "dockd", product: "DK-1")
    static let adapter = SerialDeviceDescription(path: "/dev/ttyUSB0", vendorID: "0403", productID: "6001", product: "FT232R")
    static let serial = consoles + onBoard + [dock, adapter]
    static let webcam = SerialDeviceDescription(path: "/dev/video0", vendorID: "3564", productID: "fef8", product: "OBSBOT Tiny")

    static func listing(_ arguments: [String]) throws -> String {
        var configuration = Configuration()
        _ = try configuration.apply(flags: arguments)
        return DeviceList.text(
            try configuration.validated(), serial: serial, video: [webcam],
            controls: { $0 == "/dev/video0" ? "mechanical pan/tilt, speed controls, zoom" : nil })
    }

    @Test func withSectionsEachAccessoryIsListedUnderItsName() throws {
        var configuration = Configuration()
        try configuration.apply(
            fileText: "[accessory desk]\nserial-number = DK1-0042\n[accessory cam]\nprotocol = uvc\ndevice = /dev/video0\n",
            path: "dockd.conf")
        let listing = DeviceList.text(
            accessories: try configuration.validated().accessorySettings(), hasSections: true, serial: Self.serial,
            video: [Self.webcam], controls: { $0 == "/dev/video0" ? "mechanical pan/tilt, speed controls, zoom" : nil })
        #expect(
            listing == """
                [accessory desk]
                  looking for a USB serial dock 1209:d0c0 serial DK1-0042
                  * /dev/ttyACM0  USB 1209:d0c0 serial DK1-0042 (dockd DK-1)
                    /dev/ttyUSB0  USB 0403:6001 (FT232R)
                [accessory cam]
                \(try Self.listing(["--protocol", "uvc", "--device", "/dev/video0"]).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
                """)
        // Without sections, the one accessory's listing as it always was.
        #expect(
            DeviceList.text(
                accessories: try Configuration().accessorySettings(), hasSections: false, serial: Self.serial, video: [],
                controls: { _ in nil }) == (try Self.listing([])))
    }

    @Test func aDockSerialDockIsLookedForAmongUSBDevicesOnly() throws {
        #expect(
            try Self.listing([]) == """
                looking for a USB serial dock 1209:d0c0
                * /dev/ttyACM0  USB 1209:d0c0 serial DK1-0042 (dockd DK-1)
                  /dev/ttyUSB0  USB 0403:6001 (FT232R)
                """)
    }

    @Test func aVISCACameraOrAPelcoDHeadMayBeOnAnOnBoardPort() throws {
        for name in ["visca", "pelco-d"] {
            #expect(
                try Self.listing(["--protocol", name, "--device", "/dev/ttyS1"]) == """
                    serial ports for --protocol \(name) (--device names one; now /dev/ttyS1):
                      /dev/ttyACM0  USB 1209:d0c0 serial DK1-0042 (dockd DK-1)
                      /dev/ttyUSB0  USB 0403:6001 (FT232R)
                      on-board serial ports: /dev/ttyS0 /dev/ttyS1
                    """)
        }
    }

    @Test func aWebcamIsAVideoDeviceAndNoSerialOne() throws {
        #expect(
            try Self.listing(["--protocol", "uvc"]) == """
                cameras for --protocol uvc (* has pan/tilt controls dockd drives):
                * /dev/video0  USB 3564:fef8 (OBSBOT Tiny)  mechanical pan/tilt, speed controls, zoom
                """)
    }

    @Test func aDigitalCropUsesNoDevice() throws {
        #expect(
            try Self.listing(["--protocol", "digital"]) == "a digital crop uses no device: it crops the picture the vision service reads")
    }

    @Test func noUSBDeviceIsSaidInAWord() throws {
        var configuration = Configuration()
        configuration.vendorID = "1209"
        #expect(
            DeviceList.text(configuration, serial: Self.consoles, video: [], controls: { _ in nil })
                == "looking for a USB serial dock 1209:d0c0\n  no USB serial device is plugged in")
    }
}
