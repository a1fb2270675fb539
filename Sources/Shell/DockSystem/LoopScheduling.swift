import CLinux
public import DockSockets
import Glibc

/// How the kernel schedules the thread that runs dockd's event loop.
///
/// The loop sleeps nearly all the time and must run soon after it wakes: the control tick, the
/// heartbeat's deadline. Under Linux's fair scheduler (EEVDF, 6.6 and later) a thread that wakes
/// on a core busy with another waits until that one's time slice ends — 0.7 ms × (1 + log₂ cores)
/// by default, and up to the scheduler's tick (4 ms at 250 Hz) when the wake-up does not preempt.
/// Since 6.12 a thread may ask for a shorter slice of its own (`sched_setattr(2)`'s
/// `sched_runtime` under `SCHED_OTHER`); a short slice gives it an earlier virtual deadline, so
/// its wake-ups preempt what is running. It asks for no more CPU, no real-time class and no
/// privilege: its nice value and policy stay as they are.
///
/// Measured with `dockbench --load` (64 clients on the same 2 cores, BENCHMARKS.md, 2026-12-05):
/// the loop's wait for a core after a wake-up, p99, 1.6–2.3 ms → 0.4–0.7 ms, and its tick's
/// lateness p99 5.0–6.6 ms → 2.2–2.4 ms.
public enum LoopScheduling {
    /// The slice asked for: the kernel's least (0.1 ms). The loop's work per wake-up is 20–100 µs.
    public static let slice = Duration.microseconds(100)

    /// What became of the request.
    public enum Outcome: Equatable, Sendable {
        /// The calling thread now runs with `slice`.
        case granted(Duration)
        /// The kernel took the request and reports no slice of its own: before 6.12 a fair
        /// thread's `sched_runtime` is accepted and ignored.
        case unsupported
        /// The thread is not under the normal fair policy (an administrator's `SCHED_BATCH`,
        /// `SCHED_IDLE` or a real-time class, `CPUSchedulingPolicy=` in a unit): left as it is.
        case otherPolicy(Int32)
        /// The call failed (a seccomp filter without `sched_setattr`: `EPERM`).
        case failed(SystemError)
    }

    /// Asks for `slice` for the calling thread, keeping its policy and nice value.
    public static func requestShortSlice(_ slice: Duration = slice) -> Outcome {
        var attributes = dock_sched_attr()
        guard dock_sched_getattr(&attributes) == 0 else { return .failed(SystemError("sched_getattr")) }
        guard attributes.sched_policy == UInt32(SCHED_OTHER) else { return .otherPolicy(Int32(bitPattern: attributes.sched_policy)) }
        let (seconds, attoseconds) = slice.components
        attributes.sched_runtime = UInt64(max(seconds, 0)) * 1_000_000_000 + UInt64(max(attoseconds, 0) / 1_000_000_000)
        // Policy, nice and flags (reset-on-fork) as they were read: only the slice changes.
        guard dock_sched_setattr(&attributes) == 0 else { return .failed(SystemError("sched_setattr")) }
        var granted = dock_sched_attr()
        guard dock_sched_getattr(&granted) == 0, granted.sched_runtime > 0 else { return .unsupported }
        return .granted(.nanoseconds(Int64(clamping: granted.sched_runtime)))
    }
}
