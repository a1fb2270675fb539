import DockSockets
import DockSystem
import Testing

@testable import DockDaemon

/// A normal user's default socket: their own, not the system's they cannot bind.
@Suite struct SocketDefaultTests {
    let user: UInt32 = 1000
    let runtime = ["XDG_RUNTIME_DIR": "/run/user/1000"]

    @Test func aNormalUsersSocketIsTheirOwn() {
        #expect(ControlSocketPath.perUser(userID: user, environment: runtime) == "/run/user/1000/dockd.sock")
        #expect(
            ControlSocketPath.perUser(userID: user, environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"])
                == "/run/user/1000/dockd.sock")
        // Unset, empty or relative (which the XDG specification says to ignore): a private directory in /tmp.
        for environment in [[:], ["XDG_RUNTIME_DIR": ""], ["XDG_RUNTIME_DIR": "run/user/1000"]] {
            #expect(ControlSocketPath.perUser(userID: user, environment: environment) == "/tmp/dockd-1000/dockd.sock")
        }
        #expect(ControlSocketPath.daemonDefault(effectiveUserID: user, environment: runtime) == "/run/user/1000/dockd.sock")
        #expect(ControlSocketPath.daemonDefault(effectiveUserID: 0, environment: runtime) == "/run/dockd/dockd.sock")
        #expect(
            ControlSocketPath.clientCandidates(effectiveUserID: user, environment: runtime)
                == ["/run/user/1000/dockd.sock", "/run/dockd/dockd.sock"])
        #expect(ControlSocketPath.clientCandidates(effectiveUserID: 0, environment: runtime) == ["/run/dockd/dockd.sock"])
    }

    @Test func theDefaultsDifferOnlyInTheSocketAndTheStateDirectory() throws {
        var expected = Configuration()
        expected.socket = "/run/user/1000/dockd.sock"
        expected.stateDirectory = ""  // no HOME, no XDG_STATE_HOME: nowhere to keep presets
        let defaults = Configuration(effectiveUserID: user, environment: runtime)
        #expect(defaults == expected)
        // A user's own state directory, as the XDG specification places it; systemd's first.
        func state(_ userID: UInt32, _ environment: [String: String]) -> String {
            Configuration(effectiveUserID: userID, environment: environment).stateDirectory
        }
        #expect(state(user, ["HOME": "/home/u"]) == "/home/u/.local/state/dockd")
        #expect(state(user, ["HOME": "/home/u", "XDG_STATE_HOME": "/s"]) == "/s/dockd")
        #expect(state(user, ["HOME": "/home/u", "XDG_STATE_HOME": "relative"]) == "/home/u/.local/state/dockd")
        #expect(state(user, ["HOME": "/home/u", "STATE_DIRECTORY": "/var/lib/dockd:/var/lib/other"]) == "/var/lib/dockd")
        #expect(state(0, ["HOME": "/root"]) == "/var/lib/dockd")
        #expect(Configuration(effectiveUserID: 0, environment: runtime) == Configuration())
        #expect(try DaemonCommand.parse([], defaults: defaults) { _ in nil } == .run(defaults, configurationPath: nil))
        var noAPI = defaults
        noAPI.socket = ""
        #expect(try DaemonCommand.parse(["--socket", ""], defaults: defaults) { _ in nil } == .run(noAPI, configurationPath: nil))
        // --help shows the default in force for whoever asks.
        #expect(DaemonCommand.helpText(defaults: defaults).contains("no API [/run/user/1000/dockd.sock]"))
        #expect(DaemonCommand.helpText().contains("no API [/run/dockd/dockd.sock]"))
    }
}
