import DockNumbers
import DockProtocol
import DockVocabulary
import Foundation
import Testing

@testable import DockLinks

/// The digital pan-tilt-zoom link's contract as transcripts in virtual time: up at once with no
/// wire, velocity and its time-to-live, moves, the crop held inside the picture at every zoom,
/// stop, and what it cannot do refused by name.
@Suite struct DigitalSessionTests {
    /// A session and what it did, with the time moved by hand.
    struct Crop {
        var session: DigitalSession
        var now = Duration.zero
        var events: [SessionEvent] = []
        var writes = 0

        init(_ configure: (inout DigitalSession.Configuration) -> Void = { _ in }) {
            var configuration = DigitalSession.Configuration()
            configure(&configuration)
            session = DigitalSession(configuration: configuration)
            perform(session.start(now: now))
        }

        mutating func perform(_ actions: [SessionAction]) {
            for action in actions {
                switch action {
                case .openTransport: perform(session.transportOpened(now: now))
                case .closeTransport: break
                case .write: writes += 1
                case .emit(let event): events.append(event)
                }
            }
        }

        /// Lets time pass, calling `tick` at 30 Hz and at each deadline, as the shell does.
        mutating func wait(_ duration: Duration) {
            let end = now + duration
            var nextLoopTick = now
            while now < end {
                now += .milliseconds(1)
                if now >= nextLoopTick || (session.nextDeadline.map { now >= $0 } ?? false) {
                    perform(session.tick(now: now))
                    if now >= nextLoopTick { nextLoopTick = now + .milliseconds(33) }
                }
            }
        }

        @discardableResult
        mutating func send(_ command: AccessoryCommand) -> SentCommand {
            let sent = session.send(command, now: now)
            perform(sent.actions)
            return sent
        }

        var pose: Pose { session.pose(at: now)! }

        /// Zooms to `fraction` and waits until the zoom is there (1× to 3× takes 1.6 s).
        mutating func zoom(_ fraction: Double) {
            send(.zoom(fraction: fraction))
            wait(.seconds(2))
        }

        /// The answers to `id`, in order.
        func answers(_ id: CommandID?) -> [CommandAnswer] {
            events.compactMap {
                guard case .answered(let answered, let answer) = $0, answered == id else { return nil }
                return answer
            }
        }
    }

    static let degree = Double.pi / 180

    @Test func isReadyAtOnceWithNoWireAndTheLimitsOfItsLongestZoom() throws {
        let crop = Crop()
        #expect(crop.session.state == .ready(isDocked: true))
        #expect(crop.writes == 0)
        let info = try #require(crop.session.info)
        // 78° across at 16:9, up to 3×: the centre may reach atan(tan 39° × 2/3) across.
        let yaw = atan(tan(39 * Self.degree) * 2 / 3)
        let pitch = atan(tan(39 * Self.degree) * 9 / 16 * 2 / 3)
        #expect(abs(info.yaw.maximum.radians - yaw) < 2e-6)
        #expect(abs(info.yaw.minimum.radians + yaw) < 2e-6)
        #expect(abs(info.pitch.maximum.radians - pitch) < 2e-6)
        #expect(abs(info.yaw.maximumSpeed.radiansPerSecond - 90 * Self.degree) < 2e-6)
        #expect(abs(info.yaw.maximumAcceleration.radiansPerSecondSquared - 8) < 1e-6)
        #expect(crop.session.capabilities.names == ["velocity_ttl", "continuous_speeds", "orientation_moves", "zoom", "fixed_picture"])
        #expect(crop.session.accessoryProtocol == .digital)
        #expect(crop.session.accessoryProtocol.advertisesAcceleration)
        #expect(crop.pose == Pose(yawRadians: 0, pitchRadians: 0, zoomFraction: 0))
        // At the widest zoom the crop is the whole picture.
        #expect(crop.session.window(at: crop.now) == NormalizedRect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test func theZoomIsExactAndTheCropItsShare() throws {
        var crop = Crop()
        #expect(crop.session.magnification(atZoomFraction: 0) == 1)
        #expect(crop.session.magnification(atZoomFraction: 0.5) == 2)
        #expect(crop.session.magnification(atZoomFraction: 1) == 3)
        #expect(crop.session.zoomFraction(nearest: 0.37) == 0.37)
        #expect(crop.session.zoomFraction(nearest: 1.5) == 1)
        #expect(crop.session.zoomFraction(nearest: .nan) == nil)
        let sent = crop.send(.zoom(fraction: 0.5))
        #expect(crop.answers(sent.id) == [.accepted])
        // Smoothly, evenly in the logarithm: √2 after half a second, 2× after one.
        crop.wait(.milliseconds(500))
        #expect(abs(crop.session.magnification(atZoomFraction: crop.pose.zoomFraction!)! - 2.0.squareRoot()) < 1e-9)
        crop.wait(.milliseconds(510))
        #expect(crop.pose.zoomFraction == 0.5, "there, exactly")
        let window = try #require(crop.session.window(at: crop.now))
        #expect(abs(window.width - 0.5) < 1e-12 && abs(window.height - 0.5) < 1e-12)
        #expect(abs(window.center.x - 0.5) < 1e-12 && abs(window.center.y - 0.5) < 1e-12)
        let bad = crop.send(.zoom(fraction: .infinity))
        #expect(crop.answers(bad.id) == [.refused(CommandRefusal(reason: .outOfRange, command: .zoom))])
        #expect(crop.pose.zoomFraction == 0.5)
    }

    @Test func aVelocityRampsAtTheAccelerationAndRunsAtItsRate() {
        var crop = Crop()
        crop.zoom(1)
        let sent = crop.send(.velocity(yawRadiansPerSecond: 0.4, pitchRadiansPerSecond: -0.1, timeToLive: .seconds(2)))
        #expect(crop.answers(sent.id) == [.accepted])
        // 0.4 rad/s at 8 rad/s² takes 50 ms to reach, covering 10 mrad; then 0.4 rad/s.
        crop.wait(.milliseconds(25))
        #expect(abs(crop.pose.yawRadiansPerSecond - 0.2) < 1e-9)
        crop.wait(.milliseconds(275))
        #expect(abs(crop.pose.yawRadiansPerSecond - 0.4) < 1e-9)
        #expect(abs(crop.pose.yawRadians - (0.01 + 0.4 * 0.25)) < 1e-6)
        // −0.1 rad/s is reached in 12.5 ms (0.625 mrad), then held for 287.5 ms.
        #expect(abs(crop.pose.pitchRadians - (-0.000625 - 0.1 * 0.2875)) < 1e-5, "within a 2 ms step's share of the ramp")
        // The crop moved across the picture: its centre shows the pose's direction.
        let window = crop.session.window(at: crop.now)!
        let centre = DigitalSession.Configuration().crop.angles(centreX: window.center.x, centreY: window.center.y)
        #expect(abs(centre.yawRadians - crop.pose.yawRadians) < 1e-9)
        #expect(abs(centre.pitchRadians - crop.pose.pitchRadians) < 1e-9)
        #expect(window.center.x > 0.5 && window.center.y > 0.5)
    }

    @Test func aVelocityStopsWhenItsTimeToLiveRunsOut() {
        var crop = Crop()
        crop.zoom(1)
        crop.send(.velocity(yawRadiansPerSecond: 0.2, pitchRadiansPerSecond: 0, timeToLive: .milliseconds(200)))
        #expect(crop.session.nextDeadline == crop.now + .milliseconds(200))
        crop.wait(.milliseconds(200))
        // Reached 0.2 rad/s after 25 ms (2.5 mrad), ran 175 ms (35 mrad), then brakes for 25 ms.
        #expect(abs(crop.pose.yawRadians - 0.0375) < 1e-6)
        crop.wait(.milliseconds(100))
        #expect(crop.pose.yawRadiansPerSecond == 0)
        #expect(abs(crop.pose.yawRadians - 0.04) < 1e-6)
        #expect(crop.session.nextDeadline == nil)
    }

    @Test func stopBrakesBothAxes() {
        var crop = Crop()
        crop.zoom(1)
        crop.send(.velocity(yawRadiansPerSecond: -0.4, pitchRadiansPerSecond: 0.2, timeToLive: .seconds(5)))
        crop.wait(.milliseconds(100))
        let sent = crop.send(.stop)
        #expect(crop.answers(sent.id) == [.accepted])
        crop.wait(.milliseconds(60))
        #expect(crop.pose.yawRadiansPerSecond == 0 && crop.pose.pitchRadiansPerSecond == 0)
        let held = crop.pose
        crop.wait(.seconds(1))
        #expect(crop.pose == held)
    }

    @Test func theCropStopsAtThePicturesEdgeAtEachZoom() {
        var crop = Crop()
        let geometry = DigitalSession.Configuration().crop
        for fraction in [0.0, 0.25, 0.5, 1.0] {
            crop.send(.zoom(fraction: fraction))
            crop.send(.velocity(yawRadiansPerSecond: 1.5, pitchRadiansPerSecond: 1.5, timeToLive: .seconds(2)))
            crop.wait(.seconds(2))  // the zoom arrives within it, the crop pushing at its edge meanwhile
            let magnification = 1 + fraction * 2
            let yawLimit = geometry.yawLimitRadians(magnification: magnification)
            #expect(abs(crop.pose.yawRadians - yawLimit) < 1e-9, "zoom \(fraction)")
            #expect(abs(crop.pose.pitchRadians - geometry.pitchLimitRadians(magnification: magnification, yawRadians: yawLimit)) < 1e-9)
            // The window's corner is the picture's.
            let window = crop.session.window(at: crop.now)!
            #expect(abs(window.maxX - 1) < 1e-9 && abs(window.y) < 1e-9, "zoom \(fraction): \(window)")
            crop.send(.stop)
        }
        // Zooming out at the edge slides the crop inwards: it never leaves the picture.
        crop.send(.zoom(fraction: 0.25))
        for _ in 0..<100 {
            crop.wait(.milliseconds(10))
            let window = crop.session.window(at: crop.now)!
            #expect(window.x >= -1e-12 && window.maxX <= 1 + 1e-12 && window.y >= -1e-12 && window.maxY <= 1 + 1e-12, "\(window)")
        }
        #expect(abs(crop.pose.yawRadians - geometry.yawLimitRadians(magnification: 1.5)) < 1e-9)
    }

    @Test func aMoveArrivesAndEnds() {
        var crop = Crop()
        crop.zoom(1)
        let sent = crop.send(.move(yawRadians: 0.3, pitchRadians: -0.1, pace: .maximumSpeed(radiansPerSecond: 0.5)))
        #expect(crop.answers(sent.id) == [.accepted])
        // 0.3 rad at up to 0.5 rad/s, ramped at 8 rad/s²: 0.6 s plus 62.5 ms.
        crop.wait(.milliseconds(600))
        #expect(crop.answers(sent.id) == [.accepted])
        #expect(crop.pose.yawRadians < 0.3)
        crop.wait(.milliseconds(100))
        #expect(crop.answers(sent.id) == [.accepted, .ended])
        #expect(crop.pose == Pose(yawRadians: 0.3, pitchRadians: -0.1, zoomFraction: 1))
        // A duration: both axes arrive together.
        let timed = crop.send(.move(yawRadians: -0.1, pitchRadians: 0.1, pace: .duration(.seconds(1))))
        crop.wait(.milliseconds(900))
        #expect(crop.answers(timed.id) == [.accepted])
        crop.wait(.milliseconds(200))
        #expect(crop.answers(timed.id) == [.accepted, .ended])
        #expect(abs(crop.pose.yawRadians + 0.1) < 1e-12 && abs(crop.pose.pitchRadians - 0.1) < 1e-12)
    }

    @Test func aMoveOutOfReachIsRefused() {
        var crop = Crop()
        crop.zoom(0.25)  // 1.5×: the centre reaches atan(tan 39° / 3) ≈ 15.1°; at 3×, 28.4°
        let beyond = crop.send(.move(yawRadians: 30 * Self.degree, pitchRadians: 0, pace: .maximumSpeed(radiansPerSecond: 1)))
        #expect(crop.answers(beyond.id) == [.refused(CommandRefusal(reason: .outOfRange, command: .move))], "at once")
        let bad = crop.send(.move(yawRadians: .nan, pitchRadians: 0, pace: .maximumSpeed(radiansPerSecond: 1)))
        #expect(crop.answers(bad.id) == [.refused(CommandRefusal(reason: .outOfRange, command: .move))])
        #expect(crop.pose == Pose(yawRadians: 0, pitchRadians: 0, zoomFraction: 0.25))
        // Within the longest zoom's range but not this zoom's, and no zoom in comes: the crop goes
        // to the edge, and the move is refused there.
        let far = crop.send(.move(yawRadians: 20 * Self.degree, pitchRadians: 0, pace: .maximumSpeed(radiansPerSecond: 1)))
        #expect(crop.answers(far.id) == [.accepted])
        crop.wait(.seconds(1))
        #expect(crop.answers(far.id) == [.accepted, .refused(CommandRefusal(reason: .outOfRange, command: .move))])
        #expect(abs(crop.pose.yawRadians - DigitalSession.Configuration().crop.yawLimitRadians(magnification: 1.5)) < 1e-12)
        #expect(crop.session.refusalCount == 3)
    }

    @Test func aMoveThenAZoomInArrivesAsAPresetRecalledDoes() {
        var crop = Crop()
        let move = crop.send(.move(yawRadians: 20 * Self.degree, pitchRadians: 0.05, pace: .maximumSpeed(radiansPerSecond: 1)))
        crop.send(.zoom(fraction: 1))
        crop.wait(.seconds(3))
        #expect(crop.answers(move.id) == [.accepted, .ended])
        #expect(crop.pose == Pose(yawRadians: 20 * Self.degree, pitchRadians: 0.05, zoomFraction: 1))
    }

    @Test func aMoveIsJudgedAtTheZoomAskedForAndEndsWithinTheRangeItLeaves() {
        var crop = Crop()
        let geometry = DigitalSession.Configuration().crop
        // Zooming in from 1× (no range at all), a move to where 3× reaches: accepted, and it
        // arrives as the range grows.
        crop.send(.zoom(fraction: 1))
        let far = crop.send(.move(yawRadians: 0.4, pitchRadians: 0, pace: .maximumSpeed(radiansPerSecond: 1)))
        #expect(crop.answers(far.id) == [.accepted])
        crop.wait(.seconds(3))
        #expect(crop.answers(far.id) == [.accepted, .ended])
        #expect(crop.pose.yawRadians == 0.4)
        // A move under way when the zoom goes out ends at the edge of the range the zoom leaves.
        let back = crop.send(.move(yawRadians: -0.4, pitchRadians: 0, pace: .maximumSpeed(radiansPerSecond: 0.2)))
        crop.send(.zoom(fraction: 0.25))
        crop.wait(.seconds(5))
        #expect(crop.answers(back.id) == [.accepted, .ended])
        #expect(abs(crop.pose.yawRadians + geometry.yawLimitRadians(magnification: 1.5)) < 1e-12)
    }

    @Test func whatACropCannotDoIsRefusedByName() {
        var crop = Crop()
        for command in [
            AccessoryCommand.indicator(IndicatorLight(pattern: .solid, red: 0, green: 160, blue: 0)), .recallPreset(number: 1),
            .storePreset(number: 1),
        ] {
            let sent = crop.send(command)
            #expect(crop.answers(sent.id) == [.refused(CommandRefusal(reason: .unsupported, command: command.kind))])
        }
        let bad = crop.send(.velocity(yawRadiansPerSecond: .infinity, pitchRadiansPerSecond: 0, timeToLive: .seconds(1)))
        #expect(crop.answers(bad.id) == [.refused(CommandRefusal(reason: .outOfRange, command: .velocity))])
        #expect(crop.session.refusalCount == 4)
        #expect(crop.pose == Pose(yawRadians: 0, pitchRadians: 0, zoomFraction: 0))
    }

    @Test func itStartsAtItsInitialZoom() throws {
        let crop = Crop { $0.initialZoomFraction = 0.5 }
        #expect(crop.pose == Pose(yawRadians: 0, pitchRadians: 0, zoomFraction: 0.5))
        let window = try #require(crop.session.window(at: crop.now))
        #expect(abs(window.width - 0.5) < 1e-12 && abs(window.center.x - 0.5) < 1e-12)
    }

    @Test func aSpeedAboveItsOwnIsCapped() {
        var crop = Crop()
        crop.zoom(1)
        crop.send(.velocity(yawRadiansPerSecond: 5, pitchRadiansPerSecond: 0, timeToLive: .seconds(1)))
        crop.wait(.milliseconds(400))
        #expect(abs(crop.pose.yawRadiansPerSecond - 90 * Self.degree) < 1e-9)
    }

    @Test func outOfSessionCommandsAreDroppedAndBytesCounted() {
        var crop = Crop()
        crop.perform(crop.session.transportClosed(now: crop.now))
        #expect(crop.session.state == .disconnected)
        #expect(crop.session.send(.stop, now: crop.now) == .dropped)
        #expect(crop.session.pose(at: crop.now) == nil)
        crop.wait(.seconds(1))
        #expect(crop.session.state == .ready(isDocked: true))
        crop.perform(crop.session.bytesReceived([1, 2], now: crop.now))
        #expect(crop.session.badFrameCount == 1)
    }

    @Test func thePoseInThePastIsTheHistorys() {
        var crop = Crop()
        crop.zoom(1)
        let start = crop.now
        crop.send(.velocity(yawRadiansPerSecond: 0.4, pitchRadiansPerSecond: 0, timeToLive: .seconds(2)))
        crop.wait(.milliseconds(500))
        let earlier = crop.session.pose(at: start + .milliseconds(250))!
        // 10 mrad while ramping, then 0.4 rad/s: within the ramp's share of a 33 ms tick.
        #expect(abs(earlier.yawRadians - (0.01 + 0.4 * 0.2)) < 1e-3)
        // Ahead of the newest tick it is worked out exactly.
        let ahead = crop.session.pose(at: crop.now + .milliseconds(100))!
        #expect(abs(ahead.yawRadians - (crop.pose.yawRadians + 0.04)) < 1e-9)
    }
}
