import DockSockets
import DockVocabulary
import Foundation
import Glibc
import TestSupport
import Testing

@testable import DockDaemon

/// Presets through dockd as a process on the simulated dock, with its state directory in a
/// temporary folder: a preset saved before a restart is recalled after it, by `dockctl` as a user
/// would, and the dock goes there; a damaged presets file is named with its line, left as it is,
/// and dockd runs on without presets. Each wait is on an event with a deadline.
@Suite(.serialized, .onTheProcessThreads) struct PresetProcessTests {
    static func temporaryPath(_ name: String) -> String {
        "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    static func parameters(_ reply: [String: Any]?) -> [String: Any] { reply?["parameters"] as? [String: Any] ?? [:] }

    /// dockd on the simulator, with its socket and state directory, once the dock has attached.
    static func startDaemon(socket: String, stateDirectory: String) throws -> ChildProcess {
        let dockd = try ChildProcess(
            "dockd",
            ["--config", "", "--simulator", "--socket", socket, "--state-dir", stateDirectory, "--wake-on-attach=false"])
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil, "dockd attaches the simulated dock")
        return dockd
    }

    /// The dock's yaw as GetStatus reports it.
    static func yaw(_ client: VarlinkTestClient) throws -> Double? {
        let status = parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any]
        return (status?["pose"] as? [String: Any])?["yaw"] as? Double
    }

    @Test func aPresetSavedBeforeARestartIsRecalledAfterItAndTheDockGoesThere() throws {
        let socket = Self.temporaryPath("dockd-presets") + ".sock"
        let state = Self.temporaryPath("dockd-state")
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let file = state + "/simulator-presets.json"

        let first = try Self.startDaemon(socket: socket, stateDirectory: state)
        var client = try VarlinkTestClient(path: socket)
        let moved = try client.call("io.dockd.Dock.SetOrientation", ["yaw": 0.6, "pitch": 0.2, "wait": true])
        #expect(((Self.parameters(moved)["result"] as? [String: Any])?["ended"] as? [String: Any])?["finish"] as? String == "reached")
        let saved = Self.parameters(try client.call("io.dockd.Dock.SavePreset", ["name": "stage"]))["preset"] as? [String: Any]
        let savedYaw = try #require(saved?["yaw"] as? Double, "SavePreset answers the preset: \(String(describing: saved))")
        #expect(abs(savedYaw - 0.6) < 0.02 && saved?["name"] as? String == "stage")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains(#"{"name": "stage", "yaw": "#), "\(written)")
        var mode = stat()
        #expect(stat(state, &mode) == 0 && mode.st_mode & 0o777 == 0o700, "the state directory is private")
        // A bad name changes nothing, and says which parameter.
        let refused = try client.call("io.dockd.Dock.SavePreset", ["name": String(repeating: "n", count: 33)])
        #expect(refused?["error"] as? String == "io.dockd.Dock.InvalidParameter")
        #expect(Self.parameters(refused)["parameter"] as? String == "name")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == written)
        first.signal(SIGTERM)
        #expect(try first.finish().status == 0)

        // Restarted: the simulated dock attaches at home, and the preset is there.
        let second = try Self.startDaemon(socket: socket, stateDirectory: state)
        #expect(second.errorLines.contains { $0.contains("1 preset from \(file)") }, "\(second.errorLines)")
        client = try VarlinkTestClient(path: socket)
        let listed = Self.parameters(try client.call("io.dockd.Dock.ListPresets"))["presets"] as? [[String: Any]]
        #expect(listed?.map { $0["name"] as? String } == ["stage"])
        #expect(abs(try #require(try Self.yaw(client))) < 0.05, "the simulated dock starts at home")

        // As a user would: a one-shot dockctl, which waits until the dock has arrived.
        let environment = ["DOCKD_SOCKET": socket]
        let recall = try ChildProcess("dockctl", ["preset", "recall", "stage"], environment: environment)
        try recall.finishInput("")
        let recalled = try recall.finish()
        #expect(recalled.status == 0 && recalled.output == "reached\n", "\(recalled)")
        let yaw = try #require(try Self.yaw(client))
        #expect(abs(yaw - savedYaw) < 0.02, "the dock is at the preset: \(yaw)")

        let missing = try ChildProcess("dockctl", ["preset", "recall", "nowhere"], environment: environment)
        try missing.finishInput("")
        let answer = try missing.finish()
        #expect(answer.status == 1 && answer.error.contains("there is no preset 'nowhere'"), "\(answer)")
        let deleted = try ChildProcess("dockctl", ["preset", "delete", "stage"], environment: environment)
        try deleted.finishInput("")
        #expect(try deleted.finish().status == 0)
        #expect(!(try String(contentsOfFile: file, encoding: .utf8)).contains("stage"), "deleted from the file")
        // The lost behaviour, read and set as a user would.
        let lost = try ChildProcess("dockctl", ["lost", "--after", "2", "--action", "preset:stage"], environment: environment)
        try lost.finishInput("")
        let set = try lost.finish()
        #expect(set.status == 0 && set.output == "when the subject is lost: after 2.0 s, preset:stage\n", "\(set)")
        let read = Self.parameters(try client.call("io.dockd.Dock.SetLostBehaviour"))["lost"] as? [String: Any]
        #expect(read?["action"] as? String == "preset" && read?["preset"] as? String == "stage" && read?["after"] as? Double == 2)
        second.signal(SIGTERM)
        #expect(try second.finish().status == 0)
    }

    @Test func aDamagedPresetsFileIsNamedWithItsLineLeftAsItIsAndDockdRunsWithoutPresets() throws {
        let socket = Self.temporaryPath("dockd-damaged") + ".sock"
        let state = Self.temporaryPath("dockd-state")
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let file = state + "/simulator-presets.json"
        let damaged = """
            {
              "version": 1,
              "presets": [
                {"name": "stage", "yaw": "left", "pitch": 0}
              ]
            }

            """
        try damaged.write(toFile: file, atomically: false, encoding: .utf8)

        let dockd = try Self.startDaemon(socket: socket, stateDirectory: state)
        #expect(
            dockd.errorLines.contains {
                $0.contains("cannot read the presets: \(file): line 4: presets[0].yaw: must be a number, got a string")
            }, "\(dockd.errorLines)")
        let client = try VarlinkTestClient(path: socket)
        #expect(Self.parameters(try client.call("io.dockd.Dock.ListPresets"))["presets"] as? [Any] != nil)
        #expect((Self.parameters(try client.call("io.dockd.Dock.ListPresets"))["presets"] as? [Any])?.isEmpty == true)
        let refused = try client.call("io.dockd.Dock.SavePreset", ["name": "desk"])
        #expect(refused?["error"] as? String == "io.dockd.Dock.PresetsUnavailable")
        #expect(Self.parameters(refused)["file"] as? String == file)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == damaged, "the file is left as it was")
        let recalled = try client.call("io.dockd.Dock.RecallPreset", ["name": "stage"])
        #expect(recalled?["error"] as? String == "io.dockd.Dock.NoSuchPreset")
        #expect(Self.parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] != nil, "dockd runs on")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }

    /// A state directory that reads as empty but cannot be made (under /proc, where no
    /// directory can be, even for root): the save is refused by name and nothing is kept — the
    /// preset is not in the list either.
    @Test func aSaveTheDiskRefusesChangesNothing() throws {
        let socket = Self.temporaryPath("dockd-unwritable") + ".sock"
        let state = "/proc/dockd-presets-\(getpid())"
        let file = PresetFile(directory: state, isSimulator: true)
        #expect(try file.load() == PresetStore(), "no file: no presets")
        #expect(throws: SystemError.self) { try file.store(PresetStore()) }
        let dockd = try Self.startDaemon(socket: socket, stateDirectory: state)
        let client = try VarlinkTestClient(path: socket)
        let refused = try client.call("io.dockd.Dock.SavePreset", ["name": "desk"])
        #expect(refused?["error"] as? String == "io.dockd.Dock.PresetsUnavailable", "\(String(describing: refused))")
        #expect((Self.parameters(refused)["reason"] as? String)?.hasPrefix("cannot be written (mkdir /proc/dockd-presets-") == true)
        #expect((Self.parameters(try client.call("io.dockd.Dock.ListPresets"))["presets"] as? [Any])?.isEmpty == true)
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
