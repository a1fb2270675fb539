import DockClient
import DockAPI
import DockProtocol
import DockSimulator
import DockSystem
import Foundation
import Glibc
import Synchronization

/// From a client's `SetVelocity` to the command on the serial line: the benchmark is the dock —
/// it owns a pseudo-terminal, runs the simulated firmware on its side, and notes when each
/// `set_velocity` frame becomes readable there — while dockd drives it with `--device`. Each call
/// asks for a different yaw rate, so its frame is told from the 30 Hz re-sends.
final class SerialDock: Sendable {
    private let terminal: PseudoTerminal
    private let firmware = Mutex(AccessoryFirmware(configuration: AccessoryConfiguration(), seed: 1))
    private let arrivals = Mutex<[(time: Duration, yawMicroradiansPerSecond: Int32)]>([])
    private let running = Atomic<Bool>(true)
    private let origin = MonotonicClock.now()

    init() throws {
        terminal = try PseudoTerminal()
        try terminal.master.setNonBlocking()
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    var devicePath: String { terminal.slavePath }

    func stop() { running.store(false, ordering: .relaxed) }

    /// When the first `set_velocity` frame with this yaw rate arrived after `since`.
    func arrival(ofYaw rate: Int32, after since: Duration) -> Duration? {
        arrivals.withLock { list in list.first { $0.time >= since && $0.yawMicroradiansPerSecond == rate }?.time }
    }

    func forgetArrivals() { arrivals.withLock { $0.removeAll(keepingCapacity: true) } }

    private func serve() {
        var decoder = FrameDecoder()
        var nextTelemetry = MonotonicClock.now()
        while running.load(ordering: .relaxed) {
            var entry = pollfd(fd: terminal.master.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 1)
            let now = MonotonicClock.now()
            if case .bytes(let bytes)? = try? terminal.master.read() {
                for case .success(let frame) in decoder.decode(bytes) {
                    if case .setVelocity(let command) = frame.message {
                        arrivals.withLock { $0.append((now, command.yawRate.microradiansPerSecond)) }
                    }
                }
                let answer = firmware.withLock { $0.receive(bytes: bytes, now: now - origin) }
                if !answer.isEmpty { _ = try? terminal.master.write(answer) }
            }
            if now >= nextTelemetry {
                nextTelemetry = now + .milliseconds(10)
                let bytes = firmware.withLock { $0.advanceBytes(to: now - origin) }
                if !bytes.isEmpty { _ = try? terminal.master.write(bytes) }
            }
        }
        terminal.close()
    }
}

enum SerialLatencyBenchmark {
    /// Microseconds from sending each `SetVelocity` to its frame on the line, sorted.
    static func measure(calls: Int) async -> [Double] {
        guard let dock = try? SerialDock() else { return [] }
        defer { dock.stop() }
        guard let daemon = try? DaemonProcess(["--device", dock.devicePath, "--wake-on-attach=false"], socket: temporaryPath("serial.sock")),
            let connection = await daemon.readyConnection()
        else { return [] }
        defer { daemon.stop() }
        var samples: [Double] = []
        for index in 0..<calls {
            // Alternate directions so the dock stays near the middle; a distinct rate per call.
            let yaw = (index % 2 == 0 ? 1.0 : -1.0) * (0.2 + Double(index % 500) * 1e-4)
            let rate = Int32((yaw * 1e6).rounded())
            let start = MonotonicClock.now()
            guard (try? await connection.call("io.dockd.Dock.SetVelocity", ["yaw": .number(yaw), "pitch": .number(0),
                                                                          "duration": .number(0.1)])) != nil
            else { continue }
            var arrival: Duration?
            while arrival == nil, MonotonicClock.now() - start < .milliseconds(500) {
                arrival = dock.arrival(ofYaw: rate, after: start)
                if arrival == nil { try? await Task.sleep(for: .microseconds(200)) }
            }
            if let arrival { samples.append(microseconds(arrival - start)) }
            dock.forgetArrivals()
            try? await Task.sleep(for: .milliseconds(5))
        }
        return samples.sorted()
    }
}
