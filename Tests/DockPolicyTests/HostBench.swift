import DockLinks
import DockPolicy
import DockProtocol
import DockSimulator
import DockVocabulary

/// The host's policy wired to a simulated accessory in virtual time: the shell the daemon is, in
/// a few lines, with everything the policy did recorded for the tests to read. The accessory is
/// the `Peer` — the dock's firmware (``HostBench``), a VISCA camera, a UVC webcam, a Pelco-D head — so every
/// policy test of every protocol runs on this one bench.
struct PolicyBench<Peer: BenchPeer> {
    var host: HostPolicy
    /// The accessory at the link's other end.
    var peer: Peer
    var now = Duration.zero
    /// Every reply, by token.
    var replies: [RequestToken: HostReply] = [:]
    /// Every event published, with when.
    var events: [(time: Duration, event: HostEvent)] = []
    var logs: [String] = []
    private var nextToken: RequestToken = 0

    init(host: HostPolicy, peer: Peer) {
        self.host = host
        self.peer = peer
    }

    /// No wake animation, tracking off.
    static var quietSettings: HostSettings {
        var settings = HostSettings()
        settings.wakesOnAttach = false
        return settings
    }

    /// Starts the session and lets it attach.
    mutating func attach(within duration: Duration = .milliseconds(200)) {
        perform(host.start(now: now))
        run(for: duration)
    }

    /// Lets `duration` pass in 1 ms steps: the accessory runs, and the host is woken when it asked
    /// to be (its 30 Hz tick, its heartbeat and poll deadlines).
    mutating func run(for duration: Duration) {
        let end = now + duration
        while now < end {
            now += .milliseconds(1)
            let bytes = peer.advance(to: now)
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

    mutating func perform(_ actions: [HostAction]) {
        for action in actions {
            switch action {
            case .openTransport:
                peer.opened()
                perform(host.transportOpened(now: now))
            case .closeTransport:
                break
            case .write(let bytes):
                let answer = peer.received(bytes, now: now)
                if !answer.isEmpty { perform(host.bytesReceived(answer, now: now)) }
            case .reply(let token, let reply):
                precondition(replies[token] == nil, "two replies to request \(token)")
                replies[token] = reply
            case .publish(let event):
                events.append((now, event))
            case .log(_, let text):
                logs.append(text)
            case .storePresets(let store, let token, let reply):
                // The bench's disk takes every write.
                host.presetsStored(store)
                precondition(replies[token] == nil, "two replies to request \(token)")
                replies[token] = reply
            }
        }
    }
}

/// The accessory a ``PolicyBench`` drives: it takes what the host writes and answers in virtual time.
protocol BenchPeer {
    /// The host opened the port: the accessory reads afresh.
    mutating func opened()
    /// The host wrote `bytes` at `now`; returns what the accessory answers at once.
    mutating func received(_ bytes: [UInt8], now: Duration) -> [UInt8]
    /// Time passed up to `now`; returns what the accessory sent meanwhile (telemetry, later answers).
    mutating func advance(to now: Duration) -> [UInt8]
}

/// The simulated dock's firmware, speaking dock-serial, with every frame the host wrote kept.
struct FirmwarePeer: BenchPeer {
    var firmware: AccessoryFirmware
    /// Every frame the host wrote, with when.
    var written: [(time: Duration, frame: Frame)] = []

    mutating func opened() { firmware.resetReceiver() }

    mutating func received(_ bytes: [UInt8], now: Duration) -> [UInt8] {
        var decoder = FrameDecoder()
        for frame in decoder.decode(bytes).compactMap({ try? $0.get() }) { written.append((now, frame)) }
        return firmware.receive(bytes: bytes, now: now)
    }

    mutating func advance(to now: Duration) -> [UInt8] { firmware.advanceBytes(to: now) }
}

/// The bench with the simulated dock: the policy over a dock-serial session.
typealias HostBench = PolicyBench<FirmwarePeer>

extension PolicyBench where Peer == FirmwarePeer {
    init(settings: HostSettings = HostBench.quietSettings, configuration: AccessoryConfiguration = AccessoryConfiguration()) {
        self.init(
            host: HostPolicy(settings: settings),
            peer: FirmwarePeer(firmware: AccessoryFirmware(configuration: configuration, seed: 5)))
    }

    var firmware: AccessoryFirmware {
        get { peer.firmware }
        set { peer.firmware = newValue }
    }

    /// Frames the dock sends by itself (faults, buttons) reach the host now.
    mutating func deliver(_ frames: [Frame]) {
        var bytes: [UInt8] = []
        for frame in frames { try? FrameEncoder.encode(frame, into: &bytes) }
        perform(host.bytesReceived(bytes, now: now))
    }

    /// The frames written from `time` on.
    func frames(since time: Duration) -> [Frame] { peer.written.filter { $0.time >= time }.map(\.frame) }

    /// When the first `stop` went out at or after `time`.
    func firstStop(since time: Duration) -> Duration? {
        peer.written.first { $0.time >= time && $0.frame.message == .stop }?.time
    }

    var yaw: Double { firmware.yaw.outputRadians }
    var yawRate: Double { firmware.yaw.motorRadiansPerSecond }
}
