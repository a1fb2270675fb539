import DockNumbers
import DockProtocol
import DockSimulator
import DockSockets
import DockSystem
import Glibc

/// Runs a simulation against the wall clock, with the dock's serial port on a pseudo-terminal
/// (or a VISCA camera's on a pseudo-terminal, a UDP socket or a TCP listener, a Pelco-D head's on
/// a pseudo-terminal, or a UVC webcam on a Unix socket that the preload library shows as a V4L2
/// device).
struct RealTimeRun {
    var simulation: Simulation
    var report: RunReport
    let endpoint: Options.Endpoint
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
    /// The UDP socket or TCP listener of a network camera (kept while unplugged).
    private var server: NetworkServer?
    /// Whom a UDP camera answers: who wrote last.
    private var peer: [UInt8]?
    /// A TCP camera's connection.
    private var connection: FileDescriptor?
    private var isPluggedIn = true
    /// A UVC webcam's device.
    private var webcam: WebcamEndpoint?

    init(
        simulation: Simulation, endpoint: Options.Endpoint, video: FrameMaker? = nil, log: @escaping (String) -> Void
    ) throws(SystemError) {
        self.simulation = simulation
        self.endpoint = endpoint
        self.log = log
        report = RunReport(
            scenarioName: simulation.scenario.name, seed: simulation.scenario.seed,
            toleranceFraction: simulation.scenario.criteria.framingToleranceFraction)
        switch endpoint {
        case .pty: break
        case .udp(let address):
            server = try NetworkServer(.datagram, at: address)
            log("VISCA camera on udp:\(address)")
        case .tcp(let address):
            server = try NetworkServer(.stream, at: address)
            log("VISCA camera on tcp:\(address)")
        case .v4l2(let path):
            let maker: FrameMaker
            if let video {
                maker = video
            } else {
                maker = try FrameMaker(footage: .testPattern, frameLogPath: nil, corruptEvery: nil)
            }
            webcam = try WebcamEndpoint(path: path, maker: maker, log: log)
        }
        try plugIn()
    }

    private mutating func plugIn() throws(SystemError) {
        isPluggedIn = true
        try webcam?.plugIn()
        guard case .pty(let linkPath) = endpoint else { return }
        let terminal = try PseudoTerminal()
        do {
            link = try OwnedSymbolicLink(at: linkPath, to: terminal.slavePath)
        } catch {
            terminal.close()
            throw error
        }
        self.terminal = terminal
        log(accessoryName + " on \(linkPath) -> \(terminal.slavePath)")
    }

    /// What sits on the pseudo-terminal.
    private var accessoryName: String {
        simulation.visca != nil ? "VISCA camera" : simulation.pelcoD != nil ? "Pelco-D head" : "dock"
    }

    /// Whether the bytes are shown as hex (a VISCA camera's or a Pelco-D head's), not as frames.
    private var tracesHex: Bool { simulation.visca != nil || simulation.pelcoD != nil }

    private mutating func unplug() {
        isPluggedIn = false
        terminal?.close()
        terminal = nil
        link?.remove()
        link = nil
        connection?.close()  // a TCP camera's connection drops with its power
        connection = nil
        webcam?.unplug()
        log("unplugged at \(seconds(simulation.now)) s")
    }

    /// Runs until the scenario ends or a termination signal arrives.
    ///
    /// - Returns: the signal that stopped the run, or nil when it ran to the end.
    mutating func run(signals: TerminationSignals) throws(SystemError) -> Int32? {
        let start = MonotonicClock.now()
        origin = start
        simulation.setVideoClockOrigin(start)
        let primary = simulation.scenario.primarySubject?.identifier
        while !simulation.isFinished {
            var watched = [signals.descriptor]
            if let terminal { watched.append(terminal.master) }
            if let server { watched.append(server.descriptor) }
            if let connection { watched.append(connection) }
            if let webcam { watched += webcam.descriptors }
            let ready = try Poll.waitForReading(watched, timeout: .milliseconds(1))
            if ready.contains(signals.descriptor), let signal = signals.take() {
                finish()
                return signal
            }
            let now = min(MonotonicClock.now() - start, simulation.scenario.duration)
            var output = SimulationOutput()
            // The webcam's frame due by now first, drawn as the world was at its capture time (its
            // timestamp): the pose then, not when this loop came round to it.
            if let webcam, let due = simulation.uvc?.video.nextFrameDue, due <= now, let period = simulation.uvc?.video.frameInterval {
                let frameTime = due + period * Int((now - due) / period)
                output.append(simulation.advance(to: frameTime))
                webcam.makeFrames(&simulation, now: frameTime)
            }
            for chunk in try received(ready) {
                output.append(simulation.advance(to: now))
                traceHost(chunk)
                output.append(simulation.receiveFromHost(chunk, at: now))
            }
            if let webcam { output.append(webcam.serve(ready, simulation: &simulation, now: now)) }
            output.append(simulation.advance(to: now))
            webcam?.flush(now: now)
            webcam?.makeFrames(&simulation, now: now)
            try carryOut(output, primary: primary)
        }
        finish()
        return nil
    }

    /// What the host sent since the last look: a pty's or TCP connection's bytes, or each UDP
    /// datagram on its own (a datagram is one VISCA message).
    private mutating func received(_ ready: [FileDescriptor]) throws(SystemError) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        if let terminal, ready.contains(terminal.master), case .bytes(let bytes) = try terminal.master.read() {
            chunks.append(bytes)
        }
        if let server, ready.contains(server.descriptor) {
            switch server.kind {
            case .datagram:
                while let (bytes, sender) = server.receive() {
                    peer = sender
                    chunks.append(bytes)
                }
            case .stream:
                if let accepted = server.accept() {
                    if isPluggedIn, connection == nil {
                        connection = accepted
                        log("host connected over TCP")
                    } else {
                        accepted.close()  // one host at a time, and none while unplugged
                    }
                }
            }
        }
        if let connection, ready.contains(connection) {
            switch try? connection.read() {
            case .bytes(let bytes)?: chunks.append(bytes)
            case .wouldBlock?: break
            case .hangUp?, nil:
                connection.close()
                self.connection = nil
                log("host closed its TCP connection")
            }
        }
        // While unplugged a network camera hears nothing.
        return isPluggedIn ? chunks : []
    }

    private mutating func traceHost(_ bytes: [UInt8]) {
        guard let trace else { return }
        guard !tracesHex else {
            trace("t=\(seconds(simulation.now)) <- \(hexText(bytes))")
            return
        }
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
        guard !tracesHex else {
            if !bytes.isEmpty { trace("t=\(seconds(simulation.now)) -> \(hexText(bytes))") }
            return
        }
        for case .success(let frame) in dockFrames.decode(bytes) {
            if case .telemetry = frame.message { continue }
            trace("t=\(seconds(simulation.now)) -> \(frame)")
        }
    }

    private mutating func carryOut(_ output: SimulationOutput, primary: Int?) throws(SystemError) {
        traceDock(output.bytesToHost)
        if let trace, simulation.isStill != wasStill {
            wasStill.toggle()
            trace("t=\(seconds(simulation.now)) motors \(wasStill ? "still" : "moving")")
        }
        if let cameraApp, cameraApp.sendsBoxes {
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
        if let connection, !output.bytesToHost.isEmpty {
            _ = try? connection.write(output.bytesToHost)
        }
        if let server, server.kind == .datagram, let peer {
            for datagram in output.chunksToHost { server.send(datagram, to: peer) }
        }
    }

    private mutating func finish() {
        report.faults = simulation.faultLog
        report.dockGoodFrames =
            simulation.visca?.packetsReceived ?? simulation.uvc?.requestsAnswered ?? simulation.pelcoD?.framesReceived
            ?? simulation.firmware.goodFrameCount
        report.dockBadFrames =
            simulation.visca?.framingErrors ?? simulation.pelcoD.map { $0.checksumErrors + $0.strayRuns }
            ?? simulation.firmware.badFrameCount
        report.cameraApp = cameraApp?.stop()
        terminal?.close()
        terminal = nil
        link?.remove()
        link = nil
        connection?.close()
        connection = nil
        server?.close()
        server = nil
        webcam?.close()
        webcam = nil
    }
}

func hexText(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
}

func rounded(_ value: Double) -> String {
    String((value * 10_000).rounded() / 10_000)
}

func seconds(_ duration: Duration) -> String {
    String((duration.secondsValue * 1000).rounded() / 1000)
}
