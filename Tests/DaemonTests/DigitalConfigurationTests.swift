import DockLinks
import Testing

@testable import DockDaemon

/// The digital pan-tilt-zoom's settings: what the crop's link is built from, and what is refused,
/// by name.
@Suite struct DigitalConfigurationTests {
    func parse(_ arguments: [String], files: [String: String] = [:]) throws(DaemonCommand.Failure) -> DaemonCommand {
        try DaemonCommand.parse(arguments) { files[$0] }
    }

    func configuration(_ arguments: [String], files: [String: String] = [:]) throws -> Configuration {
        guard case .run(let configuration, _) = try parse(arguments, files: files) else {
            Issue.record("not a run: \(arguments)")
            return Configuration()
        }
        return configuration
    }

    @Test func theDefaultsMakeTheLinksDefaults() throws {
        let settings = try configuration(["--protocol", "digital"])
        let link = try #require(try settings.accessoryLink(identifier: "digital") as? DigitalSession)
        #expect(link.accessoryProtocol == .digital)
        #expect(link.configuration == DigitalSession.Configuration(), "the settings' defaults are the link's")
    }

    @Test func everyKeyReachesTheLinkFromAFileOrAFlag() throws {
        let file = """
            protocol = digital
            digital-fov-deg = 120
            digital-aspect = 4:3
            """
        let settings = try configuration(
            ["--config", "/etc/dockd/dockd.conf", "--digital-max-zoom", "2", "--digital-max-deg-s", "45", "--digital-start-zoom", "0.5"],
            files: ["/etc/dockd/dockd.conf": file])
        let link = try #require(try settings.accessoryLink(identifier: "digital") as? DigitalSession).configuration
        #expect(link.horizontalFieldOfViewDegrees == 120 && link.aspectRatio == 4.0 / 3)
        #expect(link.maximumMagnification == 2 && link.maximumDegreesPerSecond == 45 && link.initialZoomFraction == 0.5)
        let decimal = try configuration(["--protocol", "digital", "--digital-aspect", "1.5"])
        #expect(try decimal.digitalAspectRatio() == 1.5)
    }

    @Test func badSettingsAreRefusedByName() {
        func refusal(_ arguments: [String]) -> String? {
            do {
                _ = try parse(arguments)
                return nil
            } catch {
                guard case .configuration(let error) = error else { return "\(error)" }
                return error.description
            }
        }
        #expect(refusal(["--digital-fov-deg", "180"]) == "--digital-fov-deg: digital-fov-deg: must be from 10.0 to 170.0, got 180")
        #expect(refusal(["--digital-max-zoom", "1"]) == "--digital-max-zoom: digital-max-zoom: must be from 1.1 to 16.0, got 1")
        #expect(refusal(["--digital-start-zoom", "1.5"]) == "--digital-start-zoom: digital-start-zoom: must be from 0.0 to 1.0, got 1.5")
        #expect(refusal(["--digital-max-deg-s", "inf"]) == "--digital-max-deg-s: digital-max-deg-s: must be a finite number, got 'inf'")
        for aspect in ["16:0", "wide", "16:9:1", "9:100", ":"] {
            #expect(
                refusal(["--protocol", "digital", "--digital-aspect", aspect])
                    == "digital-aspect: must be WIDTH:HEIGHT (16:9) or a number, from 0.2 to 5, got '\(aspect)'", "\(aspect)")
        }
        #expect(
            refusal(["--protocol", "digital", "--device", "/dev/video0"])
                == "device: a digital crop has no device: its picture is the vision service's camera")
        #expect(
            refusal(["--protocol", "digital", "--simulator"])
                == "protocol: the in-process simulator is a dock-serial dock; a digital crop needs no simulator")
    }
}
