import DockJSON
import DockVocabulary
import Foundation
import Glibc
import TestSupport
import Testing

@testable import DockClient

/// The Swift client's camera-operator calls — zoom, shot size, framing speed, lost behaviour,
/// presets — against dockd on its simulated dock (which has no zoom), through the socket: each
/// answered as the interface says, each refusal dockd's named error.
@Suite(.serialized, .onAThreadOfItsOwn) struct CameraOperatorClientTests {
    static func remoteName(_ error: any Error) -> String? {
        if case DockClientError.remote(let name, _) = error { name } else { nil }
    }

    @Test(.timeLimit(.minutes(5)))
    func theOperatorsCallsAreAnsweredAsTheInterfaceSays() async throws {
        let base = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/operator-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = base + ".sock"
        let dockd = try ChildProcess(
            "dockd", ["--config", "", "--simulator", "--socket", socket, "--state-dir", base + ".state", "--wake-on-attach=false"])
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil, "\(dockd.errorLines)")
        var failure: (any Error)?
        do {
            try await calls(socket: socket)
        } catch {
            failure = error
        }
        dockd.signal(SIGTERM)
        let run = try dockd.finish()
        #expect(run.status == 0)
        if let failure { Issue.record("\(failure); dockd said: \(dockd.errorLines.suffix(12))") }
    }

    func calls(socket: String) async throws {
        let manager = try DockAccessoryManager(socketPath: socket)
        let dock = try #require(try await manager.accessories().first)

        // The simulated dock has no zoom: zoom and a shot size are refused by name.
        await #expect { try await dock.setZoom(0.5) } throws: { Self.remoteName($0) == "io.dockd.Dock.NotSupported" }
        await #expect { try await dock.setShotSize(.half) } throws: { Self.remoteName($0) == "io.dockd.Dock.NotSupported" }
        try await dock.setShotSize(.off)

        // The framing speed: read, then a profile with one number over it.
        let normal = try await dock.setFramingSpeed()
        #expect(normal.speed.profile == .normal)
        var change = FramingSpeedChange(profile: "smooth")
        change.yawMaximumSpeed = 0.5
        let smooth = try await dock.setFramingSpeed(change)
        #expect(smooth.speed.profile == .smooth && smooth.speed.yaw.maximumSpeedRadiansPerSecond == 0.5, "\(smooth)")
        await #expect { try await dock.setFramingSpeed(FramingSpeedChange(profile: "sideways")) } throws: {
            Self.remoteName($0) == "io.dockd.Dock.InvalidParameter"
        }

        // The lost behaviour: only the fields given change.
        let before = try await dock.setLostBehaviour()
        let changed = try await dock.setLostBehaviour(after: .seconds(3))
        #expect(changed.after == .seconds(3) && changed.action == before.action, "\(changed)")
        let held = try await dock.setLostBehaviour(action: .hold)
        #expect(held == LostBehaviour(after: .seconds(3), action: .hold))

        // Presets: saved where the dock points, listed, recalled after a turn away, deleted.
        try await dock.setOrientation(Vector3D(x: 0, y: 0.4), duration: .milliseconds(300))
        let saved = try await dock.savePreset(named: "stage")
        #expect(saved.name == "stage" && abs(saved.yawRadians - 0.4) < 0.02, "\(saved)")
        #expect(try await dock.presets().map(\.name) == ["stage"])
        try await dock.setOrientation(Vector3D(x: 0, y: -0.3), duration: .milliseconds(300))
        let recalled = try await dock.recallPreset(named: "stage")
        #expect(recalled.ended == Dock.MotionEnd.completed(.reached), "\(recalled)")
        let yaw = try await manager.status().pose?.yawRadians ?? .nan
        #expect(abs(yaw - saved.yawRadians) < 0.02, "back at the preset: \(yaw)")
        try await dock.deletePreset(named: "stage")
        #expect(try await dock.presets().isEmpty)
        await #expect { try await dock.recallPreset(named: "stage") } throws: { Self.remoteName($0) == "io.dockd.Dock.NoSuchPreset" }
        await #expect { try await dock.savePreset(named: "") } throws: { Self.remoteName($0) == "io.dockd.Dock.InvalidParameter" }
    }
}
