import DockLinks
public import DockSimulator
public import DockSockets
public import DockSystem
public import DockVocabulary
import Glibc

/// The simulated dock inside the daemon (`dockd --simulator`): the same firmware model docksim
/// serves on a pty, advanced on the daemon's loop while the link is open — at each write, and in
/// steps that ride the loop's other wake-ups (``stepInterval``, ``stepLeeway``) — so it costs no
/// thread and no wake-up of its own.
public final class SimulatorTransport: DockTransport {
    /// How soon after one step the open link may advance the simulation again; it then waits,
    /// up to ``stepLeeway``, for a wake-up the loop makes anyway (a tick, a heartbeat, a
    /// client), so the simulated dock costs no wake-up of its own.
    public static let stepInterval = Duration.milliseconds(10)
    /// How much later than ``stepInterval`` a step may come: a whole 30 Hz tick, so each window
    /// holds a tick. Scheduled before the tick's own timer, the step runs first, so at each tick
    /// the policy has the dock's telemetry (50 Hz) and the camera's frames up to that moment;
    /// between ticks they arrive up to a tick late, which only the arrival times show.
    public static let stepLeeway = MotionController.tickInterval

    /// The simulation, for inspection.
    public private(set) var simulation: Simulation
    private let origin: Duration
    private var generation = 0
    /// What the simulated camera's detector reports, frame by frame, with capture times on the
    /// daemon's clock (while the dock's link is open: the camera rides on the dock).
    public var detections: ((ObservationBatch) -> Void)?

    public var name: String { "simulator" }

    /// Creates the simulated dock, its run starting at `start` on the daemon's clock.
    public init(scenario: Scenario, start: Duration) {
        simulation = Simulation(scenario: scenario)
        origin = start
    }

    public func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection {
        // Time has passed while the link was shut: a cable pulled by the scenario may be back.
        _ = simulation.advance(to: loop.now - origin)
        guard simulation.isPluggedIn else { throw SystemError("open", name, code: ENODEV) }
        generation += 1
        return Link(transport: self, generation: generation, loop: loop, events: events)
    }

    /// One opening of the link.
    private final class Link: DockConnection {
        private weak var transport: SimulatorTransport?
        private let generation: Int
        private let loop: any EventLoop
        private let events: DockLinkEvents
        private var step: LoopTimer?

        init(transport: SimulatorTransport, generation: Int, loop: any EventLoop, events: DockLinkEvents) {
            self.transport = transport
            self.generation = generation
            self.loop = loop
            self.events = events
            scheduleStep(after: loop.now)
        }

        private var isOpen: Bool { transport?.generation == generation }

        private func scheduleStep(after time: Duration) {
            step = loop.schedule(at: time + SimulatorTransport.stepInterval, leeway: SimulatorTransport.stepLeeway) { [weak self] in
                guard let self, let transport, isOpen else { return }
                undelivered.append(transport.simulation.advance(to: loop.now - transport.origin))
                deliverInOrder()
                if isOpen { scheduleStep(after: loop.now) }
            }
        }

        /// What the simulation has sent and the host has not yet been handed, oldest first. A
        /// write's answer waits for the loop's next turn, and a step that is due may run before
        /// it with the loop's clock moved on: handed out of order, the later telemetry made the
        /// dock's clock seem to go back, and the host took it for a reset.
        private var undelivered: [SimulationOutput] = []

        private func deliverInOrder() {
            while isOpen, !undelivered.isEmpty { deliver(undelivered.removeFirst()) }
            if !isOpen { undelivered.removeAll() }
        }

        /// Hands the simulation's output to the host: the dock's bytes, the camera's detections,
        /// and a pulled cable as a hang-up.
        private func deliver(_ output: SimulationOutput) {
            guard let transport else { return }
            if !output.bytesToHost.isEmpty { events.received(output.bytesToHost) }
            if let detections = transport.detections {
                for batch in output.batches {
                    detections(
                        ObservationBatch(
                            observations: batch.observations, camera: batch.camera,
                            captureTime: transport.origin + batch.captureTime))
                }
            }
            if output.linkChanges.contains(.unplugged), isOpen {
                close()
                events.hungUp()
            }
        }

        func write(_ bytes: [UInt8]) -> Bool {
            guard let transport, isOpen else { return false }
            undelivered.append(transport.simulation.receiveFromHost(bytes, at: loop.now - transport.origin))
            // The dock's answer arrives on the loop's next turn, as from a port, after what the
            // dock sent before it.
            loop.execute { [weak self] in self?.deliverInOrder() }
            return true
        }

        func close() {
            guard isOpen, let transport else { return }
            transport.generation += 1
            if let step { loop.cancel(step) }
        }
    }
}
