import DockLinks
import DockPolicy
import Testing

@testable import DockDaemon

/// Settings from the file and from flags, and the errors that name file:line or the flag.
@Suite struct ConfigurationTests {
    func parse(_ arguments: [String], files: [String: String] = [:]) throws(DaemonCommand.Failure) -> DaemonCommand {
        try DaemonCommand.parse(arguments) { files[$0] }
    }

    @Test func defaultsWithoutAFile() throws {
        #expect(try parse([]) == .run(Configuration(), configurationPath: nil))
        #expect(try parse(["--help"]) == .help)
        #expect(try parse(["--version", "--device", "/dev/dock0"]) == .version)
        #expect(try parse(["--list-devices"]) == .listDevices(Configuration()))
    }

    @Test func theFileAndThenTheFlagsApply() throws {
        let file = """
            # a dock on the desk
            device = /dev/dock0
            baud=57600
            tracking = yes   # on from the start
            yaw-min-deg = -90
            """
        var expected = Configuration()
        expected.device = "/dev/ttyACM3"
        expected.baud = 57600
        expected.tracking = false
        expected.yawMinimumDegrees = -90
        let command = try parse(
            ["--device", "/dev/ttyACM3", "--tracking=false"],
            files: [DaemonCommand.defaultConfigurationPath: file])
        #expect(command == .run(expected, configurationPath: DaemonCommand.defaultConfigurationPath))
        #expect(
            try parse(["--config", "/tmp/d.conf", "--simulator"], files: ["/tmp/d.conf": "log-level = debug"])
                == .run(
                    {
                        var c = Configuration()
                        c.logLevel = "debug"
                        c.simulator = true
                        return c
                    }(),
                    configurationPath: "/tmp/d.conf"))
    }

    @Test func badLinesAreRefusedWithFileAndLine() {
        let files = ["/etc/dockd/dockd.conf": "baud = 115200\nspeed = 3\n"]
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "/etc/dockd/dockd.conf:2",
                    message: "unknown setting 'speed' (dockd --help lists them)"))
        ) { try parse([], files: files) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "/etc/dockd/dockd.conf:1",
                    message: "expected 'key = value', got 'tracking'"))
        ) {
            try parse([], files: ["/etc/dockd/dockd.conf": "tracking\n"])
        }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "--baud",
                    message: "baud: must be a whole number, got 'fast'"))
        ) { try parse(["--baud", "fast"]) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "--yaw-max-deg",
                    message: "yaw-max-deg: must be a finite number, got 'nan'"))
        ) { try parse(["--yaw-max-deg", "nan"]) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "--vendor-id",
                    message: "vendor-id: must be 4 hex digits, got 'xyz'"))
        ) { try parse(["--vendor-id=xyz"]) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "pitch-min-deg",
                    message: "must be below pitch-max-deg"))
        ) { try parse(["--pitch-min-deg", "10", "--pitch-max-deg", "5"]) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "simulator",
                    message: "choose either a device or the simulator"))
        ) { try parse(["--simulator", "--device", "/dev/x"]) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "/etc/dockd/dockd.conf:1",
                    message: "protocol: must be one of dock-serial, visca, uvc, pelco-d, digital, got 'pelco-p'"))
        ) { try parse([], files: ["/etc/dockd/dockd.conf": "protocol = pelco-p\n"]) }
    }

    /// The protocol is read into its enum where the setting is read, by its name, and shown by it.
    @Test func theProtocolIsParsedOnceByName() throws {
        for accessoryProtocol in AccessoryProtocol.allCases {
            let device = accessoryProtocol.hasWire ? ["--device", "/dev/x"] : []  // a digital crop has none
            guard case .run(let configuration, _) = try parse(["--protocol", accessoryProtocol.name] + device) else {
                Issue.record("not a run")
                continue
            }
            #expect(configuration.accessoryProtocol == accessoryProtocol)
        }
        #expect(AccessoryProtocol.names == ["dock-serial", "visca", "uvc", "pelco-d", "digital"])
        #expect(AccessoryProtocol(name: "VISCA") == nil, "names are exact")
        #expect(Configuration.helpLines().contains { $0.contains("--protocol VALUE") && $0.hasSuffix("[dock-serial]") })
    }

    /// `wake` on attach: a dock-serial dock by default, a camera whose picture may be in a call not;
    /// the setting, given, wins either way, and an empty value is the default again.
    @Test func wakeOnAttachDependsOnTheProtocolUnlessSet() throws {
        for accessoryProtocol in AccessoryProtocol.allCases {
            let device = accessoryProtocol.hasWire ? ["--device", "/dev/x"] : []  // a digital crop has none
            guard case .run(let configuration, _) = try parse(["--protocol", accessoryProtocol.name] + device),
                case .run(let asked, _) = try parse(["--protocol", accessoryProtocol.name] + device + ["--wake-on-attach"]),
                case .run(let refused, _) = try parse(["--protocol", accessoryProtocol.name] + device + ["--wake-on-attach=false"])
            else {
                Issue.record("not a run")
                continue
            }
            #expect(configuration.hostSettings.wakesOnAttach == (accessoryProtocol == .dockSerial), "\(accessoryProtocol.name)")
            #expect(asked.hostSettings.wakesOnAttach && !refused.hostSettings.wakesOnAttach)
        }
        var configuration = Configuration()
        try configuration.apply(fileText: "wake-on-attach = false\nwake-on-attach =\n", path: "dockd.conf")
        #expect(configuration.wakeOnAttach == nil && configuration.wakesOnAttach)
        #expect(Configuration.helpLines().contains { $0.contains("--wake-on-attach") && $0.hasSuffix("[empty]") })
    }

    /// Found by `scripts/fuzz configuration` (FuzzTesting/regressions/configuration/crlf-blank-line):
    /// split as Characters, a CRLF file was one line, so a blank CRLF line was refused.
    @Test func aFileWithCRLFLineEndsReadsAsWithLF() throws {
        var expected = Configuration()
        expected.baud = 57600
        expected.tracking = true
        #expect(
            try parse([], files: [DaemonCommand.defaultConfigurationPath: "baud = 57600\r\n\r\ntracking = yes\r\n"])
                == .run(expected, configurationPath: DaemonCommand.defaultConfigurationPath))
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "/etc/dockd/dockd.conf:2",
                    message: "unknown setting 'speed' (dockd --help lists them)"))
        ) {
            try parse([], files: ["/etc/dockd/dockd.conf": "\r\nspeed = 3\r\n"])
        }
    }

    /// Found by `scripts/fuzz configuration` (FuzzTesting/regressions/configuration/
    /// combining-mark-after-equals): a value that begins with a combining mark makes one Character
    /// of it and the `=` before it, which a Character search for "=" does not find, so dockd's
    /// own `--scenario=VALUE` for a scenario set by `--scenario VALUE` was an unknown argument, and
    /// in a file a space before such a value was kept as part of it.
    @Test func aValueThatBeginsWithACombiningMarkIsReadWhole() throws {
        var expected = Configuration()
        expected.scenario = "\u{359}x.json"
        for arguments in [["--scenario", "\u{359}x.json"], ["--scenario=\u{359}x.json"]] {
            #expect(try parse(arguments) == .run(expected, configurationPath: nil), "\(arguments)")
        }
        for line in [
            "scenario =\u{359}x.json", "scenario = \u{359}x.json", "scenario=\u{359}x.json \t",
            "scenario = \u{359}x.json #\u{359} a comment",
        ] {
            #expect(
                try parse(["--config", "/c"], files: ["/c": line]) == .run(expected, configurationPath: "/c"),
                "\(line.unicodeScalars.map(\.value))")
        }
    }

    @Test func usageErrors() {
        #expect(throws: DaemonCommand.Failure.usage("unknown argument '--frobnicate'")) { try parse(["--frobnicate"]) }
        #expect(throws: DaemonCommand.Failure.usage("cannot read configuration file '/nope.conf'")) {
            try parse(["--config", "/nope.conf"])
        }
        #expect(throws: DaemonCommand.Failure.configuration(.init(location: "--device", message: "needs a value"))) {
            try parse(["--device"])
        }
    }

    @Test func theHelpListsEveryKeyWithItsDefault() {
        let help = DaemonCommand.helpText()
        for key in Configuration.keys {
            #expect(help.contains("--\(key.name)"), "--help lists \(key.name)")
        }
        #expect(help.contains("--baud VALUE") && help.contains("[115200]"))
        #expect(help.contains("--tracking ") && help.contains("[false]"))
        #expect(help.hasPrefix("dockd: drives a motorised pan-tilt camera mount"))
    }
}
