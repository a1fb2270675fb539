import CLinux
public import DockSockets
import Glibc

/// Waiting for descriptors to become readable (`poll(2)`).
public enum Poll {
    /// Waits until one of `descriptors` is readable or hung up, or `timeout` passes.
    ///
    /// - Returns: the descriptors that are ready.
    public static func waitForReading(_ descriptors: [FileDescriptor], timeout: Duration) throws(SystemError) -> [FileDescriptor] {
        var entries = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        let count = entries.withUnsafeMutableBufferPointer { buffer in
            retryingOnInterrupt { poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds) }
        }
        guard count >= 0 else { throw SystemError("poll") }
        return entries.filter { $0.revents != 0 }.map { FileDescriptor(rawValue: $0.fd) }
    }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), the time base shared between processes.
public enum MonotonicClock {
    /// The time since an arbitrary point fixed at boot.
    public static func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

/// Termination signals delivered through a descriptor (`signalfd(2)`), so that a loop can wait for
/// them with its other descriptors instead of running code in a signal handler.
public struct TerminationSignals: Sendable {
    /// Readable when SIGTERM, SIGINT or SIGHUP has arrived.
    public let descriptor: FileDescriptor

    /// Blocks SIGTERM, SIGINT and SIGHUP for normal delivery and opens a descriptor for them.
    public init() throws(SystemError) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        guard sigprocmask(SIG_BLOCK, &set, nil) == 0 else { throw SystemError("sigprocmask") }
        let descriptor = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else { throw SystemError("signalfd") }
        self.descriptor = FileDescriptor(rawValue: descriptor)
    }

    /// The signal that arrived, if one did.
    public func take() -> Int32? {
        var information = signalfd_siginfo()
        let count = withUnsafeMutableBytes(of: &information) { raw in
            Glibc.read(descriptor.rawValue, raw.baseAddress, raw.count)
        }
        return count == MemoryLayout<signalfd_siginfo>.size ? Int32(information.ssi_signo) : nil
    }
}
