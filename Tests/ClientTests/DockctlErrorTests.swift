import DockAPI
import DockJSON
import Foundation
import Glibc
import TestSupport
import Testing

/// Every error dockctl prints is a sentence that says what went wrong and what to do — one for
/// each of the interface's named errors — with dockd's named error as it came under `--json`
/// (issue 45). dockd here is a stand-in that answers each error as told.
@Suite(.onAThreadOfItsOwn) struct ErrorSentenceTests {
    /// An example of each named error's fields, and a phrase its sentence must hold.
    static let samples: [String: (parameters: [String: JSONValue], phrase: String)] = [
        "NoSuchAccessory": (["accessory": .string("SIM-9")], "dockd has no accessory named SIM-9; dockctl list names"),
        "AccessoryAmbiguous": (
            ["accessories": .array([.string("desk"), .string("stage")])],
            "dockd serves several accessories (desk, stage): name one with --accessory NAME"
        ),
        "NotReady": ([:], "no dock is attached and ready"),
        "Busy": (["holder": .integer(3)], "another client (connection 3) controls the dock; wait until it lets go, or add --take-over"),
        "NoSubjectFound": ([:], "no tracked subject is at that point of the picture"),
        "NotSupported": (["capability": .string("zoom")], "this dock cannot zoom"),
        "NoSuchPreset": (["name": .string("stage")], "there is no preset 'stage'; dockctl preset list shows the presets"),
        "PresetsUnavailable": (
            ["file": .string("/var/lib/dockd/presets.json"), "reason": .string("cannot be written (rename: No space left on device)")],
            "dockd cannot save presets: /var/lib/dockd/presets.json cannot be written"
        ),
        "InvalidParameter": (
            ["parameter": .string("duration"), "reason": .string("must be within 0.0...60.0")],
            "dockd refused duration: it must be within 0.0...60.0"
        ),
        "DockRefused": (
            ["reason": .string("faulted"), "detail": .integer(1)],
            "the dock refused the command: it has a fault (code 1); dockctl status names it"
        ),
        "DockFault": (
            ["fault": .object(["code": .string("over_temperature"), "axis": .string("pitch"), "active": .bool(true)])],
            "the dock stopped with a fault (over temperature on the pitch axis)"
        ),
    ]

    /// The `error NAME (...)` declarations of the interface, in order.
    static func namedErrors() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let interface = try String(contentsOf: root.appendingPathComponent("Protocol/io.dockd.Dock.varlink"), encoding: .utf8)
        return interface.split(separator: "\n").filter { $0.hasPrefix("error ") }.map {
            String($0.dropFirst("error ".count).prefix { $0 != " " && $0 != "(" })
        }
    }

    /// dockctl's `status` against a stand-in that answers with `name` and `parameters`.
    static func dockctl(answering name: String, _ parameters: [String: JSONValue], json: Bool) async throws
        -> (status: Int32, output: String, error: String)
    {
        let dockd = StandInDockd()
        let child = try ChildProcess("dockctl", (json ? ["--json"] : []) + ["status"], environment: ["DOCKD_SOCKET": dockd.path])
        await dockd.accept()
        #expect(try await dockd.receive().method == DockMethod.getStatus.qualifiedName)
        dockd.send(.failure(name, parameters))
        return try child.finish()
    }

    @Test(.timeLimit(.minutes(2)))
    func everyNamedErrorIsASentenceAndItsWireNameComesWithJSON() async throws {
        let names = try Self.namedErrors()
        #expect(names.count >= 8)
        #expect(Set(names) == Set(Self.samples.keys), "a sentence is checked for each error io.dockd.Dock names")
        for name in names {
            guard let sample = Self.samples[name] else { continue }
            let wire = "io.dockd.Dock.\(name)"
            let run = try await Self.dockctl(answering: wire, sample.parameters, json: false)
            #expect(run.status == 1, "\(name): a refusal exits 1")
            #expect(run.output.isEmpty)
            let lines = run.error.split(separator: "\n")
            #expect(lines.count == 1 && run.error.hasPrefix("dockctl: ") && run.error.hasSuffix(".\n"), "\(name): \(run.error)")
            #expect(run.error.contains(sample.phrase), "\(name): \(run.error)")
            for raw in ["io.dockd", "{", "_", "Dock.", "DockLinks", "DockCore"] {
                #expect(!run.error.contains(raw), "\(name)'s sentence has no wire or Swift name (\(raw)): \(run.error)")
            }
            let json = try await Self.dockctl(answering: wire, sample.parameters, json: true)
            #expect(json.status == 1)
            #expect(json.error == run.error, "the same sentence with --json")
            let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            #expect(object?["error"] as? String == wire, "\(name): \(json.output)")
            let expected = try JSONSerialization.jsonObject(with: Data(JSONValue.object(sample.parameters).serialized.utf8))
            #expect((object?["parameters"] as? NSDictionary) == (expected as? NSDictionary), "\(name): its fields as they came")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anErrorDockctlDoesNotKnowIsStillSaidInWords() async throws {
        let run = try await Self.dockctl(answering: "io.dockd.Dock.Sideways", ["why": .string("new")], json: false)
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("dockctl: dockd answered with an error dockctl does not know, io.dockd.Dock.Sideways"), "\(run.error)")
        #expect(run.error.contains("same version"))
    }
}

/// The exit-status table (`dockctl --help`, dockctl(1)) and the one rule for numbers the dock's
/// limits bound, against dockd on the simulated dock (yaw ±170°, pitch -30°...60°, π and π/2 rad/s).
@Suite(.serialized, .onTheProcessThreads) struct ExitStatusTests {
    @Test func usageRefusalAndUnreachableEachHaveTheirStatus() throws {
        let (dockd, socket) = try ClientProcessTests.startDaemon()
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        func dockctl(_ line: String) throws -> (status: Int32, output: String, error: String) {
            let child = try ChildProcess("dockctl", line.split(separator: " ").map(String.init), environment: ["DOCKD_SOCKET": socket])
            try child.finishInput("")
            return try child.finish()
        }
        let table: [(line: String, status: Int32, says: String)] = [
            ("velocity --yaw fast", 64, "dockctl: --yaw needs a finite number, got 'fast'"),
            ("fly", 64, "dockctl: unknown command 'fly'"),
            ("roi 2 2 2 2", 1, "dockctl: dockd refused region: it must lie in the image"),
            ("select --at 0.02 0.02", 1, "dockctl: no tracked subject is at that point of the picture"),
            ("zoom 0.5", 1, "dockctl: this dock cannot zoom: it has nothing dockd can drive for it"),
            ("orient --yaw 0 --pitch 0 --duration 99", 1, "dockctl: dockd refused duration: it must be more than 0 and at most 60 seconds"),
            ("--socket /nonexistent-\(getpid()).sock status", 69, "dockctl: cannot reach dockd at /nonexistent-"),
        ]
        for (line, status, says) in table {
            let run = try dockctl(line)
            #expect(run.status == status, "dockctl \(line): \(run.error)")
            #expect(run.error.hasPrefix(says), "dockctl \(line): \(run.error)")
            #expect(!run.error.contains("io.dockd"), "dockctl \(line): \(run.error)")
        }
        // Root and a normal user get the same hint (UserSocketTests has the user's).
        #expect(try dockctl("--socket /nonexistent.sock status").error.contains("; is dockd running? From a clone, scripts/run starts it"))

        // Beyond the dock's limits, every number the same way: clamped to the limit in force, named.
        var clamped: [(line: String, says: String)] = [
            ("velocity --yaw 99 --duration 0.2", "done; clamped to the limits: yaw rate to 3.142 rad/s, the dock's highest speed"),
            ("velocity --pitch -99 --duration 0.2", "done; clamped to the limits: pitch rate to -1.571 rad/s, the dock's highest speed"),
            ("orient --yaw 0 --pitch 9", "reached; clamped to the limits: pitch to 1.047 rad (60.0°), the end of the dock's pitch range"),
            ("orient --yaw 0 --pitch 0 --speed 50", "reached; clamped to the limits: speed to 3.142 rad/s, the dock's highest speed"),
            // Relative, dockd clamps the target (it knows where the dock is) and dockctl names the range.
            (
                "orient --yaw 9 --pitch 0 --relative",
                "reached; clamped to the limits: yaw (the dock's range: -2.967 rad (-170.0°) to 2.967 rad (170.0°))"
            ),
        ]
        // Limits are narrowed, never widened past the dock's own: an end asked beyond is kept at it, and said.
        clamped.append(
            (
                "limits --yaw-max 9 --max-speed 2",
                "yaw -2.967...2.967 rad, pitch -0.524...1.047 rad, speed ≤ 2.0 / 1.571 rad/s; clamped to the limits: "
                    + "--yaw-max to 2.967 rad (170.0°), the end of the dock's yaw range, --max-speed to 2.0 / 1.571 rad/s "
                    + "(yaw / pitch), the dock's highest speeds"
            ))
        for (line, says) in clamped {
            let run = try dockctl(line)
            #expect(run.status == 0, "dockctl \(line): \(run.error)")
            #expect(run.output == says + "\n", "dockctl \(line)")
        }

        // Another client holds control: refused (1), and what to do is said.
        let holder = try VarlinkTestClient(path: socket)
        let acquired = try holder.call(DockMethod.acquireControl.qualifiedName)
        #expect(acquired?["error"] == nil, "\(acquired ?? [:])")
        let busy = try dockctl("velocity --yaw 0.1")
        #expect(busy.status == 1)
        #expect(busy.error.contains("controls the dock; wait until it lets go, or add --take-over"), "\(busy.error)")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
