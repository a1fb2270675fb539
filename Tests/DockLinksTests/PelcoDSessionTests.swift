import DockNumbers
import DockProtocol
import Foundation
import Testing

@testable import DockLinks

/// The Pelco-D link's rules as transcripts in virtual time: the frames it writes (held to the
/// golden vectors of `Protocol/vectors/pelco-d/`, whose checksums are added up here by hand), what
/// a head answers, what the host hears.
@Suite struct PelcoDSessionTests {
    /// A session and what it did, with the time moved by hand.
    struct Line {
        var session: PelcoDSession
        var now = Duration.zero
        var written: [(time: Duration, bytes: [UInt8])] = []
        var events: [SessionEvent] = []
        var closes = 0

        init(_ configure: (inout PelcoDSession.Configuration) -> Void = { _ in }) {
            var configuration = PelcoDSession.Configuration()
            configure(&configuration)
            session = PelcoDSession(configuration: configuration)
        }

        mutating func perform(_ actions: [SessionAction]) {
            for action in actions {
                switch action {
                case .openTransport: perform(session.transportOpened(now: now))
                case .closeTransport: closes += 1
                case .write(let bytes): written.append((now, bytes))
                case .emit(let event): events.append(event)
                }
            }
        }

        /// Lets time pass in 1 ms steps, calling `tick` as the shell does at each deadline and
        /// at 30 Hz.
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

        mutating func receive(_ text: String) { perform(session.bytesReceived(hex(text), now: now)) }

        @discardableResult
        mutating func send(_ command: AccessoryCommand) -> SentCommand {
            let sent = session.send(command, now: now)
            perform(sent.actions)
            return sent
        }

        /// What was written since the last call, as hex text.
        @discardableResult
        mutating func takeWritten() -> [String] {
            defer { written.removeAll() }
            return written.map { hexText($0.bytes) }
        }

        @discardableResult
        mutating func takeEvents() -> [SessionEvent] {
            defer { events.removeAll() }
            return events
        }
    }

    /// The checksum as the protocol defines it, added up here: bytes 2 to 6, modulo 256.
    static func checksum(_ frame: [UInt8]) -> UInt8 { UInt8(frame[1...5].map(Int.init).reduce(0, +) % 256) }

    /// A rate that rounds to `step` on an axis whose step 0x3F turns at `fastest` °/s.
    static func rate(step: Int, fastest: Double, configuration: PelcoDSession.Configuration = .init()) -> Double {
        let magnitude = configuration.degreesPerSecond(step: UInt8(abs(step)), fastest: fastest) * .pi / 180
        return step < 0 ? -magnitude : magnitude
    }

    // MARK: The golden vectors

    struct Vectors {
        static let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/pelco-d")
        let commands: [[String: Any]]
        let replies: [[String: Any]]
        let streams: [[String: Any]]

        init() throws {
            let data = try Data(contentsOf: Self.directory.appendingPathComponent("frames.json"))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            commands = try #require(root["commands"] as? [[String: Any]])
            replies = try #require(root["replies"] as? [[String: Any]])
            streams = try #require(root["streams"] as? [[String: Any]])
        }

        func command(_ name: String) throws -> String {
            try #require(commands.first { $0["name"] as? String == name }?["hex"] as? String)
        }
    }

    @Test func theVectorsAreDocumentedAndEachFileIsRead() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Vectors.directory.path).sorted()
        #expect(names == ["README.md", "frames.json"], "a vector file no test reads: \(names)")
    }

    @Test func everyVectorsChecksumIsTheSumOfBytesTwoToSix() throws {
        let vectors = try Vectors()
        #expect(vectors.commands.count >= 10 && vectors.replies.count >= 5)
        for vector in vectors.commands + vectors.replies {
            let bytes = hex(try #require(vector["hex"] as? String))
            #expect(bytes.count == 7 && bytes[0] == 0xFF, "\(vector["name"]!)")
            #expect(bytes[6] == Self.checksum(bytes), "\(vector["name"]!): checksum \(bytes[6]) against \(Self.checksum(bytes))")
            #expect(Int(bytes[1]) == vector["address"] as? Int, "\(vector["name"]!)")
        }
    }

    @Test func theLinkWritesTheCommandVectorsBytes() throws {
        let vectors = try Vectors()
        var checked = 0
        for vector in vectors.commands {
            let name = try #require(vector["name"] as? String)
            let address = try #require(vector["address"] as? Int)
            let command = try #require(vector["command"] as? [String: Any])
            let type = try #require(command["type"] as? String)
            var line = Line {
                $0.address = UInt8(address)
                $0.answersPositionQueries = type.hasPrefix("query") || type == "go_to_preset" || type == "set_preset"
            }
            line.perform(line.session.start(now: line.now))
            if line.session.configuration.answersPositionQueries {
                line.receive(hexText(Self.answer(address: UInt8(address), kind: 0x59, hundredths: 0)))
            }
            let opening = line.takeWritten()
            switch type {
            case "stop":
                #expect(opening.first == (try vectors.command(name)).uppercased(), "the stop written at open")
                line.wait(.milliseconds(200))
                line.takeWritten()
                line.send(.stop)
            case "drive":
                func signed(_ direction: String, _ speed: Any?) throws -> Int {
                    let step = try #require(speed as? Int)
                    return ["right", "up"].contains(direction) ? step : direction == "stop" ? 0 : -step
                }
                let pan = try signed(try #require(command["pan"] as? String), command["pan_speed"])
                let tilt = try signed(try #require(command["tilt"] as? String), command["tilt_speed"])
                let configuration = line.session.configuration
                line.send(
                    .velocity(
                        yawRadiansPerSecond: Self.rate(step: pan, fastest: configuration.panDegreesPerSecondAtFastestStep),
                        pitchRadiansPerSecond: Self.rate(step: tilt, fastest: configuration.tiltDegreesPerSecondAtFastestStep),
                        timeToLive: .seconds(1)))
            case "go_to_preset":
                line.send(.recallPreset(number: try #require(command["preset"] as? Int)))
            case "set_preset":
                line.send(.storePreset(number: try #require(command["preset"] as? Int)))
            case "query_pan":
                #expect(opening.contains((try vectors.command(name)).uppercased()), "the handshake's pan query: \(opening)")
                checked += 1
                continue
            case "query_tilt":
                #expect(opening.last == (try vectors.command(name)).uppercased(), "the first poll's tilt query: \(opening)")
                checked += 1
                continue
            case "clear_preset":
                continue  // dockd clears none: a preset deleted leaves its memory to be set over
            default:
                Issue.record("\(name): a command type no test knows, \(type)")
                continue
            }
            #expect(line.takeWritten() == [(try vectors.command(name)).uppercased()], "\(name)")
            checked += 1
        }
        #expect(checked == vectors.commands.count - 1)
    }

    /// A position answer, made here from the protocol's definition.
    static func answer(address: UInt8 = 1, kind: UInt8, hundredths: Int) -> [UInt8] {
        var frame: [UInt8] = [0xFF, address, 0x00, kind, UInt8(hundredths >> 8), UInt8(hundredths & 0xFF), 0]
        frame[6] = checksum(frame)
        return frame
    }

    /// A head that answers position queries, attached with its pan and tilt at 0.
    static func polledLine() -> Line {
        var line = Line { $0.answersPositionQueries = true }
        line.perform(line.session.start(now: line.now))
        line.now += .milliseconds(20)
        line.receive(hexText(answer(kind: 0x59, hundredths: 0)))
        line.now += .milliseconds(20)
        line.receive(hexText(answer(kind: 0x5B, hundredths: 0)))
        return line
    }

    @Test func theLinkReadsTheReplyVectorsAsDegrees() throws {
        for vector in try Vectors().replies {
            var line = Self.polledLine()
            let reply = try #require(vector["reply"] as? [String: Any])
            let degrees = try #require(vector["degrees"] as? Double)
            line.now += .milliseconds(5)
            line.receive(try #require(vector["hex"] as? String))
            let pose = try #require(line.session.pose(at: line.now))
            let read = reply["type"] as? String == "pan_position" ? pose.yawRadians : pose.pitchRadians
            #expect(abs(read * 180 / .pi - degrees) < 1e-9, "\(vector["name"]!): \(read * 180 / .pi)°")
        }
    }

    @Test func theLinkSortsOutTheStreamVectorsHoweverTheyAreCut() throws {
        for vector in try Vectors().streams {
            let input = hex(try #require(vector["input_hex"] as? String))
            let expect = try #require(vector["expect"] as? [[String: Any]])
            let errors = expect.count { $0["error"] != nil }
            let answers = expect.compactMap { $0["reply"] as? [String: Any] }
            for cutting in [[input], input.map { [$0] }, [Array(input.prefix(4)), Array(input.dropFirst(4))]] {
                var line = Self.polledLine()
                let bad = line.session.badFrameCount, answered = line.session.positionAnswers
                for chunk in cutting {
                    line.now += .milliseconds(1)
                    line.perform(line.session.bytesReceived(chunk, now: line.now))
                }
                #expect(line.session.badFrameCount - bad == errors, "\(vector["name"]!) in \(cutting.count) pieces")
                #expect(line.session.positionAnswers - answered == answers.count, "\(vector["name"]!) in \(cutting.count) pieces")
                if let last = answers.last, let hundredths = last["hundredths"] as? Int {
                    var degrees = Double(hundredths) / 100
                    if degrees > 180 { degrees -= 360 }
                    let pose = try #require(line.session.pose(at: line.now))
                    let read = last["type"] as? String == "pan_position" ? pose.yawRadians : pose.pitchRadians
                    #expect(abs(read * 180 / .pi - degrees) < 1e-9, "\(vector["name"]!)")
                }
            }
        }
    }

    // MARK: A head without position queries

    @Test func aHeadWithoutQueriesIsStoppedAndAttachedAsSoonAsThePortOpens() throws {
        var line = Line()
        line.perform(line.session.start(now: .zero))
        #expect(line.takeWritten() == ["FF 01 00 00 00 00 01"], "a stop first, for a head a host before us left turning")
        let events = line.takeEvents()
        guard case .attached(let info, isDocked: true)? = events.first else {
            Issue.record("attached at once: \(events)")
            return
        }
        #expect(line.session.state == .ready(isDocked: true))
        #expect(info.failsafeTimeout == .zero)
        #expect(abs(info.yaw.maximumSpeed.radiansPerSecond - 60 * .pi / 180) < 1e-6, "60 °/s at step 0x3F")
        #expect(abs(info.pitch.maximum.radians - 60 * .pi / 180) < 1e-6)
        #expect(info.serialNumber == "Pelco-D-1")
        #expect(line.session.capabilities == [], "no failsafe, no time-to-live, no telemetry, stepped speeds, no moves")
        #expect(line.session.accessoryProtocol == .pelcoD)
        #expect(line.session.baudRate == 2400)
        line.wait(.milliseconds(150))
        #expect(line.takeWritten() == ["FF 01 00 00 00 00 01"], "the stop once more, since nothing confirms it")
        line.wait(.seconds(2))
        #expect(line.takeWritten().isEmpty, "then silence while nothing moves")
    }

    @Test func aVelocityIsWrittenOnceAsStepsAndDirectionsAndAcceptedWithItsBytes() throws {
        var line = Line()
        line.perform(line.session.start(now: .zero))
        line.wait(.milliseconds(200))
        line.takeWritten()
        line.takeEvents()
        // Step 0x20 right (30.48 °/s) and step 0x10 down (7.62 °/s).
        let yaw = Self.rate(step: 0x20, fastest: 60), pitch = Self.rate(step: -0x10, fastest: 30)
        let sent = line.send(.velocity(yawRadiansPerSecond: yaw, pitchRadiansPerSecond: pitch, timeToLive: .seconds(2)))
        var frame: [UInt8] = [0xFF, 0x01, 0x00, 0x02 | 0x10, 0x20, 0x10, 0]
        frame[6] = Self.checksum(frame)
        #expect(line.takeWritten() == [hexText(frame)])
        let id = try #require(sent.id)
        #expect(line.takeEvents() == [.answered(id, .accepted)], "accepted once written: Pelco-D confirms nothing")
        line.now += .milliseconds(33)
        let again = line.send(.velocity(yawRadiansPerSecond: yaw * 1.01, pitchRadiansPerSecond: pitch, timeToLive: .seconds(2)))
        #expect(line.takeWritten().isEmpty, "the same steps: nothing on the line")
        #expect(line.takeEvents() == [.answered(try #require(again.id), .accepted)], "in force at once")
        #expect(again.id != sent.id, "a fresh identity per command")
    }

    @Test func aDriveIsRepeatedWhileInForceAndItsTimeToLiveEndsInAStop() {
        var line = Line()
        line.perform(line.session.start(now: .zero))
        line.wait(.milliseconds(200))
        line.takeWritten()
        let start = line.now
        line.send(
            .velocity(yawRadiansPerSecond: Self.rate(step: -0x3F, fastest: 60), pitchRadiansPerSecond: 0, timeToLive: .milliseconds(1200)))
        line.wait(.milliseconds(1500))
        let frames = line.written.map { (time: $0.time - start, text: hexText($0.bytes)) }
        #expect(
            frames.map(\.text) == [
                "FF 01 00 04 3F 00 44", "FF 01 00 04 3F 00 44", "FF 01 00 04 3F 00 44", "FF 01 00 00 00 00 01", "FF 01 00 00 00 00 01",
            ])
        #expect(
            frames.map(\.time) == [.zero, .milliseconds(500), .milliseconds(1000), .milliseconds(1200), .milliseconds(1300)],
            "the drive again every 500 ms; the stop when the time-to-live ends, and once more 100 ms later")
    }

    @Test func aStopIsAllZeroAndAnsweredAtOnce() throws {
        var line = Line()
        line.perform(line.session.start(now: .zero))
        line.send(.velocity(yawRadiansPerSecond: 0.3, pitchRadiansPerSecond: 0, timeToLive: .seconds(5)))
        line.takeWritten()
        line.takeEvents()
        let sent = line.send(.stop)
        #expect(line.takeWritten() == ["FF 01 00 00 00 00 01"])
        #expect(line.takeEvents() == [.answered(try #require(sent.id), .accepted)])
    }

    @Test func whatPelcoDCannotCarryIsRefusedAsUnsupported() throws {
        var line = Line()
        line.perform(line.session.start(now: .zero))
        line.takeWritten()
        line.takeEvents()
        let commands: [AccessoryCommand] = [
            .move(yawRadians: 0.2, pitchRadians: 0, pace: .duration(.seconds(1))), .zoom(fraction: 0.5),
            .indicator(IndicatorLight(pattern: .solid, red: 255, green: 0, blue: 0)),
            .recallPreset(number: 1),  // no position queries: the reckoned pose would not follow
            .storePreset(number: 1),
        ]
        for command in commands {
            let sent = line.send(command)
            let id = try #require(sent.id)
            #expect(line.takeEvents() == [.answered(id, .refused(CommandRefusal(reason: .unsupported, command: command.kind)))])
        }
        #expect(line.takeWritten().isEmpty)
        #expect(line.session.refusalCount == commands.count)
    }

    @Test func outOfSessionCommandsAreDroppedAndBytesIgnored() {
        var line = Line()
        #expect(line.session.send(.stop, now: .zero) == .dropped)
        #expect(line.session.bytesReceived(hex("12 34"), now: .zero).isEmpty)
        #expect(line.session.badFrameCount == 0, "bytes before the port is open are not counted")
        #expect(line.session.state == .disconnected)
    }

    @Test func thePoseIsReckonedFromTheStepsSentRampedAndHeldWithinTheRange() throws {
        var line = Line()
        line.perform(line.session.start(now: .zero))
        line.wait(.milliseconds(100))
        let start = line.now
        let rate = Self.rate(step: 0x3F, fastest: 60)  // π/3 rad/s
        line.send(.velocity(yawRadiansPerSecond: rate, pitchRadiansPerSecond: 0, timeToLive: .seconds(2)))
        line.wait(.seconds(1))
        let pose = try #require(line.session.pose(at: line.now))
        // Ramped at 4 rad/s²: it reaches π/3 rad/s after 0.262 s, losing rate²/(2a) = 0.137 rad.
        let expected = rate * (line.now - start).secondsValue - rate * rate / 8
        #expect(abs(pose.yawRadians - expected) < 0.01, "yaw \(pose.yawRadians) against \(expected)")
        #expect(abs(pose.yawRadiansPerSecond - rate) < 1e-9)
        #expect(try #require(line.session.poseAge(at: line.now)) < .milliseconds(34))
        line.send(.velocity(yawRadiansPerSecond: 0, pitchRadiansPerSecond: -rate, timeToLive: .seconds(5)))
        line.wait(.seconds(4))
        let held = try #require(line.session.pose(at: line.now))
        #expect(abs(held.pitchRadians + 30 * .pi / 180) < 1e-9, "held at the −30° end stop: \(held.pitchRadians)")
        #expect(held.pitchRadiansPerSecond == 0)
    }

    @Test func aRateNearAStepBoundaryKeepsItsStep() {
        var line = Line()
        line.perform(line.session.start(now: .zero))
        line.takeWritten()
        let step = 60.0 / 63 * .pi / 180  // a step is 0.952 °/s
        line.send(.velocity(yawRadiansPerSecond: 10 * step, pitchRadiansPerSecond: 0, timeToLive: .seconds(1)))
        line.send(.velocity(yawRadiansPerSecond: 10.6 * step, pitchRadiansPerSecond: 0, timeToLive: .seconds(1)))
        line.send(.velocity(yawRadiansPerSecond: 10.9 * step, pitchRadiansPerSecond: 0, timeToLive: .seconds(1)))
        #expect(line.takeWritten() == ["FF 01 00 02 0A 00 0D", "FF 01 00 02 0B 00 0E"], "10.6 keeps step 10, 10.9 moves to 11")
    }

    @Test func aClosedPortForgetsTheConnectionAndTheNextOpenStopsFirst() {
        var line = Line()
        line.perform(line.session.start(now: .zero))
        line.send(.velocity(yawRadiansPerSecond: 0.3, pitchRadiansPerSecond: 0, timeToLive: .seconds(5)))
        line.takeWritten()
        line.takeEvents()
        line.perform(line.session.transportClosed(now: line.now))
        #expect(line.takeEvents() == [.disconnected])
        #expect(line.closes == 1)
        #expect(line.session.state == .disconnected)
        line.wait(.seconds(1))
        #expect(line.takeWritten() == ["FF 01 00 00 00 00 01", "FF 01 00 00 00 00 01"], "reopened after the backoff, a stop first, twice")
        line.send(.velocity(yawRadiansPerSecond: 0.3, pitchRadiansPerSecond: 0, timeToLive: .seconds(5)))
        #expect(line.takeWritten().count == 1, "the old drive is forgotten: the same velocity is written again")
    }

    // MARK: A head that answers position queries

    @Test func aSilentHeadFailsTheHandshakeAfterThreeQueries() {
        var line = Line { $0.answersPositionQueries = true }
        #expect(line.session.capabilities == [.presetMemory], "a head that answers queries has presets dockd could recall")
        line.perform(line.session.start(now: .zero))
        line.wait(.milliseconds(800))
        #expect(line.takeWritten() == ["FF 01 00 00 00 00 01", "FF 01 00 51 00 00 52", "FF 01 00 51 00 00 52", "FF 01 00 51 00 00 52"])
        #expect(line.takeEvents() == [.handshakeFailed])
        #expect(line.closes == 1)
        #expect(line.session.state == .disconnected)
    }

    @Test func theFirstAnswerAttachesAndThePollsAlternatePanAndTilt() throws {
        var line = Line { $0.answersPositionQueries = true }
        line.perform(line.session.start(now: .zero))
        line.takeWritten()
        line.now += .milliseconds(30)
        line.receive(hexText(Self.answer(kind: 0x59, hundredths: 4500)))
        guard case .attached? = line.takeEvents().first else {
            Issue.record("attached on the first answer")
            return
        }
        #expect(line.takeWritten() == ["FF 01 00 53 00 00 54"], "then the tilt at once")
        line.now += .milliseconds(30)
        line.receive(hexText(Self.answer(kind: 0x5B, hundredths: 500)))
        let pose = try #require(line.session.pose(at: line.now))
        #expect(abs(pose.yawRadians - 45 * .pi / 180) < 1e-9 && abs(pose.pitchRadians - 5 * .pi / 180) < 1e-9)
        // The head answers every query at once, for 400 ms.
        var polls: [(time: Duration, text: String)] = []
        for _ in 0..<400 {
            line.now += .milliseconds(1)
            line.perform(line.session.tick(now: line.now))
            while !line.written.isEmpty {
                let frame = line.written.removeFirst()
                guard frame.bytes[3] == 0x51 || frame.bytes[3] == 0x53 else { continue }  // the open's stop, repeated
                polls.append((frame.time, hexText(frame.bytes)))
                let kind: UInt8 = frame.bytes[3] == 0x51 ? 0x59 : 0x5B
                line.perform(line.session.bytesReceived(Self.answer(kind: kind, hundredths: 4500), now: line.now))
            }
        }
        #expect(polls.count == 8, "four polls in 400 ms: \(polls.map(\.text))")
        for (index, poll) in polls.enumerated() {
            #expect(poll.text == (index % 2 == 0 ? "FF 01 00 51 00 00 52" : "FF 01 00 53 00 00 54"))
            #expect(poll.time == .milliseconds(130 + 100 * (index / 2)), "pan then tilt, every 100 ms from the attach")
        }
    }

    @Test func unansweredPollsStallTheTelemetryAndAnAnswerResumesIt() {
        var line = Self.polledLine()
        line.takeEvents()
        line.wait(.seconds(1))
        #expect(line.takeEvents() == [.telemetryStalled])
        #expect(line.session.state == .ready(isDocked: true), "a head that stops answering still drives: no reconnect")
        line.receive(hexText(Self.answer(kind: 0x59, hundredths: 100)))
        #expect(line.takeEvents() == [.telemetryResumed])
    }

    @Test func aPresetIsRecalledOnAPolledHeadAndANumberOutsideABytesIsOutOfRange() throws {
        var line = Self.polledLine()
        line.takeWritten()
        line.takeEvents()
        let recalled = line.send(.recallPreset(number: 12))
        #expect(line.takeWritten() == ["FF 01 00 07 00 0C 14"])
        #expect(line.takeEvents() == [.answered(try #require(recalled.id), .accepted)])
        for number in [0, 256, -1] {
            let sent = line.send(.recallPreset(number: number))
            #expect(
                line.takeEvents() == [
                    .answered(try #require(sent.id), .refused(CommandRefusal(reason: .outOfRange, command: .recallPreset)))
                ])
        }
        #expect(line.takeWritten().isEmpty)
    }

    @Test func aPolledHeadStoresPresetsOneToThirtyTwoAndNoneOfItsFunctionPresets() throws {
        var line = Self.polledLine()
        line.takeWritten()
        line.takeEvents()
        #expect(line.session.presetNumbers == 1...32)
        #expect(Line().session.presetNumbers == nil, "a head without position queries keeps none of dockd's")
        let stored = line.send(.storePreset(number: 32))
        #expect(line.takeWritten() == ["FF 01 00 03 00 20 24"])
        #expect(line.takeEvents() == [.answered(try #require(stored.id), .accepted)])
        // 33 and 34 are Pelco's flip and pan zero: setting them is no preset of dockd's.
        for number in [0, 33, 34, 95, 256] {
            let sent = line.send(.storePreset(number: number))
            #expect(
                line.takeEvents() == [
                    .answered(try #require(sent.id), .refused(CommandRefusal(reason: .outOfRange, command: .storePreset)))
                ])
        }
        #expect(line.takeWritten().isEmpty)
    }

    @Test func anAnswerFromAnotherHeadOrAnEchoIsIgnoredUncounted() throws {
        var line = Self.polledLine()
        let bad = line.session.badFrameCount, answers = line.session.positionAnswers
        line.receive("FF 02 00 59 23 28 A6")
        line.receive("FF 01 00 02 20 00 23")
        #expect(line.session.badFrameCount == bad && line.session.positionAnswers == answers)
    }
}
