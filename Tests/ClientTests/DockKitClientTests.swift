import DockAPI
import DockClient
import Foundation
import Glibc
import Testing
import TestSupport

/// The DockKit-shaped Swift client, with DockKit's axes converted to dockd's.
@Suite(.serialized) struct DockKitClientTests {
    @Test(.timeLimit(.minutes(1)))
    func theDockKitShapedClientConvertsSignsAndStreamsMotion() async throws {
        let (dockd, socket) = try ClientProcessTests.startDaemon()
        let manager = try DockAccessoryManager(socketPath: socket)
        let accessories = try await manager.accessories()
        let dock = try #require(accessories.first)
        #expect(dock.identifier == "SIM-0001")
        #expect(dock.model == "DK-1 Demo")

        // DockKit: x is pitch and positive DOWN; y is yaw and positive right.
        try await dock.setAngularVelocity(Vector3D(x: 0.3, y: 0.4))
        var sawMotion = false
        for try await state in try dock.motionStates {
            if state.angularVelocities.y > 0.35 && state.angularVelocities.x > 0.25 {
                sawMotion = true
                let status = try await manager.status()
                let pitchRate = status["pose"]?["pitch_rate"]?.doubleValue ?? 0
                #expect(pitchRate < -0.25, "DockKit's +x (down) is dockd's negative pitch")
                break
            }
        }
        #expect(sawMotion)

        try await dock.animate(motion: .yes)
        try await manager.setSystemTrackingEnabled(true)
        #expect(try await manager.status()["tracking"]?.boolValue == true)
        do {
            try await dock.setOrientation(Vector3D(x: .nan, y: 0))
            Issue.record("NaN accepted")
        } catch {
            if case .remote(let name, _) = error { #expect(name == DockInterface.Error.invalidParameter) }
        }
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
