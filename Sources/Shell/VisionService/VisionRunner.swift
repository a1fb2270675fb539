import CVision
import DockLogLevel
import DockSockets
public import DockSystem
public import DockVision
import Glibc

/// The vision service's loop, on the thread that calls `run`: open the camera, choose its
/// format, stream; for each frame take the newest the driver has, decode it at the working size,
/// run the detectors the schedule asks for, and hand the batch to the feed with the frame's
/// capture time. Every failure is a named line in the log and is retried: a camera unplugged or
/// stalled is reopened (every `reopenInterval`), a bad frame is skipped, a detector whose model
/// cannot be loaded is tried again every `reloadInterval` while the other runs.
public final class VisionRunner {
    /// How long to wait before opening the camera again.
    public static let reopenInterval = Duration.seconds(1)
    /// How long to wait before loading a detector's model again.
    public static let reloadInterval = Duration.seconds(10)
    /// No frame for this long is a stalled camera, reopened.
    public static let stallTimeout = Duration.seconds(5)

    /// What the runner has done, for the status line and the tests.
    public struct Counts: Hashable, Sendable {
        /// Frames taken and run through the detectors.
        public var frames = 0
        /// Frames the driver filled that the service took a newer one over.
        public var skipped = 0
        /// Frames refused (bad, corrupt, undecodable).
        public var badFrames = 0
        /// Times the camera was opened.
        public var opens = 0
        /// Faces and bodies found.
        public var faces = 0, bodies = 0
        /// Seconds spent on faces and bodies, over `frames` and the body runs.
        public var faceSeconds = 0.0, bodySeconds = 0.0
        /// Body detector runs.
        public var bodyRuns = 0
        /// Frames written to the output device, and dropped there (it would not take them at once).
        public var outputFrames = 0, outputDropped = 0
    }

    private let settings: VisionSettings
    private let feed: DockFeed
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let image = VisionImage()
    private var faces: (any Detector)?
    private var bodies: (any Detector)?
    private var nextLoad = Duration.zero
    private var loggedProblems: Set<String> = []
    private var schedule: DetectorSchedule
    /// What the runner has done.
    public private(set) var counts = Counts()
    private var lastStatus = Duration.zero
    private let latencyLog: LatencyLog?
    private let outputWriter: OutputWriter?

    /// A runner with these settings, sending through `feed`; each frame's times go to
    /// `latencyLog` when there is one (a benchmark's).
    public init(settings: VisionSettings, feed: DockFeed, logger: Logger, notifier: SystemdNotifier, latencyLog: LatencyLog? = nil) {
        self.settings = settings
        self.latencyLog = latencyLog
        self.feed = feed
        self.logger = logger
        self.notifier = notifier
        self.schedule = DetectorSchedule(bodyEvery: settings.bodyEvery)
        outputWriter = settings.output.isEmpty ? nil : OutputWriter(settings: settings, logger: logger, latencyLog: latencyLog)
        outputWriter?.feed = feed
    }

    /// Runs until one of the termination signals arrives on `signals`; returns the exit status.
    public func run(signals: TerminationSignals) -> Int32 {
        _ = notifier.notify("READY=1")
        var nextOpen = Duration.zero
        var wasUnplugged = false
        while true {
            loadDetectors()
            let now = MonotonicClock.now()
            if now < nextOpen {
                if waitForSignal(signals, timeout: nextOpen - now) { return 0 }
                continue
            }
            nextOpen = now + Self.reopenInterval
            do {
                let capture = try openCamera()
                if wasUnplugged { logger.notice("camera \(settings.device) back") }
                wasUnplugged = false
                if try stream(capture, signals: signals) { return 0 }
            } catch {
                if case .unplugged = error { wasUnplugged = true }
                logOnce("\(error)", level: .error, retrying: "opening \(settings.device) again every \(Self.reopenInterval)")
                _ = notifier.notify("STATUS=\(error)")
            }
        }
    }

    private func waitForSignal(_ signals: TerminationSignals, timeout: Duration) -> Bool {
        guard let ready = try? Poll.waitForReading([signals.descriptor], timeout: timeout), !ready.isEmpty else { return false }
        return isStopSignal(signals.take())
    }

    /// Whether a signal taken stops the service: SIGTERM and SIGINT do; SIGHUP (there are no
    /// settings to read again while running: a change needs a restart) is logged and ignored.
    private func isStopSignal(_ number: Int32?) -> Bool {
        guard let number else { return false }
        if number == SIGHUP {
            logger.notice("SIGHUP ignored: restart the service to apply changed settings")
            return false
        }
        return true
    }

    /// Loads the detectors not loaded yet, at most every `reloadInterval`.
    private func loadDetectors() {
        let now = MonotonicClock.now()
        guard (faces == nil && settings.faces != .none) || (bodies == nil && settings.bodies != .none), now >= nextLoad else { return }
        nextLoad = now + Self.reloadInterval
        if faces == nil, settings.faces != .none {
            do {
                faces = try DetectorSet.faces(settings)
                logger.info(
                    "face detector: \(settings.faces.rawValue)\(settings.faceModelPath.isEmpty ? "" : " (\(settings.faceModelPath))")")
            } catch {
                logOnce("\(error)", level: .error, retrying: "carrying on without faces; loading it again every \(Self.reloadInterval)")
            }
        }
        if bodies == nil, settings.bodies != .none {
            do {
                bodies = try DetectorSet.bodies(settings)
                logger.info("person detector: \(settings.bodies.rawValue)\(settings.bodyModel.isEmpty ? "" : " (\(settings.bodyModel))")")
            } catch {
                logOnce("\(error)", level: .error, retrying: "carrying on without people; loading it again every \(Self.reloadInterval)")
            }
        }
    }

    private func logOnce(_ problem: String, level: Logger.Level, retrying: String) {
        guard loggedProblems.insert(problem).inserted else { return }
        logger.log(level, "\(problem); \(retrying) (said once)")
    }

    private func openCamera() throws(CaptureError) -> VideoCapture {
        let capture = try VideoCapture(path: settings.device)
        let offered = try capture.offeredFormats()
        let choice: FormatChoice
        do {
            choice = try FormatNegotiation.choose(
                offered: offered, preference: settings.format, wanted: FrameSize(width: settings.width, height: settings.height))
        } catch {
            throw .format(error)
        }
        try capture.configure(choice, fps: settings.fps)
        try capture.start()
        counts.opens += 1
        let size = capture.format.size
        logger.notice(
            "streaming \(settings.device): \(size) \(capture.format.format.rawValue) at up to \(settings.fps) fps, "
                + "detecting at \(workingSize(for: size))")
        loggedProblems.removeAll()
        return capture
    }

    /// The size frames are scaled to: the detection width, the frame's shape (never enlarged).
    func workingSize(for size: FrameSize) -> FrameSize {
        let width = min(settings.detectWidth, size.width)
        let height = max(1, Int((Double(size.height) * Double(width) / Double(size.width)).rounded()))
        return FrameSize(width: width, height: height)
    }

    /// Streams until the camera fails (thrown) or a signal arrives (true).
    private func stream(_ capture: VideoCapture, signals: TerminationSignals) throws(CaptureError) -> Bool {
        defer { capture.stop() }
        if let outputWriter { return try streamWithOutput(capture, writer: outputWriter, signals: signals) }
        var lastFrame = MonotonicClock.now()
        var clockProblemLogged = false
        while true {
            let ready = try capture.waitForFrame(timeout: .milliseconds(500), alsoWatching: signals.descriptor.rawValue)
            if isStopSignal(signals.take()) { return true }
            let frame = ready ? try capture.newestFrame() : nil
            // The time the frame was dequeued: read after DQBUF, never before — taking the newest
            // may dequeue a frame that was filled while the older ones were given back.
            let now = MonotonicClock.now()
            guard let frame else {
                if now - lastFrame > Self.stallTimeout { throw .stalled(now - lastFrame) }
                continue
            }
            lastFrame = now
            counts.skipped = capture.skippedFrames
            try process(frame, capture: capture, dequeued: now, clockProblemLogged: &clockProblemLogged)
        }
    }

    /// Streams with a capture thread that writes every frame to the output device and hands the
    /// newest to this one (`FramePump`), until the camera fails (thrown) or a signal arrives (true).
    private func streamWithOutput(
        _ capture: VideoCapture, writer: OutputWriter, signals: TerminationSignals
    ) throws(CaptureError) -> Bool {
        let pump: FramePump
        do {
            pump = try FramePump(capture: capture, writer: writer)
            try pump.start()
        } catch {
            throw .requestFailed(request: "the capture thread", reason: "\(error)")
        }
        defer { pump.stop() }
        var clockProblemLogged = false
        while true {
            let ready: [FileDescriptor]
            do {
                ready = try Poll.waitForReading([pump.wake.descriptor, signals.descriptor], timeout: .milliseconds(500))
            } catch {
                throw .requestFailed(request: "poll", reason: "\(error)")
            }
            if isStopSignal(signals.take()) { return true }
            guard !ready.isEmpty, let mail = pump.take() else { continue }
            switch mail {
            case .failed(let error): throw error
            case .frame(let frame, let dequeued):
                counts.skipped = capture.skippedFrames + pump.skipped
                try process(frame, capture: capture, dequeued: dequeued, clockProblemLogged: &clockProblemLogged)
            }
        }
    }

    /// Decodes a frame, gives its buffer back, runs the detectors the schedule asks for and hands
    /// the batch to the feed.
    private func process(
        _ frame: VideoCapture.Frame, capture: VideoCapture, dequeued now: Duration, clockProblemLogged: inout Bool
    ) throws(CaptureError) {
        let working = workingSize(for: capture.format.size)
        let camera = settings.camera(width: working.width, height: working.height)
        let (captureTime, clockProblem) = CaptureTime.of(timestamp: frame.timestamp, flags: frame.flags, dequeued: now)
        if let clockProblem, !clockProblemLogged {
            clockProblemLogged = true
            logger.warning("\(clockProblem) (said once)")
        }
        do {
            if frame.flags & UInt32(0x40) != 0 { throw FrameError.flaggedByDriver }  // V4L2_BUF_FLAG_ERROR
            try image.set(
                frame.bytes, format: capture.format.format, size: capture.format.size, stride: capture.stride, working: working)
        } catch {
            counts.badFrames += 1
            // The first bad frame, then one line in a hundred, with the count: a camera that
            // damages every tenth frame does not fill the journal.
            if counts.badFrames == 1 || counts.badFrames % 100 == 0 {
                logger.warning("\(error) (frame \(frame.sequence); \(counts.badFrames) bad so far; skipped)")
            }
            try capture.requeue(frame)
            return
        }
        try capture.requeue(frame)
        let plan = schedule.plan(sequence: frame.sequence)
        let detections = detect(plan)
        // The framed crop follows people from the frames they were looked for in (faces alone
        // would stand in for them between, and move it).
        if plan.bodies || settings.bodies == .none { outputWriter?.saw(detections, size: working, captureTime: captureTime) }
        latencyLog?.record("frame", captureTime, now, MonotonicClock.now())
        feed.deliver(
            TrackBuilder.batch(detections, width: working.width, height: working.height, camera: camera, captureTime: captureTime))
        counts.frames += 1
        if let outputWriter {
            let written = outputWriter.counts
            counts.outputFrames = written.written
            counts.outputDropped = written.dropped
        }
        reportStatus(now: now, capture: capture)
        loadDetectors()
    }

    private func detect(_ plan: DetectorSchedule.Plan) -> [Detection] {
        var found: [Detection] = []
        if plan.faces, let faces {
            let start = MonotonicClock.now()
            do {
                let boxes = try faces.detect(in: image)
                counts.faces += boxes.count
                found += boxes
            } catch {
                logOnce("\(error)", level: .warning, retrying: "going on with the next frame")
            }
            counts.faceSeconds += seconds(MonotonicClock.now() - start)
        }
        if plan.bodies, let bodies {
            let start = MonotonicClock.now()
            do {
                var boxes = try bodies.detect(in: image)
                if settings.sendsAppearance {
                    for index in boxes.indices { boxes[index].appearance = image.appearance(of: boxes[index].box) }
                }
                counts.bodies += boxes.count
                found += boxes
            } catch {
                logOnce("\(error)", level: .warning, retrying: "going on with the next frame")
            }
            counts.bodyRuns += 1
            counts.bodySeconds += seconds(MonotonicClock.now() - start)
        }
        return found
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func reportStatus(now: Duration, capture: VideoCapture) {
        guard now - lastStatus >= .seconds(10) else { return }
        lastStatus = now
        let feedCounts = feed.counts
        let faceMilliseconds = counts.frames > 0 ? counts.faceSeconds * 1000 / Double(counts.frames) : 0
        let bodyMilliseconds = counts.bodyRuns > 0 ? counts.bodySeconds * 1000 / Double(counts.bodyRuns) : 0
        let line =
            "\(counts.frames) frames (\(counts.skipped) skipped, \(counts.badFrames) bad), faces \(formatted(faceMilliseconds)) ms, "
            + "people \(formatted(bodyMilliseconds)) ms a frame; dockd \(feed.isConnected ? "connected" : "away"), "
            + "\(feedCounts.sent) sent, \(feedCounts.dropped) dropped"
            + (settings.output.isEmpty ? "" : "; output \(counts.outputFrames) written, \(counts.outputDropped) dropped")
        _ = notifier.notify("STATUS=\(line)")
        logger.debug(line)
    }

    private func formatted(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension VisionRunner {
    /// How many threads OpenCV's own parallel loops use (1: the detectors on the calling thread only).
    public static func setThreads(_ count: Int) { dv_set_threads(Int32(count)) }
}
