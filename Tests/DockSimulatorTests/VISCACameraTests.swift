import DockSimulator
import Testing
import VISCAProtocol

/// The simulated VISCA camera in virtual time: each test reads as a transcript of what the host
/// sends and what the camera answers.
@Suite struct VISCACameraTests {
    static let generic = VISCAProfile.named("generic")!
    static let telycam = VISCAProfile.named("telycam-tlc-700")!
    static let degree = Double.pi / 180

    /// A camera of `profile` with its quirks replaced by `quirks`.
    static func camera(
        _ profile: VISCAProfile = telycam, transport: VISCACamera.Transport = .serial,
        quirks: VISCAProfile.Quirks? = nil, zoom: ClosedRange<UInt16>?? = nil, seed: UInt64 = 1
    ) -> VISCACamera {
        var profile = profile
        if let quirks { profile.quirks = quirks }
        if let zoom { profile.zoom = zoom }
        return VISCACamera(configuration: .init(profile: profile, transport: transport), seed: seed)
    }

    /// Sends `command` to camera 1 at `now` (serial or raw UDP) and reads the replies.
    static func send(_ command: VISCACommand, to camera: inout VISCACamera, at now: Duration) throws -> [VISCAReply] {
        try replies(camera.receive(command.encode(address: 1), now: now))
    }

    static func replies(_ writes: [[UInt8]]) throws -> [VISCAReply] {
        try writes.map { try VISCAReply.decode($0).reply }
    }

    static func position(_ camera: inout VISCACamera, at now: Duration) throws -> VISCAPanTiltPosition {
        let replies = try send(.panTiltPositionInquiry, to: &camera, at: now)
        guard replies.count == 1, case .inquiryReply(let data) = replies[0], let position = VISCAPanTiltPosition(data: data) else {
            Issue.record("no position in \(replies)")
            return VISCAPanTiltPosition(pan: .min, tilt: .min)
        }
        return position
    }

    // MARK: Handshake and inquiries

    @Test func theHandshakeIsAnsweredAsTheManualSays() throws {
        var camera = Self.camera()
        #expect(camera.receive([0x88, 0x30, 0x01, 0xFF], now: .zero) == [[0x88, 0x30, 0x02, 0xFF]])
        #expect(camera.address == 1)
        #expect(try Self.send(.interfaceClear, to: &camera, at: .milliseconds(10)) == [.completion(socket: 0)])
        let version = camera.configuration.version
        #expect(try Self.send(.versionInquiry, to: &camera, at: .milliseconds(20)) == [.inquiryReply(data: version.data)])
        #expect(version.maximumSocket == 2)
        #expect(try Self.position(&camera, at: .milliseconds(30)) == VISCAPanTiltPosition(pan: 0, tilt: 0))
        #expect(
            try Self.send(.panTiltMaxSpeedInquiry, to: &camera, at: .milliseconds(40))
                == [.inquiryReply(data: [0x18, 0x12])])
        #expect(try Self.send(.zoomPositionInquiry, to: &camera, at: .milliseconds(50)) == [.inquiryReply(data: [0, 0, 0, 0])])
    }

    @Test func aCommandCutIntoBytesIsAnsweredAsAWholeOne() throws {
        var whole = Self.camera(), cut = Self.camera()
        let bytes =
            VISCACommand.absolutePosition(panSpeed: 0x10, tiltSpeed: 0x10, pan: 500, tilt: -100).encode(address: 1)
            + VISCACommand.panTiltPositionInquiry.encode(address: 1)
        let wholeReplies = whole.receive(bytes, now: .milliseconds(5))
        var cutReplies: [[UInt8]] = []
        for byte in bytes { cutReplies += cut.receive([byte], now: .milliseconds(5)) }
        #expect(cutReplies == wholeReplies)
        #expect(try Self.replies(wholeReplies).first == .ack(socket: 1))
    }

    @Test func packetsForAnotherCameraGoOnRoundTheRing() throws {
        var camera = Self.camera()
        let other = VISCACommand.home.encode(address: 2)
        #expect(camera.receive(other, now: .zero) == [other])
        #expect(camera.panTiltMotion == .idle)
        let broadcast: [UInt8] = [0x88, 0x01, 0x00, 0x01, 0xFF]
        #expect(camera.receive(broadcast, now: .milliseconds(1)) == [broadcast], "a broadcast IF_Clear comes back unchanged")
        // Its own replies, come back round, are not commands.
        #expect(camera.receive([0x90, 0x41, 0xFF], now: .milliseconds(2)) == [])
    }

    // MARK: Motion

    @Test func aDriveTurnsAtItsStepsSpeedUntilTold() throws {
        var camera = Self.camera()
        // Telycam pan step 13 is 9 °/s.
        let drive = VISCACommand.panTiltDrive(panSpeed: 13, tiltSpeed: 1, pan: .right, tilt: .stop)
        #expect(try Self.send(drive, to: &camera, at: .zero) == [.ack(socket: 1), .completion(socket: 1)])
        #expect(camera.busySocketCount == 0, "a drive does not hold its socket")
        _ = camera.advance(to: .seconds(2))
        #expect(abs(camera.pan.motorRadiansPerSecond - 9 * Self.degree) < 1e-6)
        #expect(camera.tilt.motorRadiansPerSecond == 0)
        // Nothing ends it: ten seconds on it still turns.
        _ = camera.advance(to: .seconds(10))
        #expect(abs(camera.pan.motorRadiansPerSecond - 9 * Self.degree) < 1e-6)
        let counts = try Self.position(&camera, at: .seconds(10))
        let expected = 9.0 * 10 * 14.4
        #expect(Double(counts.pan) > expected - 14.4 && Double(counts.pan) < expected, "\(counts.pan) counts")

        let stop = VISCACommand.panTiltDrive(panSpeed: 1, tiltSpeed: 1, pan: .stop, tilt: .stop)
        #expect(try Self.send(stop, to: &camera, at: .seconds(10)) == [.ack(socket: 1), .completion(socket: 1)])
        #expect(camera.lastStopTime == .seconds(10))
        _ = camera.advance(to: .seconds(11))
        #expect(camera.isStill)
    }

    @Test(arguments: [1 as UInt8, 8, 12, 18, 24])
    func everyStepRunsAtItsTablesSpeed(step: UInt8) throws {
        var camera = Self.camera()
        let tiltStep = min(step, 18)
        _ = try Self.send(.panTiltDrive(panSpeed: step, tiltSpeed: tiltStep, pan: .left, tilt: .up), to: &camera, at: .zero)
        _ = camera.advance(to: .milliseconds(900))
        #expect(abs(camera.pan.motorRadiansPerSecond + Self.telycam.pan.speeds.radiansPerSecond(step: step)) < 1e-6)
        #expect(abs(camera.tilt.motorRadiansPerSecond - Self.telycam.tilt.speeds.radiansPerSecond(step: tiltStep)) < 1e-6)
    }

    @Test func anAbsoluteMoveCompletesWhenItArrives() throws {
        var camera = Self.camera()
        // The manual's right and upper ends: +170° = 0x0990, +90° = 0x0510.
        let move = VISCACommand.absolutePosition(panSpeed: 24, tiltSpeed: 18, pan: 0x0990, tilt: 0x0510)
        #expect(try Self.send(move, to: &camera, at: .zero) == [.ack(socket: 1)])
        #expect(camera.busySocketCount == 1)
        var completion: Duration?
        for tick in 1...400 {
            let now = Duration.milliseconds(10 * tick)
            let replies = try Self.replies(camera.advance(to: now))
            if !replies.isEmpty {
                #expect(replies == [.completion(socket: 1)])
                completion = now
                break
            }
        }
        // 170° at 120 °/s and 90° at 80 °/s: the pan takes about 1.4 s plus its ramps.
        let arrived = try #require(completion)
        #expect(arrived > .milliseconds(1400) && arrived < .milliseconds(2500), "\(arrived)")
        #expect(try Self.position(&camera, at: arrived) == VISCAPanTiltPosition(pan: 0x0990, tilt: 0x0510))
        #expect(camera.busySocketCount == 0)
    }

    @Test func aRelativeMoveIsCountedFromWhereTheCameraIs() throws {
        var camera = Self.camera()
        _ = try Self.send(.absolutePosition(panSpeed: 24, tiltSpeed: 18, pan: 720, tilt: 0), to: &camera, at: .zero)
        _ = camera.advance(to: .seconds(2))
        #expect(
            try Self.send(
                .relativePosition(panSpeed: 24, tiltSpeed: 18, pan: -1440, tilt: 144), to: &camera,
                at: .seconds(2)) == [.ack(socket: 1)])
        _ = camera.advance(to: .seconds(4))
        #expect(try Self.position(&camera, at: .seconds(4)) == VISCAPanTiltPosition(pan: -720, tilt: 144))
        // Beyond the range, a move stops at its end.
        _ = try Self.send(.relativePosition(panSpeed: 24, tiltSpeed: 18, pan: -30000, tilt: 0), to: &camera, at: .seconds(4))
        _ = camera.advance(to: .seconds(8))
        #expect(try Self.position(&camera, at: .seconds(8)).pan == Self.telycam.pan.minimumCount)
    }

    @Test func homeAndResetReturnToZero() throws {
        var camera = Self.camera()
        _ = try Self.send(.panTiltDrive(panSpeed: 24, tiltSpeed: 18, pan: .left, tilt: .down), to: &camera, at: .zero)
        _ = camera.advance(to: .milliseconds(300))
        for (index, command) in [VISCACommand.home, .reset].enumerated() {
            let start = Duration.seconds(3 * index + 1)
            #expect(try Self.send(command, to: &camera, at: start) == [.ack(socket: 1)])
            #expect(try Self.replies(camera.advance(to: start + .seconds(3))) == [.completion(socket: 1)])
            #expect(try Self.position(&camera, at: start + .seconds(3)) == VISCAPanTiltPosition(pan: 0, tilt: 0))
        }
    }

    @Test func aNewMotionReplacesARunningMoveAndCompletesIt() throws {
        var camera = Self.camera()
        _ = try Self.send(.absolutePosition(panSpeed: 5, tiltSpeed: 5, pan: 2000, tilt: 0), to: &camera, at: .zero)
        let stop = VISCACommand.panTiltDrive(panSpeed: 1, tiltSpeed: 1, pan: .stop, tilt: .stop)
        #expect(
            try Self.send(stop, to: &camera, at: .milliseconds(500))
                == [.ack(socket: 2), .completion(socket: 1), .completion(socket: 2)])
        #expect(camera.busySocketCount == 0)
        #expect(try Self.replies(camera.advance(to: .seconds(60))) == [], "the replaced move sends nothing more")
    }

    // MARK: Sockets

    @Test func aThirdCommandWhileTwoSocketsAreBusyGetsBufferFull() throws {
        var camera = Self.camera()
        #expect(
            try Self.send(.absolutePosition(panSpeed: 3, tiltSpeed: 3, pan: 1000, tilt: 300), to: &camera, at: .zero)
                == [.ack(socket: 1)])
        #expect(try Self.send(.zoomDirect(position: 0x4000), to: &camera, at: .milliseconds(10)) == [.ack(socket: 2)])
        #expect(camera.busySocketCount == 2)
        let stop = VISCACommand.panTiltDrive(panSpeed: 1, tiltSpeed: 1, pan: .stop, tilt: .stop)
        #expect(try Self.send(stop, to: &camera, at: .milliseconds(20)) == [.error(socket: 0, code: .bufferFull)])
        #expect(camera.panTiltMotion != .idle, "the refused stop did nothing")
        #expect(
            camera.receive([0x81, 0x09, 0x06, 0x12, 0xFF], now: .milliseconds(30)).count == 1,
            "an inquiry needs no socket")
        // The zoom arrives first (3 s end to end), then the move; then commands are taken again.
        #expect(try Self.replies(camera.advance(to: .seconds(4))) == [.completion(socket: 2)])
        #expect(try Self.send(stop, to: &camera, at: .seconds(4)) == [.ack(socket: 2), .completion(socket: 1), .completion(socket: 2)])
    }

    @Test func cancelEndsASocketsCommandWithoutCompletion() throws {
        var camera = Self.camera()
        _ = try Self.send(.absolutePosition(panSpeed: 3, tiltSpeed: 3, pan: 2000, tilt: 0), to: &camera, at: .zero)
        #expect(try Self.send(.cancel(socket: 1), to: &camera, at: .milliseconds(200)) == [.error(socket: 1, code: .cancelled)])
        #expect(try Self.send(.cancel(socket: 2), to: &camera, at: .milliseconds(210)) == [.error(socket: 2, code: .noSocket)])
        #expect(try Self.send(.cancel(socket: 1), to: &camera, at: .milliseconds(220)) == [.error(socket: 1, code: .noSocket)])
        #expect(try Self.replies(camera.advance(to: .seconds(30))) == [])
        #expect(camera.isStill)
    }

    @Test func interfaceClearEndsTheSocketsButNotADrive() throws {
        var camera = Self.camera()
        _ = try Self.send(.zoomDirect(position: 0x4000), to: &camera, at: .zero)
        _ = try Self.send(.panTiltDrive(panSpeed: 5, tiltSpeed: 1, pan: .right, tilt: .stop), to: &camera, at: .milliseconds(10))
        #expect(try Self.send(.interfaceClear, to: &camera, at: .milliseconds(500)) == [.completion(socket: 0)])
        #expect(camera.busySocketCount == 0)
        #expect(camera.zoomMotion == .idle)
        #expect(try Self.replies(camera.advance(to: .seconds(5))) == [], "no Completion for the cleared zoom")
        #expect(camera.pan.motorRadiansPerSecond > 0, "the drive had completed: it goes on")
    }

    // MARK: Quirks

    @Test func completionWithoutAckSendsOnlyCompletions() throws {
        var camera = Self.camera(quirks: .init(completionWithoutAck: true))
        #expect(
            try Self.send(.panTiltDrive(panSpeed: 3, tiltSpeed: 3, pan: .left, tilt: .stop), to: &camera, at: .zero)
                == [.completion(socket: 1)])
        #expect(try Self.send(.home, to: &camera, at: .milliseconds(100)) == [])
        #expect(try Self.replies(camera.advance(to: .seconds(2))) == [.completion(socket: 1)])
    }

    @Test func completionBeforeArrivalFreesTheSocketAtOnce() throws {
        var camera = Self.camera(quirks: .init(completionBeforeArrival: true))
        #expect(
            try Self.send(.absolutePosition(panSpeed: 20, tiltSpeed: 3, pan: 1000, tilt: 0), to: &camera, at: .zero)
                == [.ack(socket: 1), .completion(socket: 1)])
        #expect(camera.busySocketCount == 0)
        #expect(camera.panTiltMotion != .idle, "but the move goes on")
        #expect(try Self.replies(camera.advance(to: .seconds(20))) == [])
        #expect(try Self.position(&camera, at: .seconds(20)).pan == 1000)
    }

    @Test func oneSpeedByteTakesVVForBothAxesAndWantsWWZero() throws {
        var camera = Self.camera(quirks: .init(oneSpeedByteInPositionMoves: true))
        #expect(
            try Self.send(.absolutePosition(panSpeed: 10, tiltSpeed: 10, pan: 100, tilt: 100), to: &camera, at: .zero)
                == [.error(socket: 0, code: .syntax)])
        #expect(
            try Self.send(
                .absolutePosition(panSpeed: 10, tiltSpeed: 0, pan: 100, tilt: 100), to: &camera,
                at: .milliseconds(10)) == [.ack(socket: 1)])
    }

    // MARK: Refusals

    @Test func whatTheCameraCannotDoIsASyntaxError() throws {
        var camera = Self.camera(zoom: .some(nil))
        let syntax = [VISCAReply.error(socket: 0, code: .syntax)]
        #expect(
            try Self.replies(camera.receive([0x81, 0x01, 0x04, 0x38, 0x02, 0xFF], now: .zero)) == syntax,
            "a command it does not know (auto focus)")
        #expect(try Self.replies(camera.receive([0x81, 0x09, 0x05, 0x38, 0xFF], now: .zero)) == syntax, "an inquiry it does not know")
        #expect(
            try Self.send(.panTiltDrive(panSpeed: 0, tiltSpeed: 1, pan: .left, tilt: .stop), to: &camera, at: .zero) == syntax,
            "speed 0")
        #expect(
            try Self.send(.panTiltDrive(panSpeed: 25, tiltSpeed: 1, pan: .left, tilt: .stop), to: &camera, at: .zero) == syntax,
            "pan step 25 on a camera whose table ends at 24")
        #expect(
            try Self.send(.panTiltDrive(panSpeed: 1, tiltSpeed: 19, pan: .stop, tilt: .up), to: &camera, at: .zero) == syntax,
            "tilt step 19 on one whose table ends at 18")
        #expect(try Self.send(.zoomTele(speed: 3), to: &camera, at: .zero) == syntax, "zoom on a camera without one")
        #expect(try Self.send(.zoomPositionInquiry, to: &camera, at: .zero) == syntax)
        #expect(camera.refusals == 7)
        #expect(camera.isStill && camera.busySocketCount == 0)
    }

    // MARK: Zoom

    // MARK: Preset memories

    @Test func aRecalledMemoryIsReachedAtThePresetSpeedAndCompletes() throws {
        // The EVI-D100 keeps six memories (0 to 5).
        var camera = VISCACamera(
            configuration: .init(profile: VISCAProfile.named("sony-evi-d100")!, transport: .serial, presetSpeedFraction: 0.25), seed: 1)
        let target = VISCACommand.absolutePosition(panSpeed: 24, tiltSpeed: 20, pan: 0x0400, tilt: 0x0100)
        _ = try Self.send(target, to: &camera, at: .zero)
        _ = camera.advance(to: .seconds(2))
        #expect(try Self.position(&camera, at: .seconds(2)) == VISCAPanTiltPosition(pan: 0x0400, tilt: 0x0100))
        #expect(try Self.send(.memorySet(number: 5), to: &camera, at: .seconds(2)) == [.ack(socket: 1), .completion(socket: 1)])
        _ = try Self.send(.home, to: &camera, at: .seconds(2))
        _ = camera.advance(to: .seconds(4))
        #expect(try Self.position(&camera, at: .seconds(4)) == VISCAPanTiltPosition(pan: 0, tilt: 0))
        #expect(try Self.send(.memoryRecall(number: 5), to: &camera, at: .seconds(4)) == [.ack(socket: 1)])
        var completion: Duration?
        for tick in 1...800 {
            let now = Duration.seconds(4) + .milliseconds(10 * tick)
            let replies = try Self.replies(camera.advance(to: now))
            if !replies.isEmpty {
                #expect(replies == [.completion(socket: 1)])
                completion = now
                break
            }
        }
        // 0x400 counts is 71°: at a quarter of 300 °/s, about 0.95 s and the ramps; at the
        // fastest step it would take a third of that.
        let arrived = try #require(completion) - .seconds(4)
        #expect(arrived > .milliseconds(900) && arrived < .milliseconds(1600), "\(arrived)")
        #expect(try Self.position(&camera, at: .seconds(6)) == VISCAPanTiltPosition(pan: 0x0400, tilt: 0x0100))
    }

    @Test func memoriesPastTheProfilesCountOrEmptyAreRefused() throws {
        var camera = VISCACamera(configuration: .init(profile: VISCAProfile.named("sony-evi-d100")!, transport: .serial), seed: 1)
        #expect(try Self.send(.memorySet(number: 6), to: &camera, at: .zero) == [.error(socket: 0, code: .syntax)])
        #expect(try Self.send(.memoryRecall(number: 2), to: &camera, at: .zero) == [.error(socket: 0, code: .notExecutable)])
        _ = try Self.send(.memorySet(number: 2), to: &camera, at: .zero)
        #expect(try Self.send(.memoryReset(number: 2), to: &camera, at: .zero) == [.ack(socket: 1), .completion(socket: 1)])
        #expect(try Self.send(.memoryRecall(number: 2), to: &camera, at: .zero) == [.error(socket: 0, code: .notExecutable)])
        // A camera whose profile keeps none refuses them all.
        var generic = Self.camera(Self.generic)
        #expect(try Self.send(.memorySet(number: 0), to: &generic, at: .zero) == [.error(socket: 0, code: .syntax)])
    }

    @Test func theZoomRunsEndToEndInItsFullTravelTime() throws {
        var camera = Self.camera()
        #expect(try Self.send(.zoomTele(speed: 7), to: &camera, at: .zero) == [.ack(socket: 1), .completion(socket: 1)])
        _ = camera.advance(to: .milliseconds(1500))
        #expect(abs(camera.zoomPosition - 8192) < 1)
        _ = camera.advance(to: .seconds(4))
        #expect(camera.zoomPosition == 16384, "held at the tele end")
        #expect(try Self.send(.zoomWide(speed: 3), to: &camera, at: .seconds(4)) == [.ack(socket: 1), .completion(socket: 1)])
        _ = camera.advance(to: .seconds(5))
        #expect(abs(camera.zoomPosition - (16384 - 16384.0 / 3 / 2)) < 1, "speed 3 of 7 is half as fast")
        _ = try Self.send(.zoomStop, to: &camera, at: .seconds(5))
        _ = camera.advance(to: .seconds(6))
        let held = camera.zoomPosition
        #expect(
            try Self.send(.zoomPositionInquiry, to: &camera, at: .seconds(6))
                == [.inquiryReply(data: VISCAZoomPosition(position: UInt16(held.rounded())).data)])
    }

    // MARK: Sony's VISCA over IP

    /// Sends a message to a Sony-IP camera and reads the datagrams back.
    static func datagram(_ message: VISCAIPMessage, to camera: inout VISCACamera, at now: Duration) throws -> [VISCAIPMessage] {
        try camera.receive(message.encode(), now: now).map { try VISCAIPMessage.decode($0) }
    }

    @Test func sonyIPAnswersWithTheMessagesSequenceNumber() throws {
        var camera = Self.camera(transport: .sonyIP)
        #expect(try Self.datagram(.resetSequence(sequence: 0), to: &camera, at: .zero) == [.resetAcknowledgement(sequence: 0)])
        let move = VISCACommand.absolutePosition(panSpeed: 24, tiltSpeed: 18, pan: 144, tilt: 0)
        #expect(
            try Self.datagram(.command(move, sequence: 0), to: &camera, at: .milliseconds(10))
                == [.reply(.ack(socket: 1), sequence: 0)])
        #expect(
            try Self.datagram(.command(.panTiltPositionInquiry, sequence: 1), to: &camera, at: .milliseconds(20)).map(\.sequence)
                == [1])
        // The move's Completion, later, carries the move's number.
        let completion = try camera.advance(to: .seconds(2)).map { try VISCAIPMessage.decode($0) }
        #expect(completion == [.reply(.completion(socket: 1), sequence: 0)])
    }

    @Test func sonyIPAnswersAResendOfWhatItDidWithSequenceError() throws {
        var camera = Self.camera(transport: .sonyIP)
        let drive = VISCAIPMessage.command(.panTiltDrive(panSpeed: 5, tiltSpeed: 5, pan: .right, tilt: .stop), sequence: 7)
        #expect(
            try Self.datagram(drive, to: &camera, at: .zero)
                == [.reply(.ack(socket: 1), sequence: 7), .reply(.completion(socket: 1), sequence: 7)])
        // The ACK was lost, say: the resend keeps its number and is not carried out twice.
        #expect(try Self.datagram(drive, to: &camera, at: .milliseconds(100)) == [.controlError(.sequenceNumber, sequence: 7)])
        // Under a new number it is carried out again.
        var renumbered = drive
        renumbered.sequence = 8
        #expect(try Self.datagram(renumbered, to: &camera, at: .milliseconds(200)).count == 2)
        // A refused message was not carried out: its resend is refused again, not a sequence error.
        let bad = VISCAIPMessage.command(.panTiltDrive(panSpeed: 0, tiltSpeed: 5, pan: .right, tilt: .stop), sequence: 9)
        #expect(try Self.datagram(bad, to: &camera, at: .milliseconds(300)) == [.reply(.error(socket: 0, code: .syntax), sequence: 9)])
        #expect(try Self.datagram(bad, to: &camera, at: .milliseconds(400)) == [.reply(.error(socket: 0, code: .syntax), sequence: 9)])
        // RESET forgets the numbers: 8 is new again.
        _ = try Self.datagram(.resetSequence(sequence: 10), to: &camera, at: .milliseconds(500))
        #expect(try Self.datagram(renumbered, to: &camera, at: .milliseconds(600)).count == 2)
    }

    @Test func sonyIPRefusesMessagesItCannotRead() throws {
        var camera = Self.camera(transport: .sonyIP)
        let abnormal: (UInt32) -> [VISCAIPMessage] = { [.controlError(.message, sequence: $0)] }
        #expect(
            try camera.receive([0x03, 0x00, 0x00, 0x05, 0, 0, 0, 4, 0x81, 0x09, 0x06, 0x12, 0xFF], now: .zero)
                .map { try VISCAIPMessage.decode($0) } == abnormal(4), "an undefined payload type")
        #expect(
            try camera.receive([0x01, 0x10, 0x00, 0x09, 0, 0, 0, 5, 0x81, 0x09, 0x06, 0x12, 0xFF], now: .zero)
                .map { try VISCAIPMessage.decode($0) } == abnormal(5), "a wrong payload length")
        #expect(
            try Self.datagram(.reply(.ack(socket: 1), sequence: 6), to: &camera, at: .zero) == abnormal(6),
            "a reply sent to the camera")
        #expect(
            try Self.datagram(VISCAIPMessage(payloadType: .command, sequence: 7, payload: [0x81, 0x09]), to: &camera, at: .zero)
                == abnormal(7), "a payload without FF")
        #expect(camera.receive([0x01, 0x10, 0x00], now: .zero) == [], "no header to answer")
        #expect(
            try Self.datagram(.command(.addressSet, sequence: 8), to: &camera, at: .zero)
                == [.reply(.error(socket: 0, code: .syntax), sequence: 8)], "address set is not for VISCA over IP")
        #expect(
            try Self.datagram(
                VISCAIPMessage(
                    payloadType: .deviceSetting, sequence: 9,
                    payload: VISCACommand.interfaceClear.encode(address: 1)),
                to: &camera, at: .zero) == [.reply(.completion(socket: 0), sequence: 9)])
    }

    @Test func rawIPTakesBarePacketsInDatagrams() throws {
        var camera = Self.camera(transport: .rawIP)
        #expect(
            try Self.send(.panTiltDrive(panSpeed: 2, tiltSpeed: 2, pan: .left, tilt: .stop), to: &camera, at: .zero)
                == [.ack(socket: 1), .completion(socket: 1)])
        #expect(try Self.send(.addressSet, to: &camera, at: .zero) == [.error(socket: 0, code: .syntax)])
        #expect(camera.receive([0x81, 0x09, 0x06], now: .zero) == [], "a datagram cut short")
        #expect(camera.framingErrors == 1)
    }

    // MARK: Faults

    @Test func aReplyDelayHoldsEveryReplyBack() throws {
        var camera = Self.camera()
        camera.faults.replyDelay = .milliseconds(200)
        let slowMove = VISCACommand.absolutePosition(panSpeed: 1, tiltSpeed: 1, pan: 1000, tilt: 0)
        #expect(try Self.send(slowMove, to: &camera, at: .milliseconds(100)) == [])
        #expect(camera.advance(to: .milliseconds(299)) == [])
        #expect(try Self.replies(camera.advance(to: .milliseconds(300))) == [.ack(socket: 1)])
        #expect(try Self.send(.panTiltPositionInquiry, to: &camera, at: .milliseconds(310)) == [])
        #expect(try Self.replies(camera.advance(to: .milliseconds(510))).count == 1)
    }

    @Test func anUnresponsiveCameraTakesNothingAndItsDriveGoesOn() throws {
        var camera = Self.camera()
        _ = try Self.send(.panTiltDrive(panSpeed: 10, tiltSpeed: 1, pan: .right, tilt: .stop), to: &camera, at: .zero)
        camera.faults.isUnresponsive = true
        let stop = VISCACommand.panTiltDrive(panSpeed: 1, tiltSpeed: 1, pan: .stop, tilt: .stop)
        #expect(try Self.send(stop, to: &camera, at: .seconds(1)) == [])
        #expect(try Self.send(.panTiltPositionInquiry, to: &camera, at: .seconds(1)) == [])
        _ = camera.advance(to: .seconds(2))
        #expect(camera.pan.motorRadiansPerSecond > 0, "VISCA has no failsafe")
        camera.faults.isUnresponsive = false
        #expect(try Self.send(stop, to: &camera, at: .seconds(2)) == [.ack(socket: 1), .completion(socket: 1)])
    }

    @Test(arguments: [11 as UInt64, 12])
    func lostRepliesAreASeededShare(seed: UInt64) throws {
        func run() throws -> [Int] {
            var camera = Self.camera(seed: seed)
            camera.faults.replyLossFraction = 0.3
            var answered: [Int] = []
            for index in 0..<400 {
                let replies = try Self.send(.panTiltPositionInquiry, to: &camera, at: .milliseconds(10 * index))
                if !replies.isEmpty { answered.append(index) }
            }
            #expect(camera.repliesLost == 400 - answered.count)
            return answered
        }
        let answered = try run()
        #expect(answered.count > 240 && answered.count < 320, "seed \(seed): \(answered.count) of 400 answered")
        #expect(try run() == answered, "the same seed loses the same replies")
    }

    @Test func anUnpluggedCameraStopsAndBootsWhenPluggedBackIn() throws {
        var camera = Self.camera()
        _ = try Self.send(.panTiltDrive(panSpeed: 20, tiltSpeed: 1, pan: .right, tilt: .stop), to: &camera, at: .zero)
        _ = camera.advance(to: .seconds(1))
        _ = try Self.send(.absolutePosition(panSpeed: 3, tiltSpeed: 3, pan: 0, tilt: 300), to: &camera, at: .seconds(1))
        #expect(camera.setUnplugged(true, now: .seconds(1)) == [])
        #expect(camera.isStill && camera.busySocketCount == 0)
        let heldAt = camera.pan.motorRadians
        #expect(try Self.send(.home, to: &camera, at: .seconds(2)) == [])
        _ = camera.advance(to: .seconds(5))
        #expect(camera.pan.motorRadians == heldAt, "it stays where the power went")
        // Plugged in again: network change, and it turns home by itself.
        #expect(try Self.replies(camera.setUnplugged(false, now: .seconds(5))) == [.networkChange])
        _ = camera.advance(to: .seconds(10))
        #expect(try Self.position(&camera, at: .seconds(10)) == VISCAPanTiltPosition(pan: 0, tilt: 0))
        #expect(camera.receive([0x88, 0x30, 0x01, 0xFF], now: .seconds(10)) == [[0x88, 0x30, 0x02, 0xFF]])
    }

    @Test func aReboundSonyIPCameraHasForgottenItsSequenceNumbers() throws {
        var camera = Self.camera(transport: .sonyIP)
        let inquiry = VISCAIPMessage.command(.versionInquiry, sequence: 3)
        #expect(try Self.datagram(inquiry, to: &camera, at: .zero).count == 1)
        #expect(try Self.datagram(inquiry, to: &camera, at: .milliseconds(10)) == [.controlError(.sequenceNumber, sequence: 3)])
        #expect(camera.setUnplugged(true, now: .seconds(1)) == [])
        #expect(camera.setUnplugged(false, now: .seconds(2)) == [], "no network change over IP")
        #expect(try Self.datagram(inquiry, to: &camera, at: .seconds(2)).map(\.payloadType) == [.reply])
    }
}
