import Foundation
import Glibc
import TestSupport
import Testing

/// One dockd serving two accessories (two `[accessory NAME]` sections, each the in-process
/// simulated dock), through its real socket: calls name the one they are for, a call that names
/// none or an unknown one is refused by name, a motion moves only the accessory it names, control
/// and its dead man's handle are each accessory's own, `Watch` says whose each event is, SIGHUP
/// gives each section's change to its own accessory, a bad section on SIGHUP leaves both running,
/// and a section added or removed on SIGHUP starts or stops its accessory alone; one accessory
/// unplugged and back leaves the other alone.
@Suite(.serialized, .onTheProcessThreads) struct ManyAccessoriesProcessTests {
    static let settings = """
        wake-on-attach = false
        simulator-camera = false
        state-dir =
        [accessory left]
        simulator = on
        [accessory right]
        simulator = on
        """

    static func temporaryPath(_ name: String) -> String {
        "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    static func parameters(_ reply: [String: Any]?) -> [String: Any] { reply?["parameters"] as? [String: Any] ?? [:] }

    /// `accessory`'s status.
    static func status(_ client: VarlinkTestClient, _ accessory: String) throws -> [String: Any]? {
        parameters(try client.call("io.dockd.Dock.GetStatus", ["accessory": accessory]))["status"] as? [String: Any]
    }

    /// `accessory`'s first status that `isWanted` holds for within 60 s, or the last one seen.
    static func status(
        _ client: VarlinkTestClient, _ accessory: String, until isWanted: ([String: Any]) -> Bool
    ) throws -> (status: [String: Any]?, isWanted: Bool) {
        let deadline = ContinuousClock.now + .seconds(60)
        var last: [String: Any]?
        while ContinuousClock.now < deadline {
            last = try status(client, accessory)
            if let last, isWanted(last) { return (last, true) }
            usleep(10_000)
        }
        return (last, false)
    }

    static func yaw(_ status: [String: Any]?) -> Double? { (status?["pose"] as? [String: Any])?["yaw"] as? Double }
    static func controller(_ status: [String: Any]?) -> String {
        let controller = status?["controller"] as? [String: Any]
        return "\(controller?["kind"] ?? "?")" + ((controller?["client"] as? Int).map { " \($0)" } ?? "")
    }

    @Test func oneAccessoryUnpluggedAndBackLeavesTheOtherAlone() throws {
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/unplug-replug.json").path
        let file = Self.temporaryPath("dockd-plug") + ".conf"
        let socket = Self.temporaryPath("dockd-plug") + ".sock"
        // The left one plays a scene whose cable is pulled at 4 s for 1.5 s.
        try Self.settings.replacingOccurrences(
            of: "[accessory left]\nsimulator = on\n", with: "[accessory left]\nsimulator = on\nscenario = \(scenario)\n"
        )
        .write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let dockd = try ChildProcess("dockd", ["--config", file, "--socket", socket])
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        #expect(dockd.waitForErrorLine(containing: "dockd started on simulator, simulator") != nil, "\(dockd.errorLines)")
        let watcher = try VarlinkTestClient(path: socket)
        try watcher.send("io.dockd.Dock.Watch", [:], more: true)
        // Every event until the left one has come back (attached after its disconnection).
        var seen: [(name: String, kind: String)] = []
        var leftGone = false, leftBack = false
        for _ in 0..<2000 where !leftBack {
            guard let event = Self.parameters(watcher.receive())["event"] as? [String: Any] else { break }
            let name = event["accessory_name"] as? String ?? "?", kind = event["kind"] as? String ?? "?"
            seen.append((name, kind))
            if name == "left", kind == "disconnected" { leftGone = true }
            if name == "left", kind == "attached", leftGone { leftBack = true }
        }
        #expect(leftGone && leftBack, "the left one went and came back: \(seen.filter { $0.kind != "status" })")
        let right = seen.filter { $0.name == "right" && $0.kind != "status" }.map(\.kind)
        #expect(!right.contains("disconnected"), "the right one never went: \(right)")
        #expect(right.filter { $0 == "attached" }.count <= 1, "it attached once at most (at the start): \(right)")
        let client = try VarlinkTestClient(path: socket)
        let rightStatus = try Self.status(client, "right")
        #expect(rightStatus?["state"] as? String == "ready")
        #expect((rightStatus?["counters"] as? [String: Any])?["reconnects"] as? Int == 0, "\(rightStatus?["counters"] ?? "")")
        #expect(((try Self.status(client, "left"))?["counters"] as? [String: Any])?["reconnects"] as? Int == 1)
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }

    @Test func twoAccessoriesOnOneDockdAreAddressedMovedAndControlledApart() throws {
        let file = Self.temporaryPath("dockd-many") + ".conf"
        let socket = Self.temporaryPath("dockd-many") + ".sock"
        try Self.settings.write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let dockd = try ChildProcess("dockd", ["--config", file, "--socket", socket])
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        #expect(dockd.waitForErrorLine(containing: "dockd started on simulator, simulator") != nil, "\(dockd.errorLines)")
        let client = try VarlinkTestClient(path: socket)
        for name in ["left", "right"] {
            #expect(try Self.status(client, name) { $0["state"] as? String == "ready" }.isWanted, "\(name) attaches")
        }

        // Both listed, by name, with what is attached.
        let entries = Self.parameters(try client.call("io.dockd.Dock.ListAccessories"))["accessories"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["name"] as? String } == ["left", "right"])
        #expect(entries.map { $0["state"] as? String } == ["ready", "ready"])
        #expect(entries.map { ($0["accessory"] as? [String: Any])?["model"] as? String } == ["DK-1 Demo", "DK-1 Demo"])

        // No name with two accessories, or a name neither has: refused by name, nothing done.
        let ambiguous = try client.call("io.dockd.Dock.SetOrientation", ["yaw": 0.5, "pitch": 0])
        #expect(ambiguous?["error"] as? String == "io.dockd.Dock.AccessoryAmbiguous")
        #expect(Self.parameters(ambiguous)["accessories"] as? [String] == ["left", "right"])
        // Both simulated docks are SIM-0001: a serial number two share names neither.
        let shared = try client.call("io.dockd.Dock.GetStatus", ["accessory": "SIM-0001"])
        #expect(shared?["error"] as? String == "io.dockd.Dock.AccessoryAmbiguous")
        #expect(Self.parameters(shared)["accessories"] as? [String] == ["left", "right"])
        let unknown = try client.call("io.dockd.Dock.GetStatus", ["accessory": "centre"])
        #expect(unknown?["error"] as? String == "io.dockd.Dock.NoSuchAccessory")
        #expect(Self.parameters(unknown)["accessory"] as? String == "centre")

        // A watcher of the right one only, and one of both.
        let rightWatcher = try VarlinkTestClient(path: socket)
        try rightWatcher.send("io.dockd.Dock.Watch", ["accessory": "right"], more: true)
        let allWatcher = try VarlinkTestClient(path: socket)
        try allWatcher.send("io.dockd.Dock.Watch", [:], more: true)
        let firsts = [allWatcher.receive(), allWatcher.receive()].map {
            (Self.parameters($0)["event"] as? [String: Any])?["accessory_name"] as? String
        }
        #expect(firsts == ["left", "right"], "a first status from each")

        // A motion of the left one moves the left one only.
        let moved = try client.call(
            "io.dockd.Dock.SetOrientation", ["yaw": 0.6, "pitch": 0, "duration": 0.5, "wait": true, "accessory": "left"])
        #expect(
            ((Self.parameters(moved)["result"] as? [String: Any])?["ended"] as? [String: Any])?["finish"] as? String == "reached",
            "\(moved ?? [:])")
        let left = try Self.status(client, "left") { abs((Self.yaw($0) ?? 0) - 0.6) < 0.02 }
        #expect(left.isWanted, "left at 0.6 rad: \(Self.yaw(left.status) ?? .nan)")
        #expect(abs(Self.yaw(try Self.status(client, "right")) ?? .nan) < 0.01, "right has not moved")

        // Every event the right one's watcher read is the right one's; the left one's motion
        // showed in the watcher of both.
        var rightNames = Set<String>()
        for _ in 0..<5 {
            guard let event = Self.parameters(rightWatcher.receive())["event"] as? [String: Any] else { break }
            rightNames.insert(event["accessory_name"] as? String ?? "none")
        }
        #expect(rightNames == ["right"])
        var sawLeftMotionEnd = false
        for _ in 0..<200 where !sawLeftMotionEnd {
            guard let event = Self.parameters(allWatcher.receive())["event"] as? [String: Any] else { break }
            sawLeftMotionEnd = event["kind"] as? String == "motion_ended" && event["accessory_name"] as? String == "left"
        }
        #expect(sawLeftMotionEnd, "the watcher of both saw the left one's motion end, said to be the left one's")

        // Control is each accessory's own: one client holds the left one, another the right one.
        var holderOfLeft: VarlinkTestClient? = try VarlinkTestClient(path: socket)
        #expect(try holderOfLeft?.call("io.dockd.Dock.AcquireControl", ["accessory": "left"])?["error"] == nil)
        let holderOfRight = try VarlinkTestClient(path: socket)
        #expect(try holderOfRight.call("io.dockd.Dock.AcquireControl", ["accessory": "right"])?["error"] == nil)
        let busy = try holderOfRight.call("io.dockd.Dock.SetVelocity", ["yaw": 0.2, "pitch": 0, "accessory": "left"])
        #expect(busy?["error"] as? String == "io.dockd.Dock.Busy", "the left one is held by another client")
        let rightHolder = Self.controller(try Self.status(client, "right"))
        #expect(rightHolder.hasPrefix("client "))
        #expect(Self.controller(try Self.status(client, "left")).hasPrefix("client "))
        #expect(Self.controller(try Self.status(client, "left")) != rightHolder)

        // The dead man's handle: the left one's holder goes; the left one is let go, the right one
        // stays held.
        holderOfLeft = nil  // its connection closes
        let released = try Self.status(client, "left") { !Self.controller($0).hasPrefix("client ") }
        #expect(released.isWanted, "left let go: \(Self.controller(released.status))")
        #expect(Self.controller(try Self.status(client, "right")) == rightHolder)

        // SIGHUP: each section's change to its own accessory only.
        try Self.settings.replacingOccurrences(of: "[accessory right]\n", with: "[accessory right]\ntracking = on\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        #expect(dockd.waitForErrorLine(containing: "configuration reloaded from \(file)") != nil, "\(dockd.errorLines)")
        #expect(try Self.status(client, "right") { $0["tracking"] as? Bool == true }.isWanted, "the right one tracks")
        #expect(try Self.status(client, "left")?["tracking"] as? Bool == false, "the left one does not")

        // A bad section on SIGHUP: refused by name, both keep running.
        try (Self.settings + "\n[accessory left]\nsimulator = on\n").write(toFile: file, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        let refused = dockd.waitForErrorLine(containing: "configuration not reloaded")
        #expect(refused?.contains("accessory 'left' is named twice (first at \(file):4)") == true, "\(refused ?? "no line")")
        let after = Self.parameters(try client.call("io.dockd.Dock.ListAccessories"))["accessories"] as? [[String: Any]] ?? []
        #expect(after.map { $0["state"] as? String } == ["ready", "ready"])

        // SIGHUP with a new section: it starts; the others run on as they were.
        try (Self.settings + "\n[accessory centre]\nsimulator = on\n").write(toFile: file, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        #expect(dockd.waitForErrorLine(containing: "accessory 'centre' started on simulator") != nil, "\(dockd.errorLines)")
        #expect(try Self.status(client, "centre") { $0["state"] as? String == "ready" }.isWanted, "centre attaches")
        let three = Self.parameters(try client.call("io.dockd.Dock.ListAccessories"))["accessories"] as? [[String: Any]] ?? []
        #expect(three.map { $0["name"] as? String } == ["left", "right", "centre"])
        #expect(Self.controller(try Self.status(client, "right")) == rightHolder, "the right one still held")

        // SIGHUP without a section: its accessory stops and goes; the others run on.
        try Self.settings.replacingOccurrences(of: "[accessory left]\nsimulator = on\n", with: "[accessory centre]\nsimulator = on\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        #expect(dockd.waitForErrorLine(containing: "accessory 'left' is no longer in the settings: stopped") != nil, "\(dockd.errorLines)")
        let two = Self.parameters(try client.call("io.dockd.Dock.ListAccessories"))["accessories"] as? [[String: Any]] ?? []
        #expect(two.map { $0["name"] as? String } == ["right", "centre"])
        #expect(try client.call("io.dockd.Dock.GetStatus", ["accessory": "left"])?["error"] as? String == "io.dockd.Dock.NoSuchAccessory")
        #expect(Self.controller(try Self.status(client, "right")) == rightHolder, "the right one still held")
        #expect(try Self.status(client, "centre")?["state"] as? String == "ready")

        // SIGHUP giving a section another device: its accessory starts again on it.
        let missing = Self.temporaryPath("no-dock")
        try Self.settings.replacingOccurrences(of: "[accessory left]\nsimulator = on\n", with: "[accessory centre]\ndevice = \(missing)\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        dockd.signal(SIGHUP)
        #expect(
            dockd.waitForErrorLine(containing: "accessory 'centre': another device or protocol; starting it again") != nil,
            "\(dockd.errorLines)")
        #expect(dockd.waitForErrorLine(containing: "accessory 'centre' started on \(missing)") != nil, "\(dockd.errorLines)")
        let elsewhere = Self.parameters(try client.call("io.dockd.Dock.ListAccessories"))["accessories"] as? [[String: Any]] ?? []
        #expect(elsewhere.map { $0["name"] as? String } == ["right", "centre"])
        #expect(elsewhere.last?["device"] as? String == missing)
        #expect(elsewhere.last?["state"] as? String != "ready", "nothing is at \(missing)")
        #expect(Self.controller(try Self.status(client, "right")) == rightHolder, "the right one still held")

        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
