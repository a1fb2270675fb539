import Foundation
import Testing

/// The wire is spelled in DockAPI only: no client (dockctl, DockClient, docksim's camera app,
/// dockbench) has a string literal that is a field of `Protocol/io.dockd.Dock.varlink`; they build
/// calls with `DockCall` and read replies as `Dock` values.
@Suite struct WireKeyTests {
    /// The fields of the interface's types, methods and errors.
    static func wireKeys() throws -> Set<String> {
        let text = try Repository.text("Protocol/io.dockd.Dock.varlink")
        let uncommented = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(
            separator: "\n")
        let field = try Regex(#"([a-z][a-z_]*)\s*:"#)
        return Set(uncommented.matches(of: field).compactMap { $0.output[1].substring.map(String.init) })
    }

    /// The clients' sources.
    static func clientSources() throws -> [String] {
        var paths = ["Sources/Programs/DocksimProgram/CameraApp.swift"]
        for directory in ["Sources/Programs/DockctlProgram", "Sources/Clients/DockClient", "Sources/Programs/dockbench"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent(directory).path)
            paths += names.filter { $0.hasSuffix(".swift") }.sorted().map { "\(directory)/\($0)" }
        }
        return paths
    }

    /// Literals that are a field's name but mean something else where they are, and why.
    static let otherMeanings: [String: Set<String>] = [
        // dockctl's own command words and a usage message.
        "Sources/Programs/DockctlProgram/Command.swift": [
            "status", "limits", "framing", "zoom", "animation", "x", "seconds", "preset", "lost", "shot",
        ],
        // The same command words, declared in dockctl's command table.
        "Sources/Programs/DockctlProgram/CommandTable.swift": ["status", "limits", "framing", "zoom", "preset", "lost", "shot"],
        // A word printed for people.
        "Sources/Programs/DockctlProgram/Presentation.swift": ["docked"],
        // A row label of the tracking-quality table.
        "Sources/Programs/dockbench/TrackingQuality.swift": ["tracker"],
    ]

    @Test func noClientSpellsAFieldOfTheWire() throws {
        let keys = try Self.wireKeys()
        #expect(
            keys.isSuperset(of: ["pose", "yaw", "saliency_rank", "capture_time", "region_of_interest", "by_client"]),
            "the interface's fields are read: \(keys.sorted())")
        let literal = try Regex(#""([a-z_]+)""#)
        var found: [String] = []
        for path in try Self.clientSources() {
            let allowed = Self.otherMeanings[path] ?? []
            for (number, line) in try Repository.text(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for match in line.matches(of: literal) {
                    guard let word = match.output[1].substring.map(String.init), keys.contains(word), !allowed.contains(word) else {
                        continue
                    }
                    found.append("\(path):\(number + 1): \"\(word)\"")
                }
            }
        }
        #expect(found.isEmpty, "wire keys outside Sources/Core/DockAPI: \(found.joined(separator: ", "))")
    }
}
