import Glibc
import Synchronization
public import DockSystem

/// Two ends of an in-memory link, for tests: the session opens `MemoryTransport`, and the test
/// plays the dock through the `MemoryPeer`, reading what the session wrote and answering, or
/// hanging up as a pulled cable would.
public final class MemoryTransport: DockTransport {
    private struct Link {
        var toSession: AsyncStream<[UInt8]>.Continuation?
        var toPeer: AsyncStream<[UInt8]>.Continuation
        var isPluggedIn = true
        var openCount = 0
    }

    private let link: Mutex<Link>
    /// What the session wrote, in order, across every connection.
    public let written: AsyncStream<[UInt8]>

    public var name: String { "memory" }

    /// Creates a connected pair.
    public init() {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        written = stream
        link = Mutex(Link(toPeer: continuation))
    }

    /// How many times the session opened the link.
    public var openCount: Int { link.withLock { $0.openCount } }

    public func open() throws(SystemError) -> DockConnection {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let opened = link.withLock { link -> Bool in
            guard link.isPluggedIn, link.toSession == nil else { return false }
            link.toSession = continuation
            link.openCount += 1
            return true
        }
        guard opened else { throw SystemError("open", name, code: ENODEV) }
        return DockConnection(
            incoming: stream,
            write: { [self] bytes in
                link.withLock { link in
                    guard link.toSession != nil else { return false }
                    link.toPeer.yield(bytes)
                    return true
                }
            },
            close: { [self] in
                link.withLock { link in
                    link.toSession?.finish()
                    link.toSession = nil
                }
            })
    }

    /// The peer sends bytes to the session; false when no connection is open.
    @discardableResult
    public func peerSend(_ bytes: [UInt8]) -> Bool {
        link.withLock { link in
            guard let toSession = link.toSession else { return false }
            toSession.yield(bytes)
            return true
        }
    }

    /// The cable is pulled (the session sees a hang-up and cannot reopen) or put back.
    public func setPluggedIn(_ pluggedIn: Bool) {
        link.withLock { link in
            link.isPluggedIn = pluggedIn
            if !pluggedIn {
                link.toSession?.finish()
                link.toSession = nil
            }
        }
    }
}
