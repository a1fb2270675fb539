import DockAPI
import DockClient
import DockNumbers
import DockSystem
import DockVocabulary
import Foundation
import Glibc
import SimulatedSerialDock
import Synchronization

/// dockd tracking five people at 30 frames a second, sent by a camera app over `Track`, with
/// system tracking on — alone, or under load: `clients` connections each making
/// `requestsPerSecond` `GetStatus` calls and `watchers` `Watch` streams. Reports dockd's CPU and
/// memory, the control loop's punctuality as dockd measures it, and what the clients saw.
enum TrackingLoadBenchmark {
    struct Figures: Sendable {
        var seconds: Double
        var cpuPercent: Double
        var residentStart: Double
        var residentEnd: Double
        var residentMaximum: Double
        var ticks: Int
        var missedTicks: Int
        var lateP50: Double
        var lateP99: Double
        var lateMaximum: Double
        var trackCalls: Int
        var trackErrors: Int
        var requests: Int
        var requestErrors: Int
        var roundTripP50: Double
        var roundTripP99: Double
        var roundTripMaximum: Double
        var watchEvents: Int
        var subjects: Int
        var descriptorsStart: Int
        var descriptorsEnd: Int
    }

    /// Five bodies walking to and fro across the image, as a detector would report them.
    static func observations(at seconds: Double) -> [DockVocabulary.Observation] {
        (0..<5).map { index in
            let phase = seconds * (0.3 + 0.05 * Double(index)) + Double(index)
            let x = 0.1 + 0.15 * Double(index) + 0.05 * sin(phase)
            return DockVocabulary.Observation(kind: .body, box: NormalizedRect(x: x, y: 0.25, width: 0.08, height: 0.5), confidence: 0.9)
        }
    }

    /// The camera the observations are seen with.
    static let camera = DockVocabulary.CameraInformation(horizontalFieldOfViewRadians: 1.2, aspectRatio: 16.0 / 9)

    static func run(seconds: Double, clients: Int = 0, requestsPerSecond: Int = 100, watchers: Int = 0) async -> Figures? {
        // The dock is the benchmark's own, on a pseudo-terminal, so dockd's figures are its own (the
        // in-process simulator would add its 500 Hz world to them).
        guard let dock = try? PseudoTerminalDock() else { return nil }
        defer { dock.stop() }
        guard
            let daemon = try? DaemonProcess(
                ["--device", dock.devicePath, "--tracking", "--wake-on-attach=false"],
                socket: temporaryPath("load.sock")),
            let feederConnection = await daemon.readyConnection()
        else { return nil }
        defer { daemon.stop() }
        guard let before = try? await feederConnection.status() else { return nil }
        let ticksBefore = before.loop.ticks
        let missedBefore = before.loop.missed
        let cpuBefore = daemon.cpuSeconds ?? 0
        let residentStart = daemon.residentMegabytes ?? 0
        let descriptorsStart = daemon.openDescriptors ?? 0
        let start = MonotonicClock.now()
        let end = start + .milliseconds(Int64(seconds * 1000))

        final class Shared: Sendable {
            let trackCounts = Mutex((calls: 0, errors: 0))
            let requestCounts = Mutex((calls: 0, errors: 0, roundTrips: [Double]()))
            let watchEvents = Atomic<Int>(0)
            let residentMaximum: Mutex<Double>
            let subjects = Atomic<Int>(0)
            init(_ resident: Double) { residentMaximum = Mutex(resident) }
        }
        let shared = Shared(residentStart)
        let socket = daemon.socket, identifier = daemon.identifier
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // The camera app: a frame every 1/30 s, stamped with its capture time.
                var next = MonotonicClock.now()
                while next < end {
                    let now = MonotonicClock.now()
                    let secondsNow = now.secondsValue
                    let batch = ObservationBatch(
                        observations: observations(at: secondsNow - Double(start.components.seconds)),
                        camera: camera, captureTime: now)
                    let ok = (try? await feederConnection.call(.host(.track(batch)))) != nil
                    shared.trackCounts.withLock {
                        $0.calls += 1
                        if !ok { $0.errors += 1 }
                    }
                    if next + .seconds(1) >= end, next + .milliseconds(967) < end,
                        let status = try? await feederConnection.status()
                    {
                        shared.subjects.store(status.subjects.count, ordering: .relaxed)  // a second before the end, while tracking
                    }
                    next += .nanoseconds(33_333_333)
                    try? await Task.sleep(until: .now + (next - MonotonicClock.now()), clock: .continuous)
                }
            }
            group.addTask {
                while MonotonicClock.now() < end {
                    try? await Task.sleep(for: .seconds(1))
                    if let resident = DaemonProcess.residentMegabytes(of: identifier) {
                        shared.residentMaximum.withLock { $0 = max($0, resident) }
                    }
                }
            }
            for _ in 0..<clients {
                group.addTask {
                    guard let connection = try? VarlinkConnection(path: socket) else {
                        shared.requestCounts.withLock { $0.errors += 1 }
                        return
                    }
                    var roundTrips: [Double] = []
                    var errors = 0
                    let interval = Duration.nanoseconds(1_000_000_000 / Int64(max(requestsPerSecond, 1)))
                    var next = MonotonicClock.now() + .microseconds(Int64.random(in: 0..<10_000))
                    while next < end {
                        try? await Task.sleep(until: .now + (next - MonotonicClock.now()), clock: .continuous)
                        let sent = MonotonicClock.now()
                        if (try? await connection.send(DockCall.getStatus.encoded())) != nil {
                            roundTrips.append(microseconds(MonotonicClock.now() - sent))
                        } else {
                            errors += 1
                        }
                        next += interval
                    }
                    shared.requestCounts.withLock { counts in
                        counts.calls += roundTrips.count + errors
                        counts.errors += errors
                        counts.roundTrips += roundTrips
                    }
                }
            }
            for _ in 0..<watchers {
                group.addTask {
                    guard let connection = try? VarlinkConnection(path: socket) else { return }
                    do {
                        for try await _ in connection.stream(DockCall.watch.encoded()) {
                            shared.watchEvents.add(1, ordering: .relaxed)
                            if MonotonicClock.now() >= end { break }
                        }
                    } catch {}
                }
            }
        }
        let elapsed = microseconds(MonotonicClock.now() - start) / 1e6
        let cpu = ((daemon.cpuSeconds ?? cpuBefore) - cpuBefore) / elapsed * 100
        let loop = try? await feederConnection.status().loop
        let subjects = shared.subjects.load(ordering: .relaxed)
        let requests = shared.requestCounts.withLock { $0 }
        let sorted = requests.roundTrips.sorted()
        let tracks = shared.trackCounts.withLock { $0 }
        return Figures(
            seconds: elapsed, cpuPercent: cpu, residentStart: residentStart, residentEnd: daemon.residentMegabytes ?? 0,
            residentMaximum: shared.residentMaximum.withLock { $0 }, ticks: (loop?.ticks ?? ticksBefore) - ticksBefore,
            missedTicks: (loop?.missed ?? missedBefore) - missedBefore,
            lateP50: (loop?.latenessP50Seconds ?? .nan) * 1e6, lateP99: (loop?.latenessP99Seconds ?? .nan) * 1e6,
            lateMaximum: (loop?.latenessMaximumSeconds ?? .nan) * 1e6, trackCalls: tracks.calls, trackErrors: tracks.errors,
            requests: requests.calls, requestErrors: requests.errors, roundTripP50: percentile(sorted, 0.5),
            roundTripP99: percentile(sorted, 0.99), roundTripMaximum: sorted.last ?? .nan,
            watchEvents: shared.watchEvents.load(ordering: .relaxed), subjects: subjects,
            descriptorsStart: descriptorsStart, descriptorsEnd: daemon.openDescriptors ?? 0)
    }
}
