import CLinux
public import DockSockets
import Glibc

/// The daemon's event loop: `epoll(7)`, level-triggered, over every watched descriptor and one
/// `timerfd` armed (absolute, `CLOCK_MONOTONIC`) for the earliest timer. It sleeps in
/// `epoll_wait` with no timeout of its own: nothing wakes it but a descriptor or a deadline.
/// Confined to the thread that calls ``run()``.
public final class EpollLoop: EventLoop {
    private let epoll: Int32
    private let timer: Int32
    private var handlers: [Int32: (LoopReadiness) -> Void] = [:]
    private var timers = TimerQueue()
    private var armed: Duration?
    /// The timer descriptor has expired and was not set since: it stays readable until it is.
    private var isTimerExpired = false
    private var isStopped = false

    /// Opens the epoll instance and the timer descriptor.
    public init() throws(SystemError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SystemError("epoll_create1") }
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timer >= 0 else {
            let error = SystemError("timerfd_create")
            Glibc.close(epoll)
            throw error
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = timer
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &event) == 0 else {
            let error = SystemError("epoll_ctl")
            Glibc.close(timer)
            Glibc.close(epoll)
            throw error
        }
    }

    deinit {
        Glibc.close(timer)
        Glibc.close(epoll)
    }

    public var now: Duration { MonotonicClock.now() }

    public func watch(_ descriptor: FileDescriptor, for interest: LoopInterest, handler: @escaping (LoopReadiness) -> Void) {
        let isNew = handlers.updateValue(handler, forKey: descriptor.rawValue) == nil
        control(isNew ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, descriptor, interest)
    }

    public func change(_ descriptor: FileDescriptor, to interest: LoopInterest) {
        guard handlers[descriptor.rawValue] != nil else { return }
        control(EPOLL_CTL_MOD, descriptor, interest)
    }

    public func unwatch(_ descriptor: FileDescriptor) {
        guard handlers.removeValue(forKey: descriptor.rawValue) != nil else { return }
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor.rawValue, nil)
    }

    private func control(_ operation: Int32, _ descriptor: FileDescriptor, _ interest: LoopInterest) {
        var event = epoll_event()
        event.events =
            (interest.contains(.readable) ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0)
            | (interest.contains(.writable) ? EPOLLOUT.rawValue : 0)
        event.data.fd = descriptor.rawValue
        // A descriptor epoll cannot watch (a regular file) is a programming error of the caller's.
        precondition(
            epoll_ctl(epoll, operation, descriptor.rawValue, &event) == 0,
            "epoll_ctl \(operation) on descriptor \(descriptor.rawValue): \(SystemError("epoll_ctl"))")
    }

    @discardableResult
    public func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping () -> Void) -> LoopTimer {
        timers.add(at: deadline, leeway: leeway, action)
    }

    public func cancel(_ timer: LoopTimer) { timers.cancel(timer) }

    public func stop() { isStopped = true }

    /// Runs until ``stop()``.
    public func run() {
        isStopped = false
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while !isStopped {
            runDueTimers()
            guard !isStopped else { break }
            arm(timers.wakeTime)
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), -1)
            }
            guard count >= 0 else {
                precondition(errno == EINTR, "epoll_wait: \(SystemError("epoll_wait"))")
                continue
            }
            for event in events[0..<Int(count)] {
                let descriptor = event.data.fd
                if descriptor == timer {
                    // Not read: setting the timer again, as `arm` does before the next wait,
                    // clears its expirations too (timerfd_settime(2)), and that saves a read(2)
                    // at every tick.
                    isTimerExpired = true
                    armed = nil
                    continue
                }
                // A handler earlier in this batch may have stopped watching this one.
                guard let handler = handlers[descriptor] else { continue }
                var readiness: LoopReadiness = []
                if event.events & EPOLLIN.rawValue != 0 { readiness.insert(.readable) }
                if event.events & EPOLLOUT.rawValue != 0 { readiness.insert(.writable) }
                if event.events & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0 { readiness.insert(.hangUp) }
                if event.events & EPOLLERR.rawValue != 0 { readiness.insert(.error) }
                handler(readiness)
                if isStopped { break }
                // A crowd of clients must not hold up the tick: between two handlers, whatever
                // timer has come due runs first.
                if let due = timers.earliest, due <= now { runDueTimers() }
            }
        }
    }

    private func runDueTimers() {
        let now = now
        while !isStopped, let action = timers.popDue(at: now) { action() }
    }

    /// Sets the timer descriptor to the earliest deadline (only when that changed, or when it has
    /// expired: then it is set even to nothing, which disarms it and makes it unreadable).
    private func arm(_ deadline: Duration?) {
        guard deadline != armed || isTimerExpired else { return }
        armed = deadline
        isTimerExpired = false
        var setting = itimerspec()
        if let deadline {
            let (seconds, attoseconds) = deadline.components
            // A zero value disarms: a deadline at the clock's origin is one nanosecond later.
            setting.it_value = timespec(tv_sec: Int(seconds), tv_nsec: max(1, Int(attoseconds / 1_000_000_000)))
        }
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }
}
