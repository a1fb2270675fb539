public import DockSockets
public import DockSystem
import Glibc

/// A link over a socket pair, for tests: the session opens `MemoryTransport`, and the test plays
/// the dock on the other end, hearing what the session wrote (``written``, on the loop) and
/// answering (``peerSend(_:)``), or hanging up as a pulled cable would.
public final class MemoryTransport: DockTransport {
    private var peer: FileDescriptor?
    private var loop: (any EventLoop)?
    /// Whether the cable is in: while it is out, opening fails.
    public private(set) var isPluggedIn = true
    /// How many times the session opened the link.
    public private(set) var openCount = 0
    /// What the session writes, as the dock reads it, on the loop.
    public var written: ([UInt8]) -> Void = { _ in }

    public var name: String { "memory" }

    /// Creates an unopened link.
    public init() {}

    public func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection {
        guard isPluggedIn, peer == nil else { throw SystemError("open", name, code: ENODEV) }
        let (session, dock) = try UnixSocket.pair()
        peer = dock
        self.loop = loop
        openCount += 1
        loop.watch(dock, for: .readable) { [weak self] _ in self?.peerReadable(dock) }
        return DescriptorConnection(session, loop: loop, events: events)
    }

    private func peerReadable(_ dock: FileDescriptor) {
        while peer == dock {
            switch try? dock.read(maximumCount: 65_536) {
            case .bytes(let bytes)?: written(bytes)
            case .wouldBlock?: return
            case .hangUp?, nil: hangUpPeer()  // the session closed the link
            }
        }
    }

    private func hangUpPeer() {
        guard let peer else { return }
        loop?.unwatch(peer)
        // Shut down first: a child process that a test is spawning holds a copy of this
        // descriptor until its `exec`, and a close alone would leave the socket open till then
        // (the session heard the pulled cable late, after the virtual loop had moved on).
        _ = shutdown(peer.rawValue, Int32(SHUT_RDWR))
        peer.close()
        self.peer = nil
    }

    /// The dock sends bytes to the session; false when no link is open.
    @discardableResult
    public func peerSend(_ bytes: [UInt8]) -> Bool {
        guard let peer else { return false }
        return (try? peer.write(bytes)) == bytes.count
    }

    /// The dock stops reading what the session writes (a stalled link: its bytes stay in the
    /// socket, and once its buffer is full the session's writes fail) or reads again.
    public func setStalled(_ stalled: Bool) {
        guard let peer, let loop else { return }
        if stalled {
            loop.unwatch(peer)
        } else {
            loop.watch(peer, for: .readable) { [weak self] _ in self?.peerReadable(peer) }
        }
    }

    /// The cable is pulled (the session sees a hang-up and cannot reopen) or put back.
    public func setPluggedIn(_ pluggedIn: Bool) {
        isPluggedIn = pluggedIn
        if !pluggedIn { hangUpPeer() }
    }
}
