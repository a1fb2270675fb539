import DockSockets
import DockSystem
import Foundation
import Glibc
import TestSupport
import Testing
import V4L2Protocol

/// `docksim --protocol uvc --v4l2 PATH --scenario FILE` as a process: the webcam answers framed
/// ioctls on its socket, and the scenario's unplug takes the device away (the connection closes,
/// the socket goes) and puts it back.
@Suite(.serialized, .onTheProcessThreads) struct WebcamInTheRoomTests {
    static func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test func theWebcamAnswersAndIsUnpluggedAndBack() throws {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let base = "\(directory)/webcam-room-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let device = base + ".video", scenario = base + ".json"
        try #"""
        {"name": "webcam-unplug", "duration_s": 3, "seed": 5,
         "subjects": [{"id": 1, "kind": "person", "primary": true,
                       "path": {"waypoints": [{"t_s": 0, "x_m": 0, "y_m": 3}, {"t_s": 3, "x_m": 1, "y_m": 3}]}}],
         "faults": [{"at_s": 1, "kind": "unplug", "duration_s": 1}]}
        """#.write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { unlink(scenario) }
        let docksim = try ChildProcess(
            "docksim",
            [
                "--protocol", "uvc", "--model", "obsbot-tiny", "--v4l2", device,
                "--scenario", scenario, "--quiet",
            ])
        // The socket's file is there a moment before it listens: connect until it does.
        var opened: FileDescriptor?
        #expect(
            Self.waitUntil(5) {
                opened = try? UnixSocket.connect(path: device)
                return opened != nil
            }, "the device's socket")
        let connection = try #require(opened)
        defer { connection.close() }
        _ = try connection.write(
            V4L2Frame.Request(
                request: V4L2Request.queryCapability,
                bytes: [UInt8](repeating: 0, count: V4L2Capability.size)
            ).encode())
        var decoder = V4L2Frame.Decoder.replies()
        var replies: [V4L2Frame.Reply] = []
        #expect(
            Self.waitUntil(3) {
                guard (try? Poll.waitForReading([connection], timeout: .milliseconds(10)).isEmpty) == false,
                    case .bytes(let bytes)? = try? connection.read(maximumCount: 4096)
                else { return false }
                replies += (try? decoder.replies(bytes)) ?? []
                return !replies.isEmpty
            })
        let reply = try #require(replies.first)
        #expect(reply.errno == 0)
        #expect(try V4L2Capability(bytes: reply.bytes).card == "OBSBOT Tiny")

        // Unplugged at 1 s: the open device is gone (its connection hangs up) and so is the path.
        #expect(
            Self.waitUntil(3) {
                guard (try? Poll.waitForReading([connection], timeout: .milliseconds(10)).isEmpty) == false else { return false }
                if case .hangUp? = try? connection.read() { return true }
                return false
            }, "the connection closes at the unplug")
        #expect(access(device, F_OK) != 0, "no device while unplugged")
        #expect(Self.waitUntil(3) { access(device, F_OK) == 0 }, "back at 2 s")
        let finished = try docksim.finish()
        #expect(finished.status == 0, "\(finished.error)")
        #expect(access(device, F_OK) != 0, "removed at the end")
    }
}
