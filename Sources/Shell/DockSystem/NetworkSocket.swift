public import DockSockets
import Glibc

/// An IP address and port to reach a network camera at, as `HOST:PORT` (`[HOST]:PORT` for an
/// IPv6 literal).
public struct NetworkAddress: Hashable, Sendable, CustomStringConvertible {
    /// A host name or a numeric address.
    public var host: String
    /// The port, 1–65535.
    public var port: UInt16

    /// Parses `HOST:PORT` or `[HOST]:PORT`; nil when it is neither.
    public init?(_ text: String) {
        var rest = Substring(text)
        let host: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            host = rest[..<colon]
            rest = rest[colon...]
        }
        guard !host.isEmpty, let port = UInt16(rest.dropFirst()), port > 0 else { return nil }
        self.host = String(host)
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Sockets to a network camera.
public enum NetworkSocket {
    /// UDP (each read and write one datagram) or TCP (a byte stream).
    public enum Kind: Sendable {
        case datagram, stream
    }

    /// Opens a socket of `kind` connected to `address` (`getaddrinfo(3)`, `socket(2)`,
    /// `connect(2)`), non-blocking; a TCP connection that is not made within `timeout` fails
    /// with `ETIMEDOUT`.
    public static func connect(_ kind: Kind, to address: NetworkAddress, timeout: Duration = .seconds(3))
        throws(SystemError) -> FileDescriptor
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(kind == .datagram ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard status == 0, let first = found else {
            throw SystemError("getaddrinfo", "\(address): \(String(cString: gai_strerror(status)))", code: EHOSTUNREACH)
        }
        defer { freeaddrinfo(first) }
        var lastError = SystemError("connect", address.description, code: EHOSTUNREACH)
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = entry {
            entry = candidate.pointee.ai_next
            let raw = socket(
                candidate.pointee.ai_family, candidate.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                candidate.pointee.ai_protocol)
            guard raw >= 0 else {
                lastError = SystemError("socket", address.description)
                continue
            }
            let descriptor = FileDescriptor(rawValue: raw)
            do throws(SystemError) {
                try descriptor.setNonBlocking()
                if Glibc.connect(raw, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) != 0 {
                    guard errno == EINPROGRESS else { throw SystemError("connect", address.description) }
                    try waitForConnection(descriptor, address: address, timeout: timeout)
                }
                return descriptor
            } catch {
                lastError = error
                descriptor.close()
            }
        }
        throw lastError
    }

    private static func waitForConnection(_ descriptor: FileDescriptor, address: NetworkAddress, timeout: Duration)
        throws(SystemError)
    {
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = retryingOnInterrupt { poll(&entry, 1, milliseconds) }
        guard ready > 0 else { throw SystemError("connect", address.description, code: ready == 0 ? ETIMEDOUT : errno) }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor.rawValue, SOL_SOCKET, SO_ERROR, &failure, &length)
        guard failure == 0 else { throw SystemError("connect", address.description, code: failure) }
    }
}

/// The serving side, for a simulated network camera: a UDP socket bound to an address that
/// answers whoever wrote last, or a TCP listener that takes one connection at a time.
public struct NetworkServer: Sendable {
    /// The bound socket (for TCP, the listener).
    public let descriptor: FileDescriptor
    /// UDP or TCP.
    public let kind: NetworkSocket.Kind

    /// Binds `address` (a numeric IPv4 or IPv6 address; loopback for tests), non-blocking; for
    /// TCP, listens.
    public init(_ kind: NetworkSocket.Kind, at address: NetworkAddress) throws(SystemError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(kind == .datagram ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard status == 0, let first = found else {
            throw SystemError("getaddrinfo", "\(address): \(String(cString: gai_strerror(status)))", code: EINVAL)
        }
        defer { freeaddrinfo(first) }
        let raw = socket(first.pointee.ai_family, first.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), first.pointee.ai_protocol)
        guard raw >= 0 else { throw SystemError("socket", address.description) }
        let descriptor = FileDescriptor(rawValue: raw)
        var yes: Int32 = 1
        setsockopt(raw, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard Glibc.bind(raw, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let error = SystemError("bind", address.description)
            descriptor.close()
            throw error
        }
        if kind == .stream, listen(raw, 1) != 0 {
            let error = SystemError("listen", address.description)
            descriptor.close()
            throw error
        }
        do {
            try descriptor.setNonBlocking()
        } catch {
            descriptor.close()
            throw error
        }
        self.descriptor = descriptor
        self.kind = kind
    }

    /// A datagram and who sent it (`recvfrom(2)`); nil when none waits.
    public func receive() -> (bytes: [UInt8], sender: [UInt8])? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    recvfrom(descriptor.rawValue, raw.baseAddress, raw.count, 0, address, &length)
                }
            }
        }
        guard count >= 0 else { return nil }
        let sender = withUnsafeBytes(of: &storage) { Array($0.prefix(Int(length))) }
        return (Array(buffer[..<count]), sender)
    }

    /// Sends one datagram to `sender`, as `receive()` gave it (`sendto(2)`).
    @discardableResult
    public func send(_ bytes: [UInt8], to sender: [UInt8]) -> Bool {
        sender.withUnsafeBytes { address in
            bytes.withUnsafeBytes { raw in
                sendto(
                    descriptor.rawValue, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL),
                    address.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(sender.count))
            }
        } == bytes.count
    }

    /// Takes a waiting TCP connection (`accept(2)`), made non-blocking; nil when none waits.
    public func accept() -> FileDescriptor? {
        let raw = Glibc.accept(descriptor.rawValue, nil, nil)
        guard raw >= 0 else { return nil }
        let connection = FileDescriptor(rawValue: raw)
        _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
        guard (try? connection.setNonBlocking()) != nil else {
            connection.close()
            return nil
        }
        return connection
    }

    /// Closes the socket.
    public func close() { descriptor.close() }
}
