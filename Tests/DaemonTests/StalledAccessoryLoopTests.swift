import DockDaemon
import DockLinks
import DockPolicy
import DockProtocol
import DockSystem
import DockVocabulary
import TestSupport
import Testing

/// Two accessories on one virtual loop, in virtual time: one's transport stalls (its dock reads
/// nothing and sends nothing, the cable still in) while a client moves the other. The other's
/// line must carry exactly the commands, at exactly the times, that it carries when nothing
/// stalls; and a client holding control of one is a dead man's handle for that one only.
@Suite struct StalledAccessoryLoopTests {
    /// dockd's parts as `Daemon.run` puts them together for two accessories, on a virtual loop.
    final class TwoDocks {
        let loop = VirtualEventLoop()
        let docks: [LoopDock]
        let runners: [SessionRunner]
        let server: VarlinkServer
        let lines = LogLines()

        init() {
            _ = brokenPipesIgnored
            var configuration = Configuration()
            configuration.wakeOnAttach = false
            let loop = loop, lines = lines
            docks = [LoopDock(loop: loop), LoopDock(loop: loop)]
            runners = docks.map {
                SessionRunner(transport: $0.transport, loop: loop, settings: configuration.hostSettings, log: lines.logger)
            }
            let accessories = zip(["stalling", "steady"], runners).map { DaemonAccessory(name: $0, runner: $1) }
            server = VarlinkServer(listener: nil, service: DockService(accessories: accessories), loop: loop, log: lines.logger)
            server.start()
            for runner in runners { runner.start() }
        }
    }

    /// A time as text: virtual milliseconds since `origin`.
    static func milliseconds(_ time: Duration, since origin: Duration) -> String {
        "\(((time - origin) / .milliseconds(1) * 1000).rounded() / 1000) ms"
    }

    /// The frames on a line from `start` on, as text: each one's time since `origin`, and the frame.
    static func transcript(_ frames: [(time: Duration, frame: Frame)], from start: Duration, origin: Duration) -> [String] {
        frames.filter { $0.time >= start }.map { "\(milliseconds($0.time, since: origin)) \($0.frame)" }
    }

    /// Both attach; at 1 s the first dock stalls when `stalling`; a client moves the second one
    /// at 1.5, 2.5 and 3.5 s, and the first one at 1.6 s. Returns each line's frames from 1 s on,
    /// the second one's replies with the time each arrived, and the times the moves were sent.
    static func run(stalling: Bool) throws -> (lines: [[String]], replies: [String], calls: [Duration], daemon: TwoDocks) {
        let daemon = TwoDocks()
        let origin = daemon.loop.now
        daemon.loop.advance(by: .milliseconds(300))
        #expect(daemon.lines.count("attached DK-1 Demo") == 2)
        let client = try PairedClient(daemon.server)
        let other = try PairedClient(daemon.server)
        let start = origin + .seconds(1)
        daemon.loop.advance(to: start)
        if stalling { daemon.docks[0].stall() }
        var replies: [String] = []
        var calls: [Duration] = []
        for (index, yaw) in [0.3, -0.2, 0.1].enumerated() {
            daemon.loop.advance(to: origin + .milliseconds(1500 + 1000 * Int64(index)))
            calls.append(daemon.loop.now - origin)
            client.send("io.dockd.Dock.SetOrientation", ["yaw": yaw, "pitch": 0, "duration": 0.4, "accessory": "steady"])
            daemon.loop.runUntilIdle()
            for reply in client.replies() { replies.append("\(milliseconds(daemon.loop.now, since: origin)) \(reply)") }
            if index == 0 {
                daemon.loop.advance(to: origin + .milliseconds(1600))
                other.send("io.dockd.Dock.SetOrientation", ["yaw": 0.5, "pitch": 0, "accessory": "stalling"])
                daemon.loop.runUntilIdle()
            }
        }
        daemon.loop.advance(to: origin + .seconds(5))
        for reply in client.replies() { replies.append("\(milliseconds(daemon.loop.now, since: origin)) \(reply)") }
        let lines = daemon.docks.map { transcript($0.hostFrames, from: start, origin: origin) }
        return (lines, replies, calls, daemon)
    }

    @Test func oneAccessoryStallingNeverDelaysTheOthersCommands() throws {
        let steady = try Self.run(stalling: false)
        let stalled = try Self.run(stalling: true)
        // The first line: it took the move at 1.6 s when nothing stalled, and nothing after the
        // stall (it reads nothing).
        #expect(steady.lines[0].contains { $0.hasPrefix("1600.0 ms") && $0.contains("move") }, "\(steady.lines[0])")
        #expect(stalled.lines[0].isEmpty, "a stalled dock reads nothing: \(stalled.lines[0].prefix(3))")
        #expect(stalled.daemon.docks[0].isStalled)
        // The second line: the same frames at the same times, the stall or not.
        #expect(!stalled.lines[1].isEmpty)
        #expect(stalled.lines[1] == steady.lines[1])
        // Each move reached the second dock at the very moment it was asked for.
        for call in stalled.calls {
            #expect(
                stalled.lines[1].contains { $0.hasPrefix(Self.milliseconds(call, since: .zero) + " ") && $0.contains("move") },
                "a command at \(call)")
        }
        #expect(stalled.replies == steady.replies)
        #expect(
            stalled.replies.map { $0.prefix { $0 != " " } } == ["1500.0", "2500.0", "3500.0"],
            "each answered at once: \(stalled.replies)")
    }

    @Test func aClientHoldingOneAccessoryIsADeadMansHandleForThatOneOnly() throws {
        let daemon = TwoDocks()
        daemon.loop.advance(by: .milliseconds(300))
        let holder = try PairedClient(daemon.server)
        let other = try PairedClient(daemon.server)
        holder.send("io.dockd.Dock.SetVelocity", ["yaw": 0.3, "pitch": 0, "accessory": "stalling"])
        other.send("io.dockd.Dock.SetVelocity", ["yaw": -0.3, "pitch": 0, "accessory": "steady"])
        daemon.loop.advance(by: .milliseconds(200))
        #expect(holder.replies().count == 1)
        #expect(other.replies().count == 1)
        #expect(daemon.runners[0].policy.arbiter.controller == .client(1, isExplicit: false))
        #expect(daemon.runners[1].policy.arbiter.controller == .client(2, isExplicit: false))
        holder.close()
        daemon.loop.advance(by: .milliseconds(100))
        #expect(daemon.runners[0].policy.arbiter.controller != .client(1, isExplicit: false), "the first one let go")
        #expect(daemon.runners[0].status().motion == .idle, "and stopped")
        #expect(daemon.runners[1].policy.arbiter.controller == .client(2, isExplicit: false), "the second one still held")
        #expect(daemon.runners[1].status().motion == .velocity, "and still turning")
    }
}
