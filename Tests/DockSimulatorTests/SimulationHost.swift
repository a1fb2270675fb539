import DockProtocol
import DockSimulator
import Foundation

/// The least a host must do to keep a dock: open a session, keep it alive with heartbeats, and
/// open it again after a reset or a re-plug. Drives a `Simulation` in virtual time.
struct SimulationHost {
    var simulation: Simulation
    var decoder = FrameDecoder()
    var sequence: UInt16 = 0
    var isInSession = false
    var lastSent = Duration.seconds(-1)
    var output = SimulationOutput()
    var framesFromDock: [Frame] = []
    var badRunsFromDock = 0

    init(scenario: Scenario) { simulation = Simulation(scenario: scenario) }

    /// Runs the whole scenario in steps of `step`.
    mutating func run(step: Duration = .milliseconds(10)) {
        var time = Duration.zero
        while time < simulation.scenario.duration {
            time += step
            take(simulation.advance(to: time))
            let interval: Duration = isInSession ? .milliseconds(100) : .milliseconds(200)
            if time - lastSent >= interval {
                send(isInSession ? .heartbeat : .hello(Hello(minimumVersion: 1, maximumVersion: 1)), at: time)
            }
        }
    }

    mutating func send(_ message: Message, at time: Duration) {
        var bytes: [UInt8] = []
        try! FrameEncoder.encode(Frame(sequence: sequence, message: message), into: &bytes)
        sequence &+= 1
        lastSent = time
        take(simulation.receiveFromHost(bytes, at: time))
    }

    private mutating func take(_ step: SimulationOutput) {
        if step.linkChanges.contains(.unplugged) {
            isInSession = false
            decoder = FrameDecoder()
        }
        for result in decoder.decode(step.bytesToHost) {
            switch result {
            case .success(let frame):
                framesFromDock.append(frame)
                switch frame.message {
                case .info: isInSession = true
                case .nack(let refusal) where refusal.reason == .notReady: isInSession = false
                default: break
                }
            case .failure:
                badRunsFromDock += 1
            }
        }
        output.append(step)
    }
}

/// The repository's `Scenarios` directory.
let scenarioDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios")

func loadScenario(_ name: String) throws -> Scenario {
    try Scenario.parse(String(contentsOf: scenarioDirectory.appendingPathComponent(name), encoding: .utf8))
}

func scenarioFileNames() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: scenarioDirectory.path).filter { $0.hasSuffix(".json") }.sorted()
}
