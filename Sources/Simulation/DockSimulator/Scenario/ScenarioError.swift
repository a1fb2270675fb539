import DockJSON

/// Why a scenario file was refused: the field (as a path such as `subjects[1].path.waypoints[0].t_s`),
/// its line, and what is wrong with it.
public struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending field, or "" for the document itself.
    public var field: String
    /// The 1-based line of the offending value.
    public var line: Int
    /// What is wrong and what would be right.
    public var message: String

    /// Creates an error.
    public init(field: String, line: Int, message: String) {
        self.field = field
        self.line = line
        self.message = message
    }

    public var description: String {
        field.isEmpty ? "line \(line): \(message)" : "line \(line): \(field): \(message)"
    }
}

extension ScenarioError {
    /// The error a field of a scenario file's JSON names (the text's value itself for an empty
    /// path).
    init(_ error: JSONFieldError) {
        self.init(field: error.path, line: error.line ?? 1, message: error.reason)
    }
}
