public import DockTracking
public import DockSimulator
import Glibc
import Synchronization
public import DockSystem

/// The simulated dock inside the daemon (`dockd --simulator`): the same firmware model docksim
/// serves on a pty, driven by the daemon's clock every 2 ms while the link is open.
public final class SimulatorTransport: DockTransport {
    private struct World {
        var simulation: Simulation
        var origin: Duration
        var continuation: AsyncStream<[UInt8]>.Continuation?
        var generation = 0
    }

    private let world: Mutex<World>
    private let clock: any DaemonClock
    private let detectionContinuation: AsyncStream<ObservationBatch>.Continuation
    /// What the simulated camera's detector reports, frame by frame, with capture times on the
    /// daemon's clock (while the dock's link is open: the camera rides on the dock).
    public let detections: AsyncStream<ObservationBatch>

    public var name: String { "simulator" }

    /// Creates the simulated dock, starting its run now.
    public init(scenario: Scenario, clock: any DaemonClock) {
        self.clock = clock
        world = Mutex(World(simulation: Simulation(scenario: scenario), origin: clock.now()))
        (detections, detectionContinuation) = AsyncStream<ObservationBatch>.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    /// The simulation, for inspection.
    public var simulation: Simulation { world.withLock { $0.simulation } }

    public func open() throws(SystemError) -> DockConnection {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let generation: Int? = world.withLock { world in
            guard world.simulation.isPluggedIn, world.continuation == nil else { return nil }
            world.continuation = continuation
            world.generation += 1
            return world.generation
        }
        guard let generation else { throw SystemError("open", name, code: ENODEV) }
        let driver = Task { [self] in
            var next = clock.now()
            while !Task.isCancelled {
                next += .milliseconds(2)
                try? await clock.sleep(until: next)
                let isOpen = world.withLock { world -> Bool in
                    guard world.generation == generation, let continuation = world.continuation else { return false }
                    let output = world.simulation.advance(to: clock.now() - world.origin)
                    if !output.bytesToHost.isEmpty { continuation.yield(output.bytesToHost) }
                    for batch in output.batches {
                        detectionContinuation.yield(ObservationBatch(observations: batch.observations, camera: batch.camera,
                                                                     captureTime: world.origin + batch.captureTime))
                    }
                    if output.linkChanges.contains(.unplugged) {
                        continuation.finish()
                        world.continuation = nil
                        return false
                    }
                    return true
                }
                if !isOpen { return }
            }
        }
        return DockConnection(
            incoming: stream,
            write: { [self] bytes in
                world.withLock { world in
                    guard world.generation == generation, let continuation = world.continuation else { return false }
                    let output = world.simulation.receiveFromHost(bytes, at: clock.now() - world.origin)
                    if !output.bytesToHost.isEmpty { continuation.yield(output.bytesToHost) }
                    return true
                }
            },
            close: { [self] in
                driver.cancel()
                world.withLock { world in
                    guard world.generation == generation else { return }
                    world.continuation?.finish()
                    world.continuation = nil
                }
            })
    }
}
