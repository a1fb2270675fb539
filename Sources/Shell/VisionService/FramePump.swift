import DockSockets
import DockSystem
import DockVision
import Synchronization

/// The capture thread of a service that writes an output device: it dequeues every frame the
/// camera fills, writes it to the output at once (so the output keeps the camera's rate, whatever
/// the detectors take), and leaves it in a one-slot mailbox for the detection thread, which takes
/// the newest when it is free (an untaken older frame goes straight back to the driver, skipped).
/// The detection thread gives each frame it took back itself (`VideoCapture.requeue`; V4L2 takes
/// a QBUF from one thread while another dequeues). A camera failure ends the thread and is handed
/// over in the mailbox. Owned by the runner; the capture must outlive `stop()`.
final class FramePump: @unchecked Sendable {
    /// What the mailbox holds.
    enum Mail {
        /// A frame and the time it was dequeued.
        case frame(VideoCapture.Frame, dequeued: Duration)
        /// The camera failed.
        case failed(CaptureError)
    }

    /// Readable when mail came.
    let wake: WakeSignal
    private let stopSignal: WakeSignal
    private let finished: WakeSignal
    private let capture: VideoCapture
    private let writer: OutputWriter
    private let lock = Mutex(())
    private var mail: Mail?
    private var skippedFrames = 0
    private var stopping = false

    init(capture: VideoCapture, writer: OutputWriter) throws(SystemError) {
        self.capture = capture
        self.writer = writer
        wake = try WakeSignal()
        stopSignal = try WakeSignal()
        finished = try WakeSignal()
    }

    /// Frames the detection thread never took (a newer came first), besides those the capture
    /// skipped itself.
    var skipped: Int { lock.withLock { _ in skippedFrames } }

    /// Starts the thread.
    func start() throws(SystemError) {
        try DetachedThread.start(name: "vision-capture") { [self] in
            run()
            finished.signal()
        }
    }

    /// Takes the mail, if any.
    func take() -> Mail? {
        wake.drain()
        return lock.withLock { _ in
            defer { mail = nil }
            return mail
        }
    }

    /// Stops the thread and waits for it to end.
    func stop() {
        lock.withLock { _ in stopping = true }
        stopSignal.signal()
        while (try? Poll.waitForReading([finished.descriptor], timeout: .seconds(1)))?.isEmpty ?? false {}
    }

    private func post(_ new: Mail) {
        lock.withLock { _ in
            if case .frame(let older, _) = mail {
                skippedFrames += 1
                try? capture.requeue(older)
            }
            mail = new
        }
        wake.signal()
    }

    private func run() {
        var lastFrame = MonotonicClock.now()
        do throws(CaptureError) {
            while !lock.withLock({ _ in stopping }) {
                let ready = try capture.waitForFrame(timeout: .milliseconds(500), alsoWatching: stopSignal.descriptor.rawValue)
                // Every frame filled, oldest first: each goes to the output; the detection thread
                // gets the newest.
                var took = false
                while ready, let frame = try capture.nextFrame() {
                    let now = MonotonicClock.now()
                    took = true
                    lastFrame = now
                    if frame.flags & UInt32(0x40) == 0 {  // not V4L2_BUF_FLAG_ERROR
                        let captureTime = CaptureTime.of(timestamp: frame.timestamp, flags: frame.flags, dequeued: now).time
                        writer.write(frame, capture: capture, captureTime: captureTime, dequeued: now)
                    }
                    post(.frame(frame, dequeued: now))
                }
                let now = MonotonicClock.now()
                if !took, now - lastFrame > VisionRunner.stallTimeout { throw .stalled(now - lastFrame) }
            }
        } catch {
            post(.failed(error))
        }
    }
}
