import Foundation
import Glibc
import TestSupport
import Testing

/// dockd with a digital pan-tilt-zoom (`--protocol digital`), as a user and a camera app reach it:
/// up with no device, its capabilities and limits in `dockctl status`, the crop moved with
/// `dockctl zoom`, `orient` and `velocity`, and `Track` calls followed by the crop — through the
/// real socket.
@Suite(.serialized, .onTheProcessThreads) struct DigitalProcessTests {
    static func pose(_ client: VarlinkTestClient) throws -> [String: Any] {
        let reply = try #require(try client.call("io.dockd.Dock.GetStatus"))
        let status = try #require((reply["parameters"] as? [String: Any])?["status"] as? [String: Any])
        return try #require(status["pose"] as? [String: Any])
    }

    @Test func theCropIsAnAccessoryDockctlAndTheTrackerDrive() throws {
        let socket =
            "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/digital-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let dockd = try ChildProcess(
            "dockd",
            [
                "--config", "", "--protocol", "digital", "--digital-fov-deg", "90", "--digital-max-zoom", "2", "--socket", socket,
                "--wake-on-attach=false",
            ])
        defer {
            if dockd.process.isRunning { dockd.signal(SIGKILL) }
            unlink(socket)
        }
        #expect(dockd.waitForErrorLine(containing: "attached", timeoutSeconds: 30) != nil, "\(dockd.errorLines)")
        let status = try TrueStatusTests.status(socket)
        let lines = status.split(separator: "\n").map(String.init)
        let can = try #require(lines.first { $0.hasPrefix("can:") }, "\(status)")
        for capability in ["zoom", "orientation_moves", "velocity_ttl", "fixed_picture"] {
            #expect(can.contains(capability), "\(can)")
        }
        #expect(status.contains("digital"), "\(status)")
        // 90° across at 16:9, up to 2×: the crop's centre reaches atan(1/2) = 0.464 rad across.
        #expect(status.contains("0.464"), "the yaw limit: \(status)")

        // The zoom, then a move across the picture and a velocity back.
        let zoom = try ChildProcess.run("dockctl", ["--socket", socket, "zoom", "1"])
        #expect(zoom.status == 0 && zoom.output.contains("zoom 1"), "\(zoom)")
        let orient = try ChildProcess.run("dockctl", ["--socket", socket, "orient", "--yaw", "0.3", "--pitch", "0.1"])
        #expect(orient.status == 0, "\(orient)")
        let client = try VarlinkTestClient(path: socket)
        var pose = try Self.pose(client)
        // Arrived, as dockd judges arrival (within 5 mrad, at rest).
        #expect(abs((pose["yaw"] as? Double ?? 0) - 0.3) < 5e-3 && abs((pose["pitch"] as? Double ?? 0) - 0.1) < 5e-3, "\(pose) \(orient)")
        let velocity = try ChildProcess.run("dockctl", ["--socket", socket, "velocity", "--yaw", "-0.5", "--duration", "0.4"])
        #expect(velocity.status == 0, "\(velocity)")
        pose = try Self.pose(client)
        let yaw = pose["yaw"] as? Double ?? 0
        // 0.5 rad/s for 0.4 s with ramps at 8 rad/s²: about 0.2 rad back (less where a loaded
        // machine's late ticks let a command's time-to-live lapse; never more).
        #expect(yaw > 0.05 && yaw < 0.27, "\(pose)")
        print("dockctl velocity --yaw -0.5 --duration 0.4 took the crop from 0.3 to \(yaw) rad")

        // A camera app's frames: a body standing left of centre in the whole fixed picture, the
        // same box whatever the crop does; with tracking on, the crop goes there and stays.
        let tracking = try ChildProcess.run("dockctl", ["--socket", socket, "track", "on"])
        #expect(tracking.status == 0, "\(tracking)")
        // Its centre (x = 0.4) inside the crop as it is now (a half of the picture, centred at about
        // x = 0.55), where the tracker takes a subject as a motorised camera's would.
        let body: [String: Any] = ["kind": "body", "box": ["x": 0.35, "y": 0.3, "width": 0.1, "height": 0.4], "confidence": 0.9]
        let camera: [String: Any] = ["horizontal_fov": Double.pi / 2, "aspect_ratio": 16.0 / 9]
        let expected = atan(-0.2)  // the body's centre, x = 0.4: tan(yaw) = (2 × 0.4 − 1) × tan 45°
        var settled: Double?
        let deadline = ContinuousClock.now + .seconds(30)
        var frames = 0
        while ContinuousClock.now < deadline {
            let reply = try client.call(
                "io.dockd.Dock.Track", ["observations": [body], "camera": camera, "capture_time": TrackingClock.monotonicSeconds()])
            #expect(reply?["error"] == nil, "\(String(describing: reply))")
            frames += 1
            usleep(33_000)  // a camera's pace
            if frames % 15 == 0, let now = try Self.pose(client)["yaw"] as? Double, abs(now - expected) < 0.02 {
                settled = now
                break
            }
        }
        let last = try Self.pose(client)
        #expect(settled != nil, "the crop went to the body at \(expected) rad: \(last) after \(frames) frames")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}

/// The monotonic clock, in seconds, as `Track`'s capture times are.
enum TrackingClock {
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
