import DockLogLevel
import DockSystem
import DockVision
import DockVocabulary
import Synchronization

/// The output device's side of the service (on the capture thread): opens it when the first frame
/// tells the format (and again, at most every `VisionRunner.reopenInterval`, after a failure or
/// when the camera comes back in another format), writes each frame, counts what it wrote and
/// dropped, and names each failure once. Tracking never waits for it.
final class OutputWriter: @unchecked Sendable {
    /// Frames written and dropped, for the status line (read from the detection thread).
    struct Counts: Hashable, Sendable {
        var written = 0
        var dropped = 0
    }

    private let settings: VisionSettings
    private let logger: Logger
    private let latencyLog: LatencyLog?
    private var output: VideoOutput?
    private var nextOpen = Duration.zero
    private var loggedProblems: Set<String> = []
    private let shared = Mutex(Counts())
    /// The newest detections the detection thread handed over for the framed crop, with their
    /// frame's size and capture time.
    private let seen = Mutex<(detections: [Detection], size: FrameSize, captureTime: Duration)?>(nil)
    private var framer = CropFramer()
    private var followsTracker: Bool?
    /// Where dockd's tracker's framing comes from, for the framed picture (nil: not read).
    var feed: DockFeed?

    init(settings: VisionSettings, logger: Logger, latencyLog: LatencyLog?) {
        self.settings = settings
        self.logger = logger
        self.latencyLog = latencyLog
    }

    /// What was written and dropped so far.
    var counts: Counts { shared.withLock { $0 } }

    private func logOnce(_ problem: String, level: Logger.Level, retrying: String) {
        guard loggedProblems.insert(problem).inserted else { return }
        logger.log(level, "\(problem); \(retrying) (said once)")
    }

    /// The detection thread's detections of a frame (of `size` pixels, captured at `captureTime`),
    /// for the framed crop.
    func saw(_ detections: [Detection], size: FrameSize, captureTime: Duration) {
        guard settings.outputView == .framed else { return }
        seen.withLock { $0 = (detections, size, captureTime) }
    }

    private static func seconds(_ time: Duration) -> Double {
        Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    }

    /// The crop for a frame dequeued at `dequeued`: after dockd's tracker while dockd answers (its
    /// primary subject, framing mode and region of interest: `DockFeed.currentFraming`), else after
    /// the newest detections (dockd-vision's own choice of person, the automatic mode, the whole
    /// picture).
    private func crop(dequeued: Duration) -> NormalizedRect {
        let taken = seen.withLock { value -> (detections: [Detection], size: FrameSize, captureTime: Duration)? in
            defer { value = nil }
            return value
        }
        // dockd's while it answers: a call unanswered for a second, or the connection lost, and
        // this service frames by itself. Not by the framing's age: slow detectors (a loaded
        // machine) send fewer Track calls, and flipping to this service's own choice of person
        // then made the crop jump (BENCHMARKS.md, the seated run).
        if let framing = feed?.currentFraming(now: dequeued) {
            if followsTracker != true { logger.notice("framed picture: following dockd's primary subject (\(framing.mode.rawValue))") }
            followsTracker = true
            // dockd's tracker says whom it follows: a primary subject is seen now, however long ago
            // this service last asked (slow detectors ask less often, and a subject taken for
            // unseen widened the crop on a seated person); no primary subject is a subject lost —
            // the crop holds, then widens.
            framer.observe(framing.person, now: Self.seconds(dequeued))
            return framer.advance(now: Self.seconds(dequeued), mode: framing.mode, region: framing.region)
        }
        if followsTracker != false { logger.notice("framed picture: following the person dockd-vision sees (dockd is away)") }
        followsTracker = false
        if let taken {
            framer.observe(framer.primary(among: taken.detections, size: taken.size), now: Self.seconds(taken.captureTime))
        }
        return framer.advance(now: Self.seconds(dequeued), mode: .automatic)
    }

    /// Writes `frame` of `capture` (captured at `captureTime`, dequeued at `dequeued`).
    func write(_ frame: VideoCapture.Frame, capture: VideoCapture, captureTime: Duration, dequeued: Duration) {
        let path = settings.output
        let input = capture.format
        let wanted: OutputPlan
        do {
            wanted = try OutputPlan.plan(
                input: input, stride: capture.stride, format: settings.outputFormat, size: settings.outputFrameSize,
                view: settings.outputView)
        } catch {
            logOnce("\(OutputError.plan(error))", level: .error, retrying: "tracking goes on without \(path)")
            return
        }
        if output?.plan != wanted { output = nil }  // the camera came back in another format
        if output == nil {
            guard dequeued >= nextOpen else { return }
            nextOpen = dequeued + VisionRunner.reopenInterval
            do {
                output = try VideoOutput(path: path, plan: wanted, fps: settings.fps)
                logger.notice(
                    "writing every frame to \(path): \(wanted.format.size) \(wanted.format.format.rawValue)"
                        + (wanted.passesThrough ? ", passed through" : ", converted from \(input.size) \(input.format.rawValue)")
                        + (wanted.isFramed ? ", framed" : ""))
                loggedProblems.removeAll()
            } catch {
                logOnce("\(error)", level: .error, retrying: "tracking goes on; opening \(path) again every \(VisionRunner.reopenInterval)")
                return
            }
        }
        guard let output else { return }
        let region = wanted.isFramed ? crop(dequeued: dequeued) : nil
        let start = MonotonicClock.now()
        do {
            if try output.write(frame.bytes, input: input, stride: capture.stride, crop: region) {
                if let region {
                    latencyLog?.record("crop", values: [Self.seconds(captureTime), region.x, region.y, region.width, region.height])
                }
                shared.withLock { $0.written += 1 }
                latencyLog?.record("output", captureTime, dequeued, start, MonotonicClock.now())
            } else {
                let dropped = shared.withLock {
                    $0.dropped += 1
                    return $0.dropped
                }
                if dropped == 1 || dropped % 100 == 0 {
                    logger.warning("output \(path) would not take a frame at once: dropped (\(dropped) so far)")
                }
            }
        } catch .conversion(let message) {
            logOnce("output frame not converted: \(message)", level: .warning, retrying: "going on with the next frame")
        } catch {
            logOnce("\(error)", level: .error, retrying: "tracking goes on; opening \(path) again every \(VisionRunner.reopenInterval)")
            self.output = nil
            nextOpen = dequeued + VisionRunner.reopenInterval
        }
    }
}
