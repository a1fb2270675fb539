import DockNumbers
import DockProtocol
public import V4L2Protocol
import VISCAProtocol

/// A whole simulated run: the dock's firmware behind a cable that can be pulled or get noisy, the
/// camera on it, the room with its subjects, the detector, and the scenario's timeline of faults
/// and user actions. Pure: the caller brings the host's bytes and the time, and carries out what
/// comes back (bytes for the host, observation batches, link changes).
public struct Simulation: Sendable {
    /// The scenario being run.
    public let scenario: Scenario
    /// The dock (idle when a VISCA camera stands in for it).
    public private(set) var firmware: AccessoryFirmware
    /// A VISCA camera in the dock's place, when the run has one: the host speaks VISCA to it,
    /// and the camera world looks through its pan and tilt.
    public private(set) var visca: VISCACamera?
    /// A UVC PTZ webcam in the dock's place, when the run has one: the host sends it framed
    /// ioctls (`Protocol/uvc.md` §3), and the camera world looks through its pan and tilt.
    public private(set) var uvc: UVCCamera?
    /// A Pelco-D pan-tilt head in the dock's place, when the run has one: the host speaks
    /// Pelco-D to it, and the camera world looks through its pan and tilt.
    public private(set) var pelcoD: PelcoDHead?
    /// The camera on the dock.
    public let camera: VirtualCamera
    /// The subjects with their paths resolved.
    public let subjects: [ResolvedSubject]
    /// Simulation time reached.
    public private(set) var now = Duration.zero
    /// Whether the cable is in.
    public private(set) var isPluggedIn = true
    /// Every fault injected so far, with how the system came through it.
    public private(set) var faultLog: [FaultRecord] = []

    private var detector: DetectorModel
    private var linkRandom: SimulationRandom
    private var actions: [TimedAction]
    private var nextAction = 0
    private var nextFrame = 0
    private var pendingBatches: [DetectionBatch] = []
    private var bitErrorRate = 0.0
    private var isHostSilenced = false
    /// The framed ioctls of the one host that `receiveFromHost` serves, and its replies not yet
    /// due (a slow enumeration answers late).
    private var uvcRequests = V4L2Frame.Decoder.requests()
    private var uvcReplies: [(due: Duration, bytes: [UInt8])] = []

    /// Sets up a run at time zero; with `visca`, a VISCA camera of that configuration takes the
    /// dock's place, with `uvc` a UVC webcam of that model, with `pelcoD` a Pelco-D head (the same
    /// scenario, seeds and world otherwise).
    public init(
        scenario: Scenario, visca: VISCACamera.Configuration? = nil, uvc: UVCCameraModel? = nil,
        pelcoD: PelcoDHead.Configuration? = nil
    ) {
        var random = SimulationRandom(seed: scenario.seed)
        self.scenario = scenario
        firmware = AccessoryFirmware(configuration: scenario.accessory, seed: random.next())
        camera = VirtualCamera(setup: scenario.camera)
        let durationSeconds = scenario.duration.secondsValue
        var subjectRandom = random.split()
        subjects = scenario.subjects.map { ResolvedSubject($0, durationSeconds: durationSeconds, random: &subjectRandom) }
        detector = DetectorModel(parameters: scenario.detector, random: random.split())
        if scenario.detector.appearanceLength > 0 {
            detector.appearance = AppearanceModel(
                subjects: scenario.subjects, length: scenario.detector.appearanceLength,
                seed: scenario.seed &+ 0x4150_5045)
        }
        linkRandom = random.split()
        actions = TimedAction.timeline(scenario)
        // Its own seed, so that the rest of the run draws the same numbers as a dock's run.
        self.visca = visca.map { VISCACamera(configuration: $0, seed: scenario.seed &+ 0x5649_5343) }
        self.uvc = uvc.map { model in
            var camera = UVCCamera(model: model)
            camera.keepsRequests = false  // a long run would keep every poll
            return camera
        }
        self.pelcoD = pelcoD.map { PelcoDHead(configuration: $0, seed: scenario.seed &+ 0x5045_4C43) }
    }

    /// The pan and tilt the camera looks through, radians (the dock's, the VISCA camera's, the
    /// webcam's or the Pelco-D head's).
    public var cameraYawRadians: Double {
        visca?.pan.outputRadians ?? uvc?.pan.outputRadians ?? pelcoD?.pan.outputRadians ?? firmware.yaw.outputRadians
    }
    /// The camera's pitch, radians.
    public var cameraPitchRadians: Double {
        visca?.tilt.outputRadians ?? uvc?.tilt.outputRadians ?? pelcoD?.tilt.outputRadians ?? firmware.pitch.outputRadians
    }
    /// Where the camera's pan can go, radians: its axis's end stops.
    public var cameraYawRangeRadians: ClosedRange<Double> {
        let axis = (visca?.pan ?? uvc?.pan ?? pelcoD?.pan ?? firmware.yaw).parameters
        return axis.minimumRadians...max(axis.minimumRadians, axis.maximumRadians)
    }
    /// Whether the motors stand still.
    public var isStill: Bool { visca?.isStill ?? uvc?.isStill ?? pelcoD?.isStill ?? firmware.isStill }

    /// Whether the run has reached its duration.
    public var isFinished: Bool { now >= scenario.duration }

    /// The time of the next camera frame or timeline action after `now`: a real-time shell may
    /// sleep until then.
    public var nextEventTime: Duration {
        min(frameTime(nextFrame), nextAction < actions.count ? actions[nextAction].time : scenario.duration)
    }

    /// Bytes from the host arrive at `time` (not before `now`). To a UVC webcam they are framed
    /// ioctls of one host, each answered in `bytesToHost` when due (at once, or after its share
    /// of a slow enumeration); bytes that are not frames are dropped with what is buffered.
    public mutating func receiveFromHost(_ bytes: some Sequence<UInt8>, at time: Duration) -> SimulationOutput {
        var output = advance(to: time)
        if uvc != nil {
            guard let requests = try? uvcRequests.requests(Array(bytes)) else {
                uvcRequests = V4L2Frame.Decoder.requests()
                return output
            }
            for request in requests {
                let (_, reply, delay) = answerUVC(request, at: now)  // already advanced to `now`
                let due = max(now + delay, uvcReplies.last?.due ?? .zero)
                uvcReplies.append((due, reply.encode()))
            }
            deliverUVCReplies(into: &output)
            return output
        }
        guard isPluggedIn, !isHostSilenced else { return output }
        let delivered = corrupt(Array(bytes))
        if visca != nil {
            accessoryOutput(visca!.receive(delivered, now: now), into: &output)
        } else if pelcoD != nil {
            accessoryOutput(pelcoD!.receive(delivered, now: now), into: &output)
        } else {
            output.bytesToHost += corrupt(firmware.receive(bytes: delivered, now: now))
        }
        checkRecoveries()
        return output
    }

    /// Advances the run to `time`: the dock moves, the camera takes its frames, the detector
    /// delivers what it has finished, and the timeline's faults and actions happen.
    public mutating func advance(to time: Duration) -> SimulationOutput {
        var output = SimulationOutput()
        guard time > now else { return output }
        while true {
            let frameAt = frameTime(nextFrame)
            let actionAt = nextAction < actions.count ? actions[nextAction].time : .seconds(Int64.max / 2)
            let next = min(frameAt, actionAt)
            guard next <= time else { break }
            advanceAccessory(to: next, into: &output)
            now = next
            if actionAt <= frameAt {
                apply(actions[nextAction], into: &output)
                nextAction += 1
            } else {
                capture(into: &output)
                nextFrame += 1
            }
        }
        advanceAccessory(to: time, into: &output)
        now = time
        deliverUVCReplies(into: &output)
        deliverBatches(into: &output)
        checkRecoveries()
        return output
    }

    /// One ioctl to the UVC webcam at `time` (not before `now`), from any of the programs that
    /// have it open: its reply, and how long after `time` the camera gives it (a control query's
    /// share of a slow enumeration). Not plugged in: `ENODEV`. A real-time shell with several
    /// connections calls this for each; `receiveFromHost` does for its one host.
    public mutating func answerUVC(_ request: V4L2Frame.Request, at time: Duration, fileHandle: Int = 0)
        -> (output: SimulationOutput, reply: V4L2Frame.Reply, delay: Duration)
    {
        precondition(uvc != nil, "answerUVC without a UVC camera in the run")
        let output = advance(to: time)
        let reply = uvc!.handle(request, now: now, fileHandle: fileHandle)
        checkRecoveries()
        return (output, reply, reply.errno == 0 ? uvc!.answerDelay(for: request) : .zero)
    }

    /// A connection to the UVC webcam closed: its event subscriptions go.
    public mutating func uvcFileHandleClosed(_ fileHandle: Int) { uvc?.closed(fileHandle: fileHandle) }

    private mutating func deliverUVCReplies(into output: inout SimulationOutput) {
        while let first = uvcReplies.first, first.due <= now {
            uvcReplies.removeFirst()
            output.chunksToHost.append(first.bytes)
            output.bytesToHost += first.bytes
        }
    }

    private func frameTime(_ index: Int) -> Duration {
        .nanoseconds(Int64((Double(index) * 1e9 / scenario.camera.framesPerSecond).rounded()))
    }

    // MARK: The webcam's video

    /// The UVC webcam's next video frame due by `now` (the run already advanced to `now`): the
    /// buffer to fill and the scene to draw in it — the subjects where they are at the frame's
    /// capture time, the camera where it points now and as zoomed. Nil when no frame is due, or
    /// it is dropped (no buffer queued), or there is no webcam.
    public mutating func beginVideoFrame(now time: Duration) -> (slot: UVCVideoStream.FrameSlot, scene: VideoScene)? {
        guard uvc != nil, let slot = uvc!.video.beginFrame(now: time) else { return nil }
        let scene = VideoScene.make(
            subjects: subjects, camera: camera, yawRadians: cameraYawRadians, pitchRadians: cameraPitchRadians,
            magnification: uvc!.magnification, captureTime: slot.captureTime)
        return (slot, scene)
    }

    /// The shell filled `slot`'s buffer with `bytesUsed` bytes (`isDamaged`: flagged `ERROR`).
    public mutating func finishVideoFrame(_ slot: UVCVideoStream.FrameSlot, bytesUsed: Int, isDamaged: Bool = false) {
        uvc?.video.finishFrame(slot, bytesUsed: bytesUsed, isDamaged: isDamaged)
    }

    /// Sets the webcam's stream's clock: the host's `CLOCK_MONOTONIC` at simulation time zero.
    public mutating func setVideoClockOrigin(_ origin: Duration) { uvc?.video.monotonicOrigin = origin }

    private mutating func capture(into output: inout SimulationOutput) {
        let seconds = now.secondsValue
        let yaw = cameraYawRadians, pitch = cameraPitchRadians
        // A webcam's or a VISCA camera's zoom narrows what it sees (a dock's camera does not zoom
        // here).
        let magnification = uvc?.magnification ?? visca?.magnification ?? 1
        let camera = self.camera.zoomed(by: magnification)
        var projections: [PartProjection] = []
        var present: [Int] = [], still: [Int] = []
        for subject in subjects {
            guard let position = subject.position(atSeconds: seconds) else { continue }
            present.append(subject.script.identifier)
            if let before = subject.position(atSeconds: seconds - GroundTruthFrame.stillWindowSeconds) {
                let dx = position.xMeters - before.xMeters, dy = position.yMeters - before.yMeters
                if (dx * dx + dy * dy).squareRoot() < GroundTruthFrame.stillDistanceMeters { still.append(subject.script.identifier) }
            }
            for part in SubjectPart.parts(of: subject.script, xMeters: position.xMeters, yMeters: position.yMeters) {
                if let projection = camera.project(part, yawRadians: yaw, pitchRadians: pitch) {
                    projections.append(projection)
                }
            }
        }
        // The camera app sends the field of view at the widest zoom, as an app that does not
        // drive the zoom knows it (dockd narrows it by the zoom at capture time).
        let (batch, truth) = detector.detect(projections, captureTime: now, camera: self.camera.setup.information)
        pendingBatches.append(batch)
        var frame = GroundTruthFrame(
            captureTime: now, yawRadians: yaw, pitchRadians: pitch, parts: truth,
            presentSubjects: present, stillSubjects: still,
            velocityCommands: firmware.velocityCommands, yawRangeRadians: cameraYawRangeRadians)
        frame.magnification = magnification
        output.truths.append(frame)
    }

    private mutating func deliverBatches(into output: inout SimulationOutput) {
        let due = pendingBatches.filter { $0.deliveryTime <= now }
        guard !due.isEmpty else { return }
        pendingBatches.removeAll { $0.deliveryTime <= now }
        output.batches += due.sorted { $0.deliveryTime < $1.deliveryTime }
    }

    // MARK: The cable

    private mutating func advanceAccessory(to time: Duration, into output: inout SimulationOutput) {
        if uvc != nil {
            uvc!.advance(to: time)
        } else if visca != nil {
            accessoryOutput(visca!.advance(to: time), into: &output)
        } else if pelcoD != nil {
            accessoryOutput(pelcoD!.advance(to: time), into: &output)
        } else {
            output.bytesToHost += dockOutput(firmware.advanceBytes(to: time))
        }
    }

    /// A VISCA camera's writes or datagrams, kept apart for a datagram link and run together for
    /// a byte stream.
    private mutating func accessoryOutput(_ chunks: [[UInt8]], into output: inout SimulationOutput) {
        for chunk in chunks {
            let damaged = dockOutput(chunk)
            guard !damaged.isEmpty else { continue }
            output.chunksToHost.append(damaged)
            output.bytesToHost += damaged
        }
    }

    private mutating func dockOutput(_ bytes: [UInt8]) -> [UInt8] {
        guard isPluggedIn else { return [] }
        return corrupt(bytes)
    }

    /// Flips bits at the current bit-error rate.
    private mutating func corrupt(_ bytes: [UInt8]) -> [UInt8] {
        guard bitErrorRate > 0, !bytes.isEmpty else { return bytes }
        var damaged = bytes
        for index in damaged.indices {
            for bit in 0..<8 where linkRandom.chance(bitErrorRate) {
                damaged[index] ^= 1 << bit
            }
        }
        return damaged
    }

    // MARK: The timeline

    private mutating func apply(_ action: TimedAction, into output: inout SimulationOutput) {
        var frames: [Frame] = []
        switch action.change {
        case .faultStarts(let index):
            let fault = scenario.faults[index]
            faultLog.append(
                FaultRecord(
                    kind: fault.kind.name, startSeconds: now.secondsValue,
                    endSeconds: now.secondsValue + fault.kind.durationSeconds, faultIndex: index))
            if visca != nil {
                applyToCamera(fault.kind, starts: true, index: index, into: &output)
                return
            }
            if uvc != nil {
                applyToWebcam(fault.kind, starts: true, index: index, into: &output)
                return
            }
            if pelcoD != nil {
                applyToHead(fault.kind, starts: true, index: index, into: &output)
                return
            }
            switch fault.kind {
            case .unplug:
                isPluggedIn = false
                firmware.reboot(now: now)
                output.linkChanges.append(.unplugged)
            case .lineNoise(_, let rate): bitErrorRate = rate
            case .telemetryStall: firmware.isTelemetrySuppressed = true
            case .reboot:
                firmware.reboot(now: now)
                markEnded(faultIndex: index)
            case .motorStall(let axis, _): frames = firmware.setBlocked(axis, true, now: now)
            case .hostSilence: isHostSilenced = true
            case .overTemperature: frames = firmware.setOverTemperature(true, now: now)
            case .replyDelay, .replyLoss: break  // a VISCA camera's faults; a dock answers as ever
            }
        case .faultEnds(let index):
            if visca != nil {
                applyToCamera(scenario.faults[index].kind, starts: false, index: index, into: &output)
                markEnded(faultIndex: index)
                return
            }
            if uvc != nil {
                applyToWebcam(scenario.faults[index].kind, starts: false, index: index, into: &output)
                markEnded(faultIndex: index)
                return
            }
            if pelcoD != nil {
                applyToHead(scenario.faults[index].kind, starts: false, index: index, into: &output)
                markEnded(faultIndex: index)
                return
            }
            switch scenario.faults[index].kind {
            case .unplug:
                firmware.reboot(now: now)
                isPluggedIn = true
                output.linkChanges.append(.replugged)
            case .lineNoise: bitErrorRate = 0
            case .telemetryStall: firmware.isTelemetrySuppressed = false
            case .reboot: break
            case .motorStall(let axis, _): frames = firmware.setBlocked(axis, false, now: now)
            case .hostSilence: isHostSilenced = false
            case .overTemperature: frames = firmware.setOverTemperature(false, now: now)
            case .replyDelay, .replyLoss: break
            }
            markEnded(faultIndex: index)
        case .button(let button, let isPressed):
            guard visca == nil, uvc == nil, pelcoD == nil else { return }  // a camera or head has no buttons, zoom rocker or dock sensor
            frames = firmware.button(button, isPressed: isPressed, now: now)
        case .zoom(let steps):
            guard visca == nil, uvc == nil, pelcoD == nil else { return }
            frames = firmware.zoom(steps: steps, now: now)
        case .dock(let docked):
            guard visca == nil, uvc == nil, pelcoD == nil else { return }
            frames = firmware.setDocked(docked, now: now)
        }
        var bytes: [UInt8] = []
        for frame in frames { try? FrameEncoder.encode(frame, into: &bytes) }
        output.bytesToHost += dockOutput(bytes)
    }

    /// A fault as a VISCA camera has it: unplugged, hung (a telemetry stall: it stops answering),
    /// rebooted (a moment unplugged), a noisy line; the dock's own faults (a stalled motor,
    /// over-temperature) it does not report, and host silence it cannot notice.
    private mutating func applyToCamera(
        _ kind: FaultScript.Kind, starts: Bool, index: Int,
        into output: inout SimulationOutput
    ) {
        switch kind {
        case .unplug:
            isPluggedIn = !starts
            accessoryOutput(visca!.setUnplugged(starts, now: now), into: &output)
            output.linkChanges.append(starts ? .unplugged : .replugged)
        case .lineNoise(_, let rate): bitErrorRate = starts ? rate : 0
        case .telemetryStall: visca!.faults.isUnresponsive = starts
        case .reboot:
            _ = visca!.setUnplugged(true, now: now)
            accessoryOutput(visca!.setUnplugged(false, now: now), into: &output)
            markEnded(faultIndex: index)
        case .hostSilence: isHostSilenced = starts
        case .replyDelay(_, let delay): visca!.faults.replyDelay = starts ? delay : .zero
        case .replyLoss(_, let fraction): visca!.faults.replyLossFraction = starts ? fraction : 0
        case .motorStall, .overTemperature: break
        }
    }

    /// A fault as a UVC webcam has it: unplugged (every request `ENODEV`, and in real time the
    /// device gone), hung (a telemetry stall: its pose reads fail with `EIO`), rebooted (a
    /// moment unplugged). A webcam's ioctls cross no noisy line, it reports no stalled motor or
    /// heat, and host silence it cannot notice.
    private mutating func applyToWebcam(
        _ kind: FaultScript.Kind, starts: Bool, index: Int,
        into output: inout SimulationOutput
    ) {
        switch kind {
        case .unplug:
            isPluggedIn = !starts
            uvc!.setUnplugged(starts, now: now)
            output.linkChanges.append(starts ? .unplugged : .replugged)
        case .telemetryStall: uvc!.failsReads = starts
        case .reboot:
            uvc!.setUnplugged(true, now: now)
            uvc!.setUnplugged(false, now: now)
            output.linkChanges += [.unplugged, .replugged]
            markEnded(faultIndex: index)
        case .hostSilence, .lineNoise, .replyDelay, .replyLoss, .motorStall, .overTemperature: break
        }
    }

    /// A fault as a Pelco-D head has it: unplugged, hung (a telemetry stall: it takes nothing in
    /// and answers nothing, its motors going on), rebooted (a moment unplugged), a noisy line,
    /// host silence; it reports no stalled motor or heat.
    private mutating func applyToHead(
        _ kind: FaultScript.Kind, starts: Bool, index: Int,
        into output: inout SimulationOutput
    ) {
        switch kind {
        case .unplug:
            isPluggedIn = !starts
            accessoryOutput(pelcoD!.setUnplugged(starts, now: now), into: &output)
            output.linkChanges.append(starts ? .unplugged : .replugged)
        case .lineNoise(_, let rate): bitErrorRate = starts ? rate : 0
        case .telemetryStall: pelcoD!.isUnresponsive = starts
        case .reboot:
            _ = pelcoD!.setUnplugged(true, now: now)
            accessoryOutput(pelcoD!.setUnplugged(false, now: now), into: &output)
            markEnded(faultIndex: index)
        case .hostSilence: isHostSilenced = starts
        case .replyDelay, .replyLoss, .motorStall, .overTemperature: break
        }
    }

    /// Good frames the accessory has taken from the host (a VISCA camera's packets; a webcam's
    /// pose reads, which a host makes only once its handshake — a slow enumeration — is done; a
    /// Pelco-D head's frames).
    private var accessoryGoodFrames: Int {
        visca?.packetsReceived ?? uvc?.poseReadsAnswered ?? pelcoD?.framesReceived ?? firmware.goodFrameCount
    }

    private mutating func markEnded(faultIndex: Int) {
        guard let index = faultLog.firstIndex(where: { $0.faultIndex == faultIndex }) else { return }
        faultLog[index].goodFramesAtEnd = accessoryGoodFrames
        faultLog[index].endSeconds = now.secondsValue
    }

    /// Notes, for each ended fault, when the host was back in a session with the dock; and, for a
    /// fault that should stop the motors, when they stood still.
    private mutating func checkRecoveries() {
        for index in faultLog.indices {
            if faultLog[index].stoppedAfterSeconds == nil, ["host_silence", "motor_stall"].contains(faultLog[index].kind),
                now.secondsValue >= faultLog[index].startSeconds, isStill
            {
                faultLog[index].stoppedAfterSeconds = now.secondsValue - faultLog[index].startSeconds
            }
            guard faultLog[index].recoveredAfterSeconds == nil, let framesAtEnd = faultLog[index].goodFramesAtEnd,
                visca != nil || uvc != nil || pelcoD != nil || firmware.session != .notReady, accessoryGoodFrames > framesAtEnd
            else { continue }
            faultLog[index].recoveredAfterSeconds = max(0, now.secondsValue - faultLog[index].endSeconds)
        }
    }
}

/// What a step of the simulation produced.
public struct SimulationOutput: Sendable {
    /// Bytes the dock put on the line for the host (after the cable's damage).
    public var bytesToHost: [UInt8] = []
    /// A VISCA camera's or Pelco-D head's output as it left, one write or datagram each (the same bytes as
    /// `bytesToHost`, for a datagram link that must keep them apart).
    public var chunksToHost: [[UInt8]] = []
    /// Observation batches the detector finished, in delivery order.
    public var batches: [DetectionBatch] = []
    /// Ground truth of every frame captured.
    public var truths: [GroundTruthFrame] = []
    /// Cable pulled or put back, in order.
    public var linkChanges: [LinkChange] = []

    /// An empty output.
    public init() {}

    /// Appends another step's output.
    public mutating func append(_ other: SimulationOutput) {
        bytesToHost += other.bytesToHost
        chunksToHost += other.chunksToHost
        batches += other.batches
        truths += other.truths
        linkChanges += other.linkChanges
    }
}

/// A change of the cable.
public enum LinkChange: Hashable, Sendable {
    /// The cable was pulled: the host's port should see a hang-up.
    case unplugged
    /// The cable was put back: the dock powers on again.
    case replugged
}

/// A fault injected during a run and how the system came through it.
public struct FaultRecord: Hashable, Sendable {
    /// The fault's name, as in scenario files.
    public var kind: String
    /// When it started, seconds.
    public var startSeconds: Double
    /// When it ended, seconds.
    public var endSeconds: Double
    /// Seconds from its end until the host was back in a session with the dock; nil while not.
    public var recoveredAfterSeconds: Double?
    /// For host silence and motor stalls: seconds from its start until the motors stood still.
    public var stoppedAfterSeconds: Double?
    /// The fault's index in the scenario.
    var faultIndex: Int
    /// The dock's count of good host frames when the fault ended (nil while it lasts).
    var goodFramesAtEnd: Int?

    /// Whether the host got back to the dock after the fault.
    public var isSurvived: Bool { recoveredAfterSeconds != nil }
}

/// One entry of a scenario's timeline.
struct TimedAction: Sendable {
    enum Change: Sendable {
        case faultStarts(Int)
        case faultEnds(Int)
        case button(AccessoryFirmware.Button, isPressed: Bool)
        case zoom(Int8)
        case dock(Bool)
    }

    var time: Duration
    var change: Change

    /// Every start and end of the scenario's faults and events, in time order (stable for ties).
    static func timeline(_ scenario: Scenario) -> [TimedAction] {
        // The reader holds every time within the scenario's 3600 s, well inside `fromSeconds`' range.
        func at(_ seconds: Double) -> Duration { Duration.fromSeconds(seconds) ?? .zero }
        var actions: [TimedAction] = []
        for (index, fault) in scenario.faults.enumerated() {
            actions.append(TimedAction(time: at(fault.atSeconds), change: .faultStarts(index)))
            if fault.kind != .reboot {
                actions.append(TimedAction(time: at(fault.atSeconds + fault.kind.durationSeconds), change: .faultEnds(index)))
            }
        }
        for event in scenario.events {
            switch event.kind {
            case .press(let button, let duration):
                actions.append(TimedAction(time: at(event.atSeconds), change: .button(button, isPressed: true)))
                actions.append(TimedAction(time: at(event.atSeconds + duration), change: .button(button, isPressed: false)))
            case .zoom(let steps):
                actions.append(TimedAction(time: at(event.atSeconds), change: .zoom(steps)))
            case .dock(let docked):
                actions.append(TimedAction(time: at(event.atSeconds), change: .dock(docked)))
            }
        }
        return actions.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}
