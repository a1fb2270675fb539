/// How much a log line matters: syslog's priorities, numbered as syslog (and journald's `<N>`
/// prefixes) number them. The one definition of the levels: the daemon's logger writes them, the
/// host's policy asks for them, and `log-level` in dockd.conf names them.
public enum LogLevel: Int, CaseIterable, Comparable, Hashable, Sendable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7

    /// More important is greater: `.error > .debug` (syslog's numbers run the other way).
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue > rhs.rawValue }

    /// The level's name, as a log line and `log-level` spell it.
    public var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }

    /// The level of this name, or nil when no level has it.
    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }
}
