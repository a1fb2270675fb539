import DockAPI
import DockClient
import DockProtocol
import DockSimulator
import DockSystem
import DockVocabulary
import Foundation
import Glibc
import SimulatedSerialDock

/// From a client's `SetVelocity` to the command on the serial line: the benchmark is the dock —
/// it owns a pseudo-terminal, runs the simulated firmware on its side, and notes when each
/// `set_velocity` frame becomes readable there — while dockd drives it with `--device`. Each call
/// asks for a different yaw rate, so its frame is told from the 30 Hz re-sends.
extension PseudoTerminalDock {
    /// When the first `set_velocity` frame with this yaw rate arrived after `since`.
    func arrival(ofYaw rate: Int32, after since: Duration) -> Duration? {
        frames.first { arrival in
            guard arrival.time >= since, case .setVelocity(let command) = arrival.frame.message else { return false }
            return command.yawRate.microradiansPerSecond == rate
        }?.time
    }
}

enum SerialLatencyBenchmark {
    /// Microseconds from sending each `SetVelocity` to its frame on the line, sorted.
    static func measure(calls: Int) async -> [Double] {
        guard let dock = try? PseudoTerminalDock() else { return [] }
        defer { dock.stop() }
        guard
            let daemon = try? DaemonProcess(["--device", dock.devicePath, "--wake-on-attach=false"], socket: temporaryPath("serial.sock")),
            let connection = await daemon.readyConnection()
        else { return [] }
        defer { daemon.stop() }
        var samples: [Double] = []
        for index in 0..<calls {
            // Alternate directions so the dock stays near the middle; a distinct rate per call.
            let yaw = (index % 2 == 0 ? 1.0 : -1.0) * (0.2 + Double(index % 500) * 1e-4)
            let rate = Int32((yaw * 1e6).rounded())
            let start = MonotonicClock.now()
            let velocity = MotionRequest.velocity(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: 0, duration: .milliseconds(100))
            guard (try? await connection.send(DockCall.host(.motion(velocity, takeOver: false, waitsForEnd: false)).encoded())) != nil
            else { continue }
            var arrival: Duration?
            while arrival == nil, MonotonicClock.now() - start < .milliseconds(500) {
                arrival = dock.arrival(ofYaw: rate, after: start)
                if arrival == nil { try? await Task.sleep(for: .microseconds(200)) }
            }
            if let arrival { samples.append(microseconds(arrival - start)) }
            dock.forgetFrames()
            try? await Task.sleep(for: .milliseconds(5))
        }
        return samples.sorted()
    }
}
