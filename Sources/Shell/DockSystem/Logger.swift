public import DockLogLevel
import Glibc

/// The daemon's log: one line per message on standard error, with a `<N>` syslog priority prefix
/// when journald is reading (`JOURNAL_STREAM` is set), so `journalctl -p` can filter it.
public struct Logger: Sendable {
    /// Message priorities: the one `LogLevel` the host's policy uses too.
    public typealias Level = LogLevel

    /// The least important level written.
    public var threshold: Level
    /// Whether lines carry `<N>` prefixes for journald.
    public var usesJournalPrefixes: Bool
    /// The program a line names when journald is not reading (`dockd: info: ...`).
    public var program = "dockd"
    /// Where lines go; standard error unless a test captures them.
    private let sink: @Sendable (String) -> Void

    /// A logger to standard error; journald prefixes when `JOURNAL_STREAM` is set.
    public init(threshold: Level = .info, environment: [String: String], program: String = "dockd") {
        self.threshold = threshold
        self.program = program
        usesJournalPrefixes = environment["JOURNAL_STREAM"] != nil
        sink = { line in
            var bytes = Array(line.utf8)
            bytes.append(0x0A)
            _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        }
    }

    /// A logger that hands its lines to `sink` (for tests).
    public init(threshold: Level = .debug, usesJournalPrefixes: Bool, sink: @escaping @Sendable (String) -> Void) {
        self.threshold = threshold
        self.usesJournalPrefixes = usesJournalPrefixes
        self.sink = sink
    }

    /// Writes one message (newlines in it become spaces, so a line is always one message).
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= threshold else { return }
        let text = message().split(whereSeparator: \.isNewline).joined(separator: " ")
        sink(usesJournalPrefixes ? "<\(level.rawValue)>\(text)" : "\(program): \(level.name): \(text)")
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
