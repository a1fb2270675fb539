import Foundation
import Testing

/// Every public declaration of DockClient has a `///` comment. `scripts/docs` checks the same on
/// the compiler's symbol graph (and builds the HTML); this reads the sources, so that it runs with
/// the other tests in a second, without a build of its own.
@Suite struct ClientDocumentationTests {
    /// DockClient's Swift files.
    static func sources() throws -> [String] {
        let directory = Repository.root.appendingPathComponent("Sources/Clients/DockClient")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.sorted()
            .map { "Sources/Clients/DockClient/\($0)" }
    }

    /// The declarations in `text` that are public (`public` ones, and the cases of enums, which
    /// are as public as their enum) with no `///` comment above them (attributes may come between).
    static func undocumented(in text: String) throws -> [(line: Int, declaration: String)] {
        // A case of an enum, not of a switch: a name, perhaps with associated values, and no colon after.
        let enumCase = try Regex(#"^case [a-z][A-Za-z0-9]*(\(.*\))?$"#)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var found: [(Int, String)] = []
        for (index, line) in lines.enumerated() {
            let isPublic = line.hasPrefix("public ") && !line.hasPrefix("public import ")
            guard isPublic || line.wholeMatch(of: enumCase) != nil else { continue }
            var above = index - 1
            while above >= 0, lines[above].hasPrefix("@") { above -= 1 }
            if above < 0 || !lines[above].hasPrefix("///") { found.append((index + 1, line)) }
        }
        return found
    }

    @Test func everyPublicDeclarationOfDockClientIsDocumented() throws {
        var missing: [String] = []
        var count = 0
        for path in try Self.sources() {
            let text = try Repository.text(path)
            count += text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("public ") }.count
            missing += try Self.undocumented(in: text).map { "\(path):\($0.line): \($0.declaration)" }
        }
        #expect(count > 50, "DockClient's public declarations were read: \(count)")
        #expect(missing.isEmpty, "undocumented: \(missing.joined(separator: "; "))")
    }

    /// The check finds what it is for, and not the cases of a switch.
    @Test func theCheckFindsAnUndocumentedDeclaration() throws {
        let text = """
            /// Documented.
            public struct A {
                public var undocumented: Int
                /// Documented.
                @inlinable public func f() {}
            }
            /// Documented.
            public enum B {
                /// Documented.
                case one
                case two(pressed: Bool)
                func g() { switch self { case .one: break
                    case let .two(pressed): _ = pressed } }
            }
            """
        let found = try Self.undocumented(in: text)
        #expect(found.map(\.line) == [3, 11], "\(found)")
    }

    /// The example app is written against DockClient alone (and Foundation for its output):
    /// nothing of dockd's other modules, whose types the reference does not teach.
    @Test func theExampleAppImportsDockClientOnly() throws {
        let text = try Repository.text("examples/FollowMe/FollowMe.swift")
        let imports = Set(text.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst("import ".count)) })
        #expect(imports == ["DockClient", "Foundation"], "\(imports.sorted())")
    }

    /// The getting-started article walks through what the issue asked for, and the landing page
    /// links it.
    @Test func theCatalogHasTheGettingStartedArticle() throws {
        let article = try Repository.text("Sources/Clients/DockClient/DockClient.docc/GettingStarted.md")
        for heading in ["### Connect", "### Watch", "### Move", "### Track your own detector's boxes"] {
            #expect(article.contains("\n\(heading)\n"), "\(heading)")
        }
        let landing = try Repository.text("Sources/Clients/DockClient/DockClient.docc/DockClient.md")
        #expect(landing.hasPrefix("# ``DockClient``") && landing.contains("<doc:GettingStarted>") && landing.contains("<doc:Coordinates>"))
    }
}
