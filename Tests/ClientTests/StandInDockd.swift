import DockAPI
import Foundation
import Glibc
import Testing

/// A stand-in for dockd on a socket of the test's own: it accepts one client and says exactly
/// what the test tells it to, in the order it is told, so a client's handling of the wire can be
/// seen without a daemon's timing. It waits on a thread of its own for each message, never by
/// blocking the test's thread (the client's own tasks need it).
final class StandInDockd {
    let path = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/stand-in-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    private let listener: Int32
    private(set) var connection: Int32 = -1

    init() {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(listener >= 0 && bound == 0 && listen(listener, 1) == 0)
    }

    deinit {
        if connection >= 0 { close(connection) }
        close(listener)
        unlink(path)
    }

    /// Whether `descriptor` has input within `milliseconds`: a thread of its own waits in
    /// `poll(2)` and resumes the test when input comes or the time is up — the test's own thread
    /// stays free for the client's tasks, and no thread of the cooperative pool is needed to wake
    /// it (a `Task.sleep` is woken there, and the pool may be busy for long).
    private static func readable(_ descriptor: Int32, within milliseconds: Int) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let deadline = ContinuousClock.now + .milliseconds(milliseconds)
                var ready = false
                repeat {  // one look at least, even with no time to wait
                    let left = max(0, ContinuousClock.now.duration(to: deadline) / .milliseconds(1))
                    ready = poll(&poller, 1, Int32(left.rounded(.up))) == 1
                } while !ready && ContinuousClock.now < deadline
                continuation.resume(returning: ready)
            }.start()
        }
    }

    /// Accepts the client (within 60 s).
    func accept() async {
        #expect(await Self.readable(listener, within: 60_000), "the client connects")
        connection = Glibc.accept(listener, nil, nil)
        #expect(connection >= 0)
    }

    /// Whether a message starts to arrive within `milliseconds`.
    func hasInput(within milliseconds: Int) async -> Bool {
        await Self.readable(connection, within: milliseconds)
    }

    /// The next call the client sends (within 60 s).
    func receive() async throws -> VarlinkCall {
        var message: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            guard await hasInput(within: 60_000) else {
                Issue.record("no call came")
                break
            }
            guard read(connection, &byte, 1) == 1, byte != 0 else { break }
            message.append(byte)
        }
        return try VarlinkCall.parse(message)
    }

    /// Sends a reply.
    func send(_ reply: VarlinkReply) {
        let bytes = reply.bytes
        #expect(bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) } == bytes.count)
    }
}
