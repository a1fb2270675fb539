import DockCore
import DockHost
import DockProtocol
import DockSimulator
import DockTracking

/// The host's policy wired to the simulated dock's firmware in virtual time: the shell the daemon
/// is, in a few lines, with everything the policy did recorded for the tests to read.
struct HostBench {
    var host: HostPolicy
    var firmware: AccessoryFirmware
    var now = Duration.zero
    /// Every frame the host wrote, with when.
    var written: [(time: Duration, frame: Frame)] = []
    /// Every reply, by token.
    var replies: [RequestToken: HostReply] = [:]
    /// Every event published, with when.
    var events: [(time: Duration, event: HostEvent)] = []
    var logs: [String] = []
    private var nextToken: RequestToken = 0

    init(settings: HostSettings = HostBench.quietSettings, configuration: AccessoryConfiguration = AccessoryConfiguration()) {
        host = HostPolicy(settings: settings)
        firmware = AccessoryFirmware(configuration: configuration, seed: 5)
    }

    /// No wake animation, tracking off.
    static var quietSettings: HostSettings {
        var settings = HostSettings()
        settings.wakesOnAttach = false
        return settings
    }

    /// Starts the session and lets it attach.
    mutating func attach() {
        perform(host.start(now: now))
        run(for: .milliseconds(200))
    }

    /// Lets `duration` pass: the dock runs in 1 ms steps, the host ticks at 30 Hz and keeps its
    /// heartbeat deadlines.
    mutating func run(for duration: Duration) {
        let end = now + duration
        while now < end {
            now += .milliseconds(1)
            let bytes = firmware.advanceBytes(to: now)
            if !bytes.isEmpty { perform(host.bytesReceived(bytes, now: now)) }
            if now >= host.nextWake { perform(host.woke(now: now)) }
        }
    }

    /// A client's request; returns its token (the reply, when it comes, is in `replies`).
    @discardableResult
    mutating func request(_ request: ClientRequest, from client: ClientID) -> RequestToken {
        nextToken += 1
        perform(host.requested(request, token: nextToken, from: client, now: now))
        return nextToken
    }

    mutating func disconnect(_ client: ClientID) {
        perform(host.clientDisconnected(client, now: now))
    }

    /// Frames the dock sends by itself (faults, buttons) reach the host now.
    mutating func deliver(_ frames: [Frame]) {
        var bytes: [UInt8] = []
        for frame in frames { try? FrameEncoder.encode(frame, into: &bytes) }
        perform(host.bytesReceived(bytes, now: now))
    }

    mutating func perform(_ actions: [HostAction]) {
        for action in actions {
            switch action {
            case .openTransport:
                firmware.resetReceiver()
                perform(host.transportOpened(now: now))
            case .closeTransport:
                break
            case .write(let bytes):
                var decoder = FrameDecoder()
                for frame in decoder.decode(bytes).compactMap({ try? $0.get() }) { written.append((now, frame)) }
                let answer = firmware.receive(bytes: bytes, now: now)
                if !answer.isEmpty { perform(host.bytesReceived(answer, now: now)) }
            case .reply(let token, let reply):
                precondition(replies[token] == nil, "two replies to request \(token)")
                replies[token] = reply
            case .publish(let event):
                events.append((now, event))
            case .log(_, let text):
                logs.append(text)
            }
        }
    }

    /// The frames written from `time` on.
    func frames(since time: Duration) -> [Frame] { written.filter { $0.time >= time }.map(\.frame) }

    /// When the first `stop` went out at or after `time`.
    func firstStop(since time: Duration) -> Duration? { written.first { $0.time >= time && $0.frame.message == .stop }?.time }

    var yaw: Double { firmware.yaw.outputRadians }
    var yawRate: Double { firmware.yaw.motorRadiansPerSecond }
}
