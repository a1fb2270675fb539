import DockCore
import DockSimulator
import DockVersion
import Foundation
import Glibc
public import DockSystem

/// The running service: one session runner over the configured transport, systemd notifications
/// (READY, STATUS, WATCHDOG from the loop's progress, STOPPING), and signals.
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
    ) async -> Int32 {
        let log = Logger(threshold: level(configuration.logLevel), environment: environment)
        let notifier = SystemdNotifier(environment: environment)
        let clock = SystemClock()

        let transport: any DockTransport
        if configuration.simulator {
            var scenario = Scenario.defaultScene
            if !configuration.scenario.isEmpty {
                guard let data = FileManager.default.contents(atPath: configuration.scenario) else {
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
            transport = SimulatorTransport(scenario: scenario, clock: clock)
        } else if let camera = ViscaAddress(configuration.visca) {
            transport = NetworkTransport(kind: camera.kind, address: camera.address)
        } else if !configuration.device.isEmpty {
            transport = DevicePortTransport(path: configuration.device, baudRate: configuration.baud)
        } else {
            transport = DiscoveredPortTransport(vendorID: configuration.vendorID, productID: configuration.productID,
                                                serialNumber: configuration.serialNumber, baudRate: configuration.baud)
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
        let runner = SessionRunner(transport: transport, clock: clock, settings: configuration.hostSettings, log: log, link: link)
        // The control loop outranks API work on the shared thread pool: under a crowd of clients its
        // ticks are still picked first.
        let loop = Task(priority: .high) { await runner.run() }
        // The in-process simulator's camera feeds the tracker as a camera app would.
        let camera = Task {
            guard let simulator = transport as? SimulatorTransport, configuration.simulatorCamera else { return }
            for await batch in simulator.detections { await runner.cameraFrame(batch) }
        }

        // The control API: the socket systemd passed, or our own (opened above).
        let server = controlSocket.listener.map {
            VarlinkServer(listener: $0, service: DockService(runner: runner), clock: clock, log: log)
        }
        log.notice(controlSocket.description)
        server?.start()
        let hotPlug = Task {
            guard transport is DiscoveredPortTransport else { return }
            guard let monitor = DeviceMonitor() else {
                log.warning("cannot follow udev events; looking for the dock at each retry instead")
                return
            }
            for await change in monitor.changes {
                guard case .added(let device) = change,
                    DeviceDiscovery.matches(device, vendorID: configuration.vendorID, productID: configuration.productID,
                                            serialNumber: configuration.serialNumber)
                else { continue }
                log.info("udev: \(device.path) appeared")
                await runner.deviceAppeared()
            }
        }
        log.notice("dockd started on \(transport.name)" + (configurationPath.map { " with \($0)" } ?? "")
                   + "; version \(DockVersion.number)")
        notifier.notify("READY=1\nSTATUS=waiting for \(transport.name)")

        // STATUS and WATCHDOG: the loop must have made progress since the last look.
        let keepAlive = Task {
            var lastTicks = -1
            let interval = min(notifier.watchdogInterval ?? .seconds(2), .seconds(2))
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let ticks = await runner.tickCount
                let summary = await runner.summary
                if ticks > lastTicks {
                    notifier.notify("WATCHDOG=1\nSTATUS=\(summary)")
                } else {
                    log.error("the control loop has stopped; not feeding the watchdog")
                }
                lastTicks = ticks
            }
        }

        var loadedPath = configurationPath
        for await signal in signalStream(signals) {
            switch signal {
            case SIGHUP:
                notifier.notify("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.now().components.seconds * 1_000_000)")
                if let reloaded = reload(arguments, loadedFrom: loadedPath, environment: environment, log: log) {
                    loadedPath = reloaded.path
                    await runner.reconfigure(reloaded.configuration.hostSettings)
                    log.notice("configuration reloaded" + (reloaded.path.map { " from \($0)" } ?? ""))
                }
                notifier.notify("READY=1")
            default:
                log.notice("signal \(signal): stopping")
                notifier.notify("STOPPING=1")
                server?.stop()
                controlSocket.removeSocketFile()
                keepAlive.cancel()
                hotPlug.cancel()
                camera.cancel()
                loop.cancel()
                await loop.value
                log.notice("stopped")
                return 0
            }
        }
        return 0
    }

    private static func level(_ name: String) -> Logger.Level {
        switch name {
        case "error": .error
        case "warning": .warning
        case "notice": .notice
        case "debug": .debug
        default: .info
        }
    }

    /// The signals, read on a thread of their own.
    private static func signalStream(_ signals: TerminationSignals) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let reader = Thread {
            while true {
                guard (try? Poll.waitForReading([signals.descriptor], timeout: .seconds(1))) != nil else { return }
                while let signal = signals.take() { continuation.yield(signal) }
            }
        }
        reader.name = "dockd signals"
        reader.start()
        return stream
    }

    /// Prints what udev sees, marking the devices that match the configured dock.
    public static func listDevices(_ configuration: Configuration) -> String {
        let devices = DeviceDiscovery.serialDevices()
        var lines = ["looking for USB \(configuration.vendorID):\(configuration.productID)"
                     + (configuration.serialNumber.isEmpty ? "" : " serial \(configuration.serialNumber)")]
        if devices.isEmpty { lines.append("udev knows no serial devices") }
        for device in devices {
            let isMatch = DeviceDiscovery.matches(device, vendorID: configuration.vendorID,
                                                  productID: configuration.productID,
                                                  serialNumber: configuration.serialNumber)
            let usb = device.vendorID.map { vendor in
                "USB \(vendor):\(device.productID ?? "????")"
                    + (device.serialNumber.map { " serial \($0)" } ?? "")
                    + ([device.manufacturer, device.product].compactMap { $0 }.joined(separator: " ").isEmpty ? ""
                        : " (" + [device.manufacturer, device.product].compactMap { $0 }.joined(separator: " ") + ")")
            } ?? "not USB"
            lines.append("\(isMatch ? "*" : " ") \(device.path)  \(usb)")
        }
        return lines.joined(separator: "\n")
    }
}
