import Foundation
import Glibc
import TestSupport
import Testing

/// dockd-vision's virtual camera as a user meets its failures: the emulated webcam streaming, the
/// output an emulated v4l2loopback node (Protocol/uvc.md section 8) or something that is not one.
/// Each failure is named once and retried, and tracking goes on; a node taken by another writer
/// shows only its capture side. (Frames read from it by Debian's readers: scripts/check-vcam.)
@Suite(.serialized) struct VisionOutputTests {
    /// A fresh emulated loopback node at `path`; `refusing` is a format it will not take.
    static func makeNode(_ path: String, refusing: String = "") {
        var bytes = Array("dockd-loopback1".utf8) + [0]
        bytes += Array(refusing.utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "the node \(path)")
    }

    /// The frames the status lines count, waited for until at least `least` (debug lines come
    /// every 10 s).
    static func framesCounted(_ vision: ChildProcess, atLeast least: Int) -> Int {
        let deadline = Date().addingTimeInterval(60)
        var frames = 0
        while frames < least, Date() < deadline, let line = vision.waitForErrorLine(containing: " frames (", timeoutSeconds: 30) {
            frames = Int(line.components(separatedBy: "debug: ").last?.split(separator: " ").first ?? "") ?? 0
        }
        return frames
    }

    @Test func anOutputThatCannotBeWrittenIsNamedAndTrackingGoesOn() throws {
        let base = VisionProcessTests.temporaryBase()
        let device = base + ".video"
        let docksim = try VisionProcessTests().webcam(device)
        defer {
            if docksim.process.isRunning { docksim.signal(SIGKILL) }
            unlink(device)
        }
        let refusing = base + ".refusing"
        Self.makeNode(refusing, refusing: "YUYV")
        defer { unlink(refusing) }
        let cases = [
            (
                base + ".missing",
                "output device missing: \(base).missing does not exist (is v4l2loopback loaded? modprobe v4l2loopback exclusive_caps=1)"
            ),
            ("/dev/null", "/dev/null is not a video output device: not a V4L2 device"),
            (refusing, "output device \(refusing) refuses YUYV 640x360: VIDIOC_S_FMT: Invalid argument"),
        ]
        for (output, named) in cases {
            let vision = try ChildProcess(
                "dockd-vision",
                ["--config", "", "--device", device, "--socket", base + ".sock", "--output", output, "--log-level", "debug"],
                environment: ["LD_PRELOAD": try VisionProcessTests.preloadLibrary()])
            let line = vision.waitForErrorLine(containing: named)
            #expect(
                line?.contains("tracking goes on; opening \(output) again every 1.0 seconds (said once)") == true, "\(vision.errorLines)")
            #expect(Self.framesCounted(vision, atLeast: 30) >= 30, "it tracks on: \(vision.errorLines)")
            #expect(vision.errorLines.filter { $0.contains(named) }.count == 1, "said once: \(vision.errorLines)")
            vision.signal(SIGTERM)
            #expect(try vision.finish().status == 0)
        }
        docksim.signal(SIGTERM)
        _ = try docksim.finish()
    }

    @Test func aNodeAnotherProgramWritesIsNotAnOutput() throws {
        let base = VisionProcessTests.temporaryBase()
        let first = base + ".first", second = base + ".second", node = base + ".loopback"
        let cameras = [try VisionProcessTests().webcam(first), try VisionProcessTests().webcam(second)]
        defer {
            for camera in cameras where camera.process.isRunning { camera.signal(SIGKILL) }
            for path in [first, second, node] { unlink(path) }
        }
        Self.makeNode(node)
        let preload = ["LD_PRELOAD": try VisionProcessTests.preloadLibrary()]
        let writer = try ChildProcess(
            "dockd-vision", ["--config", "", "--device", first, "--socket", base + ".sock", "--output", node, "--log-level", "debug"],
            environment: preload)
        #expect(
            writer.waitForErrorLine(containing: "writing every frame to \(node): 640x360 YUYV, passed through") != nil,
            "\(writer.errorLines)")
        let other = try ChildProcess(
            "dockd-vision", ["--config", "", "--device", second, "--socket", base + ".sock", "--output", node, "--log-level", "debug"],
            environment: preload)
        #expect(
            other.waitForErrorLine(
                containing: "\(node) is not a video output device: no video output (a camera's capture side, "
                    + "or a loopback device another program already writes)") != nil, "\(other.errorLines)")
        #expect(Self.framesCounted(other, atLeast: 30) >= 30, "it tracks on: \(other.errorLines)")
        // The writer's own status line counts what it wrote, none dropped.
        let status = writer.waitForErrorLine(containing: "; output ")
        #expect(status?.contains(" written, 0 dropped") == true, "\(writer.errorLines)")
        for vision in [other, writer] {
            vision.signal(SIGTERM)
            #expect(try vision.finish().status == 0)
        }
        for camera in cameras {
            camera.signal(SIGTERM)
            _ = try camera.finish()
        }
    }
}
