import Glibc

/// A failed system call: which call, on what, and the errno it set.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed.
    public var call: String
    /// What it was working on (a path, a descriptor), for the message.
    public var subject: String
    /// The errno value.
    public var code: Int32

    /// Creates an error with an explicit errno value.
    public init(_ call: String, _ subject: String = "", code: Int32) {
        self.call = call
        self.subject = subject
        self.code = code
    }

    /// Creates an error from the current `errno`.
    public init(_ call: String, _ subject: String = "") {
        self.init(call, subject, code: errno)
    }

    public var description: String {
        let reason = String(cString: strerror(code))
        return subject.isEmpty ? "\(call): \(reason)" : "\(call) \(subject): \(reason)"
    }
}

/// Runs a system call again while it fails with `EINTR`.
@discardableResult
public func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
