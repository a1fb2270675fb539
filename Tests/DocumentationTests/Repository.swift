import Foundation
import TestSupport

/// The source tree and the tools the documentation tests run.
enum Repository {
    /// The repository's root directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The text of a file of the repository, by its path from the root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Runs a program found on the PATH (a shell, scdoc) to completion.
    static func run(_ program: String, _ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// What one of the package's programs prints for `arguments` (its help, say), checked to exit 0.
    static func output(of program: String, _ arguments: [String]) throws -> String {
        let run = try ChildProcess.run(program, arguments)
        guard run.status == 0 else {
            throw CocoaError(
                .executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(program) \(arguments): exit \(run.status): \(run.error)"])
        }
        return run.output
    }
}

/// Options written `--name` in a text: lower-case words only, so `--SETTING` or `--KEY` placeholders
/// are not options.
func options(in text: some StringProtocol) -> Set<String> {
    var found: Set<String> = []
    var rest = Substring(text)
    while let range = rest.range(of: "--") {
        let before = rest[..<range.lowerBound].last
        rest = rest[range.upperBound...]
        guard before.map({ !$0.isLetter && !$0.isNumber && $0 != "-" }) ?? true else { continue }
        let name = rest.prefix { $0.isLowercase || $0.isNumber || $0 == "-" }
        guard let first = name.first, first.isLowercase, !name.hasSuffix("-") else { continue }
        if let next = rest.dropFirst(name.count).first, next.isUppercase { continue }
        found.insert("--" + name)
    }
    return found
}
