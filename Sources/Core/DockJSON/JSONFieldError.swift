/// A field of a JSON object that is missing, unknown, of the wrong type, out of range or otherwise
/// wrong: its path (`subjects[1].path.waypoints[0].t_s`, "" for the text's value itself), its
/// line where the text's places are known, and what is wrong. `reason` says it as dockd's files'
/// readers do; the API words the same problems as its wire always has (`DockAPI`).
public struct JSONFieldError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with a field.
    public enum Problem: Hashable, Sendable {
        /// A required member is absent.
        case missing
        /// A member nobody reads (a misspelt key is an error, not a default).
        case unknown
        /// The value is of another type: what was expected (`a number`, `true or false`) and
        /// what came (`a string`).
        case wrongType(expected: String, found: String)
        /// A number that is NaN or infinite, as it was written (`NaN`, `1e999`).
        case notFinite(written: String)
        /// A number that is not whole, as it was written (`1.5`, `Infinity`).
        case notWhole(written: String)
        /// A name not among the choices: the choices, and what came.
        case notOneOf([String], found: Found)
        /// A whole number outside the range it must be in: the bounds, and what came.
        case outOfRange(lower: String, upper: String, found: String)
        /// Anything else, in the reader's own words (a range, a length, a rule of the format).
        case invalid(String)
    }

    /// What came where a name from a list was expected.
    public enum Found: Hashable, Sendable {
        /// A string, but no name of the list.
        case name(String)
        /// Not a string: its type (`a number`).
        case type(String)
    }

    /// Where the field is, from the text's value (`pose.yaw`, `observations[2].box`).
    public var path: String
    /// The 1-based line of the offending value (or of its object, for a missing member); nil for
    /// a value read without its text's places (the API's one-line messages).
    public var line: Int?
    /// What is wrong.
    public var problem: Problem

    /// Creates an error.
    public init(path: String, line: Int?, problem: Problem) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    /// What is wrong, as dockd's files' readers say it.
    public var reason: String {
        switch problem {
        case .missing: "is required"
        case .unknown: "is not a known field"
        case .wrongType(let expected, let found): "must be \(expected), got \(found)"
        case .notFinite(let written): "must be a finite number, got \(written)"
        case .notWhole(let written): "must be a whole number, got \(written)"
        case .notOneOf(let names, .type(let found)):
            "must be one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), got \(found)"
        case .notOneOf(let names, .name(let found)):
            "unknown value \"\(found)\"; expected one of \(names.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .outOfRange(let lower, let upper, let found): "must be from \(lower) to \(upper), got \(found)"
        case .invalid(let reason): reason
        }
    }

    /// `line N: path: reason` (the line and the path where known).
    public var description: String {
        (line.map { "line \($0): " } ?? "") + (path.isEmpty ? "" : "\(path): ") + reason
    }
}
