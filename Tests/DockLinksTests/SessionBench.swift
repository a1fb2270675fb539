import DockLinks
import DockProtocol
import DockSimulator

/// A session wired to the simulated dock's firmware, in virtual time: the shell that the daemon's
/// session actor will be, with a cable that can be pulled.
struct SessionBench {
    var session: AccessorySession
    var firmware: AccessoryFirmware
    var now = Duration.zero
    var isPluggedIn = true
    var isPortOpen = false
    /// A peer that never answers (a serial device that is not a dock).
    var isMute = false
    var events: [(time: Duration, event: SessionEvent)] = []
    var framesWritten: [Frame] = []
    /// When each write happened.
    var writeTimes: [Duration] = []

    init(
        configuration: AccessoryConfiguration = AccessoryConfiguration(),
        session: AccessorySession.Configuration = AccessorySession.Configuration()
    ) {
        self.session = AccessorySession(configuration: session)
        firmware = AccessoryFirmware(configuration: configuration, seed: 3)
    }

    var eventList: [SessionEvent] { events.map(\.event) }

    mutating func start() {
        perform(session.start(now: now))
    }

    /// Lets `duration` pass in steps of `step`.
    mutating func run(for duration: Duration, step: Duration = .milliseconds(5)) {
        let end = now + duration
        while now < end {
            now += step
            let bytes = isPluggedIn && isPortOpen && !isMute ? firmware.advanceBytes(to: now) : []
            if isPluggedIn { _ = firmware.advance(to: now) }
            perform(session.bytesReceived(bytes, now: now))
            perform(session.tick(now: now))
        }
    }

    /// Gives the session a command; returns its identity.
    @discardableResult
    mutating func send(_ command: AccessoryCommand) -> CommandID? {
        let sent = session.send(command, now: now)
        perform(sent.actions)
        return sent.id
    }

    mutating func perform(_ actions: [SessionAction]) {
        for action in actions {
            switch action {
            case .openTransport:
                if isPluggedIn {
                    isPortOpen = true
                    firmware.resetReceiver()
                    perform(session.transportOpened(now: now))
                } else {
                    perform(session.transportFailed(reason: "No such file or directory", now: now))
                }
            case .closeTransport:
                isPortOpen = false
            case .write(let bytes):
                writeTimes.append(now)
                var decoder = FrameDecoder()
                framesWritten += decoder.decode(bytes).compactMap { try? $0.get() }
                guard isPluggedIn, isPortOpen, !isMute else { continue }
                let answer = firmware.receive(bytes: bytes, now: now)
                perform(session.bytesReceived(answer, now: now))
            case .emit(.answered(_, .accepted)):
                break  // every accepted frame: the session tests look at what else happened
            case .emit(let event):
                events.append((now, event))
            }
        }
    }

    /// Delivers frames the dock sent outside its own time steps (buttons, dock changes, faults).
    mutating func deliver(_ frames: [Frame]) {
        var bytes: [UInt8] = []
        for frame in frames { try? FrameEncoder.encode(frame, into: &bytes) }
        perform(session.bytesReceived(bytes, now: now))
    }

    /// The cable is pulled: the dock loses power, the port hangs up.
    mutating func unplug() {
        isPluggedIn = false
        firmware.reboot(now: now)
        if isPortOpen {
            isPortOpen = false
            perform(session.transportClosed(now: now))
        }
    }

    /// The cable is put back: the dock powers up.
    mutating func replug() {
        firmware.reboot(now: now)
        isPluggedIn = true
    }
}
