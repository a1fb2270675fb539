import DockCore
import DockProtocol
public import DockSimulator
public import DockTracking

/// A host, a dock and a camera in virtual time: the simulated firmware and world of a scenario,
/// driven over the real protocol by the daemon's own pure parts (`AccessorySession`,
/// `MotionController`) with a 30 Hz loop that points the camera — with dockd's tracker or with
/// the baseline PID — and the run scored from the simulator's ground truth. A 20-second scenario
/// runs in a fraction of a second, the same way every time.
public struct ClosedLoop: Sendable {
    /// What points the camera.
    public enum Pointer: Sendable {
        /// dockd's tracker; `poseAtCapture` false fuses each frame with the pose when it arrives
        /// instead of when it was captured (to measure what the capture-time pose is worth).
        case tracker(TrackingPipeline, poseAtCapture: Bool = true)
        /// The PID on the newest raw detection.
        case baseline(BaselinePID)
        /// Nothing: the dock stays where it is.
        case none
    }

    /// How a run went.
    public struct Result: Sendable {
        /// The simulator's score: framing error per frame, faults.
        public var report: RunReport
        /// Changes of the tracker's primary subject ID (from one ID to another; losing it and
        /// finding it again under the same ID is not a switch).
        public var primaryIDSwitches: Int
        /// Changes of the person the camera follows, judged from the ground truth: the followed
        /// box matched to the true boxes.
        public var followedPersonSwitches: Int
        /// Share of frames (with the scenario's primary subject present) in which the camera
        /// follows that subject.
        public var followsPrimaryShare: Double
        /// The true subject followed in the last second of the run (nil: nobody or several).
        public var finallyFollowed: Int?
        /// The primary subject ID at each control tick (tracker only).
        public var primaryTrace: [Int?]
        /// The framing error of each frame with the scenario's primary subject present, with the
        /// frame's capture time.
        public var framingErrors: [(captureTime: Duration, error: Double)]
        /// The framing tolerance, normalised image units.
        public var toleranceFraction: Double
        /// The scenario's primary subject's true box (its body, else its face) in each frame it
        /// is in view, delivered-image coordinates, with the frame's capture time.
        public var primaryBoxes: [(captureTime: Duration, box: NormalizedRect)]

        /// The share of frames with the primary subject within the scenario's framing tolerance,
        /// counting frames captured from `start` on.
        public func inToleranceShare(from start: Duration = .zero) -> Double {
            let errors = framingErrors.filter { $0.captureTime >= start }
            return errors.isEmpty ? 0 : Double(errors.filter { $0.error <= toleranceFraction }.count) / Double(errors.count)
        }

        /// The root mean square framing error (normalised image units) of the frames captured
        /// from `start` on; 1 when there are none.
        public func rmsFramingError(from start: Duration = .zero) -> Double {
            let errors = framingErrors.filter { $0.captureTime >= start }
            return errors.isEmpty ? 1 : (errors.map { $0.error * $0.error }.reduce(0, +) / Double(errors.count)).squareRoot()
        }
    }

    /// The world.
    public private(set) var simulation: Simulation
    /// The tracker, when it points the camera.
    public private(set) var pipeline: TrackingPipeline?
    private var baseline: BaselinePID?
    private let poseAtCapture: Bool
    private var session = AccessorySession()
    private var motion = MotionController()
    private var limits: MotionLimits?
    private var now = Duration.zero
    private var report: RunReport
    private var followedBox: NormalizedRect?
    private var trackerPrimary = TrackerPrimary.unknown
    private var followed: [Int?] = []
    private var primaryTrace: [Int?] = []
    private var framingErrors: [(captureTime: Duration, error: Double)] = []
    private var primaryBoxes: [(captureTime: Duration, box: NormalizedRect)] = []
    private var primaryIDSwitches = 0
    private var lastPrimary: Int?
    private var followsPrimary = 0
    private var primaryFrames = 0

    /// Prepares a run of `scenario` with `pointer` in charge.
    public init(scenario: Scenario, pointer: Pointer) {
        simulation = Simulation(scenario: scenario)
        switch pointer {
        case .tracker(let pipeline, let poseAtCapture):
            self.pipeline = pipeline
            self.poseAtCapture = poseAtCapture
        case .baseline(let baseline):
            self.baseline = baseline
            poseAtCapture = true
        case .none:
            poseAtCapture = true
        }
        report = RunReport(scenarioName: scenario.name, seed: scenario.seed,
                           toleranceFraction: scenario.criteria.framingToleranceFraction)
    }

    /// Runs the whole scenario and scores it.
    public mutating func run() -> Result {
        let step = Duration.milliseconds(2)
        var nextTick = MotionController.tickInterval
        perform(session.start(now: now))
        while now < simulation.scenario.duration {
            now += step
            take(simulation.advance(to: now))
            if now >= nextTick {
                nextTick += MotionController.tickInterval
                tick()
            }
        }
        report.primaryIDSwitches = primaryIDSwitches
        report.faults = simulation.faultLog
        let framesPerSecond = Int(simulation.scenario.camera.framesPerSecond.rounded())
        let lastSecond = Set(followed.suffix(framesPerSecond))
        var switches = 0, last: Int?
        for person in followed {
            guard let person else { continue }
            if let last, last != person { switches += 1 }
            last = person
        }
        return Result(report: report, primaryIDSwitches: primaryIDSwitches, followedPersonSwitches: switches,
                      followsPrimaryShare: primaryFrames == 0 ? 0 : Double(followsPrimary) / Double(primaryFrames),
                      finallyFollowed: lastSecond.count == 1 ? lastSecond.first! : nil, primaryTrace: primaryTrace,
                      framingErrors: framingErrors, toleranceFraction: report.toleranceFraction, primaryBoxes: primaryBoxes)
    }

    // MARK: The host

    private mutating func tick() {
        perform(session.tick(now: now))
        guard case .ready = session.state, let limits else { return }
        let pose = session.pose(at: now)
        var rates: (yaw: Double, pitch: Double)?
        if pipeline != nil, let pose {
            let step = pipeline!.step(now: now, gimbalYawRadians: pose.yawRadians, gimbalPitchRadians: pose.pitchRadians)
            if let yaw = step.yawRadiansPerSecond, let pitch = step.pitchRadiansPerSecond { rates = (yaw, pitch) }
            let primary = pipeline!.primary
            primaryTrace.append(primary)
            trackerPrimary = primary.map { .subject($0) } ?? .none
            if let primary {
                if let lastPrimary, lastPrimary != primary { primaryIDSwitches += 1 }
                lastPrimary = primary
            }
            followedBox = nil
            if let primary, let subject = pipeline!.subjects.first(where: { $0.identifier == primary }), let camera = pipeline!.camera {
                followedBox = subject.angularBox.project(camera: camera, gimbalYawRadians: pose.yawRadians,
                                                         gimbalPitchRadians: pose.pitchRadians)
            }
        } else if baseline != nil {
            let command = baseline!.command(seconds: MotionController.tickInterval.secondsValue)
            rates = command
        }
        if let rates, let result = try? motion.handle(
            .velocity(yawRadiansPerSecond: rates.yaw, pitchRadiansPerSecond: rates.pitch, duration: nil),
            pose: pose, limits: limits, now: now)
        {
            for message in result.messages { send(message) }
        }
        let (messages, _) = motion.tick(pose: pose, limits: limits, now: now)
        for message in messages { send(message) }
    }

    /// A frame from the detector, as the daemon would fuse it when it arrives.
    private mutating func deliver(_ batch: DetectionBatch) {
        if pipeline != nil, let pose = session.pose(at: poseAtCapture ? batch.captureTime : now) {
            pipeline!.observe(batch.observations, camera: batch.camera, captureTime: batch.captureTime,
                              gimbalYawRadians: pose.yawRadians, gimbalPitchRadians: pose.pitchRadians)
        } else if baseline != nil {
            baseline!.observe(batch.observations, camera: batch.camera)
            if let chosen = BaselinePID.chosen(batch.observations) { followedBox = chosen.box }
        }
    }

    private mutating func take(_ output: SimulationOutput) {
        if output.linkChanges.contains(.unplugged) { perform(session.transportClosed(now: now)) }
        if !output.bytesToHost.isEmpty { perform(session.bytesReceived(output.bytesToHost, now: now)) }
        for batch in output.batches { deliver(batch) }
        for truth in output.truths { score(truth) }
    }

    private mutating func score(_ truth: GroundTruthFrame) {
        let primary = simulation.scenario.primarySubject?.identifier
        let scored = report.framingErrors.count
        report.record(truth, primary: primary, tracker: trackerPrimary, trackerBox: pipeline == nil ? nil : followedBox)
        if report.framingErrors.count > scored, let error = report.framingErrors.last {
            framingErrors.append((truth.captureTime, error))
        }
        let parts = truth.parts.filter { $0.subjectIdentifier == primary }
        if let part = parts.first(where: { $0.kind != .face }) ?? parts.first {
            primaryBoxes.append((truth.captureTime, part.box))
        }
        // Which person the followed box is: the true box it overlaps most (bodies first).
        var person: Int?
        if let box = followedBox {
            var best = 0.2
            for part in truth.parts where part.kind != .face {
                let overlap = part.box.intersectionOverUnion(box)
                if overlap > best { (best, person) = (overlap, part.subjectIdentifier) }
            }
        }
        followed.append(person)
        if let primary, truth.presentSubjects.contains(primary) {
            primaryFrames += 1
            if person == primary { followsPrimary += 1 }
        }
    }

    private mutating func perform(_ actions: [SessionAction]) {
        for action in actions {
            switch action {
            case .openTransport:
                perform(simulation.isPluggedIn ? session.transportOpened(now: now)
                        : session.transportFailed(reason: "unplugged", now: now))
            case .closeTransport:
                break
            case .write(let bytes):
                take(simulation.receiveFromHost(bytes, at: now))
            case .emit(let event):
                switch event {
                case .attached(let info, _):
                    limits = MotionLimits(info: info)
                    motion.reset()
                case .disconnected, .accessoryReset:
                    motion.reset()
                default:
                    break
                }
            }
        }
    }

    private mutating func send(_ message: Message) {
        perform(session.send(message, now: now))
    }
}
