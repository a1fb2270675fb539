import DockProtocol
import Testing
import VISCAProtocol

@testable import DockLinks
@testable import DockSimulator

/// The contract's commands and answers on each link: `send` names the command, the answers name
/// it back, and what a link cannot carry is refused by name — never trapped on, never answered
/// as if the accessory had taken it.
@Suite struct CommandAnswerTests {
    /// A dock-serial session in session with the simulated dock, every event kept (the
    /// acceptances too, which `SessionBench` leaves out).
    struct DockLine {
        var bench = SessionBench()
        var answers: [SessionEvent] = []
        /// Whether the dock hears what is written (else the test answers by hand).
        var isDockListening = true

        init() {
            bench.start()
            bench.run(for: .milliseconds(100))
        }

        /// Sends `command`, carries its actions out against the dock, and keeps what came back.
        mutating func send(_ command: AccessoryCommand) -> SentCommand {
            let sent = bench.session.send(command, now: bench.now)
            for action in sent.actions { carry(action) }
            return sent
        }

        private mutating func carry(_ action: SessionAction) {
            switch action {
            case .write(let bytes):
                var decoder = FrameDecoder()
                bench.framesWritten += decoder.decode(bytes).compactMap { try? $0.get() }
                guard isDockListening else { return }
                let reply = bench.firmware.receive(bytes: bytes, now: bench.now)
                for answer in bench.session.bytesReceived(reply, now: bench.now) { carry(answer) }
            case .emit(let event): answers.append(event)
            case .openTransport, .closeTransport: Issue.record("unexpected \(action)")
            }
        }

        /// Frames from the dock reach the session.
        mutating func deliver(_ frames: [Frame]) {
            var bytes: [UInt8] = []
            for frame in frames { try? FrameEncoder.encode(frame, into: &bytes) }
            for answer in bench.session.bytesReceived(bytes, now: bench.now) { carry(answer) }
        }
    }

    @Test func aDockSerialCommandIsNamedByItsFrameAndAnsweredByTheDock() throws {
        var line = DockLine()
        let written = line.bench.framesWritten.count
        let sent = line.send(.velocity(yawRadiansPerSecond: 0.25, pitchRadiansPerSecond: -0.1, timeToLive: .milliseconds(200)))
        let frame = try #require(line.bench.framesWritten.dropFirst(written).first)
        #expect(sent.id == CommandID(frame.sequence), "the identity is the frame's sequence number")
        #expect(
            frame.message
                == .setVelocity(
                    VelocityCommand(
                        yawRate: AngularRate(microradiansPerSecond: 250_000), pitchRate: AngularRate(microradiansPerSecond: -100_000),
                        timeToLive: .milliseconds(200))))
        #expect(line.answers == sent.id.map { [.answered($0, .accepted)] }, "the dock's ack")
        let stop = line.send(.stop)
        #expect(line.answers.last == stop.id.map { .answered($0, .accepted) })
        let light = line.send(.indicator(IndicatorLight(pattern: .slowBlink, red: 0, green: 160, blue: 0)))
        #expect(
            line.bench.framesWritten.last?.message
                == .setIndicator(IndicatorState(pattern: .slowBlink, red: 0, green: 160, blue: 0)))
        #expect(line.answers.last == light.id.map { .answered($0, .accepted) })
    }

    @Test func whatDockSerialCannotCarryIsRefusedByNameAndNothingIsWritten() {
        var line = DockLine()
        let written = line.bench.framesWritten.count
        let cases: [(AccessoryCommand, CommandRefusal.Reason)] = [
            (.zoom(fraction: 0.5), .unsupported), (.recallPreset(number: 1), .unsupported),
            (.velocity(yawRadiansPerSecond: .nan, pitchRadiansPerSecond: 0, timeToLive: .milliseconds(100)), .outOfRange),
            (.velocity(yawRadiansPerSecond: 0.1, pitchRadiansPerSecond: 0, timeToLive: .seconds(10)), .outOfRange),
            (.move(yawRadians: 1e9, pitchRadians: 0, pace: .duration(.seconds(1))), .outOfRange),
            (.move(yawRadians: 0.1, pitchRadians: 0, pace: .maximumSpeed(radiansPerSecond: 0)), .outOfRange),
        ]
        for (command, reason) in cases {
            let sent = line.send(command)
            let id = sent.id
            #expect(id != nil, "\(command)")
            #expect(
                sent.actions == id.map { [.emit(.answered($0, .refused(CommandRefusal(reason: reason, command: command.kind))))] },
                "\(command)")
        }
        #expect(line.bench.framesWritten.count == written, "no frame for any of them")
        #expect(line.bench.session.refusalCount == cases.count)
        #expect(line.bench.session.state == .ready(isDocked: true), "and the session goes on")
    }

    @Test func aDockSerialNackNamesTheCommandItRefused() throws {
        var line = DockLine()
        line.isDockListening = false
        let sent = line.send(.move(yawRadians: 0.2, pitchRadians: 0, pace: .duration(.seconds(1))))
        let id = try #require(sent.id)
        line.deliver([Frame(sequence: 0, message: .nack(Refusal(sequence: id.rawValue, refusedTypeCode: 4, reason: .faulted, detail: 7)))])
        #expect(line.answers.last == .answered(id, .refused(CommandRefusal(reason: .faulted, detail: 7, command: .move))))
        // A refused heartbeat is nobody's command: the refusal is said, with no command.
        line.bench.now += .milliseconds(100)
        var decoder = FrameDecoder()
        let written = line.bench.session.tick(now: line.bench.now).flatMap { action -> [Frame] in
            guard case .write(let bytes) = action else { return [] }
            return decoder.decode(bytes).compactMap { try? $0.get() }
        }
        let heartbeat = try #require(written.first { $0.message == .heartbeat }, "due after 62.5 ms")
        let code = MessageType.heartbeat.rawValue
        line.deliver([
            Frame(
                sequence: 1,
                message: .nack(Refusal(sequence: heartbeat.sequence, refusedTypeCode: code, reason: .unknownMessage, detail: 0)))
        ])
        #expect(line.answers.last == .answered(CommandID(heartbeat.sequence), .refused(CommandRefusal(reason: .unsupported, command: nil))))
        #expect(line.bench.session.refusalCount == 2)
    }

    @Test func outOfSessionACommandIsDroppedWithNoIdentity() {
        var dock = AccessorySession()
        #expect(dock.send(.stop, now: .zero) == .dropped)
        var camera = VISCASession(configuration: VISCASession.Configuration(profile: VISCAProfile.named("generic")!, framing: .serial))
        #expect(camera.send(.stop, now: .zero) == .dropped)
        var webcam = UVCSession(configuration: UVCSession.Configuration())
        #expect(webcam.send(.stop, now: .zero) == .dropped)
    }

    /// A camera whose profile has no zoom refuses zoom too (one with a zoom drives it:
    /// VISCAZoomTests).
    @Test func aVISCACameraRefusesWhatItHasNoCommandFor() {
        var profile = VISCAProfile.named("generic")!
        profile.zoom = nil
        var line = VISCASessionTests.Line(profile: profile)
        line.attach()
        line.events.removeAll()
        _ = line.takeWritten()
        for command: AccessoryCommand in [
            .indicator(IndicatorLight(pattern: .solid, red: 1, green: 2, blue: 3)), .zoom(fraction: 0.5),
            .recallPreset(number: 2),
        ] {
            let id = line.send(command)
            #expect(
                id != nil
                    && line.events.last == id.map { .answered($0, .refused(CommandRefusal(reason: .unsupported, command: command.kind))) })
        }
        #expect(line.takeWritten().allSatisfy { $0 == "81 09 06 12 FF" }, "nothing but pose inquiries on the line")
        #expect(line.session.refusalCount == 3)
    }

    @Test func aUVCCameraRefusesWhatItHasNoControlFor() {
        var rig = UVCSessionTests.Rig()
        rig.start()
        let mark = rig.camera.requests.count
        for command: AccessoryCommand in [.indicator(IndicatorLight(pattern: .off, red: 0, green: 0, blue: 0)), .recallPreset(number: 1)] {
            let id = rig.send(command)
            #expect(
                id != nil
                    && rig.events.last == id.map { .answered($0, .refused(CommandRefusal(reason: .unsupported, command: command.kind))) })
        }
        #expect(rig.sets(from: mark).isEmpty, "no control written")
    }
}
