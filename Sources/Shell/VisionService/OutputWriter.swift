import DockLogLevel
import DockSystem
import DockVision
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

    /// Writes `frame` of `capture` (captured at `captureTime`, dequeued at `dequeued`).
    func write(_ frame: VideoCapture.Frame, capture: VideoCapture, captureTime: Duration, dequeued: Duration) {
        let path = settings.output
        let input = capture.format
        let wanted: OutputPlan
        do {
            wanted = try OutputPlan.plan(
                input: input, stride: capture.stride, format: settings.outputFormat, size: settings.outputFrameSize)
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
                        + (wanted.passesThrough ? ", passed through" : ", converted from \(input.size) \(input.format.rawValue)"))
                loggedProblems.removeAll()
            } catch {
                logOnce("\(error)", level: .error, retrying: "tracking goes on; opening \(path) again every \(VisionRunner.reopenInterval)")
                return
            }
        }
        guard let output else { return }
        let start = MonotonicClock.now()
        do {
            if try output.write(frame.bytes, input: input, stride: capture.stride) {
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
