public import DockHost
public import DockSystem

extension Logger.Level {
    /// The logger's level for a line of the host's policy.
    public init(_ level: HostLogLevel) {
        switch level {
        case .error: self = .error
        case .warning: self = .warning
        case .notice: self = .notice
        case .info: self = .info
        case .debug: self = .debug
        }
    }
}
