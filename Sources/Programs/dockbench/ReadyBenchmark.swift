import DockSystem
import Foundation
import Glibc

/// Time from starting dockd to its `READY=1`, as systemd would see it: the benchmark binds a
/// datagram socket, passes it as `NOTIFY_SOCKET`, starts dockd on the simulated dock, and waits
/// for the message.
enum ReadyBenchmark {
    /// Milliseconds from `Process.run()` to READY=1 for each of `runs` starts.
    static func measure(runs: Int) -> [Double] {
        var samples: [Double] = []
        for run in 0..<runs {
            let path = temporaryPath("notify-\(run)")
            unlink(path)
            let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { continue }
            defer {
                close(descriptor)
                unlink(path)
            }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { continue }
            let start = MonotonicClock.now()
            guard
                let daemon = try? DaemonProcess(
                    ["--simulator", "--wake-on-attach=false"], socket: temporaryPath("ready-\(run).sock"),
                    environment: ["NOTIFY_SOCKET": path])
            else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var ready: Duration?
            while ready == nil, MonotonicClock.now() - start < .seconds(10) {
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 100) > 0 else { continue }
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0 else { continue }
                let text = String(decoding: buffer[..<count], as: UTF8.self)
                if text.split(separator: "\n").contains("READY=1") { ready = MonotonicClock.now() - start }
            }
            daemon.stop()
            if let ready { samples.append(microseconds(ready) / 1000) }
        }
        return samples.sorted()
    }
}
