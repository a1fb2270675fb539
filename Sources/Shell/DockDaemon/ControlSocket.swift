import DockSockets
import DockSystem
import Glibc

extension Configuration {
    /// The defaults for a user: root's, with the socket a normal user can bind
    /// (``ControlSocketPath/daemonDefault(effectiveUserID:environment:)``) and the state
    /// directory systemd gives (`$STATE_DIRECTORY`, the first when it lists several) or, without
    /// it, a normal user's own (`$XDG_STATE_HOME/dockd`, else `~/.local/state/dockd`; empty
    /// with neither set).
    public init(effectiveUserID: UInt32, environment: [String: String]) {
        self.init()
        socket = ControlSocketPath.daemonDefault(effectiveUserID: effectiveUserID, environment: environment)
        if let given = environment["STATE_DIRECTORY"]?.split(separator: ":").first, given.hasPrefix("/") {
            stateDirectory = String(given)
        } else if effectiveUserID != 0 {
            // The XDG specification: a relative XDG_STATE_HOME is to be ignored.
            if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
                stateDirectory = state + "/dockd"
            } else if let home = environment["HOME"], home.hasPrefix("/") {
                stateDirectory = home + "/.local/state/dockd"
            } else {
                stateDirectory = ""
            }
        }
    }
}

/// The control API's listening socket: the one systemd passed, one dockd bound at the `socket`
/// setting, or none (`--socket ""`).
struct ControlSocket {
    /// Where the listening socket came from.
    enum Origin: Equatable {
        /// Socket activation (`LISTEN_FDS`).
        case passed
        /// dockd's own bind at this path, which it removes on exit.
        case bound(path: String)
        /// No API.
        case none
    }

    /// The listening socket, nil for no API.
    let listener: FileDescriptor?
    let origin: Origin

    /// Why the socket cannot be served: the path, the reason, and what to do.
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String {
            "cannot serve the control API on \(path): \(reason); use --socket PATH for another socket, "
                + "or --socket \"\" for no API"
        }
    }

    /// Takes the socket systemd passed (and hides the activation variables from child processes),
    /// else binds `path` (empty: no API).
    static func open(path: String, environment: [String: String]) throws(Failure) -> ControlSocket {
        if let passed = SocketActivation.listeningDescriptors(environment: environment, processID: getpid()).first {
            for name in SocketActivation.variables { unsetenv(name) }
            return ControlSocket(listener: passed.descriptor, origin: .passed)
        }
        guard !path.isEmpty else { return ControlSocket(listener: nil, origin: .none) }
        try prepareDirectory(of: path)
        if isServed(path) {
            throw Failure(path: path, reason: "another dockd is already serving it")
        }
        do {
            return ControlSocket(listener: try UnixSocket.listen(path: path), origin: .bound(path: path))
        } catch {
            throw Failure(path: path, reason: "\(error)")
        }
    }

    /// What the log says once the API is up.
    var description: String {
        switch origin {
        case .passed: "control API on the socket systemd passed"
        case .bound(let path): "control API on \(path)"
        case .none: "no control API (--socket \"\")"
        }
    }

    /// Removes the socket file dockd bound (not one systemd passed).
    func removeSocketFile() {
        if case .bound(let path) = origin { unlink(path) }
    }

    /// Creates the socket's directory when it is missing: mode 0700 for the per-user fallback in
    /// `/tmp` (which must then be this user's own and private), 0755 for any other.
    private static func prepareDirectory(of path: String) throws(Failure) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        let userID = geteuid()
        let isPrivate = directory == ControlSocketPath.privateDirectory(userID: userID)
        var status = stat()
        if lstat(directory, &status) != 0 {
            guard errno == ENOENT else { throw Failure(path: path, reason: "\(SystemError("stat", directory))") }
            if isPrivate {
                guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                    throw Failure(path: path, reason: "\(SystemError("mkdir", directory))")
                }
            } else {
                try createDirectories(directory, path: path)
            }
            guard lstat(directory, &status) == 0 else {
                throw Failure(path: path, reason: "\(SystemError("stat", directory))")
            }
        }
        // The fallback lives in a world-writable directory: anyone could have made it first.
        if isPrivate, status.st_mode & S_IFMT != S_IFDIR || status.st_uid != userID || status.st_mode & 0o077 != 0 {
            throw Failure(
                path: path,
                reason: "\(directory) is not a private directory of user \(userID) "
                    + "(owner \(status.st_uid), mode \(String(status.st_mode & 0o7777, radix: 8))); remove it")
        }
    }

    /// `mkdir -p` with mode 0755.
    private static func createDirectories(_ directory: String, path: String) throws(Failure) {
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += (prefix.isEmpty && !directory.hasPrefix("/") ? "" : "/") + component
            guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
                throw Failure(path: path, reason: "\(SystemError("mkdir", prefix))")
            }
        }
    }

    /// Whether a process accepts connections on the socket at `path`.
    private static func isServed(_ path: String) -> Bool {
        guard let connection = try? UnixSocket.connect(path: path) else { return false }
        connection.close()
        return true
    }
}
