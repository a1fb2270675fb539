import CLinux
public import DockSockets
import Glibc

/// A pseudo-terminal pair that stands in for a serial cable: the simulator keeps the master side,
/// and a symbolic link names the slave side for the daemon to open like `/dev/ttyACM0`. Closing
/// the master is how an unplug looks to the daemon: its reads of the slave return end of file or
/// `EIO`.
public struct PseudoTerminal: Sendable {
    /// The master side, non-blocking.
    public let master: FileDescriptor
    /// The slave side's device path (`/dev/pts/N`).
    public let slavePath: String
    /// A descriptor of the slave held open by the owner, so that the master does not report a
    /// hang-up while the daemon has the port closed.
    private let heldSlave: FileDescriptor

    /// Opens a new pair with the slave in raw mode (`posix_openpt(3)`, `grantpt`, `unlockpt`,
    /// `ptsname`).
    public init() throws(SystemError) {
        let masterDescriptor = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard masterDescriptor >= 0 else { throw SystemError("posix_openpt") }
        let master = FileDescriptor(rawValue: masterDescriptor)
        guard grantpt(masterDescriptor) == 0, unlockpt(masterDescriptor) == 0 else {
            let error = SystemError("grantpt/unlockpt")
            master.close()
            throw error
        }
        var name = [CChar](repeating: 0, count: 128)
        guard ptsname_r(masterDescriptor, &name, name.count) == 0 else {
            let error = SystemError("ptsname_r")
            master.close()
            throw error
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slaveDescriptor = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slaveDescriptor >= 0 else {
            let error = SystemError("open", path)
            master.close()
            throw error
        }
        let slave = FileDescriptor(rawValue: slaveDescriptor)
        do {
            try slave.makeRaw()
            try master.setNonBlocking()
        } catch {
            slave.close()
            master.close()
            throw error
        }
        self.master = master
        self.slavePath = path
        self.heldSlave = slave
    }

    /// Closes both sides: the daemon's next read of the slave sees the hang-up.
    public func close() {
        heldSlave.close()
        master.close()
    }
}

/// A symbolic link that the simulator owns: it replaces only an earlier link (never a file or a
/// directory) and removes itself.
public struct OwnedSymbolicLink: Sendable {
    /// Where the link is.
    public let path: String

    /// Points `path` at `target`, replacing an existing symbolic link there (`symlink(2)`).
    public init(at path: String, to target: String) throws(SystemError) {
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFLNK else {
                throw SystemError("symlink", "\(path) (exists and is not a symbolic link)", code: EEXIST)
            }
            guard unlink(path) == 0 else { throw SystemError("unlink", path) }
        }
        guard symlink(target, path) == 0 else { throw SystemError("symlink", path) }
        self.path = path
    }

    /// Removes the link (`unlink(2)`).
    public func remove() {
        _ = unlink(path)
    }
}
