import DockSimulator
import Foundation

/// The repository's `Scenarios` directory.
let scenarioDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios")

/// An example scenario by name (without `.json`).
func loadScenario(_ name: String) throws -> Scenario {
    try Scenario.parse(String(contentsOf: scenarioDirectory.appendingPathComponent(name + ".json"), encoding: .utf8))
}
