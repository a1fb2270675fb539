import DockSockets
import Glibc

/// Where a client finds dockd when no socket is named.
public enum DockdSocket {
    /// The sockets to try, in order: `DOCKD_SOCKET` alone when it is set; else, for a normal user,
    /// the per-user socket (`$XDG_RUNTIME_DIR/dockd.sock`, or `/tmp/dockd-UID/dockd.sock` without
    /// `XDG_RUNTIME_DIR`) and then the system's `/run/dockd/dockd.sock`; for root the system's only.
    public static func defaultPaths(environment: [String: String]) -> [String] {
        if let path = environment["DOCKD_SOCKET"], !path.isEmpty { return [path] }
        return ControlSocketPath.clientCandidates(effectiveUserID: geteuid(), environment: environment)
    }
}

extension VarlinkConnection {
    /// Connects to the first of `paths` that accepts a connection.
    ///
    /// - Returns: the connection and the path it reached.
    /// - Throws: ``DockClientError/cannotConnect(path:reason:)`` for a single path; for several,
    ///   ``DockClientError/cannotConnectToAny(_:)`` with each path's error in the order tried.
    public static func connect(toFirstOf paths: [String]) throws(DockClientError) -> (connection: VarlinkConnection, path: String) {
        var failures: [DockClientError] = []
        for path in paths {
            do {
                return (try VarlinkConnection(path: path), path)
            } catch {
                failures.append(error)
            }
        }
        if failures.count == 1 { throw failures[0] }
        throw .cannotConnectToAny(failures)
    }
}
