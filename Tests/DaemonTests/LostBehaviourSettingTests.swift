import DockPolicy
import DockTracking
import DockVocabulary
import Testing

@testable import DockDaemon

/// `lost-after-s` and `lost-action`: read from the file and flags into the host's lost
/// behaviour, bad values refused by name with nothing changed, the defaults the tracker's.
@Suite struct LostBehaviourSettingTests {
    func parse(_ arguments: [String], file: String? = nil) throws(DaemonCommand.Failure) -> DaemonCommand {
        try DaemonCommand.parse(arguments) { $0 == "/tmp/d.conf" ? file : nil }
    }

    @Test func theDefaultsAreTheTrackersDefault() {
        #expect(Configuration().hostSettings.lostBehaviour == LostBehaviour.default)
    }

    @Test func theFileAndFlagsSetIt() throws {
        let command = try parse(
            ["--config", "/tmp/d.conf", "--lost-after-s", "2.5"], file: "lost-action = pose:45,-10\nlost-after-s = 9\n")
        guard case .run(let configuration, _) = command else {
            Issue.record("\(command)")
            return
        }
        #expect(
            configuration.hostSettings.lostBehaviour
                == LostBehaviour(after: .milliseconds(2500), action: .pose(yawRadians: 45 * .pi / 180, pitchRadians: -10 * .pi / 180)))
        for (text, action) in [
            ("hold", LostBehaviour.Action.hold), ("home", .home), ("zoom-out", .zoomOut),
            ("preset:stage left", .preset(name: "stage left")),
        ] {
            guard case .run(let configuration, _) = try parse(["--lost-action", text]) else { continue }
            #expect(configuration.hostSettings.lostBehaviour.action == action)
        }
    }

    /// A settings file written for dockd 0.2 still starts dockd: its `rest-after-s` (hold this
    /// long, then turn to the rest pose) is read as `lost-after-s` with `lost-action = home`.
    @Test func theOldNameInAFileStillMeansWhatItDid() throws {
        guard case .run(let configuration, _) = try parse(["--config", "/tmp/d.conf"], file: "rest-after-s = 8\n") else {
            Issue.record("rest-after-s in a file was refused")
            return
        }
        #expect(configuration.hostSettings.lostBehaviour == LostBehaviour(after: .seconds(8), action: .home))
    }

    @Test func badValuesAreRefusedByName() {
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "--lost-action",
                    message: "lost-action: expected hold, home, zoom-out, pose:YAW,PITCH (degrees) or preset:NAME, got 'wander'"))
        ) { try parse(["--lost-action", "wander"]) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "--lost-action",
                    message: "lost-action: in 'preset: door': a preset's name must not begin or end with a space"))
        ) { try parse(["--lost-action", "preset: door"]) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(location: "/tmp/d.conf:1", message: "lost-action: expected pose:YAW,PITCH with two numbers in degrees, got 'pose:10'")
            )
        ) { try parse(["--config", "/tmp/d.conf"], file: "lost-action = pose:10") }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "--lost-action",
                    message: "lost-action: a pose's yaw and pitch must be within -720 to 720 degrees, got 'pose:0,900'"))
        ) { try parse(["--lost-action", "pose:0,900"]) }
        #expect(throws: DaemonCommand.Failure.self) { try parse(["--lost-after-s", "-1"]) }
        #expect(throws: DaemonCommand.Failure.self) { try parse(["--lost-after-s", "3601"]) }
        #expect(throws: DaemonCommand.Failure.self) { try parse(["--rest-after-s", "8"]) }
    }
}
