import DockPolicy
import DockTracking
import DockVocabulary
import Foundation
import Testing

@testable import DockDaemon

/// `framing-speed` and the `framing-yaw-*` and `framing-pitch-*` keys: read from the file and
/// flags into the host's framing speed (degrees to radians), bad values refused by name.
@Suite struct FramingSpeedSettingTests {
    func parse(_ arguments: [String], file: String? = nil) throws(DaemonCommand.Failure) -> DaemonCommand {
        try DaemonCommand.parse(arguments) { $0 == "/tmp/d.conf" ? file : nil }
    }

    @Test func theDefaultIsNormal() {
        #expect(Configuration().hostSettings.framingSpeed == FramingSpeed(.normal))
        #expect(Configuration().hostSettings.framingSpeed == FramingController.Configuration().framingSpeed)
    }

    @Test func theFileAndFlagsSetTheProfileAndItsNumbers() throws {
        let command = try parse(
            ["--config", "/tmp/d.conf", "--framing-yaw-max-deg-s", "45"],
            file: "framing-speed = smooth\nframing-pitch-dead-band-deg = 2\nframing-yaw-accel-deg-s2 = 90\n")
        guard case .run(let configuration, _) = command else {
            Issue.record("\(command)")
            return
        }
        var expected = FramingSpeed(.smooth)
        let degree = Double.pi / 180
        expected.yaw.maximumSpeedRadiansPerSecond = 45 * degree
        expected.yaw.maximumAccelerationRadiansPerSecondSquared = 90 * degree
        expected.pitch.deadBandRadians = 2 * degree
        #expect(configuration.hostSettings.framingSpeed == expected)
        guard case .run(let fast, _) = try parse(["--framing-speed", "fast", "--framing-yaw-max-deg-s", ""]) else {
            Issue.record("refused")
            return
        }
        #expect(fast.hostSettings.framingSpeed == FramingSpeed(.fast), "empty: the profile's")
    }

    @Test func badValuesAreRefusedByName() {
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(location: "--framing-speed", message: "framing-speed: must be one of smooth, normal, fast, got 'sport'"))
        ) { try parse(["--framing-speed", "sport"]) }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "/tmp/d.conf:1",
                    message: "framing-pitch-accel-deg-s2: must be from 0.001 to 1000000.0, got -5"))
        ) { try parse(["--config", "/tmp/d.conf"], file: "framing-pitch-accel-deg-s2 = -5") }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "--framing-yaw-dead-band-deg",
                    message: "framing-yaw-dead-band-deg: must be a finite number (or empty), got 'nan'"))
        ) { try parse(["--framing-yaw-dead-band-deg", "nan"]) }
    }
}
