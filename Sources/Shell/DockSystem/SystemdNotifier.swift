import Glibc

/// The service manager's notification protocol without libsystemd (`sd_notify(3)`): one datagram
/// per state change to the `AF_UNIX` socket named in `NOTIFY_SOCKET` (a leading `@` means the
/// abstract namespace). Without `NOTIFY_SOCKET` every call does nothing.
public struct SystemdNotifier: Sendable {
    private let socketPath: String?
    /// Half the watchdog interval, when the service manager asked for keep-alives.
    public let watchdogInterval: Duration?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`, for this process.
    public init(environment: [String: String]) {
        self.init(environment: environment, processID: getpid())
    }

    /// Reads the environment as the process `processID` would.
    public init(environment: [String: String], processID: Int32) {
        let path = environment["NOTIFY_SOCKET"]
        socketPath = path.flatMap { $0.hasPrefix("/") || $0.hasPrefix("@") ? $0 : nil }
        if let microseconds = environment["WATCHDOG_USEC"].flatMap(Int64.init), microseconds > 0,
            environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == processID }) ?? true
        {
            watchdogInterval = .microseconds(microseconds / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// Whether a service manager listens.
    public var isEnabled: Bool { socketPath != nil }

    /// Sends `state` (such as `READY=1` or `STATUS=...`); returns whether it was delivered.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                Array(state.utf8).withUnsafeBytes { message in
                    sendto(descriptor, message.baseAddress, message.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        return sent == state.utf8.count
    }
}
