import DockSockets
import DockSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Socket activation, device matching, and SIGHUP as a running dockd sees it.
@Suite(.onTheProcessThreads) struct SystemInterfaceTests {
    @Test func socketActivationTakesOnlyOurDescriptors() {
        let environment = ["LISTEN_PID": "42", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "api:debug"]
        let passed = SocketActivation.listeningDescriptors(environment: environment, processID: 42)
        #expect(passed.map(\.descriptor.rawValue) == [3, 4])
        #expect(passed.map(\.name) == ["api", "debug"])
        #expect(
            SocketActivation.listeningDescriptors(environment: environment, processID: 43).isEmpty,
            "descriptors meant for another process are not ours")
        #expect(SocketActivation.listeningDescriptors(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "x"], processID: 42).isEmpty)
        #expect(SocketActivation.listeningDescriptors(environment: [:], processID: 42).isEmpty)
    }

    @Test func theDockIsMatchedByItsOwnIDs() {
        let dock = SerialDeviceDescription(path: "/dev/ttyACM0", vendorID: "1209", productID: "D0C0", serialNumber: "A1")
        #expect(DeviceDiscovery.matches(dock, vendorID: "1209", productID: "d0c0", serialNumber: ""))
        #expect(DeviceDiscovery.matches(dock, vendorID: "1209", productID: "d0c0", serialNumber: "A1"))
        #expect(!DeviceDiscovery.matches(dock, vendorID: "1209", productID: "d0c0", serialNumber: "B2"))
        let bridge = SerialDeviceDescription(path: "/dev/ttyUSB0", vendorID: "0403", productID: "6001")
        #expect(!DeviceDiscovery.matches(bridge, vendorID: "1209", productID: "d0c0", serialNumber: ""))
        #expect(
            !DeviceDiscovery.matches(
                SerialDeviceDescription(path: "/dev/ttyS0"), vendorID: "1209",
                productID: "d0c0", serialNumber: ""))
    }

    @Test func sighupReadsTheSettingsAgain() throws {
        let path = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).conf"
        try "simulator = true\ntracking = false\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let dockd = try ChildProcess("dockd", ["--config", path, "--socket", ""])
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        try "simulator = true\ntracking = true\n".write(toFile: path, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        #expect(dockd.waitForErrorLine(containing: "control: nobody -> system tracker") != nil, "tracking turned on")
        #expect(dockd.waitForErrorLine(containing: "configuration reloaded") != nil)
        try "simulator = true\ntracking = maybe\n".write(toFile: path, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        let refused = try #require(dockd.waitForErrorLine(containing: "configuration not reloaded"))
        #expect(refused.contains("\(path):2: tracking: must be true or false, got 'maybe'"))
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0, "a bad reload leaves the daemon running")
    }
}
