// libFuzzer entry point for dockd's settings: the text of /etc/dockd/dockd.conf and the flags.
// Built by `scripts/fuzz configuration`, compiled in one module with
// Sources/Shell/DockDaemon/Configuration.swift (and FuzzTesting/ConfigurationStubs.swift).
//
// Invariants checked on every input (the input read as a file, and as flags one per line):
// - a file is accepted or refused with its path and a line number inside it, never a trap;
// - settings that are accepted, written back as a file (`key = value` for every key, then each
//   `[accessory NAME]` section with its lines) or as flags (`--key=value`, which carry no
//   sections), read back as the same settings;
// - a file with CRLF line ends reads as the same file with LF ones;
// - `validated()` refuses by name or returns settings, and never traps.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)

    var fromFile = Configuration()
    let fileOutcome: Result<Configuration, Configuration.Error>
    do {
        try fromFile.apply(fileText: text, path: "f")
        fileOutcome = .success(fromFile)
    } catch {
        fileOutcome = .failure(error)
    }
    switch fileOutcome {
    case .success(let configuration):
        checkRoundTrip(configuration, asFile: true)
    case .failure(let error):
        let lineCount = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
        guard error.location.hasPrefix("f:"), let line = Int(error.location.dropFirst(2)), (1...lineCount).contains(line) else {
            preconditionFailure("error at '\(error.location)' for a file of \(lineCount) lines")
        }
    }

    // CRLF ends read as LF ones (lone CRs aside, which are not line ends).
    let lfText = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        .map { line in String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self) }
        .joined(separator: "\n")
    if !lfText.unicodeScalars.contains("\r") {
        var lf = Configuration()
        let lfOutcome: Configuration?
        do {
            try lf.apply(fileText: lfText, path: "f")
            lfOutcome = lf
        } catch {
            lfOutcome = nil
        }
        precondition(lfOutcome == (try? fileOutcome.get()), "CRLF and LF ends read differently")
    }

    var fromFlags = Configuration()
    let flags = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let rest = try? fromFlags.apply(flags: flags) {
        precondition(rest.allSatisfy { flags.contains($0) }, "flags \(flags) left \(rest)")
        checkRoundTrip(fromFlags, asFile: false)
    }
    for configuration in [fromFile, fromFlags] {
        _ = try? configuration.validated()
    }
    return 0
}

/// Writes `configuration` as flags, and as a file when it came from one (a flag's value may hold
/// what a file line cannot: `#`, spaces at its ends), and reads them back.
private func checkRoundTrip(_ configuration: Configuration, asFile: Bool) {
    /// The sections without where they were read: a file written back puts them on other lines.
    func sections(_ configuration: Configuration) -> [String] {
        configuration.sections.map { section in
            ([section.name] + section.lines.map { "\($0.key)=\($0.value)" }).joined(separator: "\n")
        }
    }
    if asFile {
        let file =
            (Configuration.keys.map { "\($0.name) = \($0.show(configuration))" }
            + configuration.sections.flatMap { section in
                ["[accessory \(section.name)]"] + section.lines.map { "\($0.key) = \($0.value)" }
            }).joined(separator: "\n")
        var again = Configuration()
        do {
            try again.apply(fileText: file, path: "again")
        } catch {
            preconditionFailure("settings written as\n\(file)\ndo not read back: \(error)")
        }
        var unsectioned = configuration, againUnsectioned = again
        unsectioned.sections = []
        againUnsectioned.sections = []
        precondition(
            againUnsectioned == unsectioned && sections(again) == sections(configuration),
            "settings written as\n\(file)\nread back as \(again)")
    }
    var expected = configuration
    expected.sections = []  // flags carry none
    var fromFlags = Configuration()
    let flags = Configuration.keys.map { "--\($0.name)=\($0.show(configuration))" }
    do {
        let rest = try fromFlags.apply(flags: flags)
        precondition(rest.isEmpty, "flags \(flags) left \(rest)")
    } catch {
        preconditionFailure("settings written as flags \(flags) do not read back: \(error)")
    }
    precondition(fromFlags == expected, "settings written as flags \(flags) read back as \(fromFlags)")
}
