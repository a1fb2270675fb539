import CLinux
public import DockSockets
import Glibc

/// A region of memory another process can map: an anonymous file (`memfd_create(2)`) of a fixed
/// size, mapped here read-write and shared. The emulated webcam's buffers live in one; the
/// program that streams maps the same file through the descriptor it was sent. Unmapped and
/// closed when the last reference goes (a frame being drawn keeps it alive though its buffers
/// were freed meanwhile).
public final class SharedMemory: @unchecked Sendable {
    // Unchecked: the base address is shared by design; its users write disjoint buffers, one
    // frame at a time, and the owner's lock orders who may touch which.

    /// The memory file, to pass to another process.
    public let descriptor: FileDescriptor
    /// Where it is mapped here.
    public let base: UnsafeMutableRawPointer
    /// Its size, bytes.
    public let count: Int

    /// Makes a region of `count` bytes (zeroed), named `name` (shown in `/proc/PID/maps`).
    public init(name: String, count: Int) throws(SystemError) {
        precondition(count > 0, "shared memory needs a size")
        let raw = dock_memfd_create(name)
        guard raw >= 0 else { throw SystemError("memfd_create", name) }
        guard ftruncate(raw, off_t(count)) == 0 else {
            let error = SystemError("ftruncate", "\(name), \(count) bytes")
            Glibc.close(raw)
            throw error
        }
        guard let mapped = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED, raw, 0), mapped != MAP_FAILED else {
            let error = SystemError("mmap", "\(name), \(count) bytes")
            Glibc.close(raw)
            throw error
        }
        descriptor = FileDescriptor(rawValue: raw)
        base = mapped
        self.count = count
    }

    deinit {
        munmap(base, count)
        descriptor.close()
    }
}

/// A counter another process can wait on (`eventfd(2)`, non-blocking): readable while it is
/// above zero. The emulated webcam keeps one per open of the device at the number of filled
/// buffers waiting, so the program's `poll` wakes when a frame is ready.
public final class EventCounter: @unchecked Sendable {
    // Unchecked: the descriptor is an integer; its reads and writes are atomic in the kernel.

    /// The counter's descriptor, to pass to another process.
    public let descriptor: FileDescriptor
    /// The value last set.
    public private(set) var value: UInt64 = 0

    /// A counter at zero.
    public init() throws(SystemError) {
        let raw = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard raw >= 0 else { throw SystemError("eventfd") }
        descriptor = FileDescriptor(rawValue: raw)
    }

    /// Sets the counter to `newValue` (a read empties it, a write adds).
    public func set(_ newValue: UInt64) {
        guard newValue != value else { return }
        var drained: UInt64 = 0
        _ = Glibc.read(descriptor.rawValue, &drained, 8)
        if newValue > 0 {
            var added = newValue
            _ = Glibc.write(descriptor.rawValue, &added, 8)
        }
        value = newValue
    }

    deinit { descriptor.close() }
}

/// A way for any thread to wake a loop that waits in `poll` (`eventfd(2)`, non-blocking):
/// `signal()` makes `descriptor` readable until `drain()`.
public final class WakeSignal: Sendable {
    /// Readable while signalled.
    public let descriptor: FileDescriptor

    /// An unsignalled wake-up.
    public init() throws(SystemError) {
        let raw = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard raw >= 0 else { throw SystemError("eventfd") }
        descriptor = FileDescriptor(rawValue: raw)
    }

    /// Wakes the loop.
    public func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(descriptor.rawValue, &one, 8)
    }

    /// Clears the signal.
    public func drain() {
        var count: UInt64 = 0
        _ = Glibc.read(descriptor.rawValue, &count, 8)
    }

    deinit { descriptor.close() }
}
