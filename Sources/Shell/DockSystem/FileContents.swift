public import DockSockets
import Glibc

/// Whole files read and written in one call, for configuration, scenarios, models and reports
/// (the standard library has no file I/O; Foundation's would link ICU into every program).
public enum FileContents {
    /// The bytes of the file at `path` (`open(2)`, `read(2)`).
    ///
    /// - Throws: `SystemError` naming the call and the path (a missing file is `ENOENT`).
    public static func read(atPath path: String) throws(SystemError) -> [UInt8] {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw SystemError("open", path) }
        defer { Glibc.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            if count < 0 { throw SystemError("read", path) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Writes `bytes` to the file at `path`, created (mode 0666 less the umask) or truncated
    /// (`open(2)`, `write(2)`).
    ///
    /// - Throws: `SystemError` naming the call and the path.
    public static func write(_ bytes: [UInt8], toPath path: String) throws(SystemError) {
        let descriptor = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666) }
        guard descriptor >= 0 else { throw SystemError("open", path) }
        defer { Glibc.close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                retryingOnInterrupt { Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written) }
            }
            guard count > 0 else { throw SystemError("write", path) }
            written += count
        }
    }

    /// Replaces the file at `path` with `bytes` whole or not at all: written to a temporary file
    /// beside it (mode 0600), flushed to the disk (`fsync(2)`), renamed over `path`
    /// (`rename(2)`, atomic), and the directory flushed so that the rename survives a power cut.
    /// A reader sees the old file or the new one, never part of either; when a step fails the
    /// temporary file is removed and `path` is as it was.
    ///
    /// - Throws: `SystemError` naming the call and the path.
    public static func replace(atPath path: String, with bytes: [UInt8]) throws(SystemError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = retryingOnInterrupt { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw SystemError("open", temporary) }
        var isOpen = true
        // Undoes what was done (the descriptor, the temporary file) and says what failed.
        func failed(_ call: String, _ subject: String) -> SystemError {
            let error = SystemError(call, subject)
            if isOpen { Glibc.close(descriptor) }
            unlink(temporary)
            return error
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                retryingOnInterrupt { Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written) }
            }
            guard count > 0 else { throw failed("write", temporary) }
            written += count
        }
        guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else { throw failed("fsync", temporary) }
        isOpen = false
        guard Glibc.close(descriptor) == 0 else { throw failed("close", temporary) }
        guard rename(temporary, path) == 0 else { throw failed("rename", "\(temporary) to \(path)") }
        // The rename is in the directory: flushing it makes it last (a failure here leaves the
        // new file in place, only perhaps not yet on the disk).
        let directoryDescriptor = retryingOnInterrupt { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if directoryDescriptor >= 0 {
            _ = retryingOnInterrupt { fsync(directoryDescriptor) }
            Glibc.close(directoryDescriptor)
        }
    }

    /// Makes the directory at `path` and those above it that are missing, each with `mode`
    /// (less the umask) (`mkdir(2)`); one that exists is left as it is.
    ///
    /// - Throws: `SystemError` naming the call and the path.
    public static func makeDirectories(atPath path: String, mode: UInt32 = 0o700) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode_t(mode)) != 0, errno != EEXIST { throw SystemError("mkdir", prefix) }
        }
    }

    /// Whether `path` names something that exists (`access(2)`, `F_OK`).
    public static func exists(atPath path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
