import Glibc
import Synchronization

/// A benchmark's record of each frame's way to dockd (`DOCKD_VISION_LATENCY_LOG=FILE`;
/// `scripts/vision-latency`, BENCHMARKS.md): one line a frame when its detections are ready,
/// `frame CAPTURE DEQUEUED DETECTED`, one a `Track` call when dockd has answered it, `sent
/// CAPTURE SENT ANSWERED`, and one a frame written to the output device, `output CAPTURE DEQUEUED
/// WRITING WRITTEN` (`scripts/check-vcam`), before it for a framed output its crop, `crop CAPTURE X Y
/// WIDTH HEIGHT` (shares of the picture) — times on `CLOCK_MONOTONIC`, seconds, the capture time the frame's
/// buffer timestamp. Written from the capture thread and the feed's task.
public final class LatencyLog: Sendable {
    private let file: Mutex<UnsafeMutablePointer<FILE>?>

    /// Opens `path` for writing (replacing it).
    /// - Throws: the reason it cannot be opened.
    public init(path: String) throws(LatencyLogError) {
        guard let opened = fopen(path, "w") else { throw LatencyLogError(path: path, reason: String(cString: strerror(errno))) }
        file = Mutex(opened)
    }

    deinit { file.withLock { if let opened = $0 { fclose(opened) } } }

    /// Writes one line: `kind` and the times, in seconds.
    public func record(_ kind: String, _ times: Duration...) {
        let line = kind + times.map { " " + Self.seconds($0) }.joined() + "\n"
        file.withLock { opened in
            guard let opened else { return }
            fputs(line, opened)
        }
    }

    /// Writes one line of `kind` and plain numbers, each exactly (the shortest decimal that reads
    /// back as the same double): a reader that rounds them to pixels as dockd-vision did gets the same
    /// pixels, which six decimals did not promise for a value within a thousandth of a pixel of a half.
    public func record(_ kind: String, values: [Double]) {
        let line = kind + values.map { " \($0)" }.joined() + "\n"
        file.withLock { opened in
            guard let opened else { return }
            fputs(line, opened)
        }
    }

    /// Writes what is buffered.
    public func flush() { file.withLock { if let opened = $0 { fflush(opened) } } }

    private static func seconds(_ time: Duration) -> String {
        let (whole, attoseconds) = time.components
        let micro = attoseconds / 1_000_000_000_000
        let digits = String(micro)
        return "\(whole)." + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}

/// The latency log's file cannot be opened.
public struct LatencyLogError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// Why.
    public var reason: String
    /// For the log.
    public var description: String { "latency log: cannot open \(path): \(reason); not written" }
}
