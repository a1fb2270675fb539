import DockSimulator
import DockSystem

/// Runs a simulation against the wall clock, with the dock's serial port on a pseudo-terminal.
struct RealTimeRun {
    var simulation: Simulation
    var report: RunReport
    let linkPath: String
    let log: (String) -> Void
    private var terminal: PseudoTerminal?
    private var link: OwnedSymbolicLink?

    init(simulation: Simulation, linkPath: String, log: @escaping (String) -> Void) throws(SystemError) {
        self.simulation = simulation
        self.linkPath = linkPath
        self.log = log
        report = RunReport(scenarioName: simulation.scenario.name, seed: simulation.scenario.seed,
                           toleranceFraction: simulation.scenario.criteria.framingToleranceFraction)
        try plugIn()
    }

    private mutating func plugIn() throws(SystemError) {
        let terminal = try PseudoTerminal()
        do {
            link = try OwnedSymbolicLink(at: linkPath, to: terminal.slavePath)
        } catch {
            terminal.close()
            throw error
        }
        self.terminal = terminal
        log("dock on \(linkPath) -> \(terminal.slavePath)")
    }

    private mutating func unplug() {
        terminal?.close()
        terminal = nil
        link?.remove()
        link = nil
        log("unplugged at \(seconds(simulation.now)) s")
    }

    /// Runs until the scenario ends or a termination signal arrives.
    ///
    /// - Returns: the signal that stopped the run, or nil when it ran to the end.
    mutating func run(signals: TerminationSignals) throws(SystemError) -> Int32? {
        let start = MonotonicClock.now()
        let primary = simulation.scenario.primarySubject?.identifier
        while !simulation.isFinished {
            var watched = [signals.descriptor]
            if let terminal { watched.append(terminal.master) }
            let ready = try Poll.waitForReading(watched, timeout: .milliseconds(1))
            if ready.contains(signals.descriptor), let signal = signals.take() {
                finish()
                return signal
            }
            let now = min(MonotonicClock.now() - start, simulation.scenario.duration)
            var output = SimulationOutput()
            if let terminal, ready.contains(terminal.master), case .bytes(let bytes) = try terminal.master.read() {
                output.append(simulation.receiveFromHost(bytes, at: now))
            }
            output.append(simulation.advance(to: now))
            try carryOut(output, primary: primary)
        }
        finish()
        return nil
    }

    private mutating func carryOut(_ output: SimulationOutput, primary: Int?) throws(SystemError) {
        for truth in output.truths { report.record(truth, primary: primary) }
        for change in output.linkChanges {
            switch change {
            case .unplugged:
                unplug()
            case .replugged:
                try plugIn()
                log("replugged at \(seconds(simulation.now)) s")
            }
        }
        if let terminal, !output.bytesToHost.isEmpty {
            try terminal.master.write(output.bytesToHost)
        }
    }

    private mutating func finish() {
        report.faults = simulation.faultLog
        report.dockGoodFrames = simulation.firmware.goodFrameCount
        report.dockBadFrames = simulation.firmware.badFrameCount
        terminal?.close()
        terminal = nil
        link?.remove()
        link = nil
    }
}

func seconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String((value * 1000).rounded() / 1000)
}
