import DockDaemon
import DockSockets
import DockSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// `accept` out of descriptors (`EMFILE`): dockd pauses accepting instead of spinning on a
/// listener that stays readable, and serves again once descriptors are free.
@Suite(.onTheProcessThreads) struct AcceptBackoffTests {
    /// An event loop that counts how often the handler of one descriptor runs, and passes
    /// everything on to the virtual loop under it.
    final class CountingLoop: EventLoop {
        let inner: VirtualEventLoop
        let counted: Int32
        private(set) var handlerRuns = 0

        init(_ inner: VirtualEventLoop, counting descriptor: FileDescriptor) {
            self.inner = inner
            counted = descriptor.rawValue
        }

        var now: Duration { inner.now }

        func watch(_ descriptor: FileDescriptor, for interest: LoopInterest, handler: @escaping (LoopReadiness) -> Void) {
            guard descriptor.rawValue == counted else { return inner.watch(descriptor, for: interest, handler: handler) }
            inner.watch(descriptor, for: interest) { [unowned self] readiness in
                handlerRuns += 1
                handler(readiness)
            }
        }

        func change(_ descriptor: FileDescriptor, to interest: LoopInterest) { inner.change(descriptor, to: interest) }
        func unwatch(_ descriptor: FileDescriptor) { inner.unwatch(descriptor) }
        func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping () -> Void) -> LoopTimer {
            inner.schedule(at: deadline, leeway: leeway, action)
        }
        func cancel(_ timer: LoopTimer) { inner.cancel(timer) }
        func stop() { inner.stop() }
    }

    /// Not spinning, in virtual time: a listener that stays readable and whose `accept` fails at
    /// once (one end of a connected socket pair with a byte waiting: `EINVAL`, as `EMFILE` fails
    /// while the backlog is full) is tried once and then once per backoff, 100 ms, while the
    /// clients already connected are served. A server that went on watching it would run its
    /// handler on every turn of the loop, and the loop would never settle.
    @Test func aListenerWhoseAcceptFailsIsTriedOncePerBackoff() throws {
        let daemon = DaemonLoopTests.VirtualDaemon(failsafe: .milliseconds(500))
        daemon.advance(by: .milliseconds(300))
        let (listener, peer) = try UnixSocket.pair()
        defer {
            listener.close()
            peer.close()
        }
        #expect(try peer.write([1]) == 1)
        let loop = CountingLoop(daemon.loop, counting: listener)
        let server = VarlinkServer(listener: listener, service: DockService(runner: daemon.runner), loop: loop, log: daemon.lines.logger)
        server.start()
        daemon.loop.runUntilIdle()
        #expect(loop.handlerRuns == 1, "tried once")
        #expect(daemon.lines.count("not accepting") == 1, "and said so: \(daemon.lines.all.suffix(3))")
        daemon.advance(by: VarlinkServer.acceptBackoff * 10)
        #expect(loop.handlerRuns == 11, "then once per backoff: \(loop.handlerRuns) tries in ten backoffs")
        #expect(daemon.lines.count("not accepting") == 1, "said once")
        // The clients already connected are served meanwhile.
        let client = try PairedClient(server)
        client.send("io.dockd.Dock.GetStatus")
        daemon.advance(by: VarlinkServer.acceptBackoff / 2)
        #expect(client.replies().first?.status["state"] as? String == "ready")
        server.stop()
        daemon.advance(by: VarlinkServer.acceptBackoff * 2)
        #expect(loop.handlerRuns == 11, "not tried once stopped")
    }

    @Test func outOfDescriptorsAcceptBacksOffAndRecovers() throws {
        let socket = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/dockd-emfile-\(getpid()).sock"
        // 24 descriptors: dockd's own (standard streams, epoll, timerfd, signalfd, the listener)
        // leave room for about 16 clients.
        let dockd = try ChildProcess(
            program: URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "ulimit -n 24 && exec \"$0\" \"$@\"", try ChildProcess.executable("dockd").path,
                "--config", "", "--simulator", "--simulator-camera=false", "--wake-on-attach=false",
                "--socket", socket,
            ],
            exactEnvironment: ProcessInfo.processInfo.environment)
        defer { if dockd.process.isRunning { dockd.signal(SIGKILL) } }
        #expect(dockd.waitForErrorLine(containing: "attached DK-1 Demo") != nil)
        var crowd: [VarlinkTestClient] = []
        for _ in 0..<30 { crowd.append(try VarlinkTestClient(path: socket)) }
        let line = dockd.waitForErrorLine(containing: "not accepting")
        #expect(line?.contains("accept") == true, "\(line ?? "no line")")
        // That it pauses rather than spins is the test above's, in virtual time (here it was
        // the CPU dockd used in a second of the machine's, which a loaded machine shares out).
        crowd.removeAll()
        var answered = false
        for _ in 0..<50 where !answered {
            let client = try VarlinkTestClient(path: socket)
            answered = (try? client.call("io.dockd.Dock.GetStatus"))?["parameters"] != nil
        }
        #expect(answered, "served again once descriptors are free")
        #expect(dockd.waitForErrorLine(containing: "accepting connections again") != nil)
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
