/// A command line the declarations refuse; the message names the option or word at fault.
public struct OptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, naming the option: `--yaw needs a finite number, got 'nan'`.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
