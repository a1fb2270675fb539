/// How punctual the control loop is: for each tick, how late it ran after its scheduled time
/// (the jitter), kept for the last `capacity` ticks in a ring buffer sized once, and how many
/// ticks were missed outright (the loop fell more than a whole interval behind).
public struct LoopStatistics: Sendable {
    /// Ticks recorded since the start.
    public private(set) var tickCount = 0
    /// Ticks missed since the start: whole intervals that passed without a tick.
    public private(set) var missedTicks = 0
    private var lateness: [Duration]
    private var next = 0
    private var sorted: [Duration] = []
    private var cached: (tick: Int, figures: (p50: Duration, p99: Duration, maximum: Duration))?

    /// Keeps the last `capacity` ticks (1024 at 30 Hz: about 34 seconds).
    public init(capacity: Int = 1024) {
        lateness = []
        lateness.reserveCapacity(max(capacity, 1))
        sorted.reserveCapacity(max(capacity, 1))
    }

    /// A tick ran `late` after its scheduled time, with ticks `interval` apart.
    public mutating func record(late: Duration, interval: Duration) {
        let late = max(late, .zero)
        tickCount += 1
        if interval > .zero, late >= interval { missedTicks += Int(late / interval) }
        if lateness.count < lateness.capacity {
            lateness.append(late)
        } else {
            lateness[next] = late
            next = (next + 1) % lateness.count
        }
    }

    /// The median, 99th percentile and maximum lateness over the recorded window; zero before
    /// any tick.
    public mutating func summary() -> (p50: Duration, p99: Duration, maximum: Duration) {
        guard !lateness.isEmpty else { return (.zero, .zero, .zero) }
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: lateness)
        sorted.sort()
        let p99 = sorted[min(sorted.count - 1, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)]
        return (sorted[sorted.count / 2], p99, sorted[sorted.count - 1])
    }

    /// The summary, worked out afresh only when `ticks` ticks have passed since the last time
    /// (a snapshot taken every tick must not sort the window every tick).
    public mutating func summary(refreshingEvery ticks: Int) -> (p50: Duration, p99: Duration, maximum: Duration) {
        if let cached, tickCount - cached.tick < ticks { return cached.figures }
        let figures = summary()
        cached = (tickCount, figures)
        return figures
    }
}
