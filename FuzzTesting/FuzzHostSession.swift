// libFuzzer entry point for the host session: HostPolicy over the dock-serial session, driven in
// virtual time through `woke(now:)` and its input entry points, with the fuzzer's bytes as the
// accessory's side of the line. Built by `scripts/fuzz host-session` against DockPolicy and the
// modules under it.
//
// The input is a script, one step per record (its first byte says which, modulo 8):
//   0 LEN BYTES...        raw bytes from the accessory, as they come off the line;
//   1 TYPE SEQ SEQ LEN .. one frame with any type byte and payload and a correct CRC, so the
//                         message decoding and the session behind the CRC are reached;
//   2 SEQ                 ExampleSession's accessory info, answering the newest hello (or SEQ);
//   3 N                   N × 4 ms pass: the policy is woken whenever it asked to be;
//   4 KIND ... CLIENT     a client's request (motion with any doubles, stop, control, tracking,
//                         animation, framing, observations of five boxes; with KIND's 0x10 flag
//                         limits, zoom, shot size, region, presets, lost behaviour, framing
//                         speed), KIND's low four bits choosing it and its high four flags (take
//                         over, wait, relative, the second set);
//   5 CLIENT              a client disconnects;
//   6                     the port closes (EOF/EIO); 7: a device appeared (udev).
//
// Invariants checked beyond "no crash":
// - every write is whole, good frames the host may send (hello, heartbeat, velocity, move, stop,
//   indicator) with every field valid, and only while the port is open;
// - a velocity is within the speed the attached dock advertised and the wire's limit, a move's
//   target within the dock's range and its speed positive (issue 25: a speed that rounded to
//   0 µrad/s went out);
// - each request is answered at most once, and only requests that were made;
// - after `woke(now:)` the policy's next wake is later than now (it cannot spin the loop), and
//   `status(now:)` reads without trapping at every step.
import DockLinks
import DockPolicy
import DockProtocol
import DockVocabulary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostSession(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var script = Script(Array(UnsafeBufferPointer(start: start, count: count)))
    var shell = Shell()
    shell.perform(shell.host.start(now: shell.now))
    while let step = script.byte() {
        switch step % 8 {
        case 0:
            let length = Int(script.byte() ?? 0)
            shell.receive(script.bytes(length))
        case 1:
            let type = script.byte() ?? 0
            let sequence = UInt16(script.byte() ?? 0) << 8 | UInt16(script.byte() ?? 0)
            let payload = script.bytes(Int(script.byte() ?? 0) & 0x7F)
            var frame: [UInt8] = []
            FrameEncoder.encodeRaw(typeCode: type, sequence: sequence, payload: payload, into: &frame)
            shell.receive(frame)
        case 2:
            let sequence = shell.lastHello ?? UInt16(script.byte() ?? 0)
            var frame: [UInt8] = []
            try! FrameEncoder.encode(Frame(sequence: sequence, message: .info(ExampleSession.info)), into: &frame)
            shell.receive(frame)
        case 3:
            shell.pass(.milliseconds(4 * Int(script.byte() ?? 0)))
        case 4:
            shell.request(script.request(now: shell.now), from: ClientID(script.byte() ?? 0) % 3 + 1)
        case 5:
            shell.perform(shell.host.clientDisconnected(ClientID(script.byte() ?? 0) % 3 + 1, now: shell.now))
        case 6:
            if shell.isOpen {
                shell.isOpen = false
                shell.perform(shell.host.transportClosed(now: shell.now))
            }
        default:
            shell.perform(shell.host.deviceAppeared(now: shell.now))
        }
        _ = shell.host.status(now: shell.now, device: "/dev/fuzz")
    }
    shell.pass(.milliseconds(300))
    shell.perform(shell.host.shuttingDown(now: shell.now))
    return 0
}

/// The daemon's shell in a few lines: carries out the policy's actions and checks each.
struct Shell {
    var host = HostPolicy()
    var now = Duration.zero
    var isOpen = false
    var nextToken: RequestToken = 0
    var answered: Set<RequestToken> = []
    /// The dock the policy said attached (its limits bound what it may send).
    var info: AccessoryInfo?
    /// The sequence of the newest hello the host wrote.
    var lastHello: UInt16?

    mutating func receive(_ bytes: [UInt8]) {
        guard isOpen, !bytes.isEmpty else { return }
        perform(host.bytesReceived(bytes, now: now))
    }

    mutating func request(_ request: ClientRequest, from client: ClientID) {
        nextToken += 1
        perform(host.requested(request, token: nextToken, from: client, now: now))
    }

    /// Lets `duration` pass, waking the policy whenever it asked to be.
    mutating func pass(_ duration: Duration) {
        let end = now + duration
        var wakes = 0
        while host.nextWake <= end {
            now = max(now, host.nextWake)
            perform(host.woke(now: now))
            precondition(host.nextWake > now, "woken at \(now), it asks to be woken at \(host.nextWake)")
            wakes += 1
            precondition(wakes <= 10_000, "\(wakes) wake-ups in \(duration)")
        }
        now = end
    }

    mutating func perform(_ actions: [HostAction]) {
        for action in actions {
            switch action {
            case .openTransport:
                if !isOpen {
                    isOpen = true
                    perform(host.transportOpened(now: now))
                }
            case .closeTransport:
                isOpen = false
            case .write(let bytes):
                precondition(isOpen, "wrote \(bytes.count) bytes to a closed port")
                check(written: bytes)
            case .reply(let token, _):
                precondition(token >= 1 && token <= nextToken, "a reply to request \(token), of \(nextToken) made")
                precondition(answered.insert(token).inserted, "two replies to request \(token)")
            case .publish(.attached(let attached, _)):
                info = attached
            case .storePresets(let store, let token, _):
                host.presetsStored(store)
                precondition(answered.insert(token).inserted, "two replies to request \(token)")
            case .publish, .log:
                break
            }
        }
    }

    /// Whole good frames the host may send, within the attached dock's limits.
    mutating func check(written bytes: [UInt8]) {
        var decoder = FrameDecoder()
        for result in decoder.decode(bytes) {
            guard case .success(let frame) = result else { preconditionFailure("the host wrote a bad frame: \(result)") }
            let message = frame.message
            precondition(message.firstInvalidField == nil, "the host wrote \(message) with \(message.firstInvalidField!) invalid")
            switch message {
            case .hello:
                lastHello = frame.sequence
            case .heartbeat, .stop, .setIndicator:
                break
            case .setVelocity(let command):
                let wire = WireLimits.rateMagnitudeMicroradiansPerSecond
                precondition(
                    command.yawRate.microradiansPerSecond.magnitude <= wire
                        && command.pitchRate.microradiansPerSecond.magnitude <= wire, "velocity past the wire's limit: \(command)")
                if let info {
                    precondition(
                        command.yawRate.microradiansPerSecond.magnitude <= info.yaw.maximumSpeed.microradiansPerSecond.magnitude
                            && command.pitchRate.microradiansPerSecond.magnitude <= info.pitch.maximumSpeed.microradiansPerSecond.magnitude,
                        "velocity \(command) past the dock's maximum speeds")
                }
            case .moveTo(let move):
                if case .maximumSpeed(let speed) = move.pace {
                    precondition(speed.microradiansPerSecond > 0, "a move at \(speed.microradiansPerSecond) µrad/s")
                }
                if let info {
                    precondition(
                        move.yaw >= info.yaw.minimum && move.yaw <= info.yaw.maximum
                            && move.pitch >= info.pitch.minimum && move.pitch <= info.pitch.maximum, "a move past the dock's range: \(move)"
                    )
                }
            case .info, .ack, .nack, .telemetry, .event, .fault:
                preconditionFailure("the host wrote an accessory's message: \(message)")
            }
        }
        precondition(decoder.bufferedCount == 0, "the host wrote part of a frame")
    }
}

/// The fuzzer's bytes, read from the front.
struct Script {
    var bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + count)
        defer { index = end }
        return Array(bytes[index..<end])
    }

    /// A double: most bytes a small number (−8 to 8 in sixteenths), 0xF8 and up eight raw bytes
    /// (NaN, infinities, subnormals and all).
    mutating func double() -> Double {
        let first = byte() ?? 0
        guard first >= 0xF8 else { return Double(Int8(bitPattern: first)) / 16 }
        var pattern: UInt64 = 0
        for _ in 0..<8 { pattern = pattern << 8 | UInt64(byte() ?? 0) }
        return Double(bitPattern: pattern)
    }

    /// A fraction 0...1.
    mutating func fraction() -> Double { Double(byte() ?? 0) / 255 }

    /// A preset name the API lets through: one of a few, so that saves, recalls and deletes meet.
    mutating func presetName() -> String { ["home", "desk", "door", "wide"][Int(byte() ?? 0) % 4] }

    /// A range the API lets through: finite, its ends in order.
    mutating func range() -> ClosedRange<Double>? {
        guard (byte() ?? 0) % 3 != 0 else { return nil }
        let a = double(), b = double()
        guard a.isFinite, b.isFinite else { return nil }
        return min(a, b)...max(a, b)
    }

    /// The requests that set how the dock frames, each as the API's checks let it through (the
    /// numbers the policy checks itself, the framing speed's, as any double).
    mutating func framingRequest(_ choice: UInt8, takeOver: Bool, waits: Bool) -> ClientRequest {
        switch choice % 11 {
        case 0:
            let speed = (byte() ?? 0) % 2 == 0 ? nil : 0.01 + fraction() * 5
            return .setLimits(
                LimitRequest(yawRadians: range(), pitchRadians: range(), yawSpeedRadiansPerSecond: speed, pitchSpeedRadiansPerSecond: speed)
            )
        case 1: return .setZoom(fraction())
        case 2:
            let shots: [ShotSize] = [.off, .head, .half, .full, .group]
            let pick = Int(byte() ?? 0) % (shots.count + 1)
            return .setShotSize(
                pick < shots.count
                    ? shots[pick]
                    : .fraction(
                        ShotSize.fractionRange.lowerBound + fraction()
                            * (ShotSize.fractionRange.upperBound - ShotSize.fractionRange.lowerBound)))
        case 3:
            let x = fraction() * 0.9, y = fraction() * 0.9
            return .setRegionOfInterest(
                NormalizedRect(x: x, y: y, width: 0.05 + fraction() * (0.95 - x), height: 0.05 + fraction() * (0.95 - y)))
        case 4: return .savePreset(name: presetName())
        case 5: return .listPresets
        case 6: return .recallPreset(name: presetName(), takeOver: takeOver, waitsForEnd: waits)
        case 7: return .deletePreset(name: presetName())
        case 8:
            let after = (byte() ?? 0) % 2 == 0 ? nil : Duration.milliseconds(Int(byte() ?? 0) * 40)
            let action: LostBehaviour.Action?
            switch (byte() ?? 0) % 6 {
            case 0: action = nil
            case 1: action = .hold
            case 2: action = .home
            case 3: action = .pose(yawRadians: (fraction() - 0.5) * 6, pitchRadians: (fraction() - 0.5) * 2)
            case 4: action = .preset(name: presetName())
            default: action = .zoomOut
            }
            return .setLostBehaviour(after: after, action: action)
        case 9:
            let profiles = [nil, "smooth", "normal", "fast", "sideways"]
            return .setFramingSpeed(FramingSpeedChange(profile: profiles[Int(byte() ?? 0) % profiles.count]))
        default:
            // JSON carries finite numbers only (DockCall refuses 1e999); any finite one reaches the policy.
            let optional = { (script: inout Script) -> Double? in
                guard (script.byte() ?? 0) % 2 != 0 else { return nil }
                let value = script.double()
                return value.isFinite ? value : nil
            }
            var change = FramingSpeedChange(profile: nil)
            change.yawMaximumSpeed = optional(&self)
            change.yawAcceleration = optional(&self)
            change.yawDeadBand = optional(&self)
            change.pitchMaximumSpeed = optional(&self)
            change.pitchAcceleration = optional(&self)
            change.pitchDeadBand = optional(&self)
            return .setFramingSpeed(change)
        }
    }

    mutating func duration() -> Duration? {
        let value = byte() ?? 0
        return value == 0 ? nil : .milliseconds(Int(value) * 20 - 100)
    }

    mutating func request(now: Duration) -> ClientRequest {
        // The low four bits choose the request, the high four are flags; 0x10 chooses among the
        // requests that set how the dock frames (limits, zoom, shot, region, presets, lost, speed).
        let kind = byte() ?? 0
        let takeOver = kind & 0x80 != 0
        if kind & 0x10 != 0 { return framingRequest(kind & 0x0F, takeOver: takeOver, waits: kind & 0x40 != 0) }
        switch (kind & 0x0F) % 12 {
        case 0:
            return .motion(
                .velocity(yawRadiansPerSecond: double(), pitchRadiansPerSecond: double(), duration: duration()),
                takeOver: takeOver, waitsForEnd: kind & 0x40 != 0)
        case 1:
            let yaw = double(), pitch = double(), isRelative = kind & 0x20 != 0
            let pace: OrientationPace
            switch (byte() ?? 0) % 3 {
            case 0: pace = .duration(duration() ?? .zero)
            case 1: pace = .maximumSpeed(double())
            default: pace = .fastest
            }
            return .motion(
                .orientation(yawRadians: yaw, pitchRadians: pitch, isRelative: isRelative, pace: pace),
                takeOver: takeOver, waitsForEnd: kind & 0x40 != 0)
        case 2:
            return .motion(
                .animate(AnimationKind.allCases[Int(byte() ?? 0) % AnimationKind.allCases.count]),
                takeOver: takeOver, waitsForEnd: kind & 0x40 != 0)
        case 3: return .motion(.stop, takeOver: takeOver, waitsForEnd: false)
        case 4: return .stop(takeOver: takeOver)
        case 5: return .acquireControl(takeOver: takeOver)
        case 6: return .releaseControl
        case 7: return .setSystemTracking(kind & 0x40 != 0)
        case 8: return .setFramingMode(FramingMode.allCases[Int(byte() ?? 0) % FramingMode.allCases.count])
        case 9: return .selectSubjects((byte() ?? 0) % 2 == 0 ? [] : [Int(byte() ?? 0) % 20])
        case 10: return .selectSubject(at: NormalizedPoint(x: fraction(), y: fraction()))
        default:
            // Five boxes, as the API's checks let them through: inside the image, positive size.
            let boxes = (0..<5).map { _ in
                let x = fraction() * 0.9, y = fraction() * 0.9
                return Observation(
                    kind: .body,
                    box: NormalizedRect(
                        x: x, y: y, width: 0.05 + fraction() * (0.95 - x),
                        height: 0.05 + fraction() * (0.95 - y)),
                    confidence: 0.5 + fraction() / 2)
            }
            return .track(
                ObservationBatch(
                    observations: boxes, camera: CameraInformation(horizontalFieldOfViewRadians: 1.2, aspectRatio: 16.0 / 9),
                    captureTime: max(.zero, now - .milliseconds(Int(byte() ?? 0)))))
        }
    }
}
