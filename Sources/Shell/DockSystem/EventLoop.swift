public import DockSockets

/// The one loop that owns every descriptor of the daemon and its timers (gpsd's shape): handlers
/// run one at a time on the loop's thread, so what they touch needs no lock. The running daemon
/// uses ``EpollLoop``; a test swaps in ``VirtualEventLoop`` and drives it in virtual time.
///
/// A handler never blocks. Watching is level-triggered: a descriptor that stays readable (or
/// writable) is reported again on every turn until its handler reads it dry (or stops asking).
public protocol EventLoop: AnyObject {
    /// The loop's time (monotonic, as a `Duration` since an arbitrary origin).
    var now: Duration { get }

    /// Watches `descriptor` for `interest`, replacing any earlier watch of it; `handler` runs
    /// on the loop each time it is ready.
    func watch(_ descriptor: FileDescriptor, for interest: LoopInterest, handler: @escaping (LoopReadiness) -> Void)

    /// Changes what an already watched descriptor is watched for.
    func change(_ descriptor: FileDescriptor, to interest: LoopInterest)

    /// Stops watching `descriptor` (before it is closed).
    func unwatch(_ descriptor: FileDescriptor)

    /// Runs `action` on the loop at `deadline`, or up to `leeway` later when the loop wakes
    /// then anyway (dispatch's leeway: timers that may wait share a wake-up with those that
    /// may not); at the next turn when it has passed. Actions due at the same time run in the
    /// order they were scheduled.
    @discardableResult
    func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping () -> Void) -> LoopTimer

    /// Cancels a scheduled action that has not run yet.
    func cancel(_ timer: LoopTimer)

    /// Ends the loop after the handler now running.
    func stop()
}

extension EventLoop {
    /// Runs `action` on the loop at `deadline` (at the next turn when it has passed).
    @discardableResult
    public func schedule(at deadline: Duration, _ action: @escaping () -> Void) -> LoopTimer {
        schedule(at: deadline, leeway: .zero, action)
    }

    /// Runs `action` on the loop's next turn (never from inside the caller: no re-entrance).
    @discardableResult
    public func execute(_ action: @escaping () -> Void) -> LoopTimer { schedule(at: now, action) }
}

/// What a descriptor is watched for.
public struct LoopInterest: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Data to read, a connection to accept, or a hang-up.
    public static let readable = LoopInterest(rawValue: 1)
    /// Room to write.
    public static let writable = LoopInterest(rawValue: 2)
}

/// What the loop found a descriptor ready for.
public struct LoopReadiness: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Readable.
    public static let readable = LoopReadiness(rawValue: 1)
    /// Writable.
    public static let writable = LoopReadiness(rawValue: 2)
    /// The peer hung up (a read finds the end of the stream).
    public static let hangUp = LoopReadiness(rawValue: 4)
    /// An error is pending on the descriptor.
    public static let error = LoopReadiness(rawValue: 8)
}

/// A scheduled action, to cancel it by.
public struct LoopTimer: Hashable, Sendable {
    let id: UInt64
}

/// The timers of a loop, earliest first; equal deadlines in the order scheduled.
struct TimerQueue {
    private struct Entry {
        var deadline: Duration
        var latest: Duration
        var id: UInt64
        var action: () -> Void
    }

    private var entries: [Entry] = []
    private var nextID: UInt64 = 0

    /// The earliest deadline, if any.
    var earliest: Duration? { entries.first?.deadline }
    /// When the loop must wake: the earliest deadline plus its leeway, over every timer (at
    /// that time every timer whose deadline has come runs, the ones with leeway among them).
    var wakeTime: Duration? { entries.lazy.map(\.latest).min() }
    var isEmpty: Bool { entries.isEmpty }

    mutating func add(at deadline: Duration, leeway: Duration = .zero, _ action: @escaping () -> Void) -> LoopTimer {
        nextID += 1
        // After every entry due at or before `deadline` (binary search: ties keep their order).
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].deadline <= deadline { low = middle + 1 } else { high = middle }
        }
        entries.insert(Entry(deadline: deadline, latest: deadline + max(leeway, .zero), id: nextID, action: action), at: low)
        return LoopTimer(id: nextID)
    }

    mutating func cancel(_ timer: LoopTimer) {
        if let index = entries.firstIndex(where: { $0.id == timer.id }) { entries.remove(at: index) }
    }

    /// Removes and returns the earliest action when it is due at `now`.
    mutating func popDue(at now: Duration) -> (() -> Void)? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        return entries.removeFirst().action
    }
}
