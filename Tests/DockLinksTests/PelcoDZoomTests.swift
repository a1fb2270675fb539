import DockNumbers
import DockProtocol
import DockSimulator
import Testing

@testable import DockLinks

/// A Pelco-D head's zoom, driven by time in virtual time: the tele (`20`) and wide (`40`) bits of
/// command 2 held for the share of the lens's travel time the change is, the position an estimate
/// known once the lens has been driven against an end.
@Suite struct PelcoDZoomTests {
    typealias Line = PelcoDSessionTests.Line

    /// A head whose lens takes 2 s end to end, attached, its first stop written.
    static func attached() -> Line {
        var line = Line { $0.zoomFullTravel = .seconds(2) }
        line.perform(line.session.start(now: line.now))
        line.wait(.milliseconds(200))
        line.takeWritten()
        line.takeEvents()
        return line
    }

    static func frame(_ command2: UInt8, _ pan: UInt8 = 0, _ tilt: UInt8 = 0) -> String {
        let bytes: [UInt8] = [0xFF, 1, 0, command2, pan, tilt, 0]
        return hexText(Array(bytes[0..<6]) + [PelcoDSessionTests.checksum(bytes)])
    }

    /// The zoom frames written (command 2 with a zoom bit, or the stop), with their times from `start`.
    static func zoomFrames(_ line: Line, from start: Duration) -> [(seconds: Double, hex: String)] {
        line.written.map { ((($0.time - start).secondsValue * 1000).rounded() / 1000, hexText($0.bytes)) }
    }

    @Test func theFirstZoomDrivesTheLensWideThenTeleForItsShare() throws {
        var line = Self.attached()
        #expect(line.session.capabilities.contains(.zoom))
        #expect(line.session.zoomFraction(nearest: 0.3) == 0.3)
        #expect(line.session.pose(at: line.now)?.zoomFraction == nil, "not known before the lens has met an end")
        let start = line.now
        let sent = line.send(.zoom(fraction: 0.25))
        #expect(sent.actions.contains(.emit(.answered(sent.id!, .accepted))))
        line.wait(.seconds(4))
        let frames = Self.zoomFrames(line, from: start).filter { $0.hex != Self.frame(0x40) || $0.seconds == 0 }
        // Wide for 2.4 s (the travel and a fifth: against the end), then tele for 0.5 s (a quarter).
        #expect(frames.first.map { $0.seconds == 0 && $0.hex == Self.frame(0x40) } == true, "\(frames)")
        let tele = try #require(frames.first { $0.hex == Self.frame(0x20) })
        #expect(tele.seconds >= 2.4 && tele.seconds <= 2.402, "\(frames)")
        let stop = try #require(frames.first { $0.hex == Self.frame(0x00) && $0.seconds > tele.seconds })
        #expect(abs(stop.seconds - tele.seconds - 0.5) <= 0.002, "a quarter of 2 s: \(frames)")
        let zoom = try #require(line.session.pose(at: line.now)?.zoomFraction)
        #expect(abs(zoom - 0.25) < 0.002, "the estimate: \(zoom)")
        let middle = try #require(line.session.pose(at: start + .seconds(2.4) + .milliseconds(250))?.zoomFraction)
        #expect(abs(middle - 0.125) < 0.02, "half way through the tele leg: \(middle)")
    }

    @Test func aLaterZoomIsTheChangeOnlyAndAVelocityKeepsTheZoomGoing() throws {
        var line = Self.attached()
        line.send(.zoom(fraction: 0))
        line.wait(.seconds(3))
        #expect(line.session.pose(at: line.now)?.zoomFraction == 0, "driven against the wide end: known")
        line.takeWritten()
        let start = line.now
        line.send(.zoom(fraction: 0.5))
        line.wait(.milliseconds(300))
        // A velocity meanwhile: the pan bits join the zoom's, the zoom goes on.
        let rate = PelcoDSessionTests.rate(step: 0x20, fastest: 60)
        line.send(.velocity(yawRadiansPerSecond: rate, pitchRadiansPerSecond: 0, timeToLive: .milliseconds(300)))
        line.wait(.seconds(1.5))
        let frames = Self.zoomFrames(line, from: start)
        #expect(frames.first?.hex == Self.frame(0x20), "tele at once: \(frames)")
        #expect(frames.contains { $0.hex == Self.frame(0x22, 0x20) }, "pan right with the zoom: \(frames)")
        #expect(frames.contains { $0.hex == Self.frame(0x20) && $0.seconds > 0.55 }, "the pan's time-to-live ends, not the zoom: \(frames)")
        let stop = try #require(frames.first { $0.hex == Self.frame(0x00) })
        #expect(abs(stop.seconds - 1.0) <= 0.002, "half of 2 s: \(frames)")
        let zoom = try #require(line.session.pose(at: line.now)?.zoomFraction)
        #expect(abs(zoom - 0.5) < 0.002, "\(zoom)")
    }

    @Test func aStopEndsTheZoomWhereItIs() throws {
        var line = Self.attached()
        line.send(.zoom(fraction: 1))
        line.wait(.seconds(3))
        line.send(.zoom(fraction: 0))
        line.wait(.milliseconds(500))
        line.send(.stop)
        line.wait(.seconds(2))
        let zoom = try #require(line.session.pose(at: line.now)?.zoomFraction)
        #expect(abs(zoom - 0.75) < 0.002, "a quarter of the way back: \(zoom)")
        #expect(hexText(line.written.last!.bytes) == Self.frame(0x00))
    }

    @Test func aHeadWithoutATravelTimeRefusesZoomAndBadFractionsAreRefused() throws {
        var plain = Line()
        plain.perform(plain.session.start(now: plain.now))
        plain.wait(.milliseconds(100))
        #expect(!plain.session.capabilities.contains(.zoom))
        #expect(plain.session.zoomFraction(nearest: 0.5) == nil)
        let refused = plain.send(.zoom(fraction: 0.5))
        #expect(refused.actions == [.emit(.answered(refused.id!, .refused(CommandRefusal(reason: .unsupported, command: .zoom))))])
        var line = Self.attached()
        let nan = line.send(.zoom(fraction: .nan))
        #expect(nan.actions == [.emit(.answered(nan.id!, .refused(CommandRefusal(reason: .outOfRange, command: .zoom))))])
        #expect(line.takeWritten().isEmpty)
    }

    /// The session against the simulated head (its lens 2 s end to end, left at 0.4): zoomed to
    /// 0.75, the lens ends where the session reckons it, by the frames alone.
    @Test func theSimulatedHeadsLensEndsWhereTheSessionReckonsIt() throws {
        var session = PelcoDSession(
            configuration: {
                var configuration = PelcoDSession.Configuration()
                configuration.zoomFullTravel = .seconds(2)
                return configuration
            }())
        var head = PelcoDHead(configuration: PelcoDHead.Configuration(zoomFullTravel: .seconds(2)), seed: 3)
        var now = Duration.zero
        func perform(_ actions: [SessionAction]) {
            for action in actions {
                switch action {
                case .openTransport: perform(session.transportOpened(now: now))
                case .write(let bytes): _ = head.receive(bytes, now: now)
                case .closeTransport, .emit: break
                }
            }
        }
        func wait(_ duration: Duration) {
            let end = now + duration
            while now < end {
                now += .milliseconds(1)
                _ = head.advance(to: now)
                perform(session.tick(now: now))
            }
        }
        perform(session.start(now: now))
        wait(.milliseconds(100))
        #expect(head.zoomFraction == 0.4)
        perform(session.send(.zoom(fraction: 0.75), now: now).actions)
        wait(.seconds(5))
        let reckoned = try #require(session.pose(at: now)?.zoomFraction)
        #expect(abs(head.zoomFraction - 0.75) < 0.002, "the lens: \(head.zoomFraction)")
        #expect(abs(reckoned - head.zoomFraction) < 0.002, "the estimate \(reckoned), the lens \(head.zoomFraction)")
        perform(session.send(.zoom(fraction: 0.3), now: now).actions)
        wait(.seconds(2))
        let back = try #require(session.pose(at: now)?.zoomFraction)
        #expect(abs(head.zoomFraction - 0.3) < 0.002 && abs(back - head.zoomFraction) < 0.002, "\(back), \(head.zoomFraction)")
    }
}
