import DockLinks
import DockSystem
import Testing

@testable import DockDaemon

/// The VISCA settings: the forms of a network camera, the profile, and what is refused.
@Suite struct VISCAConfigurationTests {
    func parse(_ arguments: [String], files: [String: String] = [:]) throws(DaemonCommand.Failure) -> DaemonCommand {
        try DaemonCommand.parse(arguments) { files[$0] }
    }

    func configuration(_ arguments: [String]) throws -> Configuration {
        guard case .run(let configuration, _) = try parse(arguments) else {
            Issue.record("not a run: \(arguments)")
            return Configuration()
        }
        return configuration
    }

    @Test func aNetworkCameraImpliesTheProtocolAndNamesItsFraming() throws {
        let udp = try configuration(["--visca", "udp:192.0.2.10:52381"])
        #expect(udp.accessoryProtocol == .visca)
        #expect(ViscaAddress(udp.visca)?.framing == .sonyIP)
        #expect(ViscaAddress("udp-raw:192.0.2.10:1259")?.framing == .rawIP)
        #expect(ViscaAddress("tcp:[::1]:5678")?.address.host == "::1")
        #expect(ViscaAddress("tcp:camera.local:5678")?.framing == .serial, "raw VISCA on TCP is a byte stream")
        let link = try #require(try udp.accessoryLink(identifier: "udp:192.0.2.10:52381"))
        #expect(link.accessoryProtocol == .visca)
        #expect(link.baudRate == nil, "no serial speed over the network")
    }

    @Test func aSerialCameraProbesTheProfilesSpeedsUnlessOneIsPinned() throws {
        let probing = try configuration(["--protocol", "visca", "--device", "/dev/ttyUSB0"])
        #expect(try probing.accessoryLink(identifier: "/dev/ttyUSB0")?.baudRate == 9600)
        let pinned = try configuration(["--protocol", "visca", "--device", "/dev/ttyUSB0", "--visca-baud", "115200"])
        #expect(try pinned.accessoryLink(identifier: "/dev/ttyUSB0")?.baudRate == 115_200)
        #expect(
            try configuration(["--device", "/dev/ttyACM0"]).accessoryLink(identifier: "/dev/ttyACM0") == nil,
            "dock-serial: HostPolicy's own session")
    }

    @Test func badSettingsAreRefusedByName() {
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "visca", message: "must be udp:HOST:PORT, udp-raw:HOST:PORT or tcp:HOST:PORT, got 'http://camera'"))
        ) {
            try parse(["--visca", "http://camera"])
        }
        #expect(
            throws: DaemonCommand.Failure.configuration(
                .init(
                    location: "visca", message: "choose one of a network camera, a device and the simulator"))
        ) {
            try parse(["--visca", "udp:127.0.0.1:52381", "--device", "/dev/ttyUSB0"])
        }
        #expect(throws: DaemonCommand.Failure.self) { try parse(["--protocol", "visca", "--simulator"]) }
        #expect(throws: DaemonCommand.Failure.self) { try parse(["--protocol", "pelco"]) }
        #expect(throws: DaemonCommand.Failure.self) { try parse(["--protocol", "visca", "--profile", "no-such-camera"]) }
        #expect(throws: DaemonCommand.Failure.self) { try parse(["--protocol", "visca", "--visca-baud", "300"]) }
    }
}
