import DockLinks
import DockNumbers
import DockOptions
import DockSimulator
import DockSockets
import DockSystem
import Glibc
import Synchronization
import V4L2Protocol

/// `docksim --protocol uvc --v4l2 PATH [--model NAME|FILE] [--quiet]`: an emulated UVC PTZ
/// webcam on a Unix socket at PATH, which the preload library (`docksim --preload-library`)
/// presents to any program as a V4L2 device; each framed ioctl (`Protocol/uvc.md` §3) is
/// answered by a `UVCCamera` of the model, on the wall clock. Each accepted `S_EXT_CTRLS` is
/// logged with its `CLOCK_MONOTONIC` time, so a check can time what reached the camera, and each
/// event subscription, so a check can wait for it before the change it should hear. Its video
/// shows the built-in scene (a person standing 3 m ahead) drawn from `--footage DIR` or the test
/// pattern. And `docksim --preload-library`: the library's absolute path.
enum UVCServe {
    static let usage =
        "usage: docksim --protocol uvc --v4l2 PATH [--model NAME|FILE] [--eio CONTROL]... [--footage DIR] [--frame-log FILE] "
        + "[--corrupt-mjpeg N] [--undecodable-format] [--other-clock] [--quiet] | docksim --preload-library"

    /// `--eio CONTROL`, which may be given more than once: the control's writes fail with EIO.
    static let eio = Option("--eio", .text, placeholder: "CONTROL", help: "make writes of this control fail with EIO (repeatable)")
    /// `--undecodable-format`: the webcam offers H.264 only.
    static let undecodableFormat = Option(
        "--undecodable-format", help: "offer only an H.264 stream, a format a program may not decode")
    /// `--other-clock`: buffers stamped on CLOCK_REALTIME, the flags naming no clock.
    static let otherClock = Option(
        "--other-clock", help: "stamp buffers with CLOCK_REALTIME, their flags without V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC")

    /// Runs the UVC camera when the arguments ask for it; nil when they are another mode's.
    static func runIfAsked(_ arguments: [String]) -> Int32? {
        if arguments == ["--preload-library"] {
            print(preloadLibraryPath)
            return FileContents.exists(atPath: preloadLibraryPath) ? 0 : 1
        }
        guard let index = arguments.firstIndex(of: "--protocol"), index + 1 < arguments.count,
            AccessoryProtocol(name: arguments[index + 1]) == .uvc
        else { return nil }
        // With a scenario or a camera app, the webcam is in the room: the scenario run's.
        guard !arguments.contains("--scenario"), !arguments.contains("--camera") else { return nil }
        // The webcam alone takes docksim's --protocol, --v4l2, --model and --quiet, and --eio.
        let parsed: ParsedOptions
        do throws(OptionError) {
            parsed = try OptionParser.parse(
                arguments,
                options: [
                    OptionTable.accessoryProtocol, OptionTable.v4l2, OptionTable.model,
                    OptionTable.quiet, eio, OptionTable.footage, OptionTable.frameLog, OptionTable.corruptMJPEG,
                    undecodableFormat, otherClock,
                ])
        } catch {
            printError("docksim: \(error.message) (for --protocol uvc without a scenario)\n\(usage)")
            return 64
        }
        if let word = parsed.words.first {
            printError("docksim: unknown argument '\(word)' for --protocol uvc\n\(usage)")
            return 64
        }
        let path = parsed.text(OptionTable.v4l2)
        let modelName = parsed.text(OptionTable.model) ?? "generic"
        let isQuiet = parsed.flag(OptionTable.quiet)
        var failing: Set<UInt32> = []
        for name in parsed.texts(eio) {
            guard let id = V4L2ControlID.id(named: name) else {
                printError("docksim: --eio needs a control name (pan_absolute, tilt_speed, ...), got '\(name)'\n\(usage)")
                return 64
            }
            failing.insert(id)
        }
        guard let path, !path.isEmpty else {
            printError("docksim: --protocol uvc needs --v4l2 PATH\n\(usage)")
            return 64
        }
        guard let model = model(named: modelName) else { return 64 }
        let video: VideoOptions
        do throws(Options.UsageError) {
            video = try VideoOptions(parsed)
        } catch {
            printError("docksim: \(error.message)\n\(usage)")
            return 64
        }
        let quirks = VideoQuirks(isUndecodable: parsed.flag(undecodableFormat), isOnOtherClock: parsed.flag(otherClock))
        do {
            return try serve(model: model, path: path, failing: failing, video: video, quirks: quirks, isQuiet: isQuiet)
        } catch {
            printError("docksim: \(error)")
            return 1
        }
    }

    /// A built-in model by name, or a model file; nil (with the reason printed) when neither.
    static func model(named name: String) -> UVCCameraModel? {
        if let builtIn = UVCCameraModel.named(name) { return builtIn }
        if let data = try? FileContents.read(atPath: name),
            let parsed = try? UVCCameraModel.parse(json: String(decoding: data, as: UTF8.self))
        {
            return parsed
        }
        let names = UVCCameraModel.builtIn.map(\.name).joined(separator: ", ")
        printError("docksim: no UVC model '\(name)' (there are \(names), or a JSON file)")
        return nil
    }

    /// Where the preload library is: beside this executable, as the package builds them.
    static var preloadLibraryPath: String {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = target.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
        let executable =
            count > 0 ? String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let directory = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        return directory + "/libdockd-uvc-preload.so"
    }

    /// What is wrong with the webcam's video on purpose (`--undecodable-format`, `--other-clock`).
    struct VideoQuirks {
        var isUndecodable = false
        var isOnOtherClock = false
    }

    private static func serve(
        model: UVCCameraModel, path: String, failing: Set<UInt32>, video: VideoOptions, quirks: VideoQuirks, isQuiet: Bool
    ) throws -> Int32 {
        let log: @Sendable (String) -> Void = { message in if !isQuiet { printError("docksim: \(message)") } }
        signal(SIGPIPE, SIG_IGN)
        let footage: Footage
        do {
            footage = try Footage.load(directory: video.footagePath)
        } catch {
            printError("docksim: \(error)")
            return 1
        }
        let maker = try FrameMaker(footage: footage, frameLogPath: video.frameLogPath, corruptEvery: video.corruptEvery)
        let signals = try TerminationSignals()
        let listener = try UnixSocket.listen(path: path, mode: 0o666)
        defer {
            listener.close()
            unlink(path)
        }
        var emulated = UVCCamera(model: model)
        emulated.failingControls.formUnion(failing)  // --eio: firmware that does not answer these
        emulated.keepsRequests = false  // a long run would keep every poll and every buffer
        // The webcam's clock: CLOCK_MONOTONIC from now (buffer timestamps are on it).
        let start = MonotonicClock.now()
        if quirks.isUndecodable { emulated.video = UVCVideoStream(formats: UVCVideoFormat.undecodable) }
        emulated.video.monotonicOrigin = start
        if quirks.isOnOtherClock {
            var realtime = timespec()
            clock_gettime(CLOCK_REALTIME, &realtime)
            emulated.video.otherClockOffset = .seconds(realtime.tv_sec) + .nanoseconds(realtime.tv_nsec) - MonotonicClock.now()
        }
        let now: @Sendable () -> Duration = { MonotonicClock.now() - start }
        let camera = try SharedCamera(emulated, log: log)
        // What it sees: the built-in scene (one person standing 3 m ahead, swaying), from its
        // start.
        let room = Simulation(scenario: Scenario.defaultScene)
        log("UVC camera \(model.displayName) (\(model.name)) on \(path); LD_PRELOAD=\(preloadLibraryPath); video: \(footage.source)")
        var reported = (pan: 0.0, tilt: 0.0)
        var nextFileHandle = 0
        var previous = reported
        while true {
            let due = camera.state.withLock { $0.camera.video.nextFrameDue }
            let wait = due.map { max(.zero, min(.milliseconds(100), $0 - now())) } ?? .milliseconds(100)
            let ready = try Poll.waitForReading([listener, signals.descriptor, camera.wake.descriptor], timeout: wait)
            if ready.contains(camera.wake.descriptor) { camera.wake.drain() }
            if ready.contains(signals.descriptor), let number = signals.take(), number != SIGHUP {
                log("stopped by signal \(number)")
                return 0
            }
            if ready.contains(listener), let connection = UnixSocket.accept(listener) {
                nextFileHandle += 1
                let fileHandle = nextFileHandle
                camera.state.withLock { $0.video.opened(fileHandle) }
                do {
                    try DetachedThread.start(name: "docksim uvc client") {
                        answer(connection, fileHandle: fileHandle, camera: camera, model: model, now: now, log: log)
                    }
                } catch {
                    log("cannot answer a new client: \(error)")
                    camera.state.withLock { $0.video.closed(fileHandle, stream: $0.camera.video) }
                    connection.close()
                }
            }
            makeFrame(camera: camera, room: room, maker: maker, now: now())
            let position = camera.state.withLock { state in
                state.camera.advance(to: now())
                return (pan: state.camera.panArcSeconds / 3600, tilt: state.camera.tiltArcSeconds / 3600)
            }
            // Every half degree on the way, and where it comes to rest (so a move's end is always
            // in the log, however close to the last report it is).
            let isResting = abs(position.pan - previous.pan) < 0.01 && abs(position.tilt - previous.tilt) < 0.01
            previous = position
            let moved = max(abs(position.pan - reported.pan), abs(position.tilt - reported.tilt))
            if moved >= 0.5 || (isResting && moved >= 0.05) {
                reported = position
                log("camera at pan \(DecimalText.fixed(position.pan, decimals: 1))° tilt \(DecimalText.fixed(position.tilt, decimals: 1))°")
            }
        }
    }

    /// Draws the frame due by `now`, if one is and a buffer waits for it: the scene taken under
    /// the lock, drawn outside it (the buffers' memory stays alive while it is drawn in), then
    /// handed back.
    private static func makeFrame(camera: SharedCamera, room: Simulation, maker: FrameMaker, now: Duration) {
        let job = camera.state.withLock { state -> (UVCVideoStream.FrameSlot, SharedMemory, VideoScene, Duration)? in
            state.camera.advance(to: now)
            guard let slot = state.camera.video.beginFrame(now: now) else { return nil }
            guard let memory = state.video.memory(for: slot.generation) else {
                state.camera.video.finishFrame(slot, bytesUsed: 0, isDamaged: true)
                return nil
            }
            let scene = VideoScene.make(
                subjects: room.subjects, camera: room.camera, yawRadians: state.camera.pan.outputRadians,
                pitchRadians: state.camera.tilt.outputRadians, magnification: state.camera.magnification, captureTime: slot.captureTime)
            return (slot, memory, scene, state.camera.video.monotonicOrigin)
        }
        guard let (slot, memory, scene, origin) = job else { return }
        let drawn = maker.draw(scene, into: slot, of: memory, monotonicOrigin: origin)
        camera.state.withLock { state in
            state.camera.video.finishFrame(slot, bytesUsed: drawn.bytesUsed, isDamaged: false)
            state.video.updateReadiness(state.camera.video)
        }
    }

    /// Answers one program's framed ioctls until it closes the device.
    private static func answer(
        _ connection: FileDescriptor, fileHandle: Int, camera: SharedCamera, model: UVCCameraModel,
        now: @Sendable () -> Duration, log: @Sendable (String) -> Void
    ) {
        defer {
            connection.close()
            camera.state.withLock { state in
                state.camera.closed(fileHandle: fileHandle)
                state.video.closed(fileHandle, stream: state.camera.video)
                state.video.updateReadiness(state.camera.video)
            }
        }
        var decoder = V4L2Frame.Decoder.requests()
        let perQuery = model.enumerationDelay / max(model.controls.count, 1)
        while true {
            guard let ready = try? Poll.waitForReading([connection], timeout: .seconds(1)) else { return }
            guard ready.contains(connection) else { continue }
            let bytes: [UInt8]
            switch try? connection.read(maximumCount: 65_536) {
            case .bytes(let read)?: bytes = read
            case .wouldBlock?: continue
            case .hangUp?, nil: return
            }
            guard let requests = try? decoder.requests(bytes) else {
                log("a client sent bytes that are not framed ioctls; closing it")
                return
            }
            for request in requests {
                if perQuery > .zero, request.request == V4L2Request.queryExtendedControl || request.request == V4L2Request.queryControl {
                    usleep(useconds_t(perQuery / .microseconds(1)))  // the model's slow enumeration
                }
                let (reply, descriptors, started) = camera.state.withLock { state in
                    let wasStreaming = state.camera.video.isStreaming
                    let reply = state.camera.handle(request, now: now(), fileHandle: fileHandle)
                    let descriptors = state.video.replied(to: request, with: reply, fileHandle: fileHandle, stream: state.camera.video)
                    return (reply, descriptors, !wasStreaming && state.camera.video.isStreaming)
                }
                if started { camera.wake.signal() }  // the main loop times the frames
                if request.request == V4L2Request.subscribeEvent, reply.errno == 0,
                    let asked = V4L2Event.subscription(request.bytes)
                {
                    // Said, so that a program's subscription is an event a script can wait for
                    // before it writes the control whose change it should hear.
                    log("client \(fileHandle) subscribed to \(V4L2ControlID.name(of: asked.id) ?? "\(asked.id)") events")
                }
                if request.request == V4L2Request.setExtendedControls, reply.errno == 0,
                    let controls = try? V4L2ExtendedControls.decode(request.bytes).controls
                {
                    var monotonic = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &monotonic)
                    let stamp = DecimalText.fixed(Double(monotonic.tv_sec) + Double(monotonic.tv_nsec) / 1e9, decimals: 6)
                    log(
                        "set " + controls.map { "\(V4L2ControlID.name(of: $0.id) ?? "\($0.id)")=\($0.value)" }.joined(separator: ",")
                            + " at \(stamp)")
                }
                let sent = UnixSocket.send(reply.encode(), passing: descriptors, on: connection)
                for descriptor in descriptors { descriptor.close() }
                guard sent else { return }
            }
        }
    }
}

/// The one camera every connected program talks to, with its video's shared memory and
/// counters, under one lock.
private final class SharedCamera: Sendable {
    struct State {
        var camera: UVCCamera
        let video: WebcamVideo
    }

    let state: Mutex<State>
    /// Wakes the main loop (streaming started: a frame falls due sooner than it would wake).
    let wake: WakeSignal
    init(_ camera: UVCCamera, log: @escaping @Sendable (String) -> Void) throws {
        state = Mutex(State(camera: camera, video: WebcamVideo(log: log)))
        wake = try WakeSignal()
    }
}
