import DockPolicy
import DockTracking
import Testing

@testable import DockDaemon

/// `reidentification-window-s`: from the file or a flag to the tracker the daemon runs, at start
/// and on a reload.
@Suite struct ReidentificationSettingTests {
    @Test func theWindowReachesTheTrackerAndAReloadChangesIt() throws {
        let path = DaemonCommand.defaultConfigurationPath
        let command = try DaemonCommand.parse([]) { $0 == path ? "reidentification-window-s = 12.5\n" : nil }
        guard case .run(let configuration, _) = command else {
            Issue.record("not a run: \(command)")
            return
        }
        #expect(configuration.reidentificationWindowSeconds == 12.5)
        var host = HostPolicy(settings: configuration.hostSettings)
        #expect(host.pipeline.tracker.configuration.reidentificationWindow == .milliseconds(12_500))

        // SIGHUP with the flag: the tracker keeps running with the new window.
        let reloaded = try DaemonCommand.reload(["--reidentification-window-s", "0"], loadedFrom: nil, defaults: Configuration()) { _ in nil
        }
        _ = host.reconfigured(reloaded.configuration.hostSettings, now: .seconds(1))
        #expect(host.pipeline.tracker.configuration.reidentificationWindow == .zero, "0: never")
        #expect(HostPolicy().pipeline.tracker.configuration.reidentificationWindow == .seconds(30), "the default")
    }

    @Test func aWindowOutsideTheTrackersRangeIsRefusedByName() {
        for value in ["-1", "3601", "soon"] {
            #expect(throws: DaemonCommand.Failure.self, "\(value)") {
                try DaemonCommand.parse(["--reidentification-window-s", value]) { _ in nil }
            }
        }
        do {
            _ = try DaemonCommand.parse(["--reidentification-window-s", "3601"]) { _ in nil }
        } catch {
            #expect("\(error)".contains("reidentification-window-s"), "\(error)")
        }
    }
}
