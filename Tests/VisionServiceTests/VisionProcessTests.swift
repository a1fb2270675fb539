import Foundation
import Glibc
import TestSupport
import Testing

/// dockd-vision as a user runs it, through the real path: the emulated webcam (docksim
/// --protocol uvc, under the preload library) streaming, dockd on its controls, dockd-vision on
/// its picture. Each failure it meets is a named line in its log, and it carries on.
@Suite(.serialized) struct VisionProcessTests {
    static func temporaryBase() -> String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        return "\(directory)/vision-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    static func preloadLibrary() throws -> String {
        let run = try ChildProcess.run("docksim", ["--preload-library"])
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    func webcam(_ device: String) throws -> ChildProcess {
        let docksim = try ChildProcess("docksim", ["--protocol", "uvc", "--v4l2", device, "--quiet"])
        #expect(Self.waitUntil(60) { access(device, F_OK) == 0 }, "the emulated webcam's socket")
        return docksim
    }

    @Test func itStreamsFeedsDockdAndOutlivesDockdAndTheCameraGoingAway() throws {
        let base = Self.temporaryBase()
        let device = base + ".video", socket = base + ".sock"
        let preload = ["LD_PRELOAD": try Self.preloadLibrary()]
        var docksim = try webcam(device)
        var dockd = try ChildProcess(
            "dockd", ["--protocol", "uvc", "--device", device, "--socket", socket, "--config", ""], environment: preload)
        defer {
            for child in [docksim, dockd] where child.process.isRunning { child.signal(SIGKILL) }
            unlink(device)
            unlink(socket)
        }
        #expect(dockd.waitForErrorLine(containing: "attached") != nil, "dockd attaches the webcam: \(dockd.errorLines)")
        let vision = try ChildProcess(
            "dockd-vision", ["--config", "", "--device", device, "--socket", socket, "--log-level", "debug"], environment: preload)
        #expect(vision.waitForErrorLine(containing: "streaming \(device): 640x360 YUYV") != nil, "\(vision.errorLines)")
        #expect(vision.waitForErrorLine(containing: "connected to dockd at \(socket); system tracking on") != nil, "\(vision.errorLines)")

        // dockd takes its Track calls (the test pattern has nobody in it: empty batches, which
        // dockd's counters do not count): the service's status line, every 10 s, says how many
        // dockd took.
        let deadline = Date().addingTimeInterval(30)
        var sent = 0
        while sent < 30, Date() < deadline, let line = vision.waitForErrorLine(containing: "dockd connected", timeoutSeconds: 30) {
            sent = line.components(separatedBy: "dockd connected, ").last?.split(separator: " ").first.flatMap { Int($0) } ?? 0
        }
        #expect(sent >= 30, "\(vision.errorLines)")

        // dockd restarts under it: the service says so and comes back.
        dockd.signal(SIGTERM)
        _ = try dockd.finish()
        #expect(vision.waitForErrorLine(containing: "lost dockd") != nil, "\(vision.errorLines)")
        dockd = try ChildProcess(
            "dockd", ["--protocol", "uvc", "--device", device, "--socket", socket, "--config", ""], environment: preload)
        #expect(vision.waitForErrorLine(containing: "back with dockd at \(socket)") != nil, "\(vision.errorLines)")

        // The camera unplugged mid-stream (the emulated webcam goes away: ENODEV on its next
        // ioctl, or a hang-up on poll), then back: reopened.
        docksim.signal(SIGTERM)
        _ = try docksim.finish()
        #expect(vision.waitForErrorLine(containing: "camera unplugged: \(device) went away (ENODEV)") != nil, "\(vision.errorLines)")
        docksim = try webcam(device)
        #expect(vision.waitForErrorLine(containing: "streaming \(device)") != nil, "\(vision.errorLines)")
        #expect(vision.waitForErrorLine(containing: "camera \(device) back") != nil, "\(vision.errorLines)")

        vision.signal(SIGTERM)
        let finished = try vision.finish()
        #expect(finished.status == 0, "\(finished.error)")
        #expect(vision.errorLines.joined().contains("dockd-vision stopped after") || finished.error.contains("dockd-vision stopped after"))
    }

    @Test func aCorruptMJPEGFrameIsNamedAndSkipped() throws {
        // The emulated webcam scrambles every 10th Motion-JPEG frame past its first 64 bytes, as a
        // damaged transfer would: the driver cannot tell, the service must.
        let base = Self.temporaryBase()
        let device = base + ".video"
        let docksim = try ChildProcess("docksim", ["--protocol", "uvc", "--v4l2", device, "--corrupt-mjpeg", "10", "--quiet"])
        defer {
            if docksim.process.isRunning { docksim.signal(SIGKILL) }
            unlink(device)
        }
        #expect(Self.waitUntil(60) { access(device, F_OK) == 0 }, "the emulated webcam's socket")
        let vision = try ChildProcess(
            "dockd-vision",
            ["--config", "", "--device", device, "--socket", base + ".sock", "--format", "mjpeg", "--log-level", "debug"],
            environment: ["LD_PRELOAD": try Self.preloadLibrary()])
        #expect(vision.waitForErrorLine(containing: "streaming \(device): 640x360 MJPG") != nil, "\(vision.errorLines)")
        let corrupt = vision.waitForErrorLine(containing: "corrupt")
        #expect(
            corrupt?.contains("corrupt MJPEG frame") == true || corrupt?.contains("corrupt frame: JPEG frame") == true,
            "\(vision.errorLines)")
        #expect(corrupt?.contains("skipped") == true)
        // It goes on: the next status line counts good frames and the bad ones.
        let deadline = Date().addingTimeInterval(30)
        var good = 0, bad = 0
        while good < 30, Date() < deadline, let line = vision.waitForErrorLine(containing: " frames (", timeoutSeconds: 30) {
            good = Int(line.components(separatedBy: "debug: ").last?.split(separator: " ").first ?? "") ?? 0
            bad = Int(line.components(separatedBy: "skipped, ").last?.split(separator: " ").first ?? "") ?? 0
        }
        #expect(good >= 30 && bad >= 1, "\(vision.errorLines)")
        vision.signal(SIGTERM)
        #expect(try vision.finish().status == 0)
        docksim.signal(SIGTERM)
        _ = try docksim.finish()
    }

    @Test func aFormatItCannotDecodeIsNamedAndItKeepsTrying() throws {
        // The emulated webcam offers only H.264: the service names the formats it was offered and
        // opens the camera again every second, still running.
        let base = Self.temporaryBase()
        let device = base + ".video"
        let docksim = try ChildProcess("docksim", ["--protocol", "uvc", "--v4l2", device, "--undecodable-format", "--quiet"])
        defer {
            if docksim.process.isRunning { docksim.signal(SIGKILL) }
            unlink(device)
        }
        #expect(Self.waitUntil(10) { access(device, F_OK) == 0 }, "the emulated webcam's socket")
        let vision = try ChildProcess(
            "dockd-vision", ["--config", "", "--device", device, "--socket", base + ".sock"],
            environment: ["LD_PRELOAD": try Self.preloadLibrary()])
        #expect(
            vision.waitForErrorLine(containing: "unsupported format: the camera offers H264, none of YUYV, NV12, MJPG") != nil,
            "\(vision.errorLines)")
        #expect(vision.errorLines.joined().contains("again every"), "it says it retries: \(vision.errorLines)")
        // Still there and answering: a SIGHUP is taken (and ignored) after the refusal.
        vision.signal(SIGHUP)
        #expect(vision.waitForErrorLine(containing: "SIGHUP ignored") != nil, "\(vision.errorLines)")
        #expect(vision.process.isRunning, "it carries on: \(vision.errorLines)")
        vision.signal(SIGTERM)
        #expect(try vision.finish().status == 0)
        docksim.signal(SIGTERM)
        _ = try docksim.finish()
    }

    @Test func aTimestampFromAnotherClockIsNamedAndTheDequeueTimeSent() throws {
        // The emulated webcam stamps its buffers with CLOCK_REALTIME, flagged with no clock: the
        // service names it once and goes on streaming, each frame sent at its dequeue time.
        let base = Self.temporaryBase()
        let device = base + ".video"
        let docksim = try ChildProcess("docksim", ["--protocol", "uvc", "--v4l2", device, "--other-clock", "--quiet"])
        defer {
            if docksim.process.isRunning { docksim.signal(SIGKILL) }
            unlink(device)
        }
        #expect(Self.waitUntil(10) { access(device, F_OK) == 0 }, "the emulated webcam's socket")
        let vision = try ChildProcess(
            "dockd-vision", ["--config", "", "--device", device, "--socket", base + ".sock", "--log-level", "debug"],
            environment: ["LD_PRELOAD": try Self.preloadLibrary()])
        #expect(vision.waitForErrorLine(containing: "streaming \(device): 640x360 YUYV") != nil, "\(vision.errorLines)")
        #expect(
            vision.waitForErrorLine(
                containing: "capture time from another clock: the buffer's timestamp flags are 0x0, not CLOCK_MONOTONIC's 0x2000") != nil,
            "\(vision.errorLines)")
        // It goes on: the status line counts the frames taken.
        let deadline = Date().addingTimeInterval(30)
        var frames = 0
        while frames < 30, Date() < deadline, let line = vision.waitForErrorLine(containing: " frames (", timeoutSeconds: 30) {
            frames = Int(line.components(separatedBy: "debug: ").last?.split(separator: " ").first ?? "") ?? 0
        }
        #expect(frames >= 30, "\(vision.errorLines)")
        #expect(vision.errorLines.filter { $0.contains("another clock") }.count == 1, "said once: \(vision.errorLines)")
        vision.signal(SIGTERM)
        #expect(try vision.finish().status == 0)
        docksim.signal(SIGTERM)
        _ = try docksim.finish()
    }

    @Test func aMissingModelAndAMissingCameraAreNamedAndItCarriesOn() throws {
        let base = Self.temporaryBase()
        let vision = try ChildProcess(
            "dockd-vision",
            ["--config", "", "--device", base + ".video", "--socket", base + ".sock", "--faces", "yunet", "--face-model", base + ".onnx"],
            environment: ["DOCKD_VISION_LATENCY_LOG": base + ".missing/latency.txt"])
        let latencyLine = vision.waitForErrorLine(containing: "latency log: cannot open \(base).missing/latency.txt")
        #expect(latencyLine?.contains("No such file or directory; not written") == true, "\(vision.errorLines)")
        #expect(
            vision.waitForErrorLine(containing: "model missing: \(base).onnx: No such file or directory; carrying on without faces") != nil,
            "\(vision.errorLines)")
        #expect(vision.waitForErrorLine(containing: "person detector: hog") != nil, "\(vision.errorLines)")
        #expect(vision.waitForErrorLine(containing: "cannot open camera \(base).video") != nil, "\(vision.errorLines)")
        #expect(vision.process.isRunning, "it waits for its camera")
        vision.signal(SIGHUP)
        #expect(vision.waitForErrorLine(containing: "SIGHUP ignored") != nil, "\(vision.errorLines)")
        #expect(vision.process.isRunning, "SIGHUP does not stop it")
        vision.signal(SIGTERM)
        #expect(try vision.finish().status == 0)
    }

    @Test func badSettingsExitSeventyEight() throws {
        let run = try ChildProcess.run("dockd-vision", ["--config", "", "--body-every", "0"])
        #expect(run.status == 64)
        #expect(run.error.contains("--body-every needs a whole number from 1 to 30, got '0'"))
        let file = Self.temporaryBase() + ".conf"
        try "faces = eyes\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let bad = try ChildProcess.run("dockd-vision", ["--config", file])
        #expect(bad.status == 78)
        #expect(bad.error.contains("\(file):1: --faces needs one of lbp, haar, yunet, none, got 'eyes'"))
    }
}
