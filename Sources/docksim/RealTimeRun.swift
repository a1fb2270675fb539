import DockProtocol
import DockSimulator
import DockSystem

/// Runs a simulation against the wall clock, with the dock's serial port on a pseudo-terminal.
struct RealTimeRun {
    var simulation: Simulation
    var report: RunReport
    let linkPath: String
    let log: (String) -> Void
    /// Where frame traces go, when tracing.
    var trace: ((String) -> Void)?
    /// The camera app playing over dockd's API, when there is one: it gets every detection batch
    /// and says what dockd's primary subject is.
    var cameraApp: CameraApp?
    /// Simulation time zero on the host's monotonic clock, once the run has started.
    private var origin = Duration.zero
    private var terminal: PseudoTerminal?
    private var hostFrames = FrameDecoder()
    private var wasStill = true
    private var dockFrames = FrameDecoder()
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
        origin = start
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
                output.append(simulation.advance(to: now))
                traceHost(bytes)
                output.append(simulation.receiveFromHost(bytes, at: now))
            }
            output.append(simulation.advance(to: now))
            try carryOut(output, primary: primary)
        }
        finish()
        return nil
    }

    private mutating func traceHost(_ bytes: [UInt8]) {
        guard let trace else { return }
        let pose = "yaw \(rounded(simulation.firmware.yaw.motorRadians)) pitch \(rounded(simulation.firmware.pitch.motorRadians))"
        for result in hostFrames.decode(bytes) {
            switch result {
            case .success(let frame): trace("t=\(seconds(simulation.now)) <- \(frame) (\(pose))")
            case .failure(let error): trace("t=\(seconds(simulation.now)) <- error \(error.name)")
            }
        }
    }

    private mutating func traceDock(_ bytes: [UInt8]) {
        guard let trace else { return }
        for case .success(let frame) in dockFrames.decode(bytes) {
            if case .telemetry = frame.message { continue }
            trace("t=\(seconds(simulation.now)) -> \(frame)")
        }
    }

    private mutating func carryOut(_ output: SimulationOutput, primary: Int?) throws(SystemError) {
        traceDock(output.bytesToHost)
        if let trace, simulation.firmware.isStill != wasStill {
            wasStill.toggle()
            trace("t=\(seconds(simulation.now)) motors \(wasStill ? "still" : "moving")")
        }
        if let cameraApp {
            for batch in output.batches { cameraApp.deliver(batch, hostCaptureTime: origin + batch.captureTime) }
        }
        let tracker = cameraApp?.trackerPrimary ?? .unknown
        let trackerBox = cameraApp?.trackerPrimaryBox
        for truth in output.truths { report.record(truth, primary: primary, tracker: tracker, trackerBox: trackerBox) }
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
        report.cameraApp = cameraApp?.stop()
        terminal?.close()
        terminal = nil
        link?.remove()
        link = nil
    }
}

func rounded(_ value: Double) -> String {
    String((value * 10_000).rounded() / 10_000)
}

func seconds(_ duration: Duration) -> String {
    String((duration.secondsValue * 1000).rounded() / 1000)
}
