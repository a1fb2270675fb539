import Foundation
import Glibc
import TestSupport
import Testing

/// A camera whose picture someone may be watching — a UVC webcam, a VISCA camera — attaches
/// without moving; asked to (`--wake-on-attach`), it plays wake. The simulated dock-serial dock
/// plays it by default.
@Suite(.serialized, .onTheProcessThreads) struct QuietAttachTests {
    static func base() -> String {
        "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/attach-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    static func motion(_ socket: String) throws -> String? {
        let child = try ChildProcess("dockctl", ["--json", "status"], environment: ["DOCKD_SOCKET": socket])
        try child.finishInput("")
        let json = try JSONSerialization.jsonObject(with: Data(try child.finish().output.utf8)) as? [String: Any]
        return (json?["status"] as? [String: Any])?["motion"] as? String
    }

    /// dockd on `arguments` until it attaches: whether it said it plays wake, and the motion then.
    static func attach(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        playsWake: Bool, motion: String?, log: [String]
    ) {
        let socket = base() + ".sock"
        let dockd = try ChildProcess("dockd", ["--config", "", "--socket", socket] + arguments, environment: environment)
        defer {
            if dockd.process.isRunning { dockd.signal(SIGKILL) }
            unlink(socket)
        }
        let attached = dockd.waitForErrorLine(containing: "attached", timeoutSeconds: 30)
        #expect(attached != nil, "\(dockd.errorLines)")
        // wake starts with the attach's own actions: the motion shows it at once.
        let motion = try Self.motion(socket)
        // A line logged after the attach's: every line of the attach has been read by then.
        let marker = try ChildProcess("dockctl", ["track", "on"], environment: ["DOCKD_SOCKET": socket])
        #expect(try marker.finish().status == 0)
        #expect(dockd.waitForErrorLine(containing: "tracking on (client") != nil, "\(dockd.errorLines)")
        return (dockd.errorLines.contains { $0.contains("playing wake") }, motion, dockd.errorLines)
    }

    @Test func aWebcamAttachesWithoutAnimationUnlessAsked() throws {
        let device = Self.base() + ".video"
        let docksim = try ChildProcess("docksim", ["--protocol", "uvc", "--v4l2", device, "--quiet"])
        defer {
            docksim.signal(SIGKILL)
            unlink(device)
        }
        let found = ContinuousClock.now + .seconds(10)
        while access(device, F_OK) != 0, ContinuousClock.now < found { usleep(20_000) }
        let preload = [
            "LD_PRELOAD": try ChildProcess.run("docksim", ["--preload-library"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        ]
        let quiet = try Self.attach(["--protocol", "uvc", "--device", device], environment: preload)
        #expect(!quiet.playsWake, "\(quiet.log)")
        #expect(quiet.motion == "idle", "a webcam in a call does not swing at attach")
        let asked = try Self.attach(["--protocol", "uvc", "--device", device, "--wake-on-attach=true"], environment: preload)
        #expect(asked.playsWake, "asked, it does: \(asked.log)")
        #expect(asked.motion == "animating")
    }

    /// A VISCA camera attaches without moving and lists the zoom its profile has; `dockctl zoom
    /// 0.5` sends CAM_Zoom Direct to the middle of the range, and the camera reports the zoom
    /// reached when dockd reads it back; a zoom outside 0...1 is refused by name.
    @Test func aVISCACameraAttachesWithoutAnimationAndZoomsWhenTold() throws {
        let port = Int.random(in: 40_000...60_000)
        let docksim = try ChildProcess("docksim", ["--protocol", "visca", "--tcp", "127.0.0.1:\(port)", "--trace"])
        defer { docksim.signal(SIGKILL) }
        let socket = Self.base() + ".sock"
        let dockd = try ChildProcess("dockd", ["--config", "", "--socket", socket, "--visca", "tcp:127.0.0.1:\(port)"])
        defer {
            if dockd.process.isRunning { dockd.signal(SIGKILL) }
            unlink(socket)
        }
        #expect(dockd.waitForErrorLine(containing: "attached", timeoutSeconds: 30) != nil, "\(dockd.errorLines)")
        #expect(try Self.motion(socket) == "idle", "no wake on a camera someone may be watching")
        let status = try TrueStatusTests.status(socket)
        let can = try #require(status.split(separator: "\n").first { $0.hasPrefix("can:") })
        #expect(can.contains("zoom"), "the generic profile's zoom, which dockd drives: \(status)")
        let zoom = try ChildProcess.run("dockctl", ["--socket", socket, "zoom", "0.5"])
        #expect(zoom.status == 0 && zoom.output.contains("zoom 0.5"), "\(zoom)")
        // The camera takes the zoom direct to 0x2000 and, read back, answers it reached (the
        // generic profile's zoom takes 3 s end to end: half of it here).
        #expect(docksim.waitForErrorLine(containing: "<- 81 01 04 47 02 00 00 00 FF", timeoutSeconds: 30) != nil, "zoom direct")
        #expect(
            docksim.waitForErrorLine(containing: "90 50 02 00 00 00 FF", timeoutSeconds: 30) != nil,
            "the zoom position inquiry answered 0x2000")
        let wrong = try ChildProcess.run("dockctl", ["--socket", socket, "zoom", "1.5"])
        #expect(wrong.status != 0 && wrong.error.contains("zoom"), "out of 0...1: refused by name: \(wrong)")
    }

    @Test func theSimulatedDockPlaysWakeByDefault() throws {
        let attached = try Self.attach(["--simulator"])
        #expect(attached.playsWake, "\(attached.log)")
        #expect(attached.motion == "animating")
    }
}
