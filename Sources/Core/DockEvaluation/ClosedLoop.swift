public import DockLinks
import DockNumbers
public import DockPolicy
import DockProtocol
public import DockSimulator
public import DockTracking
public import DockVocabulary
public import V4L2Protocol
import VISCAProtocol

/// A host, a dock and a camera in virtual time: the simulated firmware and world of a scenario,
/// driven over the real protocol by dockd's own host policy (`HostPolicy`, the type the daemon
/// runs) with its 30 Hz tick — pointing the camera with dockd's tracker, or with the baseline PID
/// sending velocities as a client app would — and the run scored from the simulator's ground
/// truth. It holds no policy of its own: it only carries the host's actions to the simulator. A 20-second scenario
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
        /// For each true subject, the frames in which each tracker subject identifier covered its
        /// body (IoU at least 0.5 in the delivered image, the body at least half visible).
        public var identityFrames: [Int: [Int: Int]] = [:]
        /// The rates the tracker's controller asked for at each control tick it commanded the
        /// dock (rad/s), with the tick's time.
        public var trackerCommands: [(time: Duration, yaw: Double, pitch: Double)] = []
        /// The accessory's zoom at each control tick, as a magnification (1 where it has no zoom
        /// or none is known), with the tick's time.
        public var zoomTrace: [(time: Duration, magnification: Double)] = []

        /// The tracker identifiers that covered each true subject in at least `minimumFrames` frames.
        public func identities(minimumFrames: Int = 10) -> [Int: Set<Int>] {
            identityFrames.mapValues { Set($0.filter { $0.value >= minimumFrames }.keys) }
        }

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
    /// dockd's host policy, as the daemon runs it.
    public private(set) var host: HostPolicy
    /// The tracker, when it points the camera (the host's own).
    public var pipeline: TrackingPipeline? { usesTracker ? host.pipeline : nil }
    private let usesTracker: Bool
    /// UDP: each datagram reaches the host on its own, and a pulled cable is no hang-up.
    private let isDatagramLink: Bool
    /// V4L2: each framed reply reaches the host on its own, and a pulled cable is `ENODEV`.
    private let isIoctlLink: Bool
    /// A digital pan-tilt-zoom: no wire, the simulated camera fixed at home, and the run scored
    /// in the crop.
    private let digital: DigitalCrop?
    private var baseline: BaselinePID?
    private let poseAtCapture: Bool
    private var now = Duration.zero
    private var nextToken: RequestToken = 0
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
    private var identityFrames: [Int: [Int: Int]] = [:]
    private var trackerCommands: [(time: Duration, yaw: Double, pitch: Double)] = []
    private var zoomTrace: [(time: Duration, magnification: Double)] = []
    /// The zoom a client asks for once the accessory is ready (nil: none), and whether it has.
    private var zoomFraction: Double?
    private var hasZoomed = false

    /// The client identifier the baseline PID uses: it drives the dock as a client app would,
    /// streaming velocities through the host's API.
    static let baselineClient: ClientID = 1

    /// Prepares a run of `scenario` with `pointer` in charge; with `visca`, a VISCA camera of that
    /// configuration stands in for the dock and the host drives it through `VISCASession`, with
    /// the camera's own profile; with `uvc`, a UVC webcam of that model, driven through
    /// `UVCSession` with the same model's settings (its ioctls answered in order, as the daemon's
    /// transport performs them; the camera unplugged answers `ENODEV`, which is how the session
    /// finds it gone — no hang-up comes).
    /// With `digital`, a digital pan-tilt-zoom of those settings stands in for the dock
    /// (`DigitalSession`): the scenario's camera becomes the fixed camera it crops — the settings'
    /// field of view, the scenario's aspect — and stays at home, the host's commands go to no
    /// wire, the crop starts at `zoomFraction`, and each frame is scored as the crop shows it
    /// (`GroundTruthFrame.cropped`).
    /// With `zoomFraction`, a client asks for that zoom (`SetZoom`) as soon as the accessory is
    /// ready; `fieldOfViewFollowsZoom` is the host's setting of that name.
    public init(
        scenario: Scenario, pointer: Pointer, visca: VISCACamera.Configuration? = nil, uvc: UVCCameraModel? = nil,
        digital: DigitalSession.Configuration? = nil, zoomFraction: Double? = nil, fieldOfViewFollowsZoom: Bool = true
    ) {
        self.zoomFraction = zoomFraction
        var scenario = scenario
        let fixed = digital.map { settings -> DigitalSession.Configuration in
            var settings = settings
            scenario.camera.information.horizontalFieldOfViewRadians = settings.horizontalFieldOfViewDegrees * .pi / 180
            settings.aspectRatio = scenario.camera.information.aspectRatio
            // The crop starts at the zoom the client asks for: the scenario's subjects are those
            // a camera with that view would see first.
            settings.initialZoomFraction = zoomFraction ?? settings.initialZoomFraction
            return settings
        }
        self.digital = fixed?.crop
        simulation = Simulation(scenario: scenario, visca: visca, uvc: uvc)
        isDatagramLink = visca.map { $0.transport != .serial } ?? false
        isIoctlLink = uvc != nil
        let webcam =
            uvc.map { model -> any AccessoryLink in UVCSession(configuration: UVCSession.Configuration(model: model)) }
            ?? fixed.map { settings -> any AccessoryLink in DigitalSession(configuration: settings) }
        let link =
            webcam
            ?? visca.map { camera -> any AccessoryLink in
                let framing: VISCASession.Framing
                switch camera.transport {
                case .serial: framing = .serial
                case .sonyIP: framing = .sonyIP
                case .rawIP: framing = .rawIP
                }
                return VISCASession(configuration: VISCASession.Configuration(profile: camera.profile, framing: framing))
            }
        var settings = HostSettings()
        settings.wakesOnAttach = false
        settings.fieldOfViewFollowsZoom = fieldOfViewFollowsZoom
        switch pointer {
        case .tracker(let pipeline, let poseAtCapture):
            settings.isTrackingEnabled = true
            settings.lostBehaviour = pipeline.lostBehaviour
            settings.restYawRadians = pipeline.restYawRadians
            settings.restPitchRadians = pipeline.restPitchRadians
            settings.reidentificationWindow = pipeline.reidentificationWindow
            settings.framingSpeed = pipeline.framingSpeed ?? pipeline.configuration.framing.framingSpeed
            settings.shotSize = pipeline.shotSize
            host = HostPolicy(settings: settings, pipeline: pipeline, link: link)
            usesTracker = true
            self.poseAtCapture = poseAtCapture
        case .baseline(let baseline):
            host = HostPolicy(settings: settings, link: link)
            usesTracker = false
            self.baseline = baseline
            poseAtCapture = true
        case .none:
            host = HostPolicy(settings: settings, link: link)
            usesTracker = false
            poseAtCapture = true
        }
        report = RunReport(
            scenarioName: scenario.name, seed: scenario.seed,
            toleranceFraction: scenario.criteria.framingToleranceFraction)
    }

    /// Runs the whole scenario and scores it.
    public mutating func run() -> Result {
        let step = Duration.milliseconds(2)
        perform(host.start(now: now))
        while now < simulation.scenario.duration {
            now += step
            take(simulation.advance(to: now))
            if now >= host.nextWake { woke() }
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
        return Result(
            report: report, primaryIDSwitches: primaryIDSwitches, followedPersonSwitches: switches,
            followsPrimaryShare: primaryFrames == 0 ? 0 : Double(followsPrimary) / Double(primaryFrames),
            finallyFollowed: lastSecond.count == 1 ? lastSecond.first! : nil, primaryTrace: primaryTrace,
            framingErrors: framingErrors, toleranceFraction: report.toleranceFraction, primaryBoxes: primaryBoxes,
            identityFrames: identityFrames, trackerCommands: trackerCommands, zoomTrace: zoomTrace)
    }

    // MARK: The host

    /// The host's wake-up: a heartbeat between ticks, or a control tick (the tracker commands the
    /// dock inside it), before which the baseline streams its velocity as a client would.
    private mutating func woke() {
        guard now >= host.nextTickAt else {
            perform(host.woke(now: now))
            return
        }
        if baseline != nil, case .ready = host.session.state {
            let command = baseline!.command(seconds: MotionController.tickInterval.secondsValue)
            nextToken += 1
            perform(
                host.requested(
                    .motion(
                        .velocity(
                            yawRadiansPerSecond: command.yaw, pitchRadiansPerSecond: command.pitch,
                            duration: nil), takeOver: false, waitsForEnd: false),
                    token: nextToken, from: Self.baselineClient, now: now))
        }
        if let zoomFraction, !hasZoomed, case .ready = host.session.state {
            hasZoomed = true
            nextToken += 1
            perform(host.requested(.setZoom(zoomFraction), token: nextToken, from: Self.baselineClient + 1, now: now))
        }
        perform(host.woke(now: now))
        if usesTracker, let step = host.trackingStep, let yaw = step.yawRadiansPerSecond, let pitch = step.pitchRadiansPerSecond {
            trackerCommands.append((now, yaw, pitch))
        }
        let zoom = host.session.pose(at: now)?.zoomFraction.flatMap { host.session.magnification(atZoomFraction: $0) }
        zoomTrace.append((now, zoom ?? 1))
        guard usesTracker, let pose = host.session.pose(at: now) else { return }
        let pipeline = host.pipeline
        let primary = pipeline.primary
        primaryTrace.append(primary)
        trackerPrimary = primary.map { .subject($0) } ?? .none
        if let primary {
            if let lastPrimary, lastPrimary != primary { primaryIDSwitches += 1 }
            lastPrimary = primary
        }
        followedBox = nil
        if let primary, let subject = pipeline.subjects.first(where: { $0.identifier == primary }), let camera = pipeline.camera {
            followedBox = subject.angularBox.project(
                camera: camera, gimbalYawRadians: pose.yawRadians,
                gimbalPitchRadians: pose.pitchRadians)
        }
    }

    /// A frame from the detector, handed to the host when it arrives (fused at the next tick, as
    /// the daemon does); with `poseAtCapture` false it is stamped with its arrival time instead of
    /// its capture time, as a host that ignores capture times would take it.
    private mutating func deliver(_ batch: DetectionBatch) {
        if usesTracker {
            host.observationsArrived(
                ObservationBatch(
                    observations: batch.observations, camera: batch.camera,
                    captureTime: poseAtCapture ? batch.captureTime : now))
        } else if baseline != nil {
            baseline!.observe(batch.observations, camera: batch.camera)
            if let chosen = BaselinePID.chosen(batch.observations) { followedBox = chosen.box }
        }
    }

    private mutating func take(_ output: SimulationOutput) {
        guard digital == nil else {
            // No wire: the dock's firmware hears nothing and says nothing the host reads.
            for batch in output.batches { deliver(batch) }
            for truth in output.truths { score(truth) }
            return
        }
        if output.linkChanges.contains(.unplugged), !isDatagramLink, !isIoctlLink { perform(host.transportClosed(now: now)) }
        if isDatagramLink || isIoctlLink {
            for datagram in output.chunksToHost { perform(host.bytesReceived(datagram, now: now)) }
        } else if !output.bytesToHost.isEmpty {
            perform(host.bytesReceived(output.bytesToHost, now: now))
        }
        for batch in output.batches { deliver(batch) }
        for truth in output.truths { score(truth) }
    }

    private mutating func score(_ truth: GroundTruthFrame) {
        var truth = truth
        if let digital, let link = host.session as? DigitalSession,
            let pose = link.pose(at: truth.captureTime) ?? link.pose(at: now),
            let window = link.window(at: truth.captureTime) ?? link.window(at: now)
        {
            let magnification = pose.zoomFraction.flatMap { link.magnification(atZoomFraction: $0) } ?? 1
            let range = digital.yawLimitRadians(magnification: magnification)
            truth = truth.cropped(
                to: window, camera: simulation.scenario.camera.information, yawRadians: pose.yawRadians,
                pitchRadians: pose.pitchRadians, yawRangeRadians: -range...range)
        }
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
        if usesTracker, let camera = host.pipeline.camera, let pose = host.session.pose(at: truth.captureTime) ?? host.session.pose(at: now)
        {
            for part in truth.parts where part.kind == .body && part.visibleFraction >= 0.5 {
                var best = 0.5, identifier: Int?
                for subject in host.pipeline.subjects {
                    guard
                        let box = subject.angularBox.project(
                            camera: camera, gimbalYawRadians: pose.yawRadians,
                            gimbalPitchRadians: pose.pitchRadians)
                    else { continue }
                    let overlap = box.intersectionOverUnion(part.box)
                    if overlap >= best { (best, identifier) = (overlap, subject.identifier) }
                }
                if let identifier { identityFrames[part.subjectIdentifier, default: [:]][identifier, default: 0] += 1 }
            }
        }
        if let primary, truth.presentSubjects.contains(primary) {
            primaryFrames += 1
            if person == primary { followsPrimary += 1 }
        }
    }

    /// Carries out the host's actions against the simulated dock: the shell, nothing more.
    private mutating func perform(_ actions: [HostAction]) {
        for action in actions {
            switch action {
            case .openTransport where digital != nil:
                perform(host.transportOpened(now: now))
            case .openTransport:
                perform(
                    simulation.isPluggedIn
                        ? host.transportOpened(now: now)
                        : host.transportFailed(reason: "unplugged", now: now))
            case .write where digital != nil:
                break
            case .write(let bytes):
                take(simulation.receiveFromHost(bytes, at: now))
            case .storePresets(let store, _, _):
                host.presetsStored(store)
            case .closeTransport, .reply, .publish, .log:
                break
            }
        }
    }
}
