import Foundation
import Glibc

/// SIGPIPE ignored in the test process, once: a test writing to a socket or pipe whose far end has
/// gone (a stopped daemon, an exited child) gets EPIPE rather than ending every test with it.
public let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()

/// A raw Varlink client for tests: sends NUL-terminated JSON, reads replies with a timeout.
public final class VarlinkTestClient {
    public let descriptor: Int32
    private var pending: [UInt8] = []

    /// Connects to the socket at `path`; `receiveBufferBytes` shrinks the receive buffer (to make a
    /// client that does not read fill up quickly).
    public init(path: String, receiveBufferBytes: Int32? = nil) throws {
        _ = brokenPipesIgnored
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBufferBytes {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// The client vanishes, as a killed process's socket closes: shut down first, so that the
    /// server hears the hang-up now even while a child that another test of this process is
    /// spawning holds a copy of the descriptor (until its `exec` closes it).
    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// Sends raw bytes.
    public func sendRaw(_ bytes: [UInt8]) {
        // MSG_NOSIGNAL: a daemon that closed the connection is an EPIPE for the test to see, not a
        // SIGPIPE that ends the whole test process (it did once in CI, exit signal 13).
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends a call.
    public func send(_ method: String, _ parameters: [String: Any] = [:], more: Bool = false, oneway: Bool = false) throws {
        var call: [String: Any] = ["method": method, "parameters": parameters]
        if more { call["more"] = true }
        if oneway { call["oneway"] = true }
        sendRaw(Array(try JSONSerialization.data(withJSONObject: call)) + [0])
    }

    /// Reads the next reply; nil on end of stream or after `timeoutSeconds` (a deadline for a
    /// reply that never comes, which a loaded machine's slowness alone does not reach).
    public func receive(timeoutSeconds: Double = 30) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            if let end = pending.firstIndex(of: 0) {
                let message = Array(pending[..<end])
                pending.removeSubrange(...end)
                return (try? JSONSerialization.jsonObject(with: Data(message))) as? [String: Any]
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[..<count])
        }
    }

    /// Sends a call and reads its reply.
    public func call(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any]? {
        try send(method, parameters)
        return receive()
    }

    /// Whether the server closed the connection (reads end of stream within `timeoutSeconds`).
    public func isClosedByServer(timeoutSeconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while deadline.timeIntervalSinceNow > 0 {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            if read(descriptor, &buffer, buffer.count) <= 0 { return true }
        }
        return false
    }
}
