public import DockSockets
public import Glibc

/// A program started with its standard output on a pipe this process reads, and its standard input
/// on `/dev/null` (`posix_spawnp(3)`): for the tools a program runs, such as ffmpeg (the standard
/// library has no process API, and Foundation's would link ICU into every program).
public final class OutputPipeProcess {
    /// The child's process ID.
    public let processID: pid_t
    /// The read end of the child's standard output (closed by `wait()`).
    public let output: Int32
    private var isWaited = false

    /// Starts `program`, looked up on `PATH`, with `arguments` (without the program's name).
    ///
    /// - Throws: `SystemError` naming the call and the program (`ENOENT`: not on the `PATH`).
    public init(_ program: String, _ arguments: [String]) throws(SystemError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SystemError("pipe", program) }
        // Close-on-exec, so no other child inherits them (the child gets its end as descriptor 1).
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, program, &actions, nil, argv, environ)
        Glibc.close(ends[1])
        guard status == 0 else {
            Glibc.close(ends[0])
            throw SystemError("posix_spawnp", program, code: status)
        }
        processID = child
        output = ends[0]
    }

    /// Reads the child's standard output to its end.
    public func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in retryingOnInterrupt { Glibc.read(output, raw.baseAddress, raw.count) } }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Closes the pipe and waits for the child to end: its exit status, or 128 plus the signal
    /// that ended it.
    public func wait() -> Int32 {
        if !isWaited { Glibc.close(output) }
        isWaited = true
        var status: Int32 = 0
        while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    deinit {
        if !isWaited {
            Glibc.close(output)
            var status: Int32 = 0
            while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
        }
    }
}
