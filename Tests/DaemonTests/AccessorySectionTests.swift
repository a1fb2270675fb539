import DockLinks
import DockVocabulary
import Testing

@testable import DockDaemon

/// `[accessory NAME]` sections of dockd.conf: one accessory each, over the top level's settings;
/// without any, the top level is the one accessory as before. Each bad section is refused with
/// its file, line and accessory, at start and on SIGHUP alike.
@Suite struct AccessorySectionTests {
    let path = "/etc/dockd/dockd.conf"

    func settings(_ text: String, flags: [String] = []) throws(DaemonCommand.Failure) -> [NamedAccessorySettings] {
        guard case .run(let configuration, _) = try DaemonCommand.parse(flags, readFile: { $0 == path ? text : nil }) else {
            throw .usage("not a run")
        }
        do {
            return try configuration.accessorySettings()
        } catch {
            throw .configuration(error)
        }
    }

    func refusal(_ text: String) -> DaemonCommand.Failure? {
        do {
            _ = try settings(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func withoutSectionsTheTopLevelIsTheOneAccessory() throws {
        let accessories = try settings("tracking = on\ndevice = /dev/ttyUSB0\n")
        var expected = Configuration()
        expected.tracking = true
        expected.device = "/dev/ttyUSB0"
        #expect(accessories == [NamedAccessorySettings(name: "default", configuration: expected)])
    }

    @Test func eachSectionIsAnAccessoryOverTheTopLevel() throws {
        let accessories = try settings(
            """
            tracking = on
            device = /dev/ttyUSB9   # the top level's device is no section's
            [accessory desk]
            device = /dev/dock0
            [accessory stage]
            visca = udp:192.0.2.7:52381
            tracking = off
            framing-speed = smooth
            """, flags: ["--max-speed-deg-s", "90"])
        #expect(accessories.map(\.name) == ["desk", "stage"])
        let desk = accessories[0].configuration, stage = accessories[1].configuration
        #expect(desk.device == "/dev/dock0")
        #expect(desk.accessoryProtocol == .dockSerial)
        #expect(desk.tracking, "the top level's setting is the section's default")
        #expect(desk.maximumSpeedDegreesPerSecond == 90, "so are the flags")
        #expect(desk.sections.isEmpty)
        #expect(stage.device.isEmpty)
        #expect(stage.visca == "udp:192.0.2.7:52381")
        #expect(stage.accessoryProtocol == .visca)
        #expect(!stage.tracking)
        #expect(stage.framingSpeed == .smooth)
        #expect(desk.framingSpeed == .normal, "one section's line is not another's")
    }

    @Test func anUnknownProtocolInASectionIsRefusedWithItsLineAndAccessory() {
        #expect(
            refusal("[accessory desk]\ndevice = /dev/dock0\n[accessory cam]\nprotocol = ndi\n")
                == .configuration(
                    .init(
                        location: "\(path):4",
                        message: "accessory 'cam': protocol: must be one of dock-serial, visca, uvc, pelco-d, digital, got 'ndi'")))
    }

    @Test func twoSectionsClaimingOneDeviceAreRefused() {
        #expect(
            refusal("[accessory a]\ndevice = /dev/dock0\n\n[accessory b]\ndevice = /dev/dock0\n")
                == .configuration(
                    .init(location: "\(path):4", message: "accessory 'b' claims device /dev/dock0, which accessory 'a' claims too")))
        #expect(
            refusal("[accessory a]\nvisca = tcp:cam:5678\n[accessory b]\nvisca = tcp:cam:5678\n")
                == .configuration(
                    .init(location: "\(path):3", message: "accessory 'b' claims the camera at tcp:cam:5678, which accessory 'a' claims too")
                ))
        // Two found by the same USB IDs could be the same dock unless serial numbers tell them apart.
        #expect(
            refusal("[accessory a]\n[accessory b]\nserial-number = B2\n")
                == .configuration(
                    .init(
                        location: "\(path):2",
                        message: "accessory 'b' claims the dock with USB IDs 1209:d0c0 and serial number B2, "
                            + "which accessory 'a' claims too")))
        #expect(refusal("[accessory a]\nserial-number = A1\n[accessory b]\nserial-number = B2\n") == nil)
        // Two webcams found by their controls would be the same one.
        #expect(refusal("[accessory a]\nprotocol = uvc\n[accessory b]\nprotocol = uvc\n") != nil)
        #expect(
            refusal("[accessory a]\nprotocol = uvc\ndevice = /dev/video0\n[accessory b]\nprotocol = uvc\ndevice = /dev/video2\n") == nil)
        // In-process simulators take no device.
        #expect(refusal("[accessory a]\nsimulator = on\n[accessory b]\nsimulator = on\n") == nil)
        // Nor does a digital crop: beside a dock found by its USB IDs, or another crop.
        #expect(refusal("[accessory dock]\n[accessory crop]\nprotocol = digital\n[accessory wide]\nprotocol = digital\n") == nil)
    }

    @Test func aNameUsedTwiceIsRefused() {
        #expect(
            refusal("[accessory cam]\ndevice = /dev/a\n[accessory cam]\ndevice = /dev/b\n")
                == .configuration(.init(location: "\(path):3", message: "accessory 'cam' is named twice (first at \(path):1)")))
    }

    @Test func badHeadersNamesAndDaemonKeysInASectionAreRefused() {
        #expect(
            refusal("[camera one]\n")
                == .configuration(.init(location: "\(path):1", message: "expected a section '[accessory NAME]', got '[camera one]'")))
        #expect(
            refusal("[accessory one\n")
                == .configuration(.init(location: "\(path):1", message: "expected a section '[accessory NAME]', got '[accessory one'")))
        #expect(
            refusal("[accessory caméra]\n")
                == .configuration(
                    .init(
                        location: "\(path):1",
                        message: "an accessory's name is letters, digits, '-' and '_' (at most 64), got 'caméra'")))
        #expect(
            refusal("[accessory a]\nsocket = /tmp/x.sock\n")
                == .configuration(
                    .init(
                        location: "\(path):2",
                        message: "socket is dockd's own setting, not accessory 'a''s: set it above the first section")))
        #expect(
            refusal("[accessory a]\nbogus = 1\n")
                == .configuration(.init(location: "\(path):2", message: "unknown setting 'bogus' (dockd --help lists them)")))
        #expect(
            refusal("[accessory a]\nyaw-min-deg = 10\nyaw-max-deg = 5\n")
                == .configuration(.init(location: "yaw-min-deg", message: "accessory 'a': must be below yaw-max-deg")))
    }

    @Test func aReloadRefusesABadSectionAsTheStartDoes() {
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(location: "\(path):3", message: "accessory 'cam' is named twice (first at \(path):1)"))
        ) {
            try DaemonCommand.reload([], loadedFrom: path, defaults: Configuration()) { _ in
                "[accessory cam]\ndevice = /dev/a\n[accessory cam]\n"
            }
        }
        #expect(throws: DaemonCommand.Failure.self) {
            try DaemonCommand.reload([], loadedFrom: path, defaults: Configuration()) { _ in "[accessory cam]\nprotocol = ndi\n" }
        }
    }

    @Test func aNamedAccessoryKeepsItsOwnPresets() {
        #expect(PresetFile(directory: "/var/lib/dockd").path == "/var/lib/dockd/presets.json")
        #expect(PresetFile(directory: "/var/lib/dockd", accessory: "desk").path == "/var/lib/dockd/presets-desk.json")
        #expect(
            PresetFile(directory: "/var/lib/dockd/", isSimulator: true, accessory: "sim").path
                == "/var/lib/dockd/simulator-presets-sim.json")
    }
}
