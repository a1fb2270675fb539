/// Where dockd's control API listens when no socket is named, and where clients look for it: the
/// system service's socket for root, a socket of the user's own for everyone else (a normal user
/// cannot bind in `/run/dockd`).
public enum ControlSocketPath {
    /// The system service's socket (`dockd.socket`, and `--socket` in `dockd.service`); root's default.
    public static let system = "/run/dockd/dockd.sock"

    /// The file name of the per-user socket.
    public static let fileName = "dockd.sock"

    /// A user's own socket: `$XDG_RUNTIME_DIR/dockd.sock`, or, when `XDG_RUNTIME_DIR` is unset
    /// or not an absolute path (the XDG specification says to ignore it then), `dockd.sock` in
    /// ``privateDirectory(userID:)``.
    public static func perUser(userID: UInt32, environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/" + fileName
        }
        return privateDirectory(userID: userID) + "/" + fileName
    }

    /// The directory of the per-user socket when `XDG_RUNTIME_DIR` is unset: `/tmp/dockd-UID`,
    /// which dockd creates with mode 0700 and uses only while it is the user's own and private.
    public static func privateDirectory(userID: UInt32) -> String {
        "/tmp/dockd-\(userID)"
    }

    /// The daemon's default socket: ``system`` for root (effective user ID 0), else ``perUser(userID:environment:)``.
    public static func daemonDefault(effectiveUserID: UInt32, environment: [String: String]) -> String {
        effectiveUserID == 0 ? system : perUser(userID: effectiveUserID, environment: environment)
    }

    /// Where a client looks, in order, when neither `--socket` nor `DOCKD_SOCKET` names a socket:
    /// for a normal user the per-user socket and then the system's; for root the system's only.
    public static func clientCandidates(effectiveUserID: UInt32, environment: [String: String]) -> [String] {
        effectiveUserID == 0 ? [system] : [perUser(userID: effectiveUserID, environment: environment), system]
    }
}
