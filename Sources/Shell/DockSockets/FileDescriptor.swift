import Glibc

/// An open file descriptor with the reads and writes the daemon and the simulator need. It does
/// not close itself: the owner calls `close()` exactly once.
public struct FileDescriptor: Hashable, Sendable {
    /// The raw descriptor.
    public let rawValue: Int32

    /// Wraps a raw descriptor.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// What a non-blocking read found.
    public enum ReadResult: Equatable, Sendable {
        /// Some bytes.
        case bytes([UInt8])
        /// Nothing yet (`EAGAIN`).
        case wouldBlock
        /// The other end is gone: end of file, or `EIO` as a pty reports a closed peer.
        case hangUp
    }

    /// Reads what is available, up to `maximumCount` bytes (`read(2)`).
    public func read(maximumCount: Int = 4096) throws(SystemError) -> ReadResult {
        // Read into scratch space (on the stack when it fits), then copy out exactly what
        // arrived. An array of `maximumCount` made for each read came from the standard library's
        // unspecialised allocator — a generic metadata look-up under a lock every time, 3 % of
        // dockd's CPU while it tracked (perf) — and kept its 16 or 64 KiB for the few hundred
        // bytes a read brings.
        var error: Int32 = 0
        var bytes: [UInt8] = []
        let count = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount) { scratch in
            let count = retryingOnInterrupt { Glibc.read(rawValue, scratch.baseAddress, maximumCount) }
            error = errno
            if count > 0 { bytes = Array(UnsafeBufferPointer(rebasing: scratch[..<count])) }
            return count
        }
        if count > 0 { return .bytes(bytes) }
        if count == 0 { return .hangUp }
        switch error {
        case EAGAIN: return .wouldBlock
        case EIO: return .hangUp
        default: throw SystemError("read", "descriptor \(rawValue)")
        }
    }

    /// Writes as much of `bytes` as the descriptor takes without blocking (`write(2)`).
    ///
    /// - Returns: the number of bytes written; fewer than given when the far end is not reading.
    @discardableResult
    public func write(_ bytes: [UInt8]) throws(SystemError) -> Int {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                retryingOnInterrupt { Glibc.write(rawValue, raw.baseAddress! + written, bytes.count - written) }
            }
            if count < 0 {
                if errno == EAGAIN || errno == EIO { return written }
                throw SystemError("write", "descriptor \(rawValue)")
            }
            written += count
        }
        return written
    }

    /// Makes reads and writes return at once instead of waiting (`fcntl(2)` `O_NONBLOCK`).
    public func setNonBlocking() throws(SystemError) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0, fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemError("fcntl", "descriptor \(rawValue)")
        }
    }

    /// Puts a terminal in raw mode: no echo, no line editing, no translation, 8 data bits
    /// (`cfmakeraw(3)`, `tcsetattr(3)`).
    public func makeRaw() throws(SystemError) {
        var settings = termios()
        guard tcgetattr(rawValue, &settings) == 0 else { throw SystemError("tcgetattr", "descriptor \(rawValue)") }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        guard tcsetattr(rawValue, TCSANOW, &settings) == 0 else {
            throw SystemError("tcsetattr", "descriptor \(rawValue)")
        }
    }

    /// Closes the descriptor (`close(2)`); errors are ignored, as the descriptor is gone either way.
    public func close() {
        _ = Glibc.close(rawValue)
    }
}
