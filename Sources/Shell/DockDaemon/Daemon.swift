import DockLinks
import DockLogLevel
import DockSimulator
public import DockSystem
import DockVersion
import Glibc

/// The running service: one event loop (``EpollLoop``, on the calling thread) owning every
/// descriptor — the control socket and its clients, the link to the dock, udev, the signals —
/// and every timer: the session's tick and deadlines, the watchers' status, the watchdog.
/// systemd hears READY, STATUS, WATCHDOG (from the loop's progress) and STOPPING.
public enum Daemon {
    /// Runs until SIGTERM or SIGINT; returns the exit status.
    ///
    /// - Parameters:
    ///   - arguments: dockd's arguments, which SIGHUP parses again with the file they name.
    ///   - signals: termination signals, blocked for normal delivery before any thread
    ///     was started.
    public static func run(
        configuration: Configuration, configurationPath: String?, arguments: [String],
        environment: [String: String], signals: TerminationSignals
    ) -> Int32 {
        let log = Logger(threshold: level(configuration.logLevel), environment: environment)
        let notifier = SystemdNotifier(environment: environment)
        let loop: EpollLoop
        do {
            loop = try EpollLoop()
        } catch {
            log.error("\(error)")
            return 1
        }
        // This thread runs the loop: its wake-ups (the tick, the heartbeat) should not wait for
        // another program's time slice to end (`LoopScheduling`).
        switch LoopScheduling.requestShortSlice() {
        case .granted(let slice): log.debug("event loop: scheduler time slice \(slice.components.attoseconds / 1_000_000_000_000) µs")
        case .unsupported: log.debug("event loop: the kernel keeps its own time slice (custom slices need Linux 6.12)")
        case .otherPolicy(let policy): log.debug("event loop: scheduling policy \(policy) left as it is")
        case .failed(let error): log.info("event loop: the kernel's time slice kept (\(error))")
        }

        let transport: any DockTransport
        if configuration.simulator {
            var scenario = Scenario.defaultScene
            if !configuration.scenario.isEmpty {
                guard let data = try? FileContents.read(atPath: configuration.scenario) else {
                    log.error("cannot read scenario '\(configuration.scenario)'")
                    return 1
                }
                do {
                    scenario = try Scenario.parse(String(decoding: data, as: UTF8.self))
                } catch {
                    log.error("\(configuration.scenario): \(error)")
                    return 78
                }
            }
            transport = SimulatorTransport(scenario: scenario, start: loop.now)
        } else {
            switch configuration.accessoryProtocol {
            case .digital:
                transport = NoWireTransport()
            case .uvc:
                transport = configuration.device.isEmpty ? DiscoveredVideoTransport() : V4L2Transport(path: configuration.device)
            case .visca, .dockSerial, .pelcoD:
                if let camera = ViscaAddress(configuration.visca) {
                    transport = NetworkTransport(kind: camera.kind, address: camera.address)
                } else if !configuration.device.isEmpty {
                    transport = DevicePortTransport(path: configuration.device, baudRate: configuration.baud)
                } else {
                    transport = DiscoveredPortTransport(
                        vendorID: configuration.vendorID, productID: configuration.productID,
                        serialNumber: configuration.serialNumber, baudRate: configuration.baud)
                }
            }
        }

        // The control API's socket before anything runs: one that cannot be served ends dockd.
        let controlSocket: ControlSocket
        do {
            controlSocket = try ControlSocket.open(path: configuration.socket, environment: environment)
        } catch {
            log.error("\(error)")
            return 1
        }

        let link: (any AccessoryLink)?
        do {
            link = try configuration.accessoryLink(identifier: transport.name)
        } catch {
            log.error("\(error)")
            return 78
        }
        let presetFile =
            configuration.stateDirectory.isEmpty
            ? nil : PresetFile(directory: configuration.stateDirectory, isSimulator: configuration.simulator)
        if presetFile == nil { log.notice("no state directory: presets last until dockd stops") }
        let runner = SessionRunner(
            transport: transport, loop: loop, settings: configuration.hostSettings, log: log, link: link, presetFile: presetFile)
        // The in-process simulator's camera feeds the tracker as a camera app would.
        if let simulator = transport as? SimulatorTransport, configuration.simulatorCamera {
            simulator.detections = { runner.cameraFrame($0) }
        }

        // The control API: the socket systemd passed, or our own (opened above).
        let server = controlSocket.listener.map {
            VarlinkServer(listener: $0, service: DockService(runner: runner), loop: loop, log: log)
        }
        log.notice(controlSocket.description)
        server?.start()
        let monitor = hotPlugMonitor(for: transport, configuration: configuration, runner: runner, loop: loop, log: log)
        runner.start()
        log.notice(
            "dockd started on \(transport.name)" + (configurationPath.map { " with \($0)" } ?? "")
                + "; version \(DockVersion.number)")
        notifier.notify("READY=1\nSTATUS=waiting for \(transport.name)")

        // STATUS and WATCHDOG: the loop must have made progress since the last look.
        let interval = min(notifier.watchdogInterval ?? .seconds(2), .seconds(2))
        var lastTicks = -1
        func keepAlive(at time: Duration) {
            loop.schedule(at: time) {
                if runner.tickCount > lastTicks {
                    notifier.notify("WATCHDOG=1\nSTATUS=\(runner.summary)")
                } else {
                    log.error("the control loop has stopped; not feeding the watchdog")
                }
                lastTicks = runner.tickCount
                keepAlive(at: time + interval)
            }
        }
        keepAlive(at: loop.now + interval)

        var loadedPath = configurationPath
        loop.watch(signals.descriptor, for: .readable) { _ in
            while let signal = signals.take() {
                switch signal {
                case SIGHUP:
                    notifier.notify("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.now().components.seconds * 1_000_000)")
                    if let reloaded = reload(arguments, loadedFrom: loadedPath, environment: environment, log: log) {
                        loadedPath = reloaded.path
                        runner.reconfigure(reloaded.configuration.hostSettings)
                        log.notice("configuration reloaded" + (reloaded.path.map { " from \($0)" } ?? ""))
                    }
                    notifier.notify("READY=1")
                default:
                    // Everything at once: the motors stopped, callers answered, every socket closed.
                    log.notice("signal \(signal): stopping")
                    notifier.notify("STOPPING=1")
                    runner.shutdown()
                    server?.stop()
                    controlSocket.removeSocketFile()
                    if let monitor {
                        loop.unwatch(monitor.descriptor)
                        monitor.close()
                    }
                    loop.unwatch(signals.descriptor)
                    loop.stop()
                    return
                }
            }
        }
        loop.run()
        log.notice("stopped")
        return 0
    }

    /// Follows udev for the transports that look a device up (a dock by its USB IDs, the first
    /// webcam with pan/tilt): one that appears is tried at once. Nil when there is nothing to
    /// follow, or udev cannot be followed (then each retry looks again).
    private static func hotPlugMonitor(
        for transport: any DockTransport, configuration: Configuration, runner: SessionRunner,
        loop: any EventLoop, log: Logger
    ) -> DeviceMonitor? {
        let isVideo = transport is DiscoveredVideoTransport
        guard isVideo || transport is DiscoveredPortTransport else { return nil }
        guard let monitor = DeviceMonitor(subsystem: isVideo ? "video4linux" : "tty") else {
            log.warning("cannot follow udev events; looking for the \(isVideo ? "webcam" : "dock") at each retry instead")
            return nil
        }
        loop.watch(monitor.descriptor, for: .readable) { _ in
            for change in monitor.receive() {
                guard case .added(let device) = change else { continue }
                guard
                    isVideo
                        || DeviceDiscovery.matches(
                            device, vendorID: configuration.vendorID, productID: configuration.productID,
                            serialNumber: configuration.serialNumber)
                else { continue }
                log.info("udev: \(device.path) appeared")
                runner.deviceAppeared()
            }
        }
        return monitor
    }

    private static func level(_ name: String) -> LogLevel {
        LogLevel(name: name) ?? .info  // Configuration accepts only the levels' names
    }

    /// What udev sees that the configured protocol can use (`DeviceList`), the matching one marked.
    public static func listDevices(_ configuration: Configuration) -> String {
        let usesVideo = configuration.accessoryProtocol == .uvc
        return DeviceList.text(
            configuration, serial: usesVideo ? [] : DeviceDiscovery.serialDevices(),
            video: usesVideo ? DeviceDiscovery.videoDevices() : [],
            controls: { V4L2Probe.controls(path: $0)?.summary })
    }
}
