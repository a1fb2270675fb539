import DockProtocol
import Testing
import VISCAProtocol

@testable import DockLinks

/// The VISCA session's rules as transcripts in virtual time: what goes on the line, what the
/// camera answers (written here byte by byte, as a camera would), what the host hears.
@Suite struct VISCASessionTests {
    static let generic = VISCAProfile.named("generic")!

    /// A session and the bytes it wrote, with the time moved by hand.
    struct Line {
        var session: VISCASession
        var now = Duration.zero
        var written: [[UInt8]] = []
        var events: [SessionEvent] = []
        var opens = 0
        var closes = 0

        init(framing: VISCASession.Framing = .serial, profile: VISCAProfile = VISCASessionTests.generic) {
            session = VISCASession(configuration: VISCASession.Configuration(profile: profile, framing: framing))
        }

        mutating func perform(_ actions: [SessionAction]) {
            for action in actions {
                switch action {
                case .openTransport:
                    opens += 1
                    perform(session.transportOpened(now: now))
                case .closeTransport: closes += 1
                case .write(let bytes): written.append(bytes)
                case .emit(let event): events.append(event)
                }
            }
        }

        /// The camera answers with these packets (hex text, one packet each).
        mutating func answer(_ packets: String..., after delay: Duration = .milliseconds(10)) {
            now += delay
            for packet in packets { perform(session.bytesReceived(hex(packet), now: now)) }
        }

        /// Pose inquiries are answered (with `pan` counts, tilt 0) this long after they were
        /// written, and zoom position inquiries with `zoom`, while `answersPolls`; nothing else is
        /// answered but by hand.
        var pollDelay: Duration = .milliseconds(10)
        var answersPolls = true
        var pan: Int16 = 0
        var zoom: UInt16 = 0
        /// Whether zoom position inquiries are answered (with `answersPolls`).
        var answersZoom = true
        /// When each zoom position inquiry was written.
        var zoomPollTimes: [Duration] = []
        /// When each pose inquiry was written.
        var pollTimes: [Duration] = []
        private var due: [(time: Duration, bytes: [UInt8])] = []
        private var seen = 0

        /// Lets time pass in steps; the camera answers the pose inquiries that come.
        mutating func wait(_ duration: Duration, step: Duration = .milliseconds(1)) {
            let end = now + duration
            while now < end {
                now += step
                while let next = due.first, next.time <= now {
                    due.removeFirst()
                    perform(session.bytesReceived(next.bytes, now: now))
                }
                perform(session.tick(now: now))
                notePolls()
            }
        }

        /// Schedules answers to the pose inquiries written since the last look.
        private mutating func notePolls() {
            if seen > written.count { seen = 0 }
            for bytes in written[seen...] {
                let framed = session.configuration.framing == .sonyIP ? (try? VISCAIPMessage.decode(bytes)) : nil
                let payload = framed?.payload ?? bytes
                let reply: VISCAReply
                if payload == [0x81, 0x09, 0x06, 0x12, 0xFF] {
                    pollTimes.append(now)
                    reply = .inquiryReply(data: VISCAPanTiltPosition(pan: pan, tilt: 0).data)
                } else if payload == [0x81, 0x09, 0x04, 0x47, 0xFF] {
                    zoomPollTimes.append(now)
                    guard answersZoom else { continue }
                    reply = .inquiryReply(data: VISCAZoomPosition(position: zoom).data)
                } else {
                    continue
                }
                guard answersPolls else { continue }
                let answer = framed.map { VISCAIPMessage.reply(reply, sequence: $0.sequence).encode() } ?? reply.encode(address: 1)
                due.append((now + pollDelay, answer))
            }
            seen = written.count
        }

        @discardableResult
        mutating func send(_ command: AccessoryCommand) -> CommandID? {
            let sent = session.send(command, now: now)
            perform(sent.actions)
            return sent.id
        }

        /// What was written since the last call, as hex text.
        mutating func takeWritten() -> [String] {
            defer {
                written.removeAll()
                seen = 0
            }
            return written.map(hexText)
        }

        /// Opens the line and answers the handshake as a camera at address 1 whose pose is home.
        mutating func attach() {
            perform(session.start(now: now))
            #expect(takeWritten() == ["88 30 01 FF"], "address set first")
            answer("88 30 02 FF")
            #expect(takeWritten() == ["81 01 00 01 FF"], "then IF_Clear")
            answer("90 50 FF")
            #expect(takeWritten() == ["81 01 06 01 01 01 03 03 FF"], "then a stop, for a camera left moving")
            answer("90 41 FF", "90 51 FF")
            #expect(takeWritten() == ["81 09 00 02 FF"], "then the version")
            answer("90 50 00 01 05 1D 01 00 02 FF")
            #expect(takeWritten() == ["81 09 06 12 FF"], "then the pose")
            answer("90 50 00 00 00 00 00 00 00 00 FF")
            guard session.configuration.profile.zoom != nil else { return }
            #expect(takeWritten() == ["81 09 04 47 FF"], "attached: then the zoom, where the profile has one")
            answer("90 50 00 00 00 00 FF")
        }
    }

    @Test func theHandshakeNamesTheCameraAndItsLimitsFromTheProfile() throws {
        var line = Line()
        line.attach()
        #expect(line.session.state == .ready(isDocked: true))
        let info = try #require(line.session.info)
        #expect(line.events == [.attached(info, isDocked: true)])
        #expect(info.model == Self.generic.displayName)
        #expect(info.serialNumber == "VISCA-0001-051D", "no serial number in VISCA: the vendor and model codes")
        #expect(info.firmwareVersion == "VISCA 0001-051D, ROM 0100")
        #expect(info.failsafeTimeout == .zero, "VISCA has no failsafe")
        let profile = Self.generic
        #expect(abs(info.yaw.maximum.radians - profile.pan.maximumDegrees * .pi / 180) < 1e-5)
        #expect(abs(info.pitch.minimum.radians - profile.tilt.minimumDegrees * .pi / 180) < 1e-5)
        #expect(!line.session.capabilities.contains(.failsafe))
        #expect(!line.session.capabilities.contains(.telemetryStream))
        #expect(!line.session.capabilities.contains(.continuousSpeeds))
        #expect(line.session.capabilities.contains(.orientationMoves))
        #expect(line.session.capabilities.contains(.zoom), "the profile has a zoom, which dockd drives")
    }

    @Test func aCameraThatIgnoresAddressSetIsStillFoundByItsVersion() {
        var line = Line()
        line.perform(line.session.start(now: line.now))
        #expect(line.takeWritten() == ["88 30 01 FF"])
        line.wait(.seconds(2))
        let written = line.takeWritten()
        #expect(!written.contains("88 30 01 FF"), "address set is tried once: \(written)")
        #expect(written.contains("81 01 00 01 FF"), "the handshake went on: \(written)")
        #expect(line.session.state == .handshaking)
    }

    @Test func nothingAnsweringIsAFailedHandshakeAndTheNextBaudIsTried() {
        var line = Line()
        line.perform(line.session.start(now: line.now))
        let first = line.session.baudRate
        line.wait(.seconds(8))
        #expect(line.events.contains(.handshakeFailed))
        #expect(line.closes >= 1)
        #expect(line.opens >= 2, "reopened after the backoff")
        #expect(line.session.baudRate != first, "another serial speed: \(String(describing: line.session.baudRate))")
    }

    @Test func aVelocityBecomesAStepOfTheTableAndIsSentOnlyWhenItChanges() throws {
        var line = Line()
        line.attach()
        line.wait(.milliseconds(50))
        _ = line.takeWritten()
        let table = Self.generic.pan.speeds
        let rate = table.radiansPerSecond(step: 5)
        guard let id = line.send(.velocity(yawRadiansPerSecond: rate, pitchRadiansPerSecond: 0, timeToLive: .milliseconds(200))) else {
            Issue.record("dropped")
            return
        }
        let drive = line.takeWritten().filter { $0.hasPrefix("81 01 06 01") }
        #expect(drive == ["81 01 06 01 05 01 02 03 FF"], "pan right at step 5, tilt stopped")
        line.answer("90 41 FF")
        #expect(line.events.last == .answered(id, .accepted), "the ACK")
        line.answer("90 51 FF")
        #expect(line.events.last == .answered(id, .ended), "the Completion")
        // The same speed, a hair different, thirty times a second: nothing new on the line.
        for _ in 0..<5 {
            let again = line.send(.velocity(yawRadiansPerSecond: rate * 1.02, pitchRadiansPerSecond: 0, timeToLive: .milliseconds(200)))
            #expect(line.events.last == again.map { .answered($0, .accepted) }, "in force at once")
            line.wait(.milliseconds(33))
        }
        #expect(line.takeWritten().filter { $0.hasPrefix("81 01 06 01") }.isEmpty, "no drive resent while the step holds")
    }

    @Test func aVelocityNotRenewedStopsWhenItsTimeToLiveRunsOut() throws {
        var line = Line()
        line.attach()
        line.send(.velocity(yawRadiansPerSecond: -0.3, pitchRadiansPerSecond: 0.2, timeToLive: .milliseconds(200)))
        let start = line.now
        #expect(line.takeWritten().contains { $0.hasPrefix("81 01 06 01") && $0.hasSuffix("01 01 FF") }, "left and up")
        line.answer("90 41 FF", "90 51 FF")
        var stoppedAt: Duration?
        while line.now < start + .milliseconds(400), stoppedAt == nil {
            line.wait(.milliseconds(1))
            if line.takeWritten().contains(where: { $0.hasPrefix("81 01 06 01") && $0.hasSuffix("03 03 FF") }) { stoppedAt = line.now }
        }
        #expect(
            stoppedAt.map { $0 - start >= .milliseconds(200) && $0 - start <= .milliseconds(260) } == true,
            "the host keeps the time-to-live the camera cannot: \(String(describing: stoppedAt.map { $0 - start }))")
    }

    @Test func anUnansweredCommandIsResentAndThenTheCameraIsGone() {
        var line = Line()
        line.attach()
        line.wait(.milliseconds(100))
        _ = line.takeWritten()
        line.send(.stop)
        let stop = line.takeWritten()
        #expect(stop == ["81 01 06 01 01 01 03 03 FF"])
        let sentAt = line.now
        // The camera answers its pose but never the command.
        while !line.events.contains(.disconnected), line.now < sentAt + .seconds(5) { line.wait(.milliseconds(1)) }
        let written = line.takeWritten()
        #expect(written.filter { $0 == stop[0] }.count == 2, "sent three times in all: \(written)")
        #expect(line.session.resendCount == 2)
        #expect(line.events.contains(.disconnected), "gone after the third attempt")
        let timeout = line.session.replyTimeout
        #expect(line.now - sentAt <= timeout * 3 + .milliseconds(2), "three timeouts of \(timeout): \(line.now - sentAt)")
        #expect(line.closes == 1)
        #expect(line.session.state == .disconnected)
        line.answersPolls = false
        line.wait(.milliseconds(300))
        #expect(line.opens == 2, "reopened after the backoff")
        #expect(line.takeWritten().first == "88 30 01 FF", "a new handshake")
    }

    @Test func aSilentCameraIsGoneAfterThreeUnansweredPolls() {
        var line = Line()
        line.attach()
        line.answersPolls = false
        line.wait(.seconds(2))
        #expect(line.events.first { $0 == .disconnected } != nil, "gone, and retried")
        #expect(line.session.state != .ready(isDocked: true))
    }

    @Test func theTimeoutFollowsTheRoundTripsMeasured() {
        var line = Line()
        line.attach()
        #expect(line.session.replyTimeout == .milliseconds(100), "a 10 ms handshake: the floor")
        line.pollDelay = .milliseconds(180)
        line.wait(.seconds(4))
        let smoothed = line.session.smoothedRoundTrip ?? .zero
        #expect(smoothed > .milliseconds(150) && smoothed <= .milliseconds(180), "\(smoothed)")
        #expect(line.session.replyTimeout > .milliseconds(180), "the timeout grew past the round trip: \(line.session.replyTimeout)")
        #expect(!line.events.contains(.disconnected), "a slow camera is not a gone one")
        let polls = line.pollTimes.count
        #expect(polls >= 15 && polls <= 26, "about a poll each round trip (180 ms) over 4 s, few resends: \(polls)")
    }

    @Test func bufferFullIsWaitedOutAndTheCommandGoesAgain() {
        var line = Line()
        line.attach()
        line.send(.move(yawRadians: 0.5, pitchRadians: 0, pace: .duration(.seconds(2))))
        let move = line.takeWritten()
        #expect(move.count == 1 && move[0].hasPrefix("81 01 06 02"))
        line.answer("90 60 03 FF")
        #expect(line.events.allSatisfy { if case .answered(_, .refused) = $0 { false } else { true } }, "buffer full is no refusal")
        line.wait(.milliseconds(100))
        #expect(line.takeWritten().contains(move[0]), "the same move once a socket may be free")
    }

    @Test func aCompletionWithoutAckEndsTheCommand() throws {
        var line = Line()
        line.attach()
        guard let id = line.send(.stop) else {
            Issue.record("dropped")
            return
        }
        line.answer("90 52 FF")
        #expect(line.events.last == .answered(id, .ended), "done, and so taken")
        line.wait(.seconds(1))
        #expect(line.session.resendCount == 0, "not sent again")
    }

    @Test func aSyntaxErrorIsARefusalNamingTheCommand() throws {
        var line = Line()
        line.attach()
        guard let id = line.send(.move(yawRadians: 0.1, pitchRadians: 0, pace: .duration(.seconds(1)))) else {
            Issue.record("dropped")
            return
        }
        line.answer("90 60 02 FF")
        #expect(line.events.last == .answered(id, .refused(CommandRefusal(reason: .unsupported, detail: 2, command: .move))))
        #expect(line.session.refusalCount == 1)
    }

    @Test func aPoseIsStampedHalfARoundTripBeforeItsReply() throws {
        var line = Line()
        line.attach()
        line.pollDelay = .milliseconds(60)
        line.pan = 10
        line.wait(.milliseconds(300))
        let asked = try #require(line.pollTimes.last)
        let answered = asked + .milliseconds(60)
        line.wait(answered - line.now)
        let age = try #require(line.session.poseAge(at: line.now))
        #expect(age == .milliseconds(30), "half the 60 ms round trip: \(age)")
        let pose = try #require(line.session.pose(at: asked + .milliseconds(30)))
        #expect(abs(pose.yawRadians - 10 / Self.generic.pan.countsPerDegree * .pi / 180) < 1e-9)
        #expect(line.session.pose(at: line.now + .milliseconds(250)) != nil, "a polled pose is extrapolated further")
        #expect(line.session.pose(at: line.now + .seconds(1)) == nil, "but not for ever")
    }

    @Test func theSonyHeaderResetsItsSequenceAndAResendKeepsItsNumber() throws {
        var line = Line(framing: .sonyIP)
        line.perform(line.session.start(now: line.now))
        let reset = try VISCAIPMessage.decode(line.written.removeFirst())
        #expect(reset.payloadType == .controlCommand && reset.payload == [0x01])
        line.now += .milliseconds(5)
        line.perform(line.session.bytesReceived(VISCAIPMessage.resetAcknowledgement(sequence: reset.sequence).encode(), now: line.now))
        let clear = try VISCAIPMessage.decode(line.written.removeFirst())
        #expect(clear.payloadType == .deviceSetting && hexText(clear.payload) == "81 01 00 01 FF", "no address set over IP")
        line.now += .milliseconds(5)
        line.perform(
            line.session.bytesReceived(
                VISCAIPMessage.reply(.completion(socket: 0), sequence: clear.sequence).encode(),
                now: line.now))
        let halt = try VISCAIPMessage.decode(line.written.removeFirst())
        #expect(halt.payloadType == .command && hexText(halt.payload) == "81 01 06 01 01 01 03 03 FF")
        #expect(halt.sequence == clear.sequence + 1, "each message numbered one more")
        line.now += .milliseconds(5)
        line.perform(line.session.bytesReceived(VISCAIPMessage.reply(.ack(socket: 1), sequence: halt.sequence).encode(), now: line.now))
        let version = try VISCAIPMessage.decode(line.written.removeFirst())
        #expect(
            version.payloadType == .deviceSetting && version.sequence == halt.sequence + 1,
            "IF_Clear and the version inquiry are device settings")
        line.now += .milliseconds(5)
        let versionData = VISCAVersion(vendor: 1, model: 0x51D, romVersion: 0x100, maximumSocket: 2).data
        line.perform(
            line.session.bytesReceived(
                VISCAIPMessage.reply(.inquiryReply(data: versionData), sequence: version.sequence)
                    .encode(), now: line.now))
        let pose = try VISCAIPMessage.decode(line.written.removeFirst())
        line.now += .milliseconds(5)
        line.perform(
            line.session.bytesReceived(
                VISCAIPMessage.reply(.inquiryReply(data: VISCAPanTiltPosition(pan: 0, tilt: 0).data), sequence: pose.sequence).encode(),
                now: line.now))
        #expect(line.session.state == .ready(isDocked: true))

        _ = line.takeWritten()
        guard let id = line.send(.stop) else {
            Issue.record("dropped")
            return
        }
        let stop = try VISCAIPMessage.decode(try #require(line.written.first))
        #expect(stop.payloadType == .command)
        line.wait(line.session.replyTimeout + .milliseconds(1))  // lost: resent under the same number
        let commands = line.written.compactMap { try? VISCAIPMessage.decode($0) }.filter { $0.payloadType == .command }
        #expect(commands == [stop, stop], "the resend keeps its sequence number")
        line.now += .milliseconds(5)
        line.perform(
            line.session.bytesReceived(
                VISCAIPMessage.controlError(.sequenceNumber, sequence: stop.sequence).encode(),
                now: line.now))
        #expect(line.events.contains(.answered(id, .ended)), "ERROR 0F 01 to a resend: the camera had carried it out")
        #expect(!line.events.contains(.disconnected))
    }

    @Test func aStaleReplyOverIPIsNotTakenForTheNextRequest() throws {
        var line = Line(framing: .rawIP)
        line.perform(line.session.start(now: line.now))
        #expect(line.takeWritten() == ["81 01 00 01 FF"], "raw VISCA over IP: no address set, no header")
    }
}

func hex(_ text: String) -> [UInt8] { text.split(separator: " ").map { UInt8($0, radix: 16)! } }

func hexText(_ bytes: [UInt8]) -> String {
    bytes.map {
        let digits = String($0, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
    .joined(separator: " ")
}
