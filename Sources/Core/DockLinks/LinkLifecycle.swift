public import DockProtocol

/// The part of every link that is the same whatever its protocol, as one value each link embeds:
///
///     disconnected → connecting → handshaking → ready(docked | undocked)
///                                      ↘ incompatible (idle until the port closes)
///
/// It owns where the link is, what the accessory said it is (kept while disconnected, forgotten
/// when a handshake begins), when a lost port is opened again (`ReconnectBackoff`), and the
/// counters status shows. The link keeps the rest — its protocol's conversation — in one struct
/// of its own that it replaces whole when the port closes, and calls these methods at each turn;
/// each returns the actions the turn asks of the shell, so a test reads like a transcript:
/// `#expect(lifecycle.transportClosed(now: .seconds(1)) == [.closeTransport, .emit(.disconnected)])`.
public struct LinkLifecycle: Hashable, Sendable {
    /// Why the link closes its port.
    public enum Closing: Hashable, Sendable {
        /// The port hung up, failed, or the accessory stopped answering: `disconnected` once
        /// the link was past connecting.
        case lost
        /// Nothing on the port answered as the accessory: `handshakeFailed`.
        case handshakeFailed
    }

    /// Where the link is.
    public private(set) var state = AccessoryLinkState.disconnected
    /// What the accessory said of itself in the last handshake (kept while disconnected).
    public private(set) var info: AccessoryInfo?
    /// When a lost port is opened again.
    public private(set) var backoff: ReconnectBackoff
    /// Runs received that were not good frames or packets.
    public private(set) var badFrameCount = 0
    /// Times the link was lost (a failed handshake counts).
    public private(set) var disconnectCount = 0
    /// Commands the accessory refused.
    public private(set) var refusalCount = 0
    /// Whether the pose has stopped arriving while the link is up.
    public private(set) var isTelemetryStalled = false

    /// A link that has not started; a lost port waits `initialBackoff` first, doubling up to
    /// `maximumBackoff`.
    public init(initialBackoff: Duration, maximumBackoff: Duration) {
        backoff = ReconnectBackoff(initial: initialBackoff, maximum: maximumBackoff)
    }

    /// When the next attempt to open the port is due, while disconnected.
    public var reconnectAt: Duration? { backoff.reconnectAt }

    /// Whether the link is in session with the accessory.
    public var isReady: Bool {
        if case .ready = state { return true }
        return false
    }

    // MARK: The port

    /// Starts the link: the first attempt to open the port.
    public mutating func start() -> [SessionAction] {
        switch state {
        case .disconnected:
            state = .connecting
            backoff.attempting()
            return [.openTransport]
        case .connecting, .handshaking, .ready, .incompatible:
            return []
        }
    }

    /// A device that may be this accessory appeared: a link waiting to reconnect tries now, and
    /// its backoff starts afresh.
    public mutating func deviceAppeared() -> [SessionAction] {
        switch state {
        case .disconnected:
            backoff.reset()
            backoff.attempting()
            state = .connecting
            return [.openTransport]
        case .connecting, .handshaking, .ready, .incompatible:
            return []
        }
    }

    /// While disconnected, the next attempt when it is due.
    public mutating func reconnectIfDue(now: Duration) -> [SessionAction] {
        switch state {
        case .disconnected:
            guard backoff.takeIfDue(now: now) else { return [] }
            state = .connecting
            return [.openTransport]
        case .connecting, .handshaking, .ready, .incompatible:
            return []
        }
    }

    /// Opening the port failed: the next attempt waits.
    public mutating func transportFailed(reason: String, now: Duration) -> [SessionAction] {
        switch state {
        case .connecting:
            state = .disconnected
            let wait = backoff.schedule(now: now)
            return [.emit(.connectFailed(reason: reason, retryAfter: wait))]
        case .disconnected, .handshaking, .ready, .incompatible:
            return []
        }
    }

    /// The port opened: the handshake begins, and what the accessory said before is forgotten.
    public mutating func transportOpened() {
        switch state {
        case .connecting, .disconnected:
            state = .handshaking
            info = nil
        case .handshaking, .ready, .incompatible:
            preconditionFailure("transportOpened in state \(state)")
        }
    }

    /// The port closes (`closing` says why): the link is disconnected, the next attempt waits,
    /// and the loss is counted; nothing when it already was.
    public mutating func transportClosed(_ closing: Closing = .lost, now: Duration) -> [SessionAction] {
        let wasUp: Bool
        switch state {
        case .disconnected:
            return closing == .handshakeFailed ? [.emit(.handshakeFailed)] : []
        case .connecting: wasUp = false
        case .handshaking, .ready, .incompatible: wasUp = true
        }
        state = .disconnected
        backoff.schedule(now: now)
        disconnectCount += 1
        isTelemetryStalled = false
        switch closing {
        case .lost: return wasUp ? [.closeTransport, .emit(.disconnected)] : [.closeTransport]
        case .handshakeFailed: return [.closeTransport, .emit(.handshakeFailed)]
        }
    }

    // MARK: The handshake

    /// A new handshake on the open port (the first answer did not come, or the accessory reset):
    /// what it said before is forgotten.
    public mutating func handshakeRestarted() {
        switch state {
        case .handshaking, .ready:
            state = .handshaking
            info = nil
        case .disconnected, .connecting, .incompatible:
            preconditionFailure("handshakeRestarted in state \(state)")
        }
    }

    /// The accessory said what it is; the session is not up yet.
    public mutating func described(_ info: AccessoryInfo) {
        switch state {
        case .handshaking: self.info = info
        case .disconnected, .connecting, .ready, .incompatible: preconditionFailure("described in state \(state)")
        }
    }

    /// The session is up with the accessory `described` said; the next lost port waits the
    /// first backoff again.
    public mutating func attached(isDocked: Bool) -> [SessionAction] {
        guard case .handshaking = state, let info else {
            preconditionFailure("attached in state \(state), info \(String(describing: info))")
        }
        state = .ready(isDocked: isDocked)
        backoff.reset()
        return [.emit(.attached(info, isDocked: isDocked))]
    }

    /// The session is up with `info`.
    public mutating func attached(_ info: AccessoryInfo, isDocked: Bool) -> [SessionAction] {
        described(info)
        return attached(isDocked: isDocked)
    }

    /// Whether a camera is mounted, as the accessory says now: `docked` or `undocked` when it
    /// changed.
    public mutating func dockChanged(isDocked: Bool) -> [SessionAction] {
        switch state {
        case .ready(let wasDocked):
            guard isDocked != wasDocked else { return [] }
            state = .ready(isDocked: isDocked)
            return [.emit(isDocked ? .docked : .undocked)]
        case .disconnected, .connecting, .handshaking, .incompatible:
            preconditionFailure("dockChanged in state \(state)")
        }
    }

    /// The accessory is not one the host can run: idle until the port closes.
    public mutating func refuseAccessory() {
        switch state {
        case .handshaking: state = .incompatible
        case .disconnected, .connecting, .ready, .incompatible: preconditionFailure("refuseAccessory in state \(state)")
        }
    }

    // MARK: Counters

    /// A run of bytes that was not a good frame or packet.
    public mutating func countBadFrame() { badFrameCount += 1 }

    /// The accessory refused a command.
    public mutating func countRefusal() { refusalCount += 1 }

    /// The pose stopped arriving: `telemetryStalled`, once.
    public mutating func telemetryStalled() -> [SessionAction] {
        guard !isTelemetryStalled else { return [] }
        isTelemetryStalled = true
        return [.emit(.telemetryStalled)]
    }

    /// A pose arrived: `telemetryResumed` when it had stalled.
    public mutating func telemetryArrived() -> [SessionAction] {
        guard isTelemetryStalled else { return [] }
        isTelemetryStalled = false
        return [.emit(.telemetryResumed)]
    }
}
