import Foundation
import Glibc
import TestSupport
import Testing

/// The control API end to end: dockd on the in-process simulator, clients on a temporary socket.
@Suite(.serialized, .onTheProcessThreads) struct APITests {
    final class Daemon {
        let socket: String
        let process: ChildProcess

        init(logLevel: String = "info") throws {
            socket =
                "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-api-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
            process = try ChildProcess(
                "dockd",
                [
                    "--config", "", "--simulator", "--socket", socket, "--wake-on-attach=false",
                    "--simulator-camera=false", "--log-level", logLevel,
                ])
            #expect(process.waitForErrorLine(containing: "control API on") != nil)
            #expect(process.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        }

        func client(receiveBufferBytes: Int32? = nil) throws -> VarlinkTestClient {
            try VarlinkTestClient(path: socket, receiveBufferBytes: receiveBufferBytes)
        }

        deinit {
            // A test that throws half-way must not leave its daemon running.
            if process.process.isRunning { process.signal(SIGKILL) }
        }

        func stop() throws {
            process.signal(SIGTERM)
            #expect(try process.finish().status == 0)
            #expect(access(socket, F_OK) != 0, "the socket is removed at exit")
        }
    }

    static func errorName(_ reply: [String: Any]?) -> String? { reply?["error"] as? String }

    /// The time (host monotonic seconds) of the first `control` event at or after `start` whose
    /// status shows the motion stopped, read from a `Watch` stream; and the events seen, for the
    /// failure message.
    static func stopEvent(on watcher: VarlinkTestClient, after start: Double) -> (time: Double?, seen: [String]) {
        var seen: [String] = []
        for _ in 0..<100 {
            guard let event = parameters(watcher.receive())["event"] as? [String: Any] else { break }
            let status = event["status"] as? [String: Any]
            let time = event["time"] as? Double ?? 0
            seen.append("\(event["kind"] ?? "?") \(event["detail"] ?? "") motion \(status?["motion"] ?? "?") at \(time - start) s")
            if event["kind"] as? String == "control", status?["motion"] as? String == "idle", time >= start {
                return (time, seen)
            }
        }
        return (nil, seen)
    }
    static func parameters(_ reply: [String: Any]?) -> [String: Any] { reply?["parameters"] as? [String: Any] ?? [:] }

    @Test func introspectionServesTheInterfaceFileAndTheSocketIsGroupOnly() throws {
        let daemon = try Daemon()
        var status = stat()
        #expect(stat(daemon.socket, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660)
        let client = try daemon.client()
        let info = Self.parameters(try client.call("org.varlink.service.GetInfo"))
        #expect(info["interfaces"] as? [String] == ["org.varlink.service", "io.dockd.Dock"])
        let description = Self.parameters(try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "io.dockd.Dock"]))
        let file = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Protocol/io.dockd.Dock.varlink"), encoding: .utf8)
        #expect(description["description"] as? String == file)
        #expect(
            Self.errorName(try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "com.example.Nope"]))
                == "org.varlink.service.InterfaceNotFound")
        try daemon.stop()
    }

    @Test func everyMethodAnswers() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let status = Self.parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any]
        #expect(status?["state"] as? String == "ready")
        #expect(status?["docked"] as? Bool == true)
        let accessories = Self.parameters(try client.call("io.dockd.Dock.ListAccessories"))["accessories"] as? [[String: Any]]
        #expect(accessories?.count == 1)
        #expect(accessories?.first?["name"] as? String == "default")
        #expect(accessories?.first?["state"] as? String == "ready")
        #expect((accessories?.first?["accessory"] as? [String: Any])?["id"] as? String == "SIM-0001")
        let velocity = try client.call("io.dockd.Dock.SetVelocity", ["yaw": 0.3, "pitch": 0, "duration": 0.5])
        #expect(Self.parameters(velocity)["result"] != nil)
        let clamped = try client.call("io.dockd.Dock.SetOrientation", ["yaw": 3.5, "pitch": 0.2, "duration": 1])
        #expect((Self.parameters(clamped)["result"] as? [String: Any])?["clamped"] as? [String] == ["yaw"])
        let animate = try client.call("io.dockd.Dock.Animate", ["animation": "yes"])
        #expect(Self.parameters(animate)["result"] != nil)
        let stop = try client.call("io.dockd.Dock.Stop")
        #expect(Self.errorName(stop) == nil)
        #expect((Self.parameters(stop)).isEmpty)
        #expect(Self.errorName(try client.call("io.dockd.Dock.SetSystemTracking", ["enabled": true])) == nil)
        let limits = Self.parameters(try client.call("io.dockd.Dock.SetLimits", ["yaw": ["min": -1, "max": 1], "max_speed": 1]))
        #expect(((limits["limits"] as? [String: Any])?["yaw"] as? [String: Any])?["max"] as? Double == 1)
        #expect(Self.errorName(try client.call("io.dockd.Dock.AcquireControl")) == nil)
        // The loop's figures once it has ticked: everything above can finish before its first tick.
        let acquired = try client.dockStatus { (VarlinkTestClient.ticks($0) ?? 0) > 0 }.status
        #expect((acquired?["controller"] as? [String: Any])?["acquired"] as? Bool == true)
        let loop = try #require(acquired?["loop"] as? [String: Any])
        #expect((loop["ticks"] as? Int ?? 0) > 0 && loop["missed"] is Int, "\(loop)")
        let p50 = try #require(loop["late_p50"] as? Double), p99 = try #require(loop["late_p99"] as? Double)
        #expect(p50 >= 0 && p50 <= p99 && p99 <= (loop["late_max"] as? Double ?? -1), "lateness percentiles in order")
        #expect(Self.errorName(try client.call("io.dockd.Dock.ReleaseControl")) == nil)
        let released = Self.parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any]
        #expect((released?["controller"] as? [String: Any])?["kind"] as? String == "tracker", "tracking is on, so it takes over")
        #expect(Self.errorName(try client.call("io.dockd.Dock.GetStatus", ["accessory": "OTHER"])) == "io.dockd.Dock.NoSuchAccessory")
        // Watch checks its accessory like every method.
        let watcher = try daemon.client()
        try watcher.send("io.dockd.Dock.Watch", ["accessory": "OTHER"], more: true)
        #expect(Self.errorName(watcher.receive()) == "io.dockd.Dock.NoSuchAccessory")
        try daemon.stop()
    }

    @Test func watchStreamsWhileAnotherClientMovesTheDock() throws {
        let daemon = try Daemon()
        let watcher = try daemon.client()
        try watcher.send("io.dockd.Dock.Watch", more: true)
        #expect(watcher.receive() != nil, "the stream is set up once its first reply arrives")
        let first = try #require(watcher.receive())
        #expect(first["continues"] as? Bool == true)
        let mover = try daemon.client()
        _ = try mover.call("io.dockd.Dock.SetVelocity", ["yaw": 0.5, "pitch": 0, "duration": 2])
        var sawVelocity = false, sawControl = false, statusEvents = 0
        for _ in 0..<40 {
            guard let reply = watcher.receive(), let event = Self.parameters(reply)["event"] as? [String: Any] else { break }
            if event["kind"] as? String == "status" { statusEvents += 1 }
            if event["kind"] as? String == "control" { sawControl = true }
            if (event["status"] as? [String: Any])?["motion"] as? String == "velocity" { sawVelocity = true }
            if sawVelocity && sawControl && statusEvents >= 10 { break }
        }
        #expect(sawVelocity && sawControl)
        #expect(statusEvents >= 10, "status at 10 Hz")
        let notMore = try daemon.client()
        #expect(Self.errorName(try notMore.call("io.dockd.Dock.Watch")) == "org.varlink.service.ExpectedMore")
        try daemon.stop()
    }

    @Test func aSecondClientIsBusyAndAVanishedControllerStopsTheDock() throws {
        let daemon = try Daemon(logLevel: "debug")  // control changes of a client are logged at debug
        let watcher = try daemon.client()
        try watcher.send("io.dockd.Dock.Watch", more: true)
        #expect(watcher.receive() != nil, "the stream is set up once its first reply arrives")
        var first: VarlinkTestClient? = try daemon.client()
        _ = try first?.call("io.dockd.Dock.SetVelocity", ["yaw": 0.8, "pitch": 0, "duration": 30])
        var second: VarlinkTestClient? = try daemon.client()
        let busy = try second?.call("io.dockd.Dock.SetVelocity", ["yaw": -0.8, "pitch": 0])
        #expect(Self.errorName(busy) == "io.dockd.Dock.Busy")
        #expect(Self.parameters(busy)["holder"] as? Int != nil)
        let takeOver = try second?.call("io.dockd.Dock.AcquireControl", ["take_over": true])
        #expect(Self.errorName(takeOver) == nil, "take_over wins")
        #expect(Self.errorName(try second?.call("io.dockd.Dock.SetVelocity", ["yaw": 0.8, "pitch": 0, "duration": 30])) == nil)
        first = nil  // the first client leaves without a word; it had lost control already

        // Wait until the watcher sees the second client turning the dock.
        func nextStatus() -> [String: Any]? {
            guard let reply = watcher.receive(), let event = Self.parameters(reply)["event"] as? [String: Any] else { return nil }
            return event["status"] as? [String: Any]
        }
        var moving = false
        for _ in 0..<100 {
            guard let status = nextStatus() else { break }
            if status["motion"] as? String == "velocity", (status["controller"] as? [String: Any])?["kind"] as? String == "client",
                abs((status["pose"] as? [String: Any])?["yaw_rate"] as? Double ?? 0) > 0.5
            {
                moving = true
                break
            }
        }
        #expect(moving)
        // The client holding control vanishes mid-velocity: the dock is told to stop at once.
        second = nil
        var stopped = false
        for _ in 0..<30 {
            guard let status = nextStatus() else { break }
            if status["motion"] as? String == "idle", (status["controller"] as? [String: Any])?["kind"] as? String == "none" {
                stopped = true
                break
            }
        }
        #expect(stopped, "the dock was told to stop and control returned")
        #expect(daemon.process.waitForErrorLine(containing: "control: client") != nil)
        try daemon.stop()
    }

    @Test func badInputGetsNamedErrorsAndTheDaemonCarriesOn() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        func invalid(_ method: String, _ parameters: [String: Any]) throws -> String? {
            let reply = try client.call(method, parameters)
            #expect(Self.errorName(reply) == "io.dockd.Dock.InvalidParameter", "\(method) \(parameters)")
            return Self.parameters(reply)["parameter"] as? String
        }
        #expect(try invalid("io.dockd.Dock.SetVelocity", ["yaw": "fast", "pitch": 0]) == "yaw")
        #expect(try invalid("io.dockd.Dock.SetVelocity", ["pitch": 0]) == "yaw")
        #expect(try invalid("io.dockd.Dock.SetVelocity", ["yaw": 0, "pitch": 0, "colour": "red"]) == "colour")
        #expect(try invalid("io.dockd.Dock.SetVelocity", ["yaw": 25, "pitch": 0]) == "yaw")
        #expect(try invalid("io.dockd.Dock.SetVelocity", ["yaw": 0, "pitch": 0, "duration": -1]) == "duration")
        #expect(try invalid("io.dockd.Dock.Animate", ["animation": "dance"]) == "animation")
        #expect(try invalid("io.dockd.Dock.SetLimits", ["yaw": ["min": 1, "max": -1]]) == "yaw")
        #expect(Self.errorName(try client.call("io.dockd.Dock.Fly")) == "org.varlink.service.MethodNotFound")
        // Nothing was half-applied: the dock is idle and nobody holds control.
        let status = Self.parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any]
        #expect(status?["motion"] as? String == "idle")

        // 1e999 is valid JSON but no double: refused by name and path, and the connection carries on.
        let huge = try daemon.client()
        for (text, path) in [
            (#"{"method":"io.dockd.Dock.SetVelocity","parameters":{"yaw":1e999,"pitch":0}}"#, "yaw"),
            (#"{"method":"io.dockd.Dock.SelectSubjectAt","parameters":{"point":{"x":0.5,"y":-1e999}}}"#, "point.y"),
        ] {
            huge.sendRaw(Array(text.utf8) + [0])
            let reply = huge.receive()
            #expect(Self.errorName(reply) == "io.dockd.Dock.InvalidParameter", "\(text)")
            #expect(Self.parameters(reply)["parameter"] as? String == path)
            #expect(Self.parameters(reply)["reason"] as? String == "must be finite")
        }
        #expect(Self.parameters(try huge.call("io.dockd.Dock.GetStatus"))["status"] != nil, "the same connection still answers")

        let garbage = try daemon.client()
        garbage.sendRaw(Array("{this is not json".utf8) + [0])
        #expect(garbage.isClosedByServer(), "invalid JSON: a clean disconnect")

        let oversize = try daemon.client()
        oversize.sendRaw([UInt8](repeating: 0x20, count: 70_000))
        let refused = oversize.receive()
        #expect(Self.errorName(refused) == "io.dockd.Dock.InvalidParameter")
        #expect(oversize.isClosedByServer(), "then the connection is closed")

        let silent = try daemon.client()  // connects and says nothing
        _ = silent
        var crowd: [VarlinkTestClient] = []
        for _ in 0..<200 { crowd.append(try daemon.client()) }
        crowd.removeAll()
        // The crowd's connections close asynchronously; until they have, new ones may be turned away.
        var answered = false
        let deadline = ContinuousClock.now + .seconds(60)
        while !answered, ContinuousClock.now < deadline {
            let after = try daemon.client()
            answered = Self.parameters(try after.call("io.dockd.Dock.GetStatus"))["status"] != nil
        }
        #expect(answered, "still answering")
        try daemon.stop()
    }

    @Test func aWatcherThatNeverReadsIsDropped() throws {
        let daemon = try Daemon()
        let sluggard = try daemon.client(receiveBufferBytes: 2048)
        try sluggard.send("io.dockd.Dock.Watch", more: true)
        #expect(
            daemon.process.waitForErrorLine(containing: "dropping it", timeoutSeconds: 60) != nil,
            "dropped once its socket is full")
        let other = try daemon.client()
        #expect(Self.parameters(try other.call("io.dockd.Dock.GetStatus"))["status"] != nil)
        try daemon.stop()
    }
}

extension APITests {
    @Test func observationsFramingAndSelectionAreCheckedAndKept() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let camera: [String: Any] = ["horizontal_fov": 1.2, "aspect_ratio": 1.7778, "orientation": "up", "mirrored": true]
        let good: [String: Any] = [
            "observations": [
                ["kind": "face", "box": ["x": 0.4, "y": 0.2, "width": 0.1, "height": 0.15], "confidence": 0.9],
                ["kind": "body", "box": ["x": 0.35, "y": 0.2, "width": 0.2, "height": 0.7]],
            ],
            "camera": camera, "capture_time": 12.5,
        ]
        #expect(Self.errorName(try client.call("io.dockd.Dock.Track", good)) == nil)
        func invalid(_ method: String, _ parameters: [String: Any]) throws -> String? {
            let reply = try client.call(method, parameters)
            #expect(Self.errorName(reply) == "io.dockd.Dock.InvalidParameter", "\(method) \(parameters)")
            return Self.parameters(reply)["parameter"] as? String
        }
        var degenerate = good
        degenerate["observations"] = [["kind": "face", "box": ["x": 0.4, "y": 0.2, "width": 0, "height": 0.1]]]
        #expect(try invalid("io.dockd.Dock.Track", degenerate) == "observations[0].box")
        var outside = good
        outside["observations"] = [["kind": "body", "box": ["x": 1.5, "y": 0.2, "width": 0.1, "height": 0.1]]]
        #expect(try invalid("io.dockd.Dock.Track", outside) == "observations[0].box")
        var badKind = good
        badKind["observations"] = [["kind": "cat", "box": ["x": 0.1, "y": 0.2, "width": 0.1, "height": 0.1]]]
        #expect(try invalid("io.dockd.Dock.Track", badKind) == "observations[0].kind")
        var badCamera = good
        badCamera["camera"] = ["horizontal_fov": 4, "aspect_ratio": 1.5]
        #expect(try invalid("io.dockd.Dock.Track", badCamera) == "camera.horizontal_fov")
        var noTime = good
        noTime.removeValue(forKey: "capture_time")
        #expect(try invalid("io.dockd.Dock.Track", noTime) == "capture_time")

        #expect(Self.errorName(try client.call("io.dockd.Dock.SetFramingMode", ["mode": "left"])) == nil)
        #expect(try invalid("io.dockd.Dock.SetFramingMode", ["mode": "diagonal"]) == "mode")
        #expect(
            Self.errorName(
                try client.call(
                    "io.dockd.Dock.SetRegionOfInterest",
                    ["region": ["x": 0.1, "y": 0.1, "width": 0.5, "height": 0.8]])) == nil)
        #expect(
            try invalid("io.dockd.Dock.SetRegionOfInterest", ["region": ["x": 0.1, "y": 0.1, "width": -0.5, "height": 0.8]]) == "region")
        #expect(Self.errorName(try client.call("io.dockd.Dock.SelectSubjects", ["subjects": [3, 7]])) == nil)
        #expect(try invalid("io.dockd.Dock.SelectSubjects", ["subjects": [3, "seven"]]) == "subjects[1]")
        #expect(
            Self.errorName(try client.call("io.dockd.Dock.SelectSubjectAt", ["point": ["x": 0.5, "y": 0.5]]))
                == "io.dockd.Dock.NoSubjectFound")
        #expect(try invalid("io.dockd.Dock.SelectSubjectAt", ["point": ["x": 1.5, "y": 0.5]]) == "point.x")

        let status = Self.parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any]
        #expect(status?["framing"] as? String == "left")
        #expect((status?["region_of_interest"] as? [String: Any])?["width"] as? Double == 0.5)
        #expect(status?["selected_subjects"] as? [Int] == [3, 7])
        #expect((status?["counters"] as? [String: Any])?["observations"] as? Int == 2, "only the valid batch counted")
        try daemon.stop()
    }
}

extension APITests {
    @Test func withoutADockMotionIsNotReady() throws {
        let socket = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-nodock-\(getpid()).sock"
        let dockd = try ChildProcess("dockd", ["--config", "", "--device", "/nonexistent/ttyACM9", "--socket", socket])
        #expect(dockd.waitForErrorLine(containing: "control API on") != nil)
        let client = try VarlinkTestClient(path: socket)
        let status = Self.parameters(try client.call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any]
        #expect(["disconnected", "connecting"].contains(status?["state"] as? String ?? ""))
        #expect(Self.errorName(try client.call("io.dockd.Dock.SetVelocity", ["yaw": 0.1, "pitch": 0])) == "io.dockd.Dock.NotReady")
        #expect(Self.errorName(try client.call("io.dockd.Dock.SetLimits", ["max_speed": 1])) == "io.dockd.Dock.NotReady")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }

    /// The stop comes after the client went away; how soon is a real-time figure, held in virtual
    /// time here (`DaemonLoopTests`: the stop is sent on the loop's turn that hears the hang-up)
    /// and measured from the dock's side by `scripts/check-visca`, `check-pelco-d` and `check-uvc`.
    @Test func aControllingClientThatVanishesStopsTheDock() throws {
        let daemon = try Daemon()
        let watcher = try daemon.client()
        try watcher.send("io.dockd.Dock.Watch", more: true)
        #expect(watcher.receive() != nil, "the stream is set up once its first reply arrives")
        var controller: VarlinkTestClient? = try daemon.client()
        #expect(Self.errorName(try controller?.call("io.dockd.Dock.AcquireControl")) == nil)
        #expect(Self.errorName(try controller?.call("io.dockd.Dock.SetVelocity", ["yaw": 0.8, "pitch": 0, "duration": 30])) == nil)
        // Both clocks are CLOCK_MONOTONIC: the event's time and ours can be compared.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let closedAt = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        controller = nil
        let (stoppedAt, seen) = Self.stopEvent(on: watcher, after: closedAt)
        #expect(stoppedAt != nil, "a stop after the client went away: \(seen.prefix(12))")
        try daemon.stop()
    }
}

extension APITests {
    @Test func clientsThatHangUpBeforeTheirReplyDoNotKillDockd() throws {
        // The reply (or the Watch stream) is written to a socket whose peer has gone: that is an
        // EPIPE for dockd to shrug off, not a SIGPIPE to die of. (Connections are logged at debug.)
        let daemon = try Daemon(logLevel: "debug")
        for index in 0..<200 {
            let client = try daemon.client()
            try client.send(index % 2 == 0 ? "io.dockd.Dock.GetStatus" : "io.dockd.Dock.Watch", more: index % 2 == 1)
            // The client goes away at once (deinit closes its socket).
        }
        // dockd logs each client's end once it is done with it (it wrote what it owed or met the
        // broken pipe): two hundred of those lines, and it carried on. A dockd killed by SIGPIPE
        // ends its standard error, and the wait ends there.
        // A machine slow enough that dockd hears 128 connections before their hang-ups has it
        // refuse the rest by its connection limit, each with a line of its own: counted too.
        var ended = 0, refused = 0
        while ended + refused < 200, let line = daemon.process.waitForErrorLine(containing: "client") {
            if line.contains(" disconnected") { ended += 1 }
            if line.contains("refusing a connection") { refused += 1 }
        }
        #expect(ended + refused == 200, "clients seen to go: \(ended), refused: \(refused); \(daemon.process.errorLines.suffix(4))")
        #expect(ended >= 128, "at least as many served as dockd takes at once: \(ended)")
        #expect(daemon.process.process.isRunning, "dockd is still running")
        let status = Self.parameters(try daemon.client().call("io.dockd.Dock.GetStatus"))["status"] as? [String: Any]
        #expect(status?["state"] as? String == "ready")
        try daemon.stop()
    }
}

extension APITests {
    /// As above, the client a process of its own; how soon the stop comes is the check scripts'
    /// (`scripts/check-visca` and the others kill a client with `kill -9` and time the stop).
    @Test func aControllingClientProcessKilledWithSigkillStopsTheDock() throws {
        let daemon = try Daemon()
        let watcher = try daemon.client()
        try watcher.send("io.dockd.Dock.Watch", more: true)
        #expect(watcher.receive() != nil, "the stream is set up once its first reply arrives")
        // Another process, any Varlink client: it takes control, starts the dock turning for 30 s
        // and waits.
        let script = """
            import socket, sys, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.sendall(b'{"method":"io.dockd.Dock.AcquireControl"}\\0')
            s.sendall(b'{"method":"io.dockd.Dock.SetVelocity","parameters":{"yaw":0.8,"pitch":0,"duration":30}}\\0')
            reply = b""
            while reply.count(b"\\0") < 2:
                reply += s.recv(4096)
            print("moving" if b'"error"' not in reply else reply.decode(), flush=True)
            time.sleep(60)
            """
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", "-c", script, daemon.socket]
        let output = Pipe()
        client.standardOutput = output
        try client.run()
        defer { if client.isRunning { kill(client.processIdentifier, SIGKILL) } }
        let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(said.hasPrefix("moving"), "the client took control: \(said)")
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let killedAt = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        kill(client.processIdentifier, SIGKILL)
        let (stoppedAt, seen) = Self.stopEvent(on: watcher, after: killedAt)
        #expect(stoppedAt != nil, "a stop after the kill: \(seen.prefix(12))")
        try daemon.stop()
    }
}

extension APITests {
    /// A call waiting for its motion's end holds up neither the calls after it on the same
    /// connection (a DockClient app's one connection) nor the answer's order.
    @Test func aWaitingCallDoesNotHoldUpTheConnection() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        // The Stop is read while the move waits: had the waiting call held the connection up, the
        // Stop would have been read only once the 3 s move was over, and the move would have
        // ended reached, not stopped.
        try client.send("io.dockd.Dock.SetOrientation", ["yaw": 1.5, "pitch": 0, "duration": 3, "wait": true])
        try client.send("io.dockd.Dock.Stop")
        let moved = try #require(client.receive(), "the move's answer")
        let stopped = try #require(client.receive(), "then the stop's")
        let ended = (Self.parameters(moved)["result"] as? [String: Any])?["ended"] as? [String: Any]
        #expect(ended?["how"] as? String == "stopped", "the stop ended the move: \(moved)")
        #expect(ended?["by_client"] is Int)
        #expect(Self.errorName(stopped) == nil)
        try daemon.stop()
    }

    /// Holding control is a dead man's handle even while one of the holder's calls waits.
    @Test func aHolderWithACallWaitingStillStopsTheDockWhenItVanishes() throws {
        let daemon = try Daemon()
        let watcher = try daemon.client()
        try watcher.send("io.dockd.Dock.Watch", more: true)
        #expect(watcher.receive() != nil, "the stream is set up once its first reply arrives")
        var holder: VarlinkTestClient? = try daemon.client()
        #expect(Self.errorName(try holder?.call("io.dockd.Dock.AcquireControl")) == nil)
        try holder?.send("io.dockd.Dock.SetVelocity", ["yaw": 0.8, "pitch": 0, "duration": 30, "wait": true])
        // The velocity under way, as the watcher sees it: the call is waiting for its end.
        var turning = false
        for _ in 0..<100 {
            guard let event = Self.parameters(watcher.receive())["event"] as? [String: Any] else { break }
            let status = event["status"] as? [String: Any]
            if status?["motion"] as? String == "velocity", (status?["controller"] as? [String: Any])?["kind"] as? String == "client" {
                turning = true
                break
            }
        }
        #expect(turning, "the holder's velocity under way")
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let closedAt = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        holder = nil
        let (stoppedAt, seen) = Self.stopEvent(on: watcher, after: closedAt)
        #expect(stoppedAt != nil, "a stop after the holder went away, its SetVelocity still waiting: \(seen.prefix(12))")
        try daemon.stop()
    }
}
