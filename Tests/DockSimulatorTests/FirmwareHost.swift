import DockProtocol
import DockSimulator

/// A minimal host for driving the firmware model in virtual time: numbers its frames, keeps the
/// clock, and records everything the dock sends.
struct FirmwareHost {
    var firmware: AccessoryFirmware
    var now = Duration.zero
    var sequence: UInt16 = 0
    var received: [Frame] = []

    init(configuration: AccessoryConfiguration = AccessoryConfiguration(), seed: UInt64 = 1) {
        firmware = AccessoryFirmware(configuration: configuration, seed: seed)
    }

    /// Sends a message at the current time through the byte path; returns the dock's answer frames.
    @discardableResult
    mutating func send(_ message: Message) throws -> [Frame] {
        var bytes: [UInt8] = []
        try FrameEncoder.encode(Frame(sequence: sequence, message: message), into: &bytes)
        sequence &+= 1
        return sendBytes(bytes)
    }

    /// Sends raw bytes at the current time; returns the frames the dock sends back.
    @discardableResult
    mutating func sendBytes(_ bytes: [UInt8]) -> [Frame] {
        let answer = decode(firmware.receive(bytes: bytes, now: now))
        received += answer
        return answer
    }

    /// Lets time pass, sending a heartbeat every 100 ms as a host must; returns what the dock
    /// sent meanwhile, heartbeat answers included.
    @discardableResult
    mutating func wait(_ duration: Duration) -> [Frame] {
        let end = now + duration
        var output: [Frame] = []
        while now + .milliseconds(100) <= end {
            output += waitQuietly(.milliseconds(100))
            output += (try? send(.heartbeat)) ?? []
        }
        output += waitQuietly(end - now)
        return output
    }

    /// Lets time pass without a word from the host; returns what the dock sent meanwhile.
    @discardableResult
    mutating func waitQuietly(_ duration: Duration) -> [Frame] {
        now += duration
        let output = decode(firmware.advanceBytes(to: now))
        received += output
        return output
    }

    /// Opens a session.
    mutating func handshake() throws {
        let answer = try send(.hello(Hello(minimumVersion: 1, maximumVersion: 1)))
        precondition(answer.count == 1, "hello got \(answer)")
    }

    private func decode(_ bytes: [UInt8]) -> [Frame] {
        var decoder = FrameDecoder()
        return decoder.decode(bytes).map { result in
            switch result {
            case .success(let frame): return frame
            case .failure(let error): preconditionFailure("the firmware sent a bad frame: \(error)")
            }
        }
    }
}

extension Frame {
    var telemetry: Telemetry? { if case .telemetry(let value) = message { value } else { nil } }
    var refusal: Refusal? { if case .nack(let value) = message { value } else { nil } }
    var acknowledgement: Acknowledgement? { if case .ack(let value) = message { value } else { nil } }
    var fault: FaultReport? { if case .fault(let value) = message { value } else { nil } }
    var event: AccessoryEvent? { if case .event(let value) = message { value } else { nil } }
}

func velocity(yaw: Double, pitch: Double, ttl: Duration = .milliseconds(500)) -> Message {
    .setVelocity(
        VelocityCommand(
            yawRate: AngularRate(radiansPerSecond: yaw)!,
            pitchRate: AngularRate(radiansPerSecond: pitch)!, timeToLive: ttl))
}

func move(yaw: Double, pitch: Double, pace: OrientationMove.Pace) -> Message {
    .moveTo(OrientationMove(yaw: Angle(radians: yaw)!, pitch: Angle(radians: pitch)!, pace: pace))
}
