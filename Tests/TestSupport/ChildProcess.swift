public import Foundation
import Glibc

/// One of the package's own executables, run as a child process by a test, with its standard
/// streams on pipes.
public final class ChildProcess {
    /// The running process.
    public let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let error = Pipe()
    private var pendingError = Data()

    /// The built executable `name`, beside the test bundle.
    public static func executable(_ name: String) throws -> URL {
        let directory = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [Bundle.main.bundleURL, directory].map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates[1].path])
        }
        return found
    }

    /// Starts executable `name` with `arguments`, and `environment` added to the test's own.
    public convenience init(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        try self.init(
            program: try Self.executable(name), arguments,
            exactEnvironment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// Starts any program with `arguments` and exactly `exactEnvironment` (nothing of the test's own).
    public init(program: URL, _ arguments: [String], exactEnvironment: [String: String]) throws {
        _ = brokenPipesIgnored
        process.executableURL = program
        process.arguments = arguments
        process.environment = exactEnvironment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
    }

    /// Writes to the child's standard input and closes it.
    public func finishInput(_ text: String) throws {
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
    }

    /// Every line read from standard error so far, for failure messages.
    public private(set) var errorLines: [String] = []

    /// Reads standard error until a line containing `text` arrives; returns that line, or nil
    /// when the stream ends or `timeoutSeconds` pass first (so a test fails rather than hangs).
    public func waitForErrorLine(containing text: String, timeoutSeconds: Double = 60) -> String? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while let line = Self.nextLine(error.fileHandleForReading.fileDescriptor, &pendingError, deadline) {
            errorLines.append(line)
            if line.contains(text) { return line }
        }
        return nil
    }

    /// Reads standard output until a whole line arrives; nil at its end or after `timeoutSeconds`.
    public func waitForOutputLine(timeoutSeconds: Double = 60) -> String? {
        Self.nextLine(output.fileHandleForReading.fileDescriptor, &pendingOutput, Date().addingTimeInterval(timeoutSeconds))
    }

    private var pendingOutput = Data()

    /// The next line from `descriptor` (bytes already read wait in `pending`), or nil at the end of
    /// the stream or the deadline.
    private static func nextLine(_ descriptor: Int32, _ pending: inout Data, _ deadline: Date) -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { return nil }
            pending.append(contentsOf: buffer[..<count])
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Sends a signal.
    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the child to exit; returns its status, standard output and the rest of its
    /// standard error.
    public func finish() throws -> (status: Int32, output: String, error: String) {
        try? input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let rest = pendingError + error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: rest, as: UTF8.self))
    }

    /// Runs `name` to completion with `input` on its standard input.
    public static func run(_ name: String, _ arguments: [String], input: String = "") throws
        -> (status: Int32, output: String, error: String)
    {
        let child = try ChildProcess(name, arguments)
        try child.finishInput(input)
        return try child.finish()
    }
}
