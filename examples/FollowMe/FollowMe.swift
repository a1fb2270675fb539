// FollowMe: a small app written against DockClient's documentation only (scripts/docs builds it;
// the getting-started article is its map). It connects to dockd, prints the dock and its tracking
// state, turns the dock while it watches the motion, sends a few observations of a face as a
// detector would, and nods.
//
//     dockd --simulator --socket /tmp/dockd.sock &
//     swift run dockclient-example --socket /tmp/dockd.sock
//
// Without --socket it finds dockd as dockctl does (DOCKD_SOCKET, then the usual sockets).
import DockClient
import Foundation

@main
struct FollowMe {
    static func main() async {
        var socketPath: String?
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--socket" where !arguments.isEmpty: socketPath = arguments.popFirst()
            default:
                FileHandle.standardError.write(Data("usage: dockclient-example [--socket PATH]\n".utf8))
                exit(64)
            }
        }
        do {
            try await run(socketPath: socketPath)
        } catch {
            FileHandle.standardError.write(Data("dockclient-example: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(socketPath: String?) async throws {
        // Connect, and say which dock this is.
        let manager = try DockAccessoryManager(socketPath: socketPath)
        guard let dock = try await manager.accessories().first else {
            print("dockd has no dock attached")
            exit(1)
        }
        print("dock: \(dock.model) (\(dock.identifier)), firmware \(dock.firmwareVersion), on \(dock.device)")
        var tracking = try dock.trackingStates.makeAsyncIterator()
        if let state = try await tracking.next() { print(describe(state)) }

        // Move: to an orientation (DockKit's axes: x is pitch, + down; y is yaw, + right).
        // It returns once the dock is there; a stream opened now may still bring states from
        // before, so skip those by their time (the host's monotonic clock, as hostTimeSeconds()).
        try await dock.setOrientation(Vector3D(x: -0.1, y: 0.3), duration: .milliseconds(500))
        let arrived = DockAccessory.CameraInformation.hostTimeSeconds()
        for try await state in try dock.motionStates where state.timestamp >= arrived {
            print("at yaw \(format(state.angularPositions.y)) rad, pitch \(format(state.angularPositions.x)) rad (+ is down)")
            break
        }

        // Watch the motion while the dock turns left at 0.4 rad/s for a second.
        let states = try dock.motionStates
        let watcher = Task { () throws -> (count: Int, fastestYaw: Double) in
            var count = 0
            var fastest = 0.0
            for try await state in states {
                count += 1
                fastest = max(fastest, abs(state.angularVelocities.y))
            }
            return (count, fastest)
        }
        for _ in 0..<10 {
            try await dock.setAngularVelocity(Vector3D(y: -0.4))
            try await Task.sleep(for: .milliseconds(100))
        }
        try await dock.setAngularVelocity(Vector3D())
        try await Task.sleep(for: .milliseconds(300))
        watcher.cancel()
        let watched = try await watcher.value
        print("watched \(watched.count) motion states while turning; fastest yaw \(format(watched.fastestYaw)) rad/s")

        // Track: a face drifting right, as a detector with Vision's boxes would report it.
        try await dock.setSystemTrackingEnabled(true)
        try await dock.setFramingMode(.center)
        let frames = 10
        for frame in 0..<frames {
            let captured = DockAccessory.CameraInformation.hostTimeSeconds()
            let face = DockAccessory.Observation(
                identifier: 1, type: .humanFace,
                rect: VisionRect(x: 0.40 + 0.01 * Double(frame), y: 0.45, width: 0.12, height: 0.2))
            try await dock.track(
                [face],
                cameraInformation: DockAccessory.CameraInformation(
                    horizontalFieldOfViewRadians: 1.2, aspectRatio: 16.0 / 9, captureTimeSeconds: captured))
            try await Task.sleep(for: .milliseconds(33))
        }
        print("sent \(frames) observations of a face")
        while let state = try await tracking.next() {
            if state.isSystemTrackingEnabled && state.framingMode == .center {
                print(describe(state))
                break
            }
        }

        // A nod to end with; animate returns once it has played. Then leave tracking as it was.
        try await dock.animate(motion: .yes)
        print("played yes")
        try await dock.setSystemTrackingEnabled(false)
    }

    /// A tracking state in a line.
    static func describe(_ state: DockAccessory.TrackingState) -> String {
        "tracking: \(state.isSystemTrackingEnabled ? "on" : "off"), framing: \(state.framingMode.rawValue), "
            + "subjects tracked: \(state.trackedSubjects.count)"
    }

    /// A number with two decimals.
    static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
