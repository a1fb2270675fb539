import DockAPI
import DockJSON
import DockVocabulary
import Foundation
import FoundationXML
import Glibc
import TestSupport
import Testing

@testable import DockSimulator
@testable import DocksimProgram

/// `docksim --camera` and `--plot`: the options, the `Track` calls the camera app makes, and a
/// whole run of `crossing` against `dockd` on a real pseudo-terminal and socket.
@Suite(.serialized, .onAThreadOfItsOwn) struct CameraAppTests {
    @Test func cameraAndPlotOptionsAreParsed() throws {
        let parsed = try Options.parse(["--pty", "/tmp/d", "--camera", "unix:/run/dockd/dockd.sock", "--plot", "run.svg"])
        guard case .run(let options) = parsed else {
            Issue.record("expected options, got \(parsed)")
            return
        }
        #expect(options.cameraSocketPath == "/run/dockd/dockd.sock")
        #expect(options.plotPath == "run.svg")
        guard case .run(let plain) = try Options.parse(["--pty", "/tmp/d"]) else { return }
        #expect(plain.cameraSocketPath == nil && plain.plotPath == nil, "without them nothing changes")
    }

    @Test func scoreOnlyNeedsTheCameraApp() throws {
        guard case .run(let options) = try Options.parse(["--pty", "/tmp/d", "--camera", "unix:/tmp/s", "--score-only"]) else {
            Issue.record("expected options")
            return
        }
        #expect(options.isScoreOnly)
        guard case .run(let plain) = try Options.parse(["--pty", "/tmp/d", "--camera", "unix:/tmp/s"]) else { return }
        #expect(!plain.isScoreOnly, "the camera app sends the simulator's boxes unless told not to")
        #expect(throws: Options.UsageError(message: "--score-only follows dockd's primary subject: add --camera unix:SOCKET")) {
            try Options.parse(["--pty", "/tmp/d", "--score-only"])
        }
    }

    @Test(arguments: ["bogus", "unix:", "/run/dockd/dockd.sock", "tcp:localhost:1"])
    func aCameraThatIsNotAUnixSocketIsAUsageError(value: String) {
        #expect(
            throws: Options.UsageError(
                message: "--camera needs unix:SOCKET, the path of dockd's control socket "
                    + "(e.g. unix:/run/dockd/dockd.sock), got '\(value)'")
        ) {
            try Options.parse(["--pty", "/tmp/d", "--camera", value])
        }
    }

    @Test func aBatchBecomesATrackCallAtItsHostCaptureTime() throws {
        let camera = CameraInformation(
            horizontalFieldOfViewRadians: 1.2, aspectRatio: 0.5625,
            orientation: .rotatedClockwise, isMirrored: true)
        let batch = DetectionBatch(
            captureTime: .milliseconds(1500), deliveryTime: .milliseconds(1540), camera: camera,
            observations: [Observation(kind: .face, box: NormalizedRect(x: 0.25, y: 0.125, width: 0.5, height: 0.25), confidence: 0.75)])
        let parameters = CameraApp.trackCall(batch, hostCaptureTime: .seconds(1000) + .milliseconds(1500)).encoded().parameters
        #expect(
            JSONValue.object(parameters).serialized == """
                {"camera":{"aspect_ratio":0.5625,"horizontal_fov":1.2,"mirrored":true,"orientation":"rotated_clockwise"},\
                "capture_time":1001.5,"observations":[{"box":{"height":0.25,"width":0.5,"x":0.25,"y":0.125},\
                "confidence":0.75,"kind":"face"}]}
                """)
    }

    @Test func aCrowdIsCutToTheSixtyFourMostConfidentInTheirOrder() {
        let observations = (0..<70).map { index in
            Observation(kind: .body, box: NormalizedRect(x: 0, y: 0, width: 0.1, height: 0.1), confidence: index % 10 == 0 ? 0.1 : 0.9)
        }
        let batch = DetectionBatch(
            captureTime: .zero, deliveryTime: .zero,
            camera: CameraInformation(horizontalFieldOfViewRadians: 1, aspectRatio: 1), observations: observations)
        guard case .host(.track(let sent)) = CameraApp.trackCall(batch, hostCaptureTime: .seconds(1)) else {
            Issue.record("not a Track call")
            return
        }
        #expect(sent.observations.count == 64, "the API takes at most 64")
        #expect(sent.observations.filter { $0.confidence == 0.1 }.count == 1, "six of the seven least confident are left out")
        #expect(sent.observations.first?.confidence == 0.1, "the first low one is kept, in place")
    }

    @Test func thePrimaryIsReadFromAStatus() {
        var status = Dock.Status(
            state: .ready, isDocked: true, accessory: nil, pose: nil, limits: nil, isTrackingEnabled: true, framingMode: .automatic,
            regionOfInterest: .fullImage, selectedSubjects: [], controller: .systemTracker, motion: .idle, faults: [], tracker: .idle,
            isSubjectInFrame: false, primary: nil, subjects: [], loop: .none,
            counters: Dock.Counters(badFrames: 0, reconnects: 0, refusals: 0, observations: 0, cameraFrames: 0))
        #expect(CameraApp.primary(in: status) == TrackerPrimary.none)
        #expect(CameraApp.primaryBox(in: status) == nil)
        status.primary = 4
        status.subjects = [
            SubjectSummary(
                identifier: 2, kind: .body, box: NormalizedRect(x: 0.1, y: 0.1, width: 0.2, height: 0.5), isPrimary: false,
                saliencyRank: 2, isCoasting: false),
            SubjectSummary(
                identifier: 4, kind: .body, box: NormalizedRect(x: 0.5, y: 0, width: 0.25, height: 0.75), isPrimary: true,
                saliencyRank: 1, isCoasting: false),
        ]
        #expect(CameraApp.primary(in: status) == .subject(4))
        #expect(CameraApp.primaryBox(in: status) == NormalizedRect(x: 0.5, y: 0, width: 0.25, height: 0.75))
    }

    // MARK: End to end

    static let scenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    func temporaryPath(_ name: String) -> String {
        "/tmp/\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    // These tests wait for processes by sleeping in tasks, not by blocking; and they run on
    // threads of their own (.onAThreadOfItsOwn), so the 16 seconds of crossing hold no thread of
    // the test pool, which other suites' async tests need.

    /// Waits until `path` exists (docksim makes the link once its pty is open).
    func waitForPath(_ path: String, timeoutSeconds: Double = 60) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if access(path, F_OK) == 0 { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits for `child` to exit (at most `timeoutSeconds`, then kills it); returns its status and
    /// what it wrote.
    func exited(_ child: ChildProcess, timeoutSeconds: Double = 60) async throws -> (status: Int32, output: String, error: String) {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while child.process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if child.process.isRunning { child.signal(SIGKILL) }
        return try child.finish()
    }

    /// Without dockd, docksim runs the dock all the same, says once that it is waiting, and its
    /// report knows no primary ID switches rather than claiming none.
    @Test func withoutDockdTheRunGoesOnAndTheSwitchesAreUnknown() async throws {
        let scenario = temporaryPath("short-scenario") + ".json", link = temporaryPath("dock-nodockd")
        let report = temporaryPath("nodockd-report") + ".json", plot = temporaryPath("nodockd-plot") + ".svg"
        defer { for path in [scenario, report, plot] { unlink(path) } }
        try """
        {"name": "short", "duration_s": 1.5, "subjects": [{"id": 1, "kind": "person", "primary": true,
         "path": {"waypoints": [{"t_s": 0, "x_m": 0, "y_m": 3}]}}]}
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let result = try await exited(
            ChildProcess(
                "docksim",
                [
                    "--pty", link, "--camera", "unix:\(temporaryPath("no-dockd")).sock", "--scenario", scenario,
                    "--report", report, "--plot", plot,
                ]))
        #expect(result.status == 0, "\(result.error)")
        let waiting = result.error.split(separator: "\n").filter { $0.contains("camera app") }
        #expect(
            waiting.count == 1 && waiting.first?.contains("waiting for dockd") == true,
            "one line while it retries: \(waiting)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(json["primary_id_switches"] is NSNull)
        let cameraApp = try #require(json["camera_app"] as? [String: Int])
        #expect(cameraApp["sent"] == 0 && (cameraApp["batches"] ?? 0) > 30 && cameraApp["dropped"] == cameraApp["batches"], "\(cameraApp)")
        #expect(cameraApp["status_samples"] == 0)
        let svg = try Data(contentsOf: URL(fileURLWithPath: plot))
        #expect(XMLParser(data: svg).parse())
        #expect(String(decoding: svg, as: UTF8.self).contains("no tracker followed"))
    }

    /// docksim plays the camera app for dockd through the whole of `crossing` (16 s in real time):
    /// dockd tracks from docksim's detections alone and keeps the primary subject framed and its ID.
    @Test func docksimPlaysTheCameraAppForDockdThroughCrossing() async throws {
        let scenarioPath = Self.scenarios.appendingPathComponent("crossing.json").path
        let link = temporaryPath("dock-camera"), socket = temporaryPath("dockd-camera") + ".sock"
        let report = temporaryPath("camera-report") + ".json", plot = temporaryPath("camera-plot") + ".svg"
        defer { for path in [report, plot] { unlink(path) } }

        let docksim = try ChildProcess(
            "docksim",
            [
                "--pty", link, "--camera", "unix:\(socket)", "--scenario", scenarioPath, "--report", report, "--plot", plot, "--quiet",
            ])
        #expect(try await waitForPath(link), "docksim makes the dock's pty")
        let dockd = try ChildProcess("dockd", ["--device", link, "--socket", socket, "--config", "", "--wake-on-attach=false"])
        let finished = try await exited(docksim)
        #expect(finished.status == 0, "docksim: \(finished.error)")
        #expect(finished.error.isEmpty, "--quiet: nothing on standard error")

        // dockd is still up: it got the observations and was set up as the camera app wants.
        let client = try VarlinkTestClient(path: socket)
        let status = try #require(try client.call("io.dockd.Dock.GetStatus")?["parameters"] as? [String: Any])["status"] as? [String: Any]
        let counters = status?["counters"] as? [String: Any]
        #expect((counters?["observations"] as? Int ?? 0) > 0, "dockd's tracker was fed over the API: \(String(describing: counters))")
        #expect(status?["tracking"] as? Bool == true)
        #expect(status?["framing"] as? String == "center")
        dockd.signal(SIGTERM)
        #expect(try await exited(dockd).status == 0)

        // How well dockd framed and kept the ID in real time is crossing's own criteria, held by
        // scripts/hil, whose runner runs it again alone when a neighbour's load took it below
        // them (here, beside the whole swift test on a loaded machine, one ID switch against none
        // failed a clean clone's run). Here: the report has them, from a dockd that followed.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(json["primary_id_switches"] is Int, "known, since dockd answered: \(json["primary_id_switches"] ?? "none")")
        let share = try #require(json["primary_in_tolerance_share"] as? Double)
        #expect(share > 0 && share <= 1, "the dock followed the subject some of the time: \(share)")
        let cameraApp = try #require(json["camera_app"] as? [String: Int])
        #expect((cameraApp["sent"] ?? 0) > 300 && cameraApp["refused"] == 0, "\(cameraApp)")
        let series = try #require(json["series"] as? [String: [Any]])
        #expect(series["primary_id"]?.contains { $0 as? Int != nil } == true, "per frame, the primary ID")

        let svg = try Data(contentsOf: URL(fileURLWithPath: plot))
        #expect(XMLParser(data: svg).parse(), "the plot is well-formed XML")
        let text = String(decoding: svg, as: UTF8.self)
        #expect(text.contains("crossing · seed 12") && text.contains("class=\"tolerance\"") && text.contains("class=\"primary\""))
    }
}
