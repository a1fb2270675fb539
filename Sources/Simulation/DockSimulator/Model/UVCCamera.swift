import DockNumbers
import DockProtocol
public import V4L2Protocol

/// A UVC PTZ webcam as uvcvideo presents it, answering framed ioctls (`V4L2Frame`) from its
/// model (`Protocol/uvc/*.json`): the controls and their ranges as the driver reports them (the
/// −1 speed minimum, a non-zero speed default), read-back of the target where the model says so,
/// controls that fail with `EIO`, the device gone (`ENODEV`), a driver that knows only the old
/// `QUERYCTRL`. Its motors are the simulated dock's (`AxisPhysics`: speed and acceleration
/// limits, a first-order lag, hard stops at the absolute range): a speed drives the axis at the
/// speed times the model's unit; with the speeds 0 the axis approaches its absolute target at up
/// to the model's absolute rate. Values written are clamped to the range and snapped to the
/// step, as the control framework and uvcvideo do; a speed's magnitude runs to the maximum in
/// both directions. Its zoom travels to `zoom_absolute`'s value at the model's
/// `zoomFullTravel` for the whole range (it jumps where the model gives none), and the picture is
/// magnified as the zoom is on its way.
public struct UVCCamera: Sendable {
    /// The camera's model.
    public let model: UVCCameraModel
    /// Unplugged: every request fails with `ENODEV`.
    public var isGone = false
    /// Controls that fail with `EIO` (the model's, and any added).
    public var failingControls: Set<UInt32>
    /// Pose reads fail with `EIO` (a firmware hiccup).
    public var failsReads = false
    /// An old driver: `QUERY_EXT_CTRL` answers `ENOTTY`.
    public var knowsOnlyLegacyQuery = false
    /// Every request handled, in order (when `keepsRequests`; a long run keeps only the count).
    public private(set) var requests: [V4L2Frame.Request] = []
    /// Whether `requests` keeps each request.
    public var keepsRequests = true
    /// How many requests it answered while plugged in.
    public private(set) var requestsAnswered = 0
    /// How many reads of pan and tilt (`G_EXT_CTRLS`) it answered: a host reads the pose once
    /// its handshake is done, so a read after a fault is a host back in session.
    public private(set) var poseReadsAnswered = 0
    /// The controls' current values (the absolute ones: their targets).
    public private(set) var values: [UInt32: Int32] = [:]
    /// Where the camera points, arc-seconds.
    public var panArcSeconds: Double { pan.outputRadians * arcSecondsPerRadian }
    /// Where the camera points, arc-seconds.
    public var tiltArcSeconds: Double { tilt.outputRadians * arcSecondsPerRadian }
    /// The motors.
    public private(set) var pan: AxisPhysics
    /// The motors.
    public private(set) var tilt: AxisPhysics
    /// Where the zoom is, in `zoom_absolute`'s units: on its way to the control's value at the
    /// model's pace, or at it for a zoom that jumps (nil without the control).
    public var zoomPosition: Double? {
        model.zoomFullTravel > .zero ? travellingZoom : values[V4L2ControlID.zoomAbsolute].map(Double.init)
    }
    private var travellingZoom: Double?
    /// Its video capture: formats, buffers, streaming (frames are the shell's to make).
    public var video = UVCVideoStream()
    private var time: Duration = .zero
    /// Each open file handle's control-event subscriptions (control id: subscription flags), its
    /// events not yet dequeued, and how many it has been sent.
    private var subscriptions: [Int: [UInt32: UInt32]] = [:]
    private var events: [Int: [(control: UInt32, changes: UInt32, value: Int64, time: Duration)]] = [:]
    private var eventCounts: [Int: UInt32] = [:]
    private let arcSecondsPerRadian = 180 / Double.pi * 3600

    /// How fast the motors may change speed, rad/s² (UVC reports none; a small gimbal's).
    public static let accelerationRadiansPerSecondSquared = 20.0

    /// How many times the picture is magnified at the zoom control's maximum (the emulation's
    /// choice, a digital zoom's 2×; the model files give no optics).
    public static let maximumMagnification = 2.0

    /// How many times the picture is magnified at the zoom as set: the model's
    /// `zoomMagnification` table where it has one, else 1 at `zoom_absolute`'s minimum (or
    /// without the control), `maximumMagnification` at its maximum, linearly between.
    public var magnification: Double {
        guard let control = model.control(V4L2ControlID.zoomAbsolute), control.maximum > control.minimum,
            let position = zoomPosition
        else { return 1 }
        let fraction = (position - Double(control.minimum)) / Double(control.maximum - control.minimum)
        return model.magnification(atZoomFraction: fraction) ?? 1 + min(max(fraction, 0), 1) * (Self.maximumMagnification - 1)
    }

    /// A camera of `model`, at rest at 0, 0, its controls at their defaults.
    public init(model: UVCCameraModel) {
        self.model = model
        func axis(_ id: UInt32, speed: UInt32) -> AxisPhysics {
            let range = model.control(id).map { (Double($0.minimum), Double($0.maximum)) } ?? (-648_000, 648_000)
            let speedRange = model.control(speed).map { Double(min(max($0.maximum, -$0.minimum), 255)) } ?? 0
            let fastest = max(speedRange * model.degreesPerSecondPerSpeedUnit, model.absoluteDegreesPerSecond) * .pi / 180
            return AxisPhysics(
                parameters: AxisParameters(
                    minimumRadians: range.0 / 3600 * .pi / 180, maximumRadians: range.1 / 3600 * .pi / 180,
                    maximumSpeedRadiansPerSecond: fastest,
                    maximumAccelerationRadiansPerSecondSquared: Self.accelerationRadiansPerSecondSquared))
        }
        pan = axis(V4L2ControlID.panAbsolute, speed: V4L2ControlID.panSpeed)
        tilt = axis(V4L2ControlID.tiltAbsolute, speed: V4L2ControlID.tiltSpeed)
        failingControls = Set(model.controls.filter(\.failsWithIO).map(\.id))
        for control in model.controls { values[control.id] = Int32(clamping: control.defaultValue) }
        travellingZoom = values[V4L2ControlID.zoomAbsolute].map(Double.init)
        // The speeds' defaults are what the driver reports, not a motion: at rest.
        values[V4L2ControlID.panSpeed] = values[V4L2ControlID.panSpeed].map { _ in 0 }
        values[V4L2ControlID.tiltSpeed] = values[V4L2ControlID.tiltSpeed].map { _ in 0 }
        values[V4L2ControlID.zoomContinuous] = values[V4L2ControlID.zoomContinuous].map { _ in 0 }
    }

    /// How long the camera takes to answer `request`: its share of the model's slow
    /// enumeration for a control query, else nothing.
    public func answerDelay(for request: V4L2Frame.Request) -> Duration {
        guard request.request == V4L2Request.queryExtendedControl || request.request == V4L2Request.queryControl else { return .zero }
        return model.enumerationDelay / max(model.controls.count, 1)
    }

    /// Whether both motors stand still.
    public var isStill: Bool { abs(pan.motorRadiansPerSecond) < 1e-3 && abs(tilt.motorRadiansPerSecond) < 1e-3 }

    /// The camera's cable pulled (`true`) or put back: without power the motors stop where they
    /// are — the speeds go to 0 and the absolute targets to where the axes stand, so the camera
    /// does not move on when it powers up again — and every request fails with `ENODEV` until
    /// it is back.
    public mutating func setUnplugged(_ isUnplugged: Bool, now: Duration) {
        advance(to: now)
        isGone = isUnplugged
        guard isUnplugged else { return }
        for id in [V4L2ControlID.panSpeed, V4L2ControlID.tiltSpeed, V4L2ControlID.zoomContinuous] where values[id] != nil {
            values[id] = 0
        }
        if values[V4L2ControlID.panAbsolute] != nil { values[V4L2ControlID.panAbsolute] = Int32(panArcSeconds.rounded()) }
        if values[V4L2ControlID.tiltAbsolute] != nil { values[V4L2ControlID.tiltAbsolute] = Int32(tiltArcSeconds.rounded()) }
        pan.halt()
        tilt.halt()
        // Powered off: the stream is gone; powered on, it starts at its defaults again.
        var fresh = UVCVideoStream(formats: video.formats, pageSize: video.pageSize)
        fresh.monotonicOrigin = video.monotonicOrigin
        fresh.otherClockOffset = video.otherClockOffset
        video = fresh
    }

    /// Moves the motors on to `now`, in steps of at most 5 ms.
    public mutating func advance(to now: Duration) {
        while now > time {
            let step = min(now - time, .milliseconds(5))
            time += step
            let seconds = step.secondsValue
            pan = drive(pan, speed: V4L2ControlID.panSpeed, target: V4L2ControlID.panAbsolute, seconds: seconds)
            tilt = drive(tilt, speed: V4L2ControlID.tiltSpeed, target: V4L2ControlID.tiltAbsolute, seconds: seconds)
            driveZoom(seconds: seconds)
        }
    }

    /// Moves the zoom towards `zoom_absolute`'s value at the model's pace.
    private mutating func driveZoom(seconds: Double) {
        guard model.zoomFullTravel > .zero, let position = travellingZoom, let target = values[V4L2ControlID.zoomAbsolute],
            let control = model.control(V4L2ControlID.zoomAbsolute)
        else { return }
        let step = Double(control.maximum - control.minimum) / model.zoomFullTravel.secondsValue * seconds
        let remaining = Double(target) - position
        travellingZoom = abs(remaining) <= step ? Double(target) : position + (remaining < 0 ? -step : step)
    }

    private mutating func drive(_ axis: AxisPhysics, speed: UInt32, target: UInt32, seconds: Double) -> AxisPhysics {
        var axis = axis
        if let units = values[speed], units != 0 {
            axis.step(commandedRadiansPerSecond: Double(units) * model.degreesPerSecondPerSpeedUnit * .pi / 180, seconds: seconds)
            // Read back where it went.
            if values[target] != nil { values[target] = Int32((axis.outputRadians * arcSecondsPerRadian).rounded()) }
            return axis
        }
        let rate =
            values[target].map { axis.rate(toward: Double($0) / arcSecondsPerRadian, atMost: model.absoluteDegreesPerSecond * .pi / 180) }
            ?? 0
        axis.step(commandedRadiansPerSecond: rate, seconds: seconds)
        return axis
    }

    /// A file handle closed: its subscriptions and events go with it.
    public mutating func closed(fileHandle: Int) {
        video.closed(fileHandle: fileHandle)
        subscriptions[fileHandle] = nil
        events[fileHandle] = nil
        eventCounts[fileHandle] = nil
    }

    /// Queues a value-change event for every file handle subscribed to `id` (not the one that
    /// made the change, unless it asked for feedback), as the control framework does.
    private mutating func valueChanged(_ id: UInt32, from old: Int32?, by fileHandle: Int) {
        guard let value = values[id], value != old else { return }
        for (handle, subscribed) in subscriptions {
            guard let flags = subscribed[id], handle != fileHandle || flags & V4L2Event.allowFeedback != 0 else { continue }
            events[handle, default: []].append((id, V4L2Event.valueChanged, Int64(value), time))
        }
    }

    private mutating func eventRequest(_ request: V4L2Frame.Request, fileHandle: Int) -> V4L2Frame.Reply {
        func reply(_ errno: Int32, _ bytes: [UInt8] = request.bytes) -> V4L2Frame.Reply {
            V4L2Frame.Reply(request: request.request, errno: errno, bytes: bytes)
        }
        switch request.request {
        case V4L2Request.subscribeEvent:
            // uvcvideo knows control events only.
            guard let asked = V4L2Event.subscription(request.bytes), asked.type == V4L2Event.controlType,
                let control = model.control(asked.id)
            else { return reply(LinuxErrno.invalid) }
            subscriptions[fileHandle, default: [:]][control.id] = asked.flags
            if asked.flags & V4L2Event.sendInitial != 0 {
                events[fileHandle, default: []].append(
                    (
                        control.id, V4L2Event.valueChanged | V4L2Event.flagsChanged,
                        Int64(values[control.id] ?? 0), time
                    ))
            }
            return reply(0)
        case V4L2Request.unsubscribeEvent:
            guard let asked = V4L2Event.subscription(request.bytes) else { return reply(LinuxErrno.invalid) }
            if asked.type == V4L2Event.allTypes {
                subscriptions[fileHandle] = nil
            } else if asked.type == V4L2Event.controlType {
                subscriptions[fileHandle]?[asked.id] = nil
            }
            return reply(0)
        case V4L2Request.dequeueEvent:
            guard var queue = events[fileHandle], !queue.isEmpty,
                let control = model.control(queue[0].control)
            else { return reply(LinuxErrno.noEntry, [UInt8](repeating: 0, count: V4L2Event.size)) }
            let event = queue.removeFirst()
            events[fileHandle] = queue
            let sequence = eventCounts[fileHandle, default: 0]
            eventCounts[fileHandle] = sequence &+ 1
            let nanoseconds = event.time.components.seconds * 1_000_000_000 + event.time.components.attoseconds / 1_000_000_000
            return reply(
                0,
                V4L2Event.control(
                    changes: event.changes, control: control.description, value: event.value,
                    pending: UInt32(queue.count), sequence: sequence, nanoseconds: nanoseconds))
        case V4L2Request.emulatedPollState:  // the emulation's own: events waiting, and frames
            var image = V4L2Event.pendingImage(events[fileHandle]?.count ?? 0)
            image += V4L2Integer.image(video.pollState(for: fileHandle))
            return reply(0, image)
        default:  // the emulation's own: how many are waiting
            return reply(0, V4L2Event.pendingImage(events[fileHandle]?.count ?? 0))
        }
    }

    /// Answers one request at `now`, from the file handle `fileHandle` (each open of the
    /// device is one; they share the camera, each with its own event subscriptions).
    public mutating func handle(_ request: V4L2Frame.Request, now: Duration, fileHandle: Int = 0) -> V4L2Frame.Reply {
        advance(to: now)
        if keepsRequests { requests.append(request) }
        func reply(_ errno: Int32, _ bytes: [UInt8] = request.bytes) -> V4L2Frame.Reply {
            V4L2Frame.Reply(request: request.request, errno: errno, bytes: bytes)
        }
        guard !isGone else { return reply(LinuxErrno.noDevice) }
        requestsAnswered += 1
        switch request.request {
        case V4L2Request.queryCapability:
            let capability = V4L2Capability(
                driver: "uvcvideo", card: model.displayName, busInfo: "usb-emulated-1",
                version: 0x06_01_00, capabilities: 0x8420_0001, deviceCapabilities: 0x0420_0001)
            return reply(0, capability.bytes)
        case V4L2Request.queryExtendedControl, V4L2Request.queryControl:
            let isLegacy = request.request == V4L2Request.queryControl
            if !isLegacy, knowsOnlyLegacyQuery { return reply(LinuxErrno.notTTY) }
            guard request.bytes.count >= 4 else { return reply(LinuxErrno.invalid) }
            guard let control = describe(rawID: request.bytes.uint32LE(at: 0)) else { return reply(LinuxErrno.invalid) }
            if failingControls.contains(control.id) { return reply(LinuxErrno.io) }
            return reply(0, isLegacy ? V4L2QueryControl.encode(control.description) : V4L2QueryExtendedControl.encode(control.description))
        case V4L2Request.getControl, V4L2Request.setControl:
            guard let (id, value) = try? V4L2Control.decode(request.bytes), let control = model.control(id) else {
                return reply(LinuxErrno.invalid)
            }
            if failingControls.contains(id) { return reply(LinuxErrno.io) }
            if request.request == V4L2Request.getControl {
                return reply(0, V4L2Control.encode(id: id, value: readBack(id)))
            }
            let old = values[id]
            values[id] = clamped(value, control)
            valueChanged(id, from: old, by: fileHandle)
            return reply(0)
        case V4L2Request.getExtendedControls, V4L2Request.setExtendedControls, V4L2Request.tryExtendedControls:
            guard let decoded = try? V4L2ExtendedControls.decode(request.bytes) else { return reply(LinuxErrno.invalid) }
            var answered: [(id: UInt32, value: Int32)] = []
            var staged = values
            for (index, entry) in decoded.controls.enumerated() {
                let failed = { (errno: Int32) in
                    reply(errno, V4L2ExtendedControls.encode(which: decoded.which, decoded.controls, errorIndex: UInt32(index)))
                }
                guard let control = model.control(entry.id) else { return failed(LinuxErrno.invalid) }
                if failingControls.contains(entry.id) { return failed(LinuxErrno.io) }
                switch request.request {
                case V4L2Request.getExtendedControls:
                    if failsReads { return failed(LinuxErrno.io) }
                    answered.append((entry.id, readBack(entry.id)))
                default:
                    staged[entry.id] = clamped(entry.value, control)
                    answered.append((entry.id, staged[entry.id]!))
                }
            }
            if request.request == V4L2Request.setExtendedControls {
                let old = values
                values = staged
                for entry in decoded.controls { valueChanged(entry.id, from: old[entry.id], by: fileHandle) }
            }
            if request.request == V4L2Request.getExtendedControls,
                answered.contains(where: { $0.id == V4L2ControlID.panAbsolute || $0.id == V4L2ControlID.tiltAbsolute })
            {
                poseReadsAnswered += 1
            }
            return reply(0, V4L2ExtendedControls.encode(which: decoded.which, answered, errorIndex: UInt32(decoded.controls.count)))
        case V4L2Request.subscribeEvent, V4L2Request.unsubscribeEvent, V4L2Request.dequeueEvent, V4L2Request.emulatedEventsPending,
            V4L2Request.emulatedPollState:
            return eventRequest(request, fileHandle: fileHandle)
        case let number where UVCVideoStream.handles(number):
            return video.handle(request, fileHandle: fileHandle, now: now)
        case V4L2Request.queryMenu:
            return reply(LinuxErrno.invalid)
        default:
            return reply(LinuxErrno.notTTY)
        }
    }

    /// The control a query names: exactly, or with `NEXT_CTRL` the first after it.
    private func describe(rawID: UInt32) -> UVCCameraModel.Control? {
        let next = V4L2ControlFlags.nextControl.rawValue | V4L2ControlFlags.nextCompound.rawValue
        let id = rawID & ~next
        guard rawID & V4L2ControlFlags.nextControl.rawValue != 0 else { return model.control(id) }
        return model.controls.filter { $0.id > id }.min { $0.id < $1.id }
    }

    /// What reading a control answers: the target written (the model's read-back), or where the
    /// axis is.
    private func readBack(_ id: UInt32) -> Int32 {
        if !model.readBackIsTarget {
            if id == V4L2ControlID.panAbsolute { return Int32(panArcSeconds.rounded()) }
            if id == V4L2ControlID.tiltAbsolute { return Int32(tiltArcSeconds.rounded()) }
            if id == V4L2ControlID.zoomAbsolute, let zoomPosition { return Int32(zoomPosition.rounded()) }
        }
        return values[id] ?? 0
    }

    private func clamped(_ value: Int32, _ control: UVCCameraModel.Control) -> Int32 {
        if control.isSpeed {
            let limit = Int32(clamping: min(max(control.maximum, -control.minimum), 255))
            return min(max(value, -limit), limit)
        }
        let step = Int64(max(control.step, 1))
        let low = control.minimum, high = control.maximum
        let inRange = min(max(Int64(value), low), high)
        let snapped = low + ((inRange - low) + step / 2) / step * step
        return Int32(clamping: min(snapped, high))
    }
}

extension UVCCameraModel.Control {
    /// A speed control (`pan_speed`, `tilt_speed`, `zoom_continuous`): write-only, sign = direction.
    var isSpeed: Bool { id == V4L2ControlID.panSpeed || id == V4L2ControlID.tiltSpeed || id == V4L2ControlID.zoomContinuous }
}

extension [UInt8] {
    fileprivate func uint32LE(at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }
}
