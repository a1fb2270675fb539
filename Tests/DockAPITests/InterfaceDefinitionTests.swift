import Testing

@testable import DockAPI

/// The interface text dockd serves: each type, method and error defined once.
@Suite struct InterfaceDefinitionTests {
    @Test func everyNameIsDefinedOnce() {
        var seen: [String: Int] = [:]
        for line in DockInterface.definition.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count >= 2, ["type", "method", "error"].contains(String(words[0])) else { continue }
            let name = String(words[1].prefix { $0.isLetter || $0.isNumber })
            seen[name, default: 0] += 1
        }
        #expect(seen.count > 30, "types, methods and errors found: \(seen.count)")
        #expect(seen.filter { $0.value > 1 }.isEmpty, "defined more than once: \(seen.filter { $0.value > 1 }.keys.sorted())")
    }
}
