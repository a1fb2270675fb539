public import DockSockets
import Glibc

/// `POLLRDHUP` (Linux; poll.h declares it only under `_GNU_SOURCE`): the peer shut its writing side.
private let pollReadHangUp: Int32 = 0x2000

/// An event loop in virtual time, for tests: the descriptors are real (socket pairs, so a test's
/// peer and the daemon share the loop), but time only moves when the test says, and nothing
/// waits. ``runUntilIdle()`` serves every ready descriptor and due timer until none is left;
/// ``advance(to:)`` walks the timers in order, so a run is the same every time.
public final class VirtualEventLoop: EventLoop {
    /// The virtual time.
    public private(set) var now: Duration
    private var watches: [(descriptor: Int32, interest: LoopInterest, handler: (LoopReadiness) -> Void)] = []
    private var timers = TimerQueue()
    /// Whether ``stop()`` was called.
    public private(set) var isStopped = false

    /// Starts the clock at `start`.
    public init(start: Duration = .seconds(1000)) { now = start }

    public func watch(_ descriptor: FileDescriptor, for interest: LoopInterest, handler: @escaping (LoopReadiness) -> Void) {
        if let index = watches.firstIndex(where: { $0.descriptor == descriptor.rawValue }) {
            watches[index] = (descriptor.rawValue, interest, handler)
        } else {
            watches.append((descriptor.rawValue, interest, handler))
        }
    }

    public func change(_ descriptor: FileDescriptor, to interest: LoopInterest) {
        if let index = watches.firstIndex(where: { $0.descriptor == descriptor.rawValue }) { watches[index].interest = interest }
    }

    public func unwatch(_ descriptor: FileDescriptor) { watches.removeAll { $0.descriptor == descriptor.rawValue } }

    @discardableResult
    public func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping () -> Void) -> LoopTimer {
        timers.add(at: deadline, leeway: leeway, action)
    }

    public func cancel(_ timer: LoopTimer) { timers.cancel(timer) }

    public func stop() { isStopped = true }

    /// When the loop next wakes for a timer, if any.
    public var nextDeadline: Duration? { timers.wakeTime }

    /// Serves ready descriptors and timers due now until there are none; returns how many
    /// handlers and actions ran. A loop that never settles (a handler that leaves a descriptor
    /// ready) stops the test.
    @discardableResult
    public func runUntilIdle() -> Int {
        var ran = 0
        while true {
            var didWork = false
            while let action = timers.popDue(at: now) {
                action()
                didWork = true
                ran += 1
            }
            var entries = watches.map { pollfd(fd: $0.descriptor, events: events($0.interest), revents: 0) }
            let count = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 0) }
            if count > 0 {
                for entry in entries where entry.revents != 0 {
                    // Earlier handlers in this pass may have removed or replaced this watch.
                    guard let watch = watches.first(where: { $0.descriptor == entry.fd }) else { continue }
                    var readiness: LoopReadiness = []
                    if entry.revents & Int16(POLLIN) != 0 { readiness.insert(.readable) }
                    if entry.revents & Int16(POLLOUT) != 0, watch.interest.contains(.writable) { readiness.insert(.writable) }
                    if entry.revents & Int16(POLLHUP | pollReadHangUp) != 0 { readiness.insert(.hangUp) }
                    if entry.revents & Int16(POLLERR) != 0 { readiness.insert(.error) }
                    if entry.revents & Int16(POLLNVAL) != 0 {
                        preconditionFailure("descriptor \(entry.fd) is watched but closed")
                    }
                    watch.handler(readiness)
                    didWork = true
                    ran += 1
                }
            }
            if !didWork { return ran }
            precondition(ran < 1_000_000, "the loop never settles")
        }
    }

    /// Moves time to `deadline`, firing each timer at its own time on the way.
    public func advance(to deadline: Duration) {
        runUntilIdle()
        while let next = timers.wakeTime, next <= deadline {
            now = max(now, next)
            runUntilIdle()
        }
        now = max(now, deadline)
        runUntilIdle()
    }

    /// Moves time on by `interval`.
    public func advance(by interval: Duration) { advance(to: now + interval) }

    private func events(_ interest: LoopInterest) -> Int16 {
        (interest.contains(.readable) ? Int16(POLLIN | pollReadHangUp) : 0) | (interest.contains(.writable) ? Int16(POLLOUT) : 0)
    }
}
