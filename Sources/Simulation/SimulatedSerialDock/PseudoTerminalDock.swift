public import DockProtocol
public import DockSimulator
import DockSockets
import DockSystem
import Glibc
import Synchronization

/// The simulated dock on a pseudo-terminal that the measuring process owns: it runs the
/// firmware model on its side of the pty, answers what arrives and sends telemetry, and notes when
/// every good frame from the host arrived — while dockd drives it with `--device`, as it drives a
/// USB serial dock. For tests and benchmarks that time what is on the line.
public final class PseudoTerminalDock: Sendable {
    private let terminal: PseudoTerminal
    private let firmware: Mutex<AccessoryFirmware>
    private let arrivals = Mutex<[(time: Duration, frame: Frame)]>([])
    private let running = Atomic<Bool>(true)
    private let done = Mutex<Bool>(false)
    private let origin = MonotonicClock.now()

    /// Opens the pty and starts serving it on a thread of its own.
    public init(configuration: AccessoryConfiguration = AccessoryConfiguration(), seed: UInt64 = 1) throws {
        firmware = Mutex(AccessoryFirmware(configuration: configuration, seed: seed))
        terminal = try PseudoTerminal()
        try terminal.master.setNonBlocking()
        try DetachedThread.start(name: "pty dock") { [self] in serve() }
    }

    /// The path dockd opens.
    public var devicePath: String { terminal.slavePath }

    /// Every good host frame so far, with when it arrived on the monotonic clock.
    public var frames: [(time: Duration, frame: Frame)] { arrivals.withLock { $0 } }

    /// Forgets the frames noted so far.
    public func forgetFrames() { arrivals.withLock { $0.removeAll(keepingCapacity: true) } }

    /// Whether the firmware's failsafe has stopped the motors.
    public var isFailsafeStopped: Bool { firmware.withLock { $0.isFailsafeStopped } }

    /// Stops serving and closes the pty; returns once that is done.
    public func stop() {
        running.store(false, ordering: .relaxed)
        while !done.withLock({ $0 }) { usleep(1_000) }
    }

    private func serve() {
        var decoder = FrameDecoder()
        var nextTelemetry = MonotonicClock.now()
        while running.load(ordering: .relaxed) {
            var entry = pollfd(fd: terminal.master.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 1)
            let now = MonotonicClock.now()
            if case .bytes(let bytes)? = try? terminal.master.read() {
                for case .success(let frame) in decoder.decode(bytes) {
                    arrivals.withLock { $0.append((now, frame)) }
                }
                let answer = firmware.withLock { $0.receive(bytes: bytes, now: now - origin) }
                if !answer.isEmpty { _ = try? terminal.master.write(answer) }
            }
            if now >= nextTelemetry {
                nextTelemetry = now + .milliseconds(5)
                let bytes = firmware.withLock { $0.advanceBytes(to: now - origin) }
                if !bytes.isEmpty { _ = try? terminal.master.write(bytes) }
            }
        }
        terminal.close()
        done.withLock { $0 = true }
    }
}
