import DockLinks
import DockProtocol
import DockSimulator
import DockVocabulary

/// The motion controller ticking at 30 Hz over a session and the simulated dock, in virtual time.
struct MotionBench {
    var bench = SessionBench()
    var motion = MotionController()
    var limits: MotionLimits
    var isTicking = true
    var finishes: [(time: Duration, finish: MotionFinish)] = []
    /// The camera's true pose (the firmware's output angles), every 5 ms.
    var trace: [(time: Duration, yawRadians: Double, pitchRadians: Double)] = []
    private var nextTick = Duration.zero

    init(limits request: LimitRequest = LimitRequest()) throws {
        bench.start()
        bench.run(for: .milliseconds(100))
        limits = try MotionLimits(info: bench.session.info!).narrowed(by: request)
        nextTick = bench.now
    }

    var now: Duration { bench.now }
    var yaw: Double { bench.firmware.yaw.outputRadians }
    var pitch: Double { bench.firmware.pitch.outputRadians }

    @discardableResult
    mutating func request(_ request: MotionRequest) throws(MotionError) -> MotionResult {
        let result = try motion.handle(request, pose: bench.session.pose(at: now), limits: limits, now: now)
        for command in result.commands { bench.send(command) }
        return result
    }

    mutating func run(for duration: Duration) {
        let end = now + duration
        while now < end {
            bench.run(for: .milliseconds(5))
            trace.append((now, yaw, pitch))
            guard isTicking, now >= nextTick else { continue }
            nextTick += MotionController.tickInterval
            let (commands, finish) = motion.tick(pose: bench.session.pose(at: now), limits: limits, now: now)
            for command in commands { bench.send(command) }
            if let finish { finishes.append((now, finish)) }
        }
    }

    /// Runs until the motion controller is idle (or `limit` passes).
    mutating func runUntilIdle(limit: Duration = .seconds(10)) {
        let end = now + limit
        while now < end, motion.activity != .idle { run(for: .milliseconds(5)) }
    }
}
