import DockProtocol
import DockSimulator
import Foundation
import Testing
import V4L2Protocol

@testable import DockLinks

/// The UVC session's rules as transcripts in virtual time, through the seam: every ioctl it
/// asks for is a framed request, answered by an emulated camera of a model in `Protocol/uvc/`.
@Suite struct UVCSessionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/uvc")

    static func model(_ name: String) -> UVCCameraModel {
        let text = try! String(contentsOf: directory.appendingPathComponent("\(name).json"), encoding: .utf8)
        return try! UVCCameraModel.parse(json: text)
    }

    /// A session and the camera at the other end of the seam, with the time moved by hand.
    struct Rig {
        var session: UVCSession
        var camera: UVCCamera
        var now = Duration.zero
        var events: [SessionEvent] = []
        var opens = 0
        var closes = 0
        /// Whether the shell's port is open (writes reach the camera).
        var isOpen = false
        /// How long the camera takes to answer each control query (a slow enumeration).
        var queryDelay: Duration = .zero
        private var decoder = V4L2Frame.Decoder.requests()
        private var due: [(time: Duration, bytes: [UInt8])] = []

        init(
            model: String = "obsbot-tiny", adjustModel: (inout UVCCameraModel) -> Void = { _ in },
            configure: (inout UVCSession.Configuration) -> Void = { _ in }, camera adjust: (inout UVCCamera) -> Void = { _ in }
        ) {
            var model = UVCSessionTests.model(model)
            adjustModel(&model)
            var configuration = UVCSession.Configuration(model: model)
            configuration.identifier = "/dev/video0"
            configure(&configuration)
            session = UVCSession(configuration: configuration)
            camera = UVCCamera(model: model)
            adjust(&camera)
        }

        mutating func perform(_ actions: [SessionAction]) {
            for action in actions {
                switch action {
                case .openTransport:
                    opens += 1
                    isOpen = true
                    perform(session.transportOpened(now: now))
                case .closeTransport:
                    closes += 1
                    isOpen = false
                case .write(let bytes):
                    guard isOpen else { continue }
                    let requests = try! decoder.requests(bytes)
                    for request in requests {
                        let reply = camera.handle(request, now: now)
                        if queryDelay > .zero, request.request == V4L2Request.queryExtendedControl {
                            due.append((now + queryDelay, reply.encode()))
                            continue
                        }
                        perform(session.bytesReceived(reply.encode(), now: now))
                    }
                case .emit(let event): events.append(event)
                }
            }
        }

        mutating func start() {
            perform(session.start(now: now))
        }

        @discardableResult
        mutating func send(_ command: AccessoryCommand) -> CommandID? {
            let sent = session.send(command, now: now)
            perform(sent.actions)
            return sent.id
        }

        /// Lets time pass in 10 ms steps.
        mutating func wait(_ duration: Duration) {
            let end = now + duration
            while now < end {
                now += .milliseconds(10)
                camera.advance(to: now)
                while let next = due.first, next.time <= now, isOpen {
                    due.removeFirst()
                    perform(session.bytesReceived(next.bytes, now: now))
                }
                perform(session.tick(now: now))
            }
        }

        /// The controls of every `S_EXT_CTRLS` the camera was given, from `index` on.
        func sets(from index: Int = 0) -> [[(id: UInt32, value: Int32)]] {
            camera.requests[index...].filter { $0.request == V4L2Request.setExtendedControls }
                .map { try! V4L2ExtendedControls.decode($0.bytes).controls }
        }

        var attachCount: Int { events.filter { if case .attached = $0 { true } else { false } }.count }
    }

    static func velocity(yawDegrees: Double, pitchDegrees: Double, ttl: Duration = .seconds(1)) -> AccessoryCommand {
        .velocity(yawRadiansPerSecond: yawDegrees * .pi / 180, pitchRadiansPerSecond: pitchDegrees * .pi / 180, timeToLive: ttl)
    }

    static func move(yawDegrees: Double, pitchDegrees: Double) -> AccessoryCommand {
        .move(yawRadians: yawDegrees * .pi / 180, pitchRadians: pitchDegrees * .pi / 180, pace: .duration(.seconds(1)))
    }

    static func values(_ set: [(id: UInt32, value: Int32)]) -> [UInt32: Int32] {
        Dictionary(uniqueKeysWithValues: set.map { ($0.id, $0.value) })
    }

    // MARK: Attaching and classifying

    @Test func anOBSBOTAttachesAsAMechanicalCameraWithSpeedControlsAndZoom() throws {
        var rig = Rig()
        rig.start()
        #expect(rig.session.state == .ready(isDocked: true))
        #expect(rig.attachCount == 1)
        #expect(rig.session.controls.panTilt == .mechanical)
        #expect(rig.session.controls.velocity == .speedControls)
        #expect(rig.session.capabilities == [.orientationMoves, .zoom])
        let info = try #require(rig.session.info)
        #expect(info.model == "OBSBOT Tiny")
        #expect(abs(info.yaw.maximum.radians - 130 * .pi / 180) < 1e-4, "the range from pan_absolute: ±468000″")
        #expect(abs(info.yaw.maximumSpeed.radiansPerSecond - 160 * 0.75 * .pi / 180) < 1e-4, "160 units of 0.75°/s")
        let names = rig.camera.requests.map { V4L2Request.name(of: $0.request) }
        #expect(Array(names.prefix(7)) == ["QUERYCAP"] + Array(repeating: "QUERY_EXT_CTRL", count: 6))
        #expect(!names.contains("S_CTRL"), "never a lone control write")
    }

    @Test func aLogitechC920IsDigitalAndSteppedAbsolute() {
        var rig = Rig(model: "logitech-c920")
        rig.start()
        #expect(rig.session.controls.panTilt == .digital)
        #expect(rig.session.controls.velocity == .steppedAbsolute)
        #expect(rig.session.controls.summary == "digital pan/tilt, stepped absolute, zoom")
        // Classified from the ranges alone too (±10° and an absolute zoom), without the model's word.
        var unmarked = Rig(model: "logitech-c920", configure: { $0.isDigital = false })
        unmarked.start()
        #expect(unmarked.session.controls.panTilt == .digital)
    }

    @Test func anOldDriverIsAskedWithQueryControl() {
        var rig = Rig(camera: { $0.knowsOnlyLegacyQuery = true })
        rig.start()
        #expect(rig.session.state == .ready(isDocked: true))
        #expect(rig.session.controls.panSpeed?.maximum == 160)
        #expect(rig.camera.requests.filter { $0.request == V4L2Request.queryControl }.count == 6)
    }

    @Test func aWebcamWithoutPanOrTiltIsNotOurs() {
        var bare = UVCSessionTests.model("generic")
        bare.controls = bare.controls.filter { $0.id == V4L2ControlID.zoomAbsolute }
        var rig = Rig()
        rig.camera = UVCCamera(model: bare)
        rig.start()
        #expect(rig.events.contains(.handshakeFailed))
        #expect(rig.closes == 1)
        #expect(rig.session.state == .disconnected)
    }

    /// A camera slow to enumerate (OBSBOT's SDK takes seconds) is waited for, query by query;
    /// one that stops answering is taken for gone after `replyTimeout`.
    @Test func aSlowEnumerationIsWaitedForAndASilentCameraDropped() {
        var slow = Rig()
        slow.queryDelay = .milliseconds(900)
        slow.start()
        slow.wait(.seconds(5))
        #expect(slow.attachCount == 0, "still enumerating: 6 queries of 0.9 s")
        slow.wait(.seconds(1))
        #expect(slow.attachCount == 1)
        #expect(!slow.events.contains(.disconnected))
        var silent = Rig()
        silent.queryDelay = .seconds(6)
        silent.start()
        silent.wait(.milliseconds(4990))
        #expect(silent.closes == 0)
        silent.wait(.milliseconds(20))
        #expect(silent.closes == 1, "5 s without an answer: closed and retried")
        #expect(silent.attachCount == 0)
    }

    // MARK: The rules

    /// The camera's first write is both speeds 0 — a camera a host before us left moving
    /// stops — and never the control's default (20 on the OBSBOT Tiny), in no path.
    @Test func theNonZeroDefaultIsNeverWrittenBack() {
        var rig = Rig()
        rig.start()
        let first = rig.sets()
        #expect(first.count == 1)
        #expect(Self.values(first[0]) == [V4L2ControlID.panSpeed: 0, V4L2ControlID.tiltSpeed: 0])
        rig.send(Self.velocity(yawDegrees: 30, pitchDegrees: 0))
        rig.wait(.milliseconds(100))
        rig.send(.stop)
        rig.send(Self.velocity(yawDegrees: 0, pitchDegrees: 0))
        rig.wait(.milliseconds(100))
        let speeds = rig.sets().flatMap { $0 }.filter { $0.id == V4L2ControlID.panSpeed || $0.id == V4L2ControlID.tiltSpeed }
        #expect(!speeds.contains { $0.value == 20 }, "the default is not a stop")
        #expect(Self.values(rig.sets().last!) == [V4L2ControlID.panSpeed: 0, V4L2ControlID.tiltSpeed: 0])
    }

    /// A speed's sign is its direction; its magnitude runs to the maximum in both directions —
    /// the −1 the driver reports as the minimum is no bound — and no further.
    @Test func speedSignAndClampAndTheMinusOneMinimum() {
        var rig = Rig()
        rig.start()
        let mark = rig.camera.requests.count
        rig.send(Self.velocity(yawDegrees: -30, pitchDegrees: 15))  // 0.75°/s a unit: −40, +20
        #expect(
            rig.sets(from: mark).map(Self.values) == [[V4L2ControlID.panSpeed: -40, V4L2ControlID.tiltSpeed: 20]],
            "both speeds in one S_EXT_CTRLS, the sign the direction, −40 past the −1 minimum")
        rig.send(Self.velocity(yawDegrees: -1000, pitchDegrees: 1000))
        #expect(
            Self.values(rig.sets().last!) == [V4L2ControlID.panSpeed: -160, V4L2ControlID.tiltSpeed: 120],
            "clamped to each control's maximum")
        let count = rig.sets().count
        rig.send(Self.velocity(yawDegrees: -1000, pitchDegrees: 1000))
        #expect(rig.sets().count == count, "the same speeds again: nothing written")
        #expect(rig.events.filter { if case .answered(_, .accepted) = $0 { true } else { false } }.count == 3, "each one accepted")
        rig.wait(.milliseconds(200))
        #expect(rig.camera.panArcSeconds < -40_000, "the camera turned left: \(rig.camera.panArcSeconds)″")
    }

    @Test func aGenericCameraClampsAtTheSpeedByte() {
        let limit = UVCControls.speedMagnitudeLimit(
            V4L2ControlDescription(
                id: V4L2ControlID.panSpeed, name: "Pan, Speed", minimum: -1,
                maximum: 1000, step: 1, defaultValue: 0))
        #expect(limit == 255)
    }

    /// Pan and tilt absolute go in one `S_EXT_CTRLS`, clamped to the range and on the step grid.
    @Test func panAndTiltAreWrittenTogether() {
        var rig = Rig()
        rig.start()
        rig.send(Self.velocity(yawDegrees: 30, pitchDegrees: 0))
        let mark = rig.camera.requests.count
        rig.send(Self.move(yawDegrees: 10.4, pitchDegrees: -2))
        let sets = rig.sets(from: mark)
        #expect(sets.count == 2)
        #expect(Self.values(sets[0]) == [V4L2ControlID.panSpeed: 0, V4L2ControlID.tiltSpeed: 0], "the drive stops first")
        #expect(sets[1].map(\.id) == [V4L2ControlID.panAbsolute, V4L2ControlID.tiltAbsolute])
        #expect(sets[1].map(\.value) == [36000, -7200], "10.4° snaps to 10° (step 3600″), −2° to −7200″")
        rig.send(Self.move(yawDegrees: 170, pitchDegrees: 0))
        #expect(rig.sets().last!.map(\.value) == [468000, 0], "clamped to the range")
        #expect(!rig.camera.requests.contains { $0.request == V4L2Request.setControl })
    }

    /// A camera without speed controls: the velocity is an absolute target moving at it, step by
    /// step, both axes in each write; it ends with the time-to-live.
    @Test func aVelocityWithoutSpeedControlsStepsTheAbsoluteTarget() {
        var rig = Rig(model: "logitech-c920")
        rig.start()
        let mark = rig.camera.requests.count
        rig.send(Self.velocity(yawDegrees: 9, pitchDegrees: 0, ttl: .seconds(1)))
        rig.wait(.seconds(2))
        let sets = rig.sets(from: mark)
        #expect(sets.allSatisfy { $0.map(\.id) == [V4L2ControlID.panAbsolute, V4L2ControlID.tiltAbsolute] })
        let pans = sets.map { $0[0].value }
        #expect(pans == pans.sorted() && Set(pans).count == pans.count, "a new target each write, rising: \(pans)")
        #expect(pans.last == 32400, "9°/s for 1 s, one step ahead: \(pans)")
        #expect(pans.count == 9 || pans.count == 10, "a write per 3600″ step, not one per tick: \(pans.count)")
    }

    /// A tracker sends a velocity every tick: the stepped target moves with the time that
    /// passed, not a step per message — thirty messages a second at 3°/s turn it 3° a second,
    /// not three times that (which made the closed loop run away from its subject).
    @Test func aStreamOfVelocitiesStepsTheTargetByTheTimeThatPassed() {
        var rig = Rig(model: "logitech-c920")
        rig.start()
        let mark = rig.camera.requests.count
        for _ in 0..<30 {
            rig.send(Self.velocity(yawDegrees: 3, pitchDegrees: 0, ttl: .seconds(1)))
            rig.wait(.milliseconds(30))
        }
        let pans = rig.sets(from: mark).map { $0[0].value }
        // The last at 0.87 s: 2.61° at 3°/s, one 100 ms step (0.3°) ahead: 2.91°, snapped to the
        // 1° step: 3° (a step per message would be 30 × 0.3° = 9°).
        #expect(pans.last == 10800, "\(pans)")
        #expect(pans == pans.sorted(), "\(pans)")
    }

    /// Zoom is `ZOOM_ABSOLUTE` from its minimum to its maximum, snapped to its step, in one
    /// `S_EXT_CTRLS` of its own; a camera without an absolute zoom cannot be zoomed.
    @Test func zoomWritesTheAbsoluteZoomAsAFractionOfItsRange() throws {
        var rig = Rig(model: "insta360-link")  // zoom_absolute 100…400
        #expect(rig.session.zoomFraction(nearest: 0.5) == nil, "not in session yet")
        #expect(rig.session.send(.zoom(fraction: 0.5), now: rig.now) == .dropped, "not in session yet")
        rig.start()
        let mark = rig.camera.requests.count
        #expect(rig.session.zoomFraction(nearest: 0.5) == 0.5)
        let half = rig.send(.zoom(fraction: 0.5))
        #expect(rig.sets(from: mark).last!.map(\.id) == [V4L2ControlID.zoomAbsolute])
        #expect(rig.camera.values[V4L2ControlID.zoomAbsolute] == 250)
        #expect(half != nil && rig.events.last == half.map { .answered($0, .accepted) }, "answered when the write returned")
        #expect(rig.session.zoomFraction(nearest: -3) == 0)
        rig.send(.zoom(fraction: -3))
        #expect(rig.camera.values[V4L2ControlID.zoomAbsolute] == 100, "clamped to the range")
        #expect(rig.session.zoomFraction(nearest: .nan) == nil)
        let nan = rig.send(.zoom(fraction: .nan))
        #expect(nan != nil && rig.events.last == nan.map { .answered($0, .refused(CommandRefusal(reason: .outOfRange, command: .zoom))) })

        var bare = UVCSessionTests.model("generic")
        bare.controls = bare.controls.filter { $0.id != V4L2ControlID.zoomAbsolute }
        var plain = Rig()
        plain.camera = UVCCamera(model: bare)
        plain.start()
        #expect(plain.session.state == .ready(isDocked: true))
        #expect(plain.session.zoomFraction(nearest: 0.5) == nil, "no absolute zoom")
        guard let refused = plain.send(.zoom(fraction: 0.5)) else {
            Issue.record("dropped")
            return
        }
        #expect(plain.events.last == .answered(refused, .refused(CommandRefusal(reason: .unsupported, command: .zoom))))
    }

    /// A control that answers `EIO` is left out; the others drive the camera.
    @Test func eioOnOneControlIsTolerated() {
        var rig = Rig(camera: { $0.failingControls = [V4L2ControlID.tiltAbsolute] })
        rig.start()
        #expect(rig.session.state == .ready(isDocked: true))
        #expect(rig.session.controls.failing == [V4L2ControlID.tiltAbsolute])
        #expect(rig.session.controls.summary.hasSuffix("EIO on tilt_absolute"))
        let id = rig.send(Self.move(yawDegrees: 20, pitchDegrees: 5))
        #expect(rig.sets().last!.map(\.id) == [V4L2ControlID.panAbsolute], "only the control that works")
        #expect(id == CommandID(0))
        #expect(rig.events.last == .answered(CommandID(0), .accepted))
    }

    /// Pose reads that fail with `EIO` are counted and waited out: a stall after a second, the
    /// pose again when they answer — the camera is not dropped.
    @Test func failingPoseReadsStallAndResume() {
        var rig = Rig()
        rig.start()
        rig.camera.failsReads = true
        rig.wait(.milliseconds(1200))
        #expect(rig.session.failedReads > 10)
        #expect(rig.events.contains(.telemetryStalled))
        #expect(rig.session.state == .ready(isDocked: true))
        rig.camera.failsReads = false
        rig.wait(.milliseconds(100))
        #expect(rig.events.last == .telemetryResumed)
    }

    /// `ENODEV` is the camera unplugged: closed, and attached again when udev says it is back
    /// (or at the next retry).
    @Test func theCameraGoneAndBack() {
        var rig = Rig()
        rig.start()
        rig.camera.isGone = true
        rig.wait(.milliseconds(100))
        #expect(rig.events.contains(.disconnected))
        #expect(rig.closes == 1)
        #expect(rig.session.state == .disconnected)
        rig.wait(.milliseconds(300))  // the retry finds it still gone: QUERYCAP fails, closed again
        #expect(rig.opens == 2 && rig.closes == 2)
        rig.camera.isGone = false
        rig.perform(rig.session.deviceAppeared(now: rig.now))
        #expect(rig.opens == 3)
        #expect(rig.attachCount == 2)
        #expect(rig.session.disconnectCount == 2)
        #expect(Self.values(rig.sets().last!) == [V4L2ControlID.panSpeed: 0, V4L2ControlID.tiltSpeed: 0], "stopped on return")
    }

    /// A velocity ends at its time-to-live (UVC has none: the session keeps it), and a stop —
    /// what the host sends at exit and for a vanished client — writes both speeds 0.
    @Test func stopAtTheMotionsEndAndOnStop() {
        var rig = Rig()
        rig.start()
        rig.send(Self.velocity(yawDegrees: 30, pitchDegrees: 10, ttl: .milliseconds(300)))
        rig.wait(.milliseconds(290))
        #expect(Self.values(rig.sets().last!) == [V4L2ControlID.panSpeed: 40, V4L2ControlID.tiltSpeed: 13], "still moving")
        rig.wait(.milliseconds(20))
        #expect(Self.values(rig.sets().last!) == [V4L2ControlID.panSpeed: 0, V4L2ControlID.tiltSpeed: 0], "stopped at 300 ms")
        rig.send(Self.velocity(yawDegrees: 30, pitchDegrees: 0))
        #expect(Self.values(rig.sets().last!)[V4L2ControlID.panSpeed] == 40)
        rig.send(.stop)
        #expect(Self.values(rig.sets().last!) == [V4L2ControlID.panSpeed: 0, V4L2ControlID.tiltSpeed: 0], "at once")
        let count = rig.sets().count
        rig.send(.stop)
        #expect(rig.sets().count == count + 1, "a stop is written even when already still")
    }

    /// Where read-back is the target, a new value is taken to be reached `motionLag` later: the
    /// pose keeps the old value until then.
    @Test func readBackOfTheTargetArrivesAfterTheModelsLag() throws {
        var rig = Rig()  // OBSBOT Tiny: read-back is the target, 400 ms
        rig.start()
        rig.wait(.milliseconds(100))
        rig.send(Self.move(yawDegrees: 20, pitchDegrees: 0))
        let moved = rig.now
        rig.wait(.milliseconds(100))
        let early = try #require(rig.session.pose(at: rig.now))
        #expect(abs(early.yawRadians) < 0.05, "read back 20° at once, but not there yet: \(early.yawRadians)")
        rig.wait(.milliseconds(400))
        let late = try #require(rig.session.pose(at: rig.now))
        #expect(abs(late.yawRadians - 20 * .pi / 180) < 1e-3, "there after the lag")
        #expect(rig.now - moved >= .milliseconds(400))
        #expect(try #require(rig.session.poseAge(at: rig.now)) < .milliseconds(100))
    }
}

/// The zoom in the pose history: where the zoom was at each time, as the camera took it and as
/// it answers it, read with the pose — so that a frame is read with the field of view it was
/// taken with — and the magnification the model's table gives for it.
extension UVCSessionTests {
    @Test func theZoomTakenIsInThePoseHistoryWithItsTime() throws {
        // A zoom that jumps (a digital one): the generic model without its travel time.
        var rig = Rig(model: "generic", adjustModel: { $0.zoomFullTravel = .zero })
        rig.start()
        rig.wait(.milliseconds(500))
        #expect(rig.session.pose(at: rig.now)?.zoomFraction == 0, "no zoom written yet: read with the pose, the camera's own")
        /// The zoom in the history every millisecond from 20 ms before `start` to now.
        func zooms(from start: Duration) -> [Double?] {
            var seen: [Double?] = []
            var time = start - .milliseconds(20)
            while time <= rig.now {
                seen.append(rig.session.pose(at: time)?.zoomFraction)
                time += .milliseconds(1)
            }
            return seen
        }
        var sent = rig.now
        rig.send(.zoom(fraction: 1))
        rig.wait(.milliseconds(200))
        var seen = zooms(from: sent)
        #expect(seen.first == 0 && seen.last == 1, "\(seen)")
        #expect(Set(seen.map { $0 ?? -1 }) == [0, 1], "nothing between: \(Set(seen.map { $0 ?? -1 }))")
        let firstAtOne = try #require(seen.firstIndex { $0 == 1 })
        #expect(firstAtOne >= 20 && firstAtOne < 80, "taken within the write's round trip and a poll: \(firstAtOne - 20) ms")
        sent = rig.now
        rig.send(.zoom(fraction: 0.5))
        rig.wait(.milliseconds(200))
        seen = zooms(from: sent)
        #expect(seen.first == 1 && seen.last == 0.5, "\(seen)")
        #expect(Set(seen.map { $0 ?? -1 }) == [1, 0.5], "a step, not a ramp from the last sample: \(Set(seen.map { $0 ?? -1 }))")
        #expect(rig.session.magnification(atZoomFraction: 0.5) == 1.5, "generic: 1× to 2× along the range")
        #expect(Rig(model: "obsbot-tiny").session.magnification(atZoomFraction: 0.5) == nil, "no optics known: nil")
    }

    /// The zoom is read back with the pose, and at once after a write: a camera zoomed by its own
    /// remote or app, or one that did not go where it was told, is in the history as it answers.
    @Test func theZoomIsReadBackAsTheCameraAnswersIt() throws {
        var rig = Rig(model: "generic", adjustModel: { $0.zoomFullTravel = .zero })
        rig.start()
        rig.wait(.milliseconds(300))
        let zoom = try #require(rig.camera.model.control(V4L2ControlID.zoomAbsolute))
        let quarter = Int32(zoom.minimum + (zoom.maximum - zoom.minimum) / 4)
        // Zoomed by someone else (the camera's own app): not by this session.
        let set = V4L2Frame.Request(
            request: V4L2Request.setExtendedControls, bytes: V4L2ExtendedControls.encode([(V4L2ControlID.zoomAbsolute, quarter)]))
        #expect(rig.camera.handle(set, now: rig.now).errno == 0)
        rig.wait(.milliseconds(100))
        let read = try #require(rig.session.pose(at: rig.now)?.zoomFraction)
        #expect(abs(read - 0.25) < 0.02, "the camera's zoom, read with the pose: \(read)")
        let mark = rig.camera.requests.count
        rig.send(.zoom(fraction: 1))
        let after = rig.camera.requests[mark...].map { request in
            (request.request, (try? V4L2ExtendedControls.decode(request.bytes).controls.map(\.id)) ?? [])
        }
        #expect(after.count == 2, "the write, then at once the read: \(after)")
        #expect(after.first?.0 == V4L2Request.setExtendedControls && after.first?.1 == [V4L2ControlID.zoomAbsolute])
        #expect(after.last?.0 == V4L2Request.getExtendedControls && after.last?.1.contains(V4L2ControlID.zoomAbsolute) == true)
        #expect(rig.session.pose(at: rig.now)?.zoomFraction == 1)
    }

    /// A zoom that travels (the generic model: its range in 1.5 s) on a camera that reads back its
    /// target: the history ramps from where the zoom was to the new one at the model's pace, as the
    /// emulated camera's zoom moves — not a step to the target it reads back.
    @Test func aZoomThatTravelsRampsInThePoseHistoryAsTheCameraMoves() throws {
        var rig = Rig(model: "generic")
        #expect(rig.camera.model.zoomFullTravel == .milliseconds(1500) && rig.camera.model.readBackIsTarget)
        rig.start()
        rig.wait(.milliseconds(500))
        let zoom = try #require(rig.camera.model.control(V4L2ControlID.zoomAbsolute))
        let span = Double(zoom.maximum - zoom.minimum)
        /// The camera's own zoom and the history's, as fractions of the range, every 50 ms for
        /// `seconds`.
        func follow(_ seconds: Double) -> [(camera: Double, history: Double)] {
            var seen: [(Double, Double)] = []
            for _ in 0..<Int(seconds * 20) {
                rig.wait(.milliseconds(50))
                let camera = ((rig.camera.zoomPosition ?? 0) - Double(zoom.minimum)) / span
                seen.append((camera, rig.session.pose(at: rig.now)?.zoomFraction ?? -1))
            }
            return seen
        }
        rig.send(.zoom(fraction: 1))
        var seen = follow(2)
        #expect(seen.allSatisfy { abs($0.camera - $0.history) <= 0.05 }, "the history follows the camera's zoom: \(seen)")
        #expect(seen[9].camera > 0.25 && seen[9].camera < 0.4, "a third of the way after half a second: \(seen[9])")
        #expect(seen.last.map { $0.camera == 1 && $0.history == 1 } == true)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $1.history >= $0.history }, "rising all the way")
        // Back to half way, and turned round on the way: from where the zoom is, not from the target.
        rig.send(.zoom(fraction: 0.5))
        rig.wait(.milliseconds(300))
        rig.send(.zoom(fraction: 0.9))
        seen = follow(1)
        #expect(seen.allSatisfy { abs($0.camera - $0.history) <= 0.05 }, "turned round, still together: \(seen)")
        #expect(seen.map(\.history).min()! > 0.75, "it had gone down to about 0.8, never to 0.5")
        #expect(seen.last.map { abs($0.history - 0.9) < 0.01 } == true)
    }

    @Test func thePoseHistoryInterpolatesTheZoomWhereBothSamplesKnowIt() {
        var history = PoseHistory()
        history.record(Pose(yawRadians: 0, pitchRadians: 0), at: .milliseconds(0))
        history.record(Pose(yawRadians: 0, pitchRadians: 0, zoomFraction: 0.2), at: .milliseconds(100))
        history.record(Pose(yawRadians: 0, pitchRadians: 0, zoomFraction: 0.6), at: .milliseconds(200))
        #expect(history.pose(at: .milliseconds(50))?.zoomFraction == nil, "not known before it was")
        #expect(abs((history.pose(at: .milliseconds(150))?.zoomFraction ?? 0) - 0.4) < 1e-12)
        #expect(history.pose(at: .milliseconds(250))?.zoomFraction == 0.6, "extrapolated: as the newest")
    }
}
