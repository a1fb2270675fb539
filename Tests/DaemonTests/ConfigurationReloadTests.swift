import Testing

@testable import DockDaemon

/// SIGHUP's reload: the start-up parser again, with its checks and errors, and a file that has
/// gone refused rather than taken for the defaults.
@Suite struct ConfigurationReloadTests {
    let path = "/etc/dockd/dockd.conf"

    func reload(_ arguments: [String], loadedFrom previous: String?, files: [String: String])
        throws(DaemonCommand.Failure) -> (configuration: Configuration, path: String?)
    {
        try DaemonCommand.reload(arguments, loadedFrom: previous, defaults: Configuration()) { files[$0] }
    }

    @Test func aReloadReadsTheFileAgainAndTheFlagsStillWin() throws {
        let reloaded = try reload(
            ["--simulator", "--baud", "9600"], loadedFrom: path,
            files: [path: "tracking = on\nbaud = 57600\n"])
        var expected = Configuration()
        expected.simulator = true
        expected.tracking = true
        expected.baud = 9600
        #expect(reloaded.configuration == expected)
        #expect(reloaded.path == path)
        // A file that appeared since the start is read, as it would be at start.
        #expect(try reload([], loadedFrom: nil, files: [path: "tracking = on"]).path == path)
        #expect(try reload([], loadedFrom: nil, files: [:]).configuration == Configuration())
    }

    @Test func aReloadRefusesWhatTheStartWouldRefuse() {
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "\(path):2",
                    message: "baud: must be a whole number, got 'fast'"))
        ) {
            try reload([], loadedFrom: path, files: [path: "tracking = on\nbaud = fast\n"])
        }
        #expect(throws: DaemonCommand.Failure.configuration(.init(location: "pitch-min-deg", message: "must be below pitch-max-deg"))) {
            try reload(["--pitch-max-deg", "5"], loadedFrom: path, files: [path: "pitch-min-deg = 10"])
        }
        #expect(throws: DaemonCommand.Failure.usage("cannot read configuration file '/tmp/gone.conf'")) {
            try reload(["--config", "/tmp/gone.conf"], loadedFrom: "/tmp/gone.conf", files: [:])
        }
    }

    @Test func aVanishedDefaultFileIsRefusedNotTakenForTheDefaults() {
        // At start a missing default file means the defaults; on reload, the settings in force
        // came from it, so its disappearance is an error, not a silent return to the defaults.
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: path,
                    message: "cannot read the configuration file any more (removed?)"))
        ) {
            try reload(["--simulator"], loadedFrom: path, files: [:])
        }
    }
}
