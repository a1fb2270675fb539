import DockLinks
import Testing

@testable import DockDaemon

/// The Pelco-D settings: what a head's link is built from, and what is refused, by name.
@Suite struct PelcoDConfigurationTests {
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

    @Test func theDefaultsMakeTheGenericHeadOfTheSpecification() throws {
        let settings = try configuration(["--protocol", "pelco-d", "--device", "/dev/ttyUSB0"])
        let link = try #require(try settings.accessoryLink(identifier: "/dev/ttyUSB0") as? PelcoDSession)
        #expect(link.accessoryProtocol == .pelcoD)
        #expect(link.baudRate == 2400)
        #expect(
            link.configuration
                == {
                    var expected = PelcoDSession.Configuration()
                    expected.identifier = "/dev/ttyUSB0"
                    return expected
                }(), "the settings' defaults are the link's: one generic head")
    }

    @Test func everyKeyReachesTheLinkFromAFileOrAFlag() throws {
        let file = """
            protocol = pelco-d
            pelco-d-address = 17
            pelco-d-baud = 9600
            pelco-d-pan-deg-s = 100
            pelco-d-tilt-deg-s = 45.5
            pelco-d-speed-exponent = 2
            pelco-d-zoom-seconds = 2.5
            """
        let settings = try configuration(
            ["--config", "/etc/dockd/dockd.conf", "--pelco-d-position-queries"], files: ["/etc/dockd/dockd.conf": file])
        let link = try #require(try settings.accessoryLink(identifier: "/dev/ttyUSB1") as? PelcoDSession)
        let configuration = link.configuration
        #expect(configuration.address == 17 && configuration.baudRate == 9600)
        #expect(configuration.panDegreesPerSecondAtFastestStep == 100 && configuration.tiltDegreesPerSecondAtFastestStep == 45.5)
        #expect(configuration.speedExponent == 2 && configuration.answersPositionQueries)
        #expect(configuration.identifier == "/dev/ttyUSB1")
        #expect(configuration.zoomFullTravel == .milliseconds(2500) && link.capabilities.contains(.zoom))
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
        #expect(refusal(["--pelco-d-address", "0"]) == "--pelco-d-address: pelco-d-address: must be from 1 to 255, got 0")
        #expect(refusal(["--pelco-d-address", "256"]) == "--pelco-d-address: pelco-d-address: must be from 1 to 255, got 256")
        #expect(refusal(["--pelco-d-baud", "300"]) == "--pelco-d-baud: pelco-d-baud: must be from 1200 to 4000000, got 300")
        #expect(refusal(["--pelco-d-pan-deg-s", "0"]) == "--pelco-d-pan-deg-s: pelco-d-pan-deg-s: must be from 0.1 to 1000.0, got 0")
        #expect(refusal(["--pelco-d-tilt-deg-s", "nan"]) == "--pelco-d-tilt-deg-s: pelco-d-tilt-deg-s: must be a finite number, got 'nan'")
        #expect(
            refusal(["--pelco-d-speed-exponent", "9"]) == "--pelco-d-speed-exponent: pelco-d-speed-exponent: must be from 0.2 to 5.0, got 9"
        )
        #expect(
            refusal(["--pelco-d-zoom-seconds", "-1"]) == "--pelco-d-zoom-seconds: pelco-d-zoom-seconds: must be from 0.0 to 60.0, got -1"
        )
        #expect(
            refusal(["--protocol", "pelco-d", "--simulator"])
                == "protocol: the in-process simulator is a dock-serial dock; run docksim --protocol pelco-d for an emulated Pelco-D head")
    }
}
