public import DockSockets

/// Sockets passed by the service manager (`sd_listen_fds(3)`): `LISTEN_FDS` descriptors from 3,
/// valid only when `LISTEN_PID` is this process, named by `LISTEN_FDNAMES`.
public enum SocketActivation {
    /// The first descriptor systemd passes.
    public static let firstDescriptor: Int32 = 3

    /// The passed descriptors with their names, or [] when none were passed to `processID`.
    public static func listeningDescriptors(environment: [String: String], processID: Int32)
        -> [(descriptor: FileDescriptor, name: String)]
    {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == processID,
            let count = environment["LISTEN_FDS"].flatMap(Int32.init), count > 0, count < 1024
        else { return [] }
        let names = environment["LISTEN_FDNAMES"]?.split(separator: ":", omittingEmptySubsequences: false).map(String.init) ?? []
        return (0..<count).map { index in
            (FileDescriptor(rawValue: firstDescriptor + index), index < names.count ? names[Int(index)] : "unknown")
        }
    }

    /// The environment variables that must not reach child processes once the sockets are taken.
    public static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]
}
