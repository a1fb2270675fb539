import DockSockets
import Glibc

/// The process's standard error, written whole from any thread.
public enum StandardError {
    /// Writes `text` to descriptor 2 (`write(2)`), all of it unless the descriptor fails.
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { Glibc.write(2, raw.baseAddress! + written, raw.count - written) }
            }
            guard count > 0 else { return }
            written += count
        }
    }
}
