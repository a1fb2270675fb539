/// When a frame was captured, on `CLOCK_MONOTONIC` (the clock dockd's `Track` takes), from the
/// V4L2 buffer's timestamp — or, when the buffer's clock is not that one, the time the frame was
/// taken from the driver, which is later than its capture: dockd then fuses it with a pose a
/// little too recent, and the service says so once in its log.
public enum CaptureTime {
    /// `V4L2_BUF_FLAG_TIMESTAMP_MASK`: which clock the timestamp is on.
    public static let timestampMask: UInt32 = 0xe000
    /// `V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`.
    public static let timestampMonotonic: UInt32 = 0x2000
    /// `V4L2_BUF_FLAG_TIMESTAMP_COPY`: the timestamp is the application's own (output devices).
    public static let timestampCopy: UInt32 = 0x4000
    /// The oldest a monotonic capture time may be when it is dequeued: older is not believed.
    public static let oldestBelieved = Duration.seconds(2)

    /// Why a buffer's timestamp was not used.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The buffer's flags do not say the timestamp is monotonic (the flags' clock bits).
        case notMonotonic(flags: UInt32)
        /// The timestamp says the frame was captured after it was dequeued (by how much).
        case inTheFuture(Duration)
        /// The timestamp says the frame is older than `oldestBelieved` (by how much): another clock.
        case tooOld(Duration)

        /// What was wrong, for the log.
        public var description: String {
            switch self {
            case .notMonotonic(let flags):
                "capture time from another clock: the buffer's timestamp flags are 0x\(String(flags & CaptureTime.timestampMask, radix: 16)), "
                    + "not CLOCK_MONOTONIC's 0x2000; using the time each frame is dequeued"
            case .inTheFuture(let ahead):
                "capture time from another clock: a frame stamped \(ahead) after it was dequeued; using the time each frame is dequeued"
            case .tooOld(let age):
                "capture time from another clock: a frame stamped \(age) before it was dequeued; using the time each frame is dequeued"
            }
        }
    }

    /// The capture time of a buffer dequeued at `dequeued`, and what was wrong with its own
    /// timestamp when it was not used.
    ///
    /// - Parameters:
    ///   - timestamp: The buffer's timestamp (`v4l2_buffer.timestamp`).
    ///   - flags: The buffer's flags.
    ///   - dequeued: When it was dequeued, on `CLOCK_MONOTONIC`.
    public static func of(timestamp: Duration, flags: UInt32, dequeued: Duration) -> (time: Duration, problem: Problem?) {
        guard flags & timestampMask == timestampMonotonic else {
            return (dequeued, .notMonotonic(flags: flags))
        }
        if timestamp > dequeued { return (dequeued, .inTheFuture(timestamp - dequeued)) }
        if dequeued - timestamp > oldestBelieved { return (dequeued, .tooOld(dequeued - timestamp)) }
        return (timestamp, nil)
    }
}
