import Foundation
import Glibc
import TestSupport
import Testing

/// The dock's faults as clients meet them, end to end: dockd on the in-process simulator playing
/// `dock-faults` (tracking turned on by the dock's button at 1 s, the yaw motor jammed from 5 s
/// to 6 s, the driver overheating from 8 s to 9.5 s), a `Watch` stream and one-shot clients.
@Suite(.onTheProcessThreads) struct FaultAPITests {
    static func parameters(_ reply: [String: Any]?) -> [String: Any] { reply?["parameters"] as? [String: Any] ?? [:] }

    @Test
    func aStallUnderTrackingIsClearedAndTrackingResumesAndAFaultedDockRefusesClients() throws {
        let socket = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-faults-\(getpid()).sock"
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/dock-faults.json").path
        let dockd = try ChildProcess(
            "dockd",
            [
                "--config", "", "--simulator", "--scenario", scenario, "--socket", socket,
                "--wake-on-attach=false",
            ])
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        let watcher = try VarlinkTestClient(path: socket)
        try watcher.send("io.dockd.Dock.Watch", more: true)

        var stallRaisedAt: Double?, stallClearedAt: Double?, sawFaultInStatus = false
        var resumedAfterStall = false, overheated = false
        var first: Double?
        while let reply = watcher.receive(), let event = Self.parameters(reply)["event"] as? [String: Any] {
            // The scenario's overheating starts 8 s in: give up clearly if it never comes.
            first = first ?? event["time"] as? Double
            if let first, (event["time"] as? Double ?? first) - first > 15 { break }
            let status = event["status"] as? [String: Any] ?? [:]
            let time = event["time"] as? Double ?? 0
            if event["kind"] as? String == "fault", let fault = event["fault"] as? [String: Any] {
                if fault["code"] as? String == "motor_stall", fault["axis"] as? String == "yaw" {
                    if fault["active"] as? Bool == true, stallRaisedAt == nil { stallRaisedAt = time }
                    if fault["active"] as? Bool == false, stallRaisedAt != nil { stallClearedAt = time }
                }
                if fault["code"] as? String == "over_temperature", fault["active"] as? Bool == true { overheated = true }
            }
            let faults = status["faults"] as? [[String: Any]] ?? []
            if faults.contains(where: { $0["code"] as? String == "motor_stall" }) { sawFaultInStatus = true }
            // After the jam (the last stall cleared, faults empty) the tracker drives the dock again.
            if let cleared = stallClearedAt, time > cleared + 0.5, faults.isEmpty, status["tracker"] as? String == "following",
                (status["controller"] as? [String: Any])?["kind"] as? String == "tracker", status["motion"] as? String == "velocity"
            {
                resumedAfterStall = true
            }
            if overheated { break }
        }
        #expect(overheated, "the over_temperature fault came")
        #expect(stallRaisedAt != nil, "Watch carries the stall as a fault event with its code and axis")
        #expect(stallClearedAt != nil, "and its clearing: dockd's stop cleared the dock's latch")
        #expect(sawFaultInStatus, "the status lists the active fault")
        #expect(resumedAfterStall, "tracking resumed once the fault had cleared")
        // While the driver is too hot, a one-shot client's SetVelocity is refused by the dock, by name.
        let client = try VarlinkTestClient(path: socket)
        let reply = try client.call("io.dockd.Dock.SetVelocity", ["yaw": 0.3, "pitch": 0, "duration": 1, "take_over": true])
        #expect(reply?["error"] as? String == "io.dockd.Dock.DockRefused", "\(reply ?? [:])")
        #expect(Self.parameters(reply)["reason"] as? String == "faulted")
        #expect(Self.parameters(reply)["detail"] as? Int == 2, "detail: the over_temperature code")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
