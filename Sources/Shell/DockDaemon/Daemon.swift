import DockLinks
import DockLogLevel
import DockSimulator
public import DockSystem
import DockVersion
import Glibc

/// The running service: one event loop (``EpollLoop``, on the calling thread) owning every
/// descriptor — the control socket and its clients, each accessory's link, udev, the signals —
/// and every timer: each accessory's session tick and deadlines, the watchers' status, the
/// watchdog.
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

        // Each accessory's transport before anything runs: a scenario that cannot be read ends dockd.
        let named: [NamedAccessorySettings]
        do {
            named = try configuration.accessorySettings()
        } catch {
            log.error("\(error)")
            return 78
        }
        var transports: [any DockTransport] = []
        for entry in named {
            switch transport(for: entry.configuration, loop: loop) {
            case .success(let transport): transports.append(transport)
            case .failure(let failure):
                log.error(failure.message)
                return failure.status
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

        var accessories: [DaemonAccessory] = []
        for (entry, transport) in zip(named, transports) {
            switch accessory(entry, transport: transport, namesPresets: !configuration.sections.isEmpty, loop: loop, log: log) {
            case .success(let accessory): accessories.append(accessory)
            case .failure(let failure):
                log.error(failure.message)
                return failure.status
            }
        }

        // The control API: the socket systemd passed, or our own (opened above).
        let service = DockService(accessories: accessories)
        let server = controlSocket.listener.map { VarlinkServer(listener: $0, service: service, loop: loop, log: log) }
        log.notice(controlSocket.description)
        server?.start()
        for accessory in accessories {
            accessory.monitor = hotPlugMonitor(for: accessory, loop: loop, log: log)
            accessory.runner.start()
        }
        let names = accessories.map(\.runner.transport.name).joined(separator: ", ")
        log.notice(
            "dockd started on \(names)" + (configurationPath.map { " with \($0)" } ?? "")
                + "; version \(DockVersion.number)")
        notifier.notify("READY=1\nSTATUS=waiting for \(names)")

        // STATUS and WATCHDOG: the loop must have made progress since the last look (some
        // accessory's tick count grew; SIGHUP may have removed others).
        let interval = min(notifier.watchdogInterval ?? .seconds(2), .seconds(2))
        var lastTicks: [ObjectIdentifier: Int] = [:]
        func keepAlive(at time: Duration) {
            loop.schedule(at: time) {
                let ticks = Dictionary(uniqueKeysWithValues: service.accessories.map { (ObjectIdentifier($0), $0.runner.tickCount) })
                if ticks.contains(where: { $0.value > lastTicks[$0.key] ?? -1 }) {
                    notifier.notify("WATCHDOG=1\nSTATUS=\(summary(of: service.accessories))")
                } else {
                    log.error("the control loop has stopped; not feeding the watchdog")
                }
                lastTicks = ticks
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
                        reconfigure(service, server: server, with: reloaded.configuration, loop: loop, log: log)
                        log.notice("configuration reloaded" + (reloaded.path.map { " from \($0)" } ?? ""))
                    }
                    notifier.notify("READY=1")
                default:
                    // Everything at once: the motors stopped, callers answered, every socket closed.
                    log.notice("signal \(signal): stopping")
                    notifier.notify("STOPPING=1")
                    for accessory in service.accessories { stop(accessory, loop: loop) }
                    server?.stop()
                    controlSocket.removeSocketFile()
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

    /// Why an accessory cannot be set up: the line for the log and dockd's exit status.
    struct StartFailure: Error {
        let message: String
        let status: Int32
    }

    /// The transport the settings describe: the in-process simulator (with its scenario), a
    /// network VISCA camera, a fixed device, or one found by its USB IDs or its pan/tilt controls.
    static func transport(for configuration: Configuration, loop: any EventLoop) -> Result<any DockTransport, StartFailure> {
        if configuration.simulator {
            var scenario = Scenario.defaultScene
            if !configuration.scenario.isEmpty {
                guard let data = try? FileContents.read(atPath: configuration.scenario) else {
                    return .failure(StartFailure(message: "cannot read scenario '\(configuration.scenario)'", status: 1))
                }
                do {
                    scenario = try Scenario.parse(String(decoding: data, as: UTF8.self))
                } catch {
                    return .failure(StartFailure(message: "\(configuration.scenario): \(error)", status: 78))
                }
            }
            return .success(SimulatorTransport(scenario: scenario, start: loop.now))
        }
        switch configuration.accessoryProtocol {
        case .digital:
            return .success(NoWireTransport())
        case .uvc:
            return .success(configuration.device.isEmpty ? DiscoveredVideoTransport() : V4L2Transport(path: configuration.device))
        case .visca, .dockSerial, .pelcoD:
            if let camera = ViscaAddress(configuration.visca) {
                return .success(NetworkTransport(kind: camera.kind, address: camera.address))
            } else if !configuration.device.isEmpty {
                return .success(DevicePortTransport(path: configuration.device, baudRate: configuration.baud))
            } else {
                return .success(
                    DiscoveredPortTransport(
                        vendorID: configuration.vendorID, productID: configuration.productID,
                        serialNumber: configuration.serialNumber, baudRate: configuration.baud))
            }
        }
    }

    /// An accessory of the settings over `transport`: its link, its presets file (named after it
    /// when `namesPresets`: it has a section) and its runner, not started.
    static func accessory(
        _ entry: NamedAccessorySettings, transport: any DockTransport, namesPresets: Bool, loop: any EventLoop, log: Logger
    ) -> Result<DaemonAccessory, StartFailure> {
        let settings = entry.configuration
        let link: (any AccessoryLink)?
        do {
            link = try settings.accessoryLink(identifier: transport.name)
        } catch {
            return .failure(StartFailure(message: "\(error)", status: 78))
        }
        let presetFile =
            settings.stateDirectory.isEmpty
            ? nil
            : PresetFile(directory: settings.stateDirectory, isSimulator: settings.simulator, accessory: namesPresets ? entry.name : nil)
        if presetFile == nil { log.notice("no state directory: presets last until dockd stops") }
        let runner = SessionRunner(
            transport: transport, loop: loop, settings: settings.hostSettings, log: log, link: link, presetFile: presetFile)
        // The in-process simulator's camera feeds the tracker as a camera app would.
        if let simulator = transport as? SimulatorTransport, settings.simulatorCamera {
            simulator.detections = { runner.cameraFrame($0) }
        }
        return .success(DaemonAccessory(name: entry.name, configuration: settings, runner: runner))
    }

    /// Stops an accessory: its motors stopped, its callers answered, its link and udev monitor closed.
    static func stop(_ accessory: DaemonAccessory, loop: any EventLoop) {
        accessory.runner.shutdown()
        if let monitor = accessory.monitor {
            loop.unwatch(monitor.descriptor)
            monitor.close()
            accessory.monitor = nil
        }
    }

    /// SIGHUP's new settings, each accessory's to its own runner (by name), the others left as
    /// they run: an accessory no longer in the settings is stopped, a new one started, and one
    /// given another device or protocol stopped and started again on it.
    static func reconfigure(
        _ service: DockService, server: VarlinkServer?, with configuration: Configuration, loop: any EventLoop, log: Logger
    ) {
        guard let named = try? configuration.accessorySettings() else { return }  // checked by the reload's parse
        for accessory in service.accessories {
            guard let settings = named.first(where: { $0.name == accessory.name })?.configuration else {
                log.notice("accessory '\(accessory.name)' is no longer in the settings: stopped")
                stop(accessory, loop: loop)
                service.remove(named: accessory.name)
                continue
            }
            if settings.deviceClaim != accessory.configuration.deviceClaim
                || settings.accessoryProtocol != accessory.configuration.accessoryProtocol
                || settings.simulator != accessory.configuration.simulator || settings.scenario != accessory.configuration.scenario
            {
                log.notice("accessory '\(accessory.name)': another device or protocol; starting it again")
                stop(accessory, loop: loop)
                service.remove(named: accessory.name)
                continue
            }
            accessory.runner.reconfigure(settings.hostSettings)
        }
        for entry in named where !service.accessories.contains(where: { $0.name == entry.name }) {
            let made = transport(for: entry.configuration, loop: loop).flatMap {
                accessory(entry, transport: $0, namesPresets: !configuration.sections.isEmpty, loop: loop, log: log)
            }
            switch made {
            case .success(let accessory):
                service.add(accessory)
                accessory.monitor = hotPlugMonitor(for: accessory, loop: loop, log: log)
                accessory.runner.start()
                log.notice("accessory '\(entry.name)' started on \(accessory.runner.transport.name)")
            case .failure(let failure):
                log.error("accessory '\(entry.name)' not started: \(failure.message)")
            }
        }
        server?.followAccessories()
    }

    /// `STATUS=`'s line: the one accessory's summary, or each one's after its name.
    static func summary(of accessories: [DaemonAccessory]) -> String {
        if accessories.count == 1 { return accessories[0].runner.summary }
        return accessories.map { "\($0.name): \($0.runner.summary)" }.joined(separator: "; ")
    }

    /// Follows udev for the transports that look a device up (a dock by its USB IDs, the first
    /// webcam with pan/tilt): one that appears is tried at once. Nil when there is nothing to
    /// follow, or udev cannot be followed (then each retry looks again).
    private static func hotPlugMonitor(for accessory: DaemonAccessory, loop: any EventLoop, log: Logger) -> DeviceMonitor? {
        let transport = accessory.runner.transport, configuration = accessory.configuration, runner = accessory.runner
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

    /// What udev sees that each accessory's protocol can use (`DeviceList`), the one it would
    /// take marked; with sections, each accessory's under its name.
    public static func listDevices(_ configuration: Configuration) -> String {
        // The settings were checked by the parse (which makes each section's).
        let accessories =
            (try? configuration.accessorySettings())
            ?? [NamedAccessorySettings(name: DaemonAccessory.defaultName, configuration: configuration)]
        let usesVideo = accessories.contains { $0.configuration.accessoryProtocol == .uvc }
        let usesSerial = accessories.contains { $0.configuration.accessoryProtocol != .uvc }
        return DeviceList.text(
            accessories: accessories, hasSections: !configuration.sections.isEmpty,
            serial: usesSerial ? DeviceDiscovery.serialDevices() : [], video: usesVideo ? DeviceDiscovery.videoDevices() : [],
            controls: { V4L2Probe.controls(path: $0)?.summary })
    }
}
