import DockAPI
import Foundation
import Glibc
import Testing

/// A stand-in for dockd on a socket of the test's own: it accepts one client and says exactly
/// what the test tells it to, in the order it is told, so a client's handling of the wire can be
/// seen without a daemon's timing. It waits by polling without blocking and sleeping in the
/// task, never by blocking a thread of the test pool (the client's own tasks need them).
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

    /// Whether `descriptor` has input within `milliseconds`, polled every 2 ms.
    private static func readable(_ descriptor: Int32, within milliseconds: Int) async -> Bool {
        for _ in 0...(milliseconds / 2) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 0) == 1 { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return false
    }

    /// Accepts the client (within 20 s).
    func accept() async {
        #expect(await Self.readable(listener, within: 20_000), "the client connects")
        connection = Glibc.accept(listener, nil, nil)
        #expect(connection >= 0)
    }

    /// Whether a message starts to arrive within `milliseconds`.
    func hasInput(within milliseconds: Int) async -> Bool {
        await Self.readable(connection, within: milliseconds)
    }

    /// The next call the client sends (within 20 s).
    func receive() async throws -> VarlinkCall {
        var message: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            guard await hasInput(within: 20_000) else {
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
