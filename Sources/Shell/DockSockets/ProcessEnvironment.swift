import Glibc

/// The process's environment (`environ(7)`).
public enum ProcessEnvironment {
    /// Every `NAME=value` of the environment as a dictionary; where a name repeats, the first
    /// wins, as `getenv(3)` reads it.
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }
}
