import Foundation
import Glibc
import TestSupport
import Testing

/// The tracker inside dockd: fed by the simulated camera or by `Track`, seen in `GetStatus` and
/// `Watch`, moving the dock when system tracking is on, and going back to rest.
@Suite(.serialized, .onTheProcessThreads) struct TrackingAPITests {
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func status(_ client: VarlinkTestClient) throws -> [String: Any] {
        try #require(APITests.parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any])
    }

    static func yaw(_ status: [String: Any]) -> Double? { (status["pose"] as? [String: Any])?["yaw"] as? Double }

    @Test func theSimulatedCameraIsFollowedThenTheDockHoldsStillThenRests() throws {
        // One person stands 0.29 rad to the right for four seconds, then is gone.
        let scenario = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-tracking-\(getpid()).json"
        try """
        {"name": "stand-then-go", "duration_s": 120, "seed": 5,
         "subjects": [{"id": 1, "kind": "person", "primary": true,
                       "path": {"waypoints": [{"t_s": 0, "x_m": 0.9, "y_m": 3}]}, "absent": [{"from_s": 4, "to_s": 120}]}]}
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { unlink(scenario) }
        let socket = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-tracking-\(getpid()).sock"
        let process = try ChildProcess(
            "dockd",
            [
                "--config", "", "--simulator", "--scenario", scenario, "--socket", socket,
                "--wake-on-attach=false", "--tracking", "--lost-after-s", "1",
            ])
        #expect(process.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        let client = try VarlinkTestClient(path: socket)
        // Every status dockd shows, from its Watch stream (10 a second, queued for this test
        // however late it reads them), until the dock is back at rest or 60 s of dockd's clock.
        let watcher = try VarlinkTestClient(path: socket)
        try watcher.send("io.dockd.Dock.Watch", more: true)
        let expectedYaw = atan(0.9 / 3)
        var seen: [String] = []
        var following: [String: Any]?
        var start: Double?
        while let event = APITests.parameters(watcher.receive())["event"] as? [String: Any],
            let status = event["status"] as? [String: Any]
        {
            let time = event["time"] as? Double ?? 0
            start = start ?? time
            if time - (start ?? time) > 60 { break }
            let tracker = status["tracker"] as? String ?? "?"
            if seen.last != tracker { seen.append(tracker) }
            if tracker == "following", status["subject_in_frame"] as? Bool == true,
                let yaw = Self.yaw(status), abs(yaw - expectedYaw) < 0.05
            {
                following = status
            }
            if seen.contains("returning"), tracker == "idle", let yaw = Self.yaw(status), abs(yaw) < 0.03 { break }
        }
        // Idle until the tracker has confirmed the person (whether this test connected soon
        // enough to see that is the machine's speed), then following, holding and returning.
        #expect(seen.drop { $0 == "idle" }.first == "following", "states seen: \(seen)")
        #expect(Array(seen.suffix(3)) == ["holding", "returning", "idle"], "then held still and went back to rest: \(seen)")
        let framed = try #require(following, "the dock turned to the subject, 0.29 rad right")
        let subjects = try #require(framed["subjects"] as? [[String: Any]])
        let primary = try #require(subjects.first { $0["primary"] as? Bool == true })
        #expect(primary["kind"] as? String == "body" && primary["saliency_rank"] as? Int == 1)
        #expect(framed["primary"] as? Int == primary["id"] as? Int)
        let box = try #require(primary["box"] as? [String: Any])
        let centre = (box["x"] as? Double ?? 0) + (box["width"] as? Double ?? 0) / 2
        #expect(abs(centre - 0.5) < 0.1, "framed near the centre across (automatic framing): \(centre)")
        #expect(((framed["counters"] as? [String: Any])?["camera_frames"] as? Int ?? 0) > 30)
        let final = try Self.status(client)
        #expect(abs(Self.yaw(final) ?? 1) < 0.03, "back at the rest pose")
        process.signal(SIGTERM)
        #expect(try process.finish().status == 0)
    }

    @Test func anAppearanceOfAnotherLengthThanTheClientsEarlierOnesIsRefusedByPathAndNothingIsKept() throws {
        let daemon = try APITests.Daemon()
        let first = try daemon.client(), second = try daemon.client()
        let camera: [String: Any] = ["horizontal_fov": 1.2, "aspect_ratio": 16.0 / 9]
        func body(_ length: Int) -> [String: Any] {
            [
                "kind": "body", "box": ["x": 0.6, "y": 0.2, "width": 0.1, "height": 0.6], "confidence": 0.9,
                "appearance": (0..<length).map { Double($0 % 3) + 0.5 },
            ]
        }
        func track(_ client: VarlinkTestClient, _ observations: [[String: Any]]) throws -> [String: Any]? {
            try client.call(
                "io.dockd.Dock.Track", ["observations": observations, "camera": camera, "capture_time": Self.monotonicSeconds()])
        }
        // The first descriptor sets the client's length (8)...
        #expect(APITests.errorName(try track(first, [body(8)])) == nil)
        // ...and a frame with another one, even beside one of 8, is refused whole by its path.
        let face: [String: Any] = ["kind": "face", "box": ["x": 0.1, "y": 0.1, "width": 0.1, "height": 0.1]]
        let frames: [[[String: Any]]] = [[body(16)], [body(8), body(9)], [body(8), face, body(4)]]
        for observations in frames {
            let refused = try track(first, observations)
            #expect(APITests.errorName(refused) == "io.dockd.Dock.InvalidParameter")
            #expect(APITests.parameters(refused)["parameter"] as? String == "observations[\(observations.count - 1)].appearance")
        }
        // Another connection has a length of its own; the first keeps 8 after its refusals.
        #expect(APITests.errorName(try track(second, [body(16)])) == nil)
        #expect(APITests.errorName(try track(first, [body(8), body(8)])) == nil)
        // Outside 4...512, or a value that is no finite float, is refused by path too.
        let outOfRange: [([String: Any], String)] = [(body(3), "observations[0].appearance"), (body(513), "observations[0].appearance")]
        for (observation, path) in outOfRange {
            let refused = try track(second, [observation])
            #expect(APITests.parameters(refused)["parameter"] as? String == path)
        }
        let text =
            "{\"method\":\"io.dockd.Dock.Track\",\"parameters\":{\"observations\":[{\"kind\":\"body\",\"box\":"
            + "{\"x\":0.2,\"y\":0.2,\"width\":0.1,\"height\":0.3},\"appearance\":[1,1e999,0,0]}],"
            + "\"camera\":{\"horizontal_fov\":1.2,\"aspect_ratio\":1.5},\"capture_time\":\(Self.monotonicSeconds())}}"
        first.sendRaw(Array(text.utf8) + [0])
        let overflowed = first.receive()
        #expect(APITests.errorName(overflowed) == "io.dockd.Dock.InvalidParameter")
        #expect(APITests.parameters(overflowed)["parameter"] as? String == "observations[0].appearance[1]")
        // Only the accepted frames' observations were kept: 1 + 1 + 2.
        let status = try Self.status(first)
        #expect((status["counters"] as? [String: Any])?["observations"] as? Int == 4)
    }

    @Test func boxesSentWithTrackBecomeSubjectsThatCanBePickedAndWatched() throws {
        let daemon = try APITests.Daemon()
        let client = try daemon.client()
        // A body right of centre, 30 frames a second for a second.
        let body: [String: Any] = ["kind": "body", "box": ["x": 0.6, "y": 0.2, "width": 0.1, "height": 0.6], "confidence": 0.9]
        let camera: [String: Any] = ["horizontal_fov": 1.2, "aspect_ratio": 16.0 / 9]
        // Frames with a degenerate or non-finite box beside a good one are refused whole, by name,
        // and nothing of them reaches the tracker.
        let degenerate: [String: Any] = ["kind": "body", "box": ["x": 0.2, "y": 0.2, "width": -0.1, "height": 0.3]]
        for _ in 0..<10 {
            let reply = try client.call(
                "io.dockd.Dock.Track",
                [
                    "observations": [body, degenerate], "camera": camera,
                    "capture_time": Self.monotonicSeconds(),
                ])
            #expect(APITests.errorName(reply) == "io.dockd.Dock.InvalidParameter")
            #expect(APITests.parameters(reply)["parameter"] as? String == "observations[1].box")
            usleep(33_000)
        }
        // 1e999 is valid JSON but no finite number: refused by its path, nothing kept, and the
        // connection that sent it carries on.
        let reckless = try daemon.client()
        let text =
            "{\"method\":\"io.dockd.Dock.Track\",\"parameters\":{\"observations\":[{\"kind\":\"body\",\"box\":"
            + "{\"x\":1e999,\"y\":0.2,\"width\":0.1,\"height\":0.3}}],\"camera\":{\"horizontal_fov\":1.2,\"aspect_ratio\":1.5},"
            + "\"capture_time\":\(Self.monotonicSeconds())}}"
        reckless.sendRaw(Array(text.utf8) + [0])
        let refused = reckless.receive()
        #expect(APITests.errorName(refused) == "io.dockd.Dock.InvalidParameter")
        #expect(APITests.parameters(refused)["parameter"] as? String == "observations[0].box.x")
        #expect(APITests.errorName(try reckless.call("io.dockd.Dock.GetStatus")) == nil, "still answering")
        // Nothing of the refused frames reached the tracker: not in the status of any of the
        // control loop's next three ticks, which come after the refusals were answered.
        let after = try client.dockStatuses(throughTicks: 3)
        #expect(!after.isEmpty, "the control loop ticked")
        for untouched in after {
            #expect((untouched["subjects"] as? [Any])?.isEmpty == true && untouched["tracker"] as? String == "idle")
            #expect((untouched["counters"] as? [String: Any])?["observations"] as? Int == 0)
        }
        // One frame with the body, captured now, as a camera sends them.
        func sendFrame() throws {
            let reply = try client.call(
                "io.dockd.Dock.Track",
                [
                    "observations": [body], "camera": camera,
                    "capture_time": Self.monotonicSeconds(),
                ])
            #expect(APITests.errorName(reply) == nil)
        }
        for _ in 0..<30 {
            try sendFrame()
            usleep(33_000)  // a camera's pace; the tracker goes by each frame's capture time
        }
        // The subject as a status between two frames shows it: one read after a pause of over
        // 150 ms since the last frame (a loaded machine's) would show it coasting, so the frames
        // go on, a look after each, until a look shows it seen.
        var seenStatus: [String: Any]?
        var looks: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while seenStatus == nil, ContinuousClock.now < deadline {
            try sendFrame()
            if let look = try client.dockStatus() {
                looks.append(look)
                if (look["subjects"] as? [[String: Any]])?.first?["coasting"] as? Bool == false { seenStatus = look }
            }
            usleep(33_000)
        }
        let status = try #require(seenStatus, "a subject seen, not coasting: \(looks.suffix(2))")
        let subjects = try #require(status["subjects"] as? [[String: Any]])
        #expect(subjects.count == 1, "\(subjects)")
        let subject = try #require(subjects.first)
        let identifier = try #require(subject["id"] as? Int)
        #expect(subject["kind"] as? String == "body" && subject["coasting"] as? Bool == false)
        let box = try #require(subject["box"] as? [String: Any])
        #expect(abs((box["x"] as? Double ?? 0) - 0.6) < 0.03 && abs((box["height"] as? Double ?? 0) - 0.6) < 0.05, "\(box)")
        // Tracking is off: the dock has not moved.
        #expect(status["tracker"] as? String == "following" && abs(Self.yaw(status) ?? 1) < 0.01)

        try sendFrame()  // the subject still seen, however long the checks above took
        let picked = try client.call("io.dockd.Dock.SelectSubjectAt", ["point": ["x": 0.65, "y": 0.5]])
        #expect(APITests.parameters(picked)["subject"] as? Int == identifier)
        #expect(
            APITests.errorName(try client.call("io.dockd.Dock.SelectSubjectAt", ["point": ["x": 0.1, "y": 0.5]]))
                == "io.dockd.Dock.NoSubjectFound")
        #expect(try Self.status(client)["selected_subjects"] as? [Int] == [identifier])

        // Watch carries the same summaries at 10 Hz.
        let watcher = try daemon.client()
        try watcher.send("io.dockd.Dock.Watch", more: true)
        var summaries: [[String: Any]]?
        for _ in 0..<20 {
            try sendFrame()  // the camera goes on, and so the subject is seen
            guard let event = (APITests.parameters(watcher.receive())["event"] as? [String: Any]) else { break }
            if let status = event["status"] as? [String: Any], let list = status["subjects"] as? [[String: Any]], !list.isEmpty {
                summaries = list
                break
            }
        }
        #expect(summaries?.first?["id"] as? Int == identifier, "Watch shows the subject")
        try daemon.stop()
    }
}
