import CLinux
import Glibc

/// Unix stream sockets for the control API: a listening socket bound to a path (or handed over by
/// socket activation), accepted connections, and the peer's credentials.
public enum UnixSocket {
    /// Who is on the other end of a connection (`SO_PEERCRED`).
    public struct PeerCredentials: Hashable, Sendable {
        public var processID: Int32
        public var userID: UInt32
        public var groupID: UInt32
    }

    /// Binds a listening socket at `path` with the given file mode, replacing a stale socket file
    /// there (never another kind of file).
    public static func listen(path: String, mode: UInt32 = 0o660, backlog: Int32 = 64) throws(SystemError) -> FileDescriptor {
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemError("bind", "\(path) (exists and is not a socket)", code: EEXIST)
            }
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError("socket") }
        let socketDescriptor = FileDescriptor(rawValue: descriptor)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            socketDescriptor.close()
            throw SystemError("bind", "\(path) (path too long)", code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let error = SystemError("bind", path)
            socketDescriptor.close()
            throw error
        }
        guard chmod(path, mode_t(mode)) == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let error = SystemError("listen", path)
            socketDescriptor.close()
            throw error
        }
        return socketDescriptor
    }

    /// Accepts a connection (`accept(2)`), close-on-exec, or nil when none is waiting.
    public static func accept(_ listener: FileDescriptor) -> FileDescriptor? {
        let descriptor = retryingOnInterrupt { Glibc.accept(listener.rawValue, nil, nil) }
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return FileDescriptor(rawValue: descriptor)
    }

    /// Accepts a waiting connection, non-blocking and close-on-exec (`accept4(2)`): nil when none
    /// is waiting (or it was aborted before it could be taken); throws on anything else, so a
    /// caller out of descriptors (`EMFILE`, `ENFILE`) can back off instead of trying again at once.
    public static func acceptWaiting(_ listener: FileDescriptor) throws(SystemError) -> FileDescriptor? {
        let descriptor = retryingOnInterrupt {
            accept4(listener.rawValue, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        }
        if descriptor >= 0 { return FileDescriptor(rawValue: descriptor) }
        switch errno {
        case EAGAIN, ECONNABORTED: return nil
        default: throw SystemError("accept")
        }
    }

    /// Makes a connected pair of stream sockets (`socketpair(2)`), non-blocking and close-on-exec:
    /// a client and its connection in one process, for tests.
    public static func pair() throws(SystemError) -> (FileDescriptor, FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        guard
            socketpair(
                AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                0, &ends) == 0
        else { throw SystemError("socketpair") }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// The credentials of the peer of a connected socket.
    public static func peerCredentials(_ connection: FileDescriptor) -> PeerCredentials? {
        // struct ucred: pid, uid, gid, each 32 bits (the C type needs _GNU_SOURCE to be declared).
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(connection.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return PeerCredentials(processID: credentials.0, userID: credentials.1, groupID: credentials.2)
    }

    /// Sends all of `bytes` on a connected socket, `descriptors` attached to the first part
    /// (`SCM_RIGHTS`; at most four): the receiver gets copies of them. Waits while the socket is
    /// full.
    ///
    /// - Returns: false when the peer is gone.
    public static func send(_ bytes: [UInt8], passing descriptors: [FileDescriptor], on socket: FileDescriptor) -> Bool {
        precondition(descriptors.count <= 4, "at most four descriptors travel with one message")
        var sent = 0
        var attached = descriptors.map(\.rawValue)
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                attached.withUnsafeBufferPointer { fds in
                    dock_send_with_descriptors(
                        socket.rawValue, raw.baseAddress! + sent, bytes.count - sent, fds.baseAddress, Int32(fds.count))
                }
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var wanted = pollfd(fd: socket.rawValue, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&wanted, 1, 1000)
                    continue
                }
                return false
            }
            sent += count
            attached = []  // delivered with the first part
        }
        return true
    }

    /// Connects to the socket at `path` (for clients).
    public static func connect(path: String) throws(SystemError) -> FileDescriptor {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError("socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw SystemError("connect", "\(path) (path too long)", code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let error = SystemError("connect", path)
            close(descriptor)
            throw error
        }
        return FileDescriptor(rawValue: descriptor)
    }
}
