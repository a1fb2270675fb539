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

    /// Whether `path` names something that exists (`access(2)`, `F_OK`).
    public static func exists(atPath path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
