public import DockAPI
public import DockJSON
import DockSockets
public import DockVocabulary
import Glibc
import Synchronization

/// One connection to dockd, carrying calls and at most one stream (`more`) at once, read by one
/// thread. Varlink has no request identifiers, so replies are told apart by what they are: a
/// stream's replies say `continues`, and the calls' replies come in the order the calls were
/// written. The one reply that is neither — a stream's refusal — is made unambiguous by starting a
/// stream only when no call is waiting for its reply, and holding new calls back until the
/// stream's first reply (its refusal or its first event) has come.
public final class VarlinkConnection: Sendable {
    /// A reply on its way to its caller: its bytes, or nil when the connection closed first.
    private typealias Waiter = CheckedContinuation<[UInt8]?, Never>

    /// Where the next replies go. What the reader thread shares with the callers (not the
    /// connection itself, so that the connection can go away and shut the socket, which ends the
    /// thread).
    private struct Routing {
        /// The calls written and not yet answered, in the order written.
        var pending: [Waiter] = []
        /// The stream's replies go here.
        var stream: AsyncStream<[UInt8]>.Continuation?
        /// A stream is starting: no call may be written until its first reply has come.
        var isStreamStarting = false
        /// The stream's call has been written (and its first reply has not come).
        var isStreamCallWritten = false
        /// Calls held back while a stream starts, in the order they were made.
        var heldBack: [(bytes: [UInt8], waiter: Waiter)] = []
        /// The connection has closed.
        var isClosed = false
    }

    private final class Shared: Sendable {
        let routing = Mutex(Routing())
        /// Whether the reader has closed the socket. Held while the socket is written, shut down
        /// or closed: once closed, its number may belong to another file of the process (in the
        /// tests, another test's socket), which a late shutdown or write would cut or corrupt.
        let isSocketClosed = Mutex(false)
    }

    private let socket: FileDescriptor
    private let shared = Shared()
    /// Held while a message is written, so that `pending` is in the order of the writes.
    private let sendLock = Mutex(())

    /// Connects to dockd's socket.
    public init(path: String) throws(DockClientError) {
        do {
            socket = try UnixSocket.connect(path: path)
        } catch {
            throw .cannotConnect(path: path, reason: "\(error)")
        }
        // The thread holds the connection weakly: the connection going away shuts the socket.
        let reader: @Sendable () -> Void = { [weak self, socket, shared] in
            var splitter = VarlinkFrameSplitter()
            reading: while true {
                guard case .bytes(let bytes)? = try? socket.read(maximumCount: 65_536),
                    let messages = try? splitter.append(bytes)
                else { break reading }
                for message in messages {
                    let isContinued = Self.mayContinue(message) && (try? VarlinkReply.parse(message))?.continues == true
                    let (waiter, released) = shared.routing.withLock { routing -> (Waiter?, [(bytes: [UInt8], waiter: Waiter)]) in
                        Self.route(message, isContinued: isContinued, &routing)
                    }
                    waiter?.resume(returning: message)
                    if !released.isEmpty { VarlinkConnection.resend(released, on: self) }
                }
            }
            let (pending, stream) = shared.routing.withLock { routing in
                routing.isClosed = true
                defer {
                    routing.pending.removeAll()
                    routing.heldBack.removeAll()
                    routing.stream = nil
                }
                return (routing.pending + routing.heldBack.map(\.waiter), routing.stream)
            }
            stream?.finish()
            for waiter in pending { waiter.resume(returning: nil) }
            shared.isSocketClosed.withLock { isClosed in
                isClosed = true
                socket.close()
            }
        }
        do {
            try DetachedThread.start(name: "dockd client", reader)
        } catch {
            socket.close()
            throw .cannotConnect(path: path, reason: "no reader thread: \(error)")
        }
    }

    /// Shutting the socket down ends the reader thread, which then closes it.
    deinit {
        shared.isSocketClosed.withLock { isClosed in
            if !isClosed { _ = shutdown(socket.rawValue, Int32(SHUT_RDWR)) }
        }
    }

    /// Whether a reply can say `continues`: only one whose text holds that word, or an escape
    /// that could spell it. The others — every call's reply — are read once, by their caller,
    /// instead of here as well: reading a status twice was a tenth of a `GetStatus` round
    /// trip's CPU in the client.
    static func mayContinue(_ message: [UInt8]) -> Bool {
        message.withUnsafeBufferPointer { bytes in
            let word = continuesWord
            for index in bytes.indices {
                if bytes[index] == UInt8(ascii: "\\") { return true }
                if bytes[index] == word[0], index + word.count <= bytes.count,
                    word.indices.allSatisfy({ bytes[index + $0] == word[$0] })
                {
                    return true
                }
            }
            return false
        }
    }
    private static let continuesWord = Array("continues".utf8)

    /// Where one message goes: to the stream, or to the oldest call waiting (returned). Returns
    /// the calls held back, too, when the stream has started (or failed to).
    private static func route(_ message: [UInt8], isContinued: Bool, _ routing: inout Routing)
        -> (Waiter?, [(bytes: [UInt8], waiter: Waiter)])
    {
        func release() -> [(bytes: [UInt8], waiter: Waiter)] {
            routing.isStreamStarting = false
            routing.isStreamCallWritten = false
            defer { routing.heldBack.removeAll() }
            return routing.heldBack
        }
        if isContinued {
            routing.stream?.yield(message)
            return (nil, routing.isStreamStarting ? release() : [])
        }
        if routing.pending.isEmpty {
            // No call is waiting: the stream's last reply (its refusal, or an error that ends it).
            routing.stream?.yield(message)
            routing.stream?.finish()
            routing.stream = nil
            return (nil, routing.isStreamStarting ? release() : [])
        }
        return (routing.pending.removeFirst(), [])
    }

    /// Writes calls that were held back while a stream started (from a task: the reader thread
    /// must not wait on a write).
    private static func resend(_ calls: [(bytes: [UInt8], waiter: Waiter)], on connection: VarlinkConnection?) {
        guard let connection else {
            for call in calls { call.waiter.resume(returning: nil) }
            return
        }
        Task { for call in calls { connection.write(call.bytes, for: call.waiter) } }
    }

    /// Writes a call whose reply `waiter` waits for, or holds it back while a stream starts.
    private func write(_ bytes: [UInt8], for waiter: Waiter) {
        enum Next { case write, heldBack, closed }
        sendLock.withLock { _ in
            let next: Next = shared.routing.withLock { routing in
                if routing.isClosed { return .closed }
                if routing.isStreamStarting {
                    routing.heldBack.append((bytes, waiter))
                    return .heldBack
                }
                routing.pending.append(waiter)
                return .write
            }
            switch next {
            case .closed: waiter.resume(returning: nil)
            case .heldBack: break
            case .write:
                if !shared.isSocketClosed.withLock({ $0 ? false : Self.sendAll(bytes, on: socket) }) {
                    let failed = shared.routing.withLock { $0.pending.isEmpty ? nil : $0.pending.removeLast() }
                    failed?.resume(returning: nil)
                }
            }
        }
    }

    /// How many calls are held back, waiting for a stream's first reply (for the tests: that a
    /// call was made and held back is then an event to wait for, not a pause to sit out).
    var heldBackCount: Int { shared.routing.withLock { $0.heldBack.count } }

    /// Sends `call` and returns its reply's parameters as they came (for `--json`, which prints
    /// them); ``call(_:accessory:)`` reads them into values.
    public func send(_ call: VarlinkCall) async throws(DockClientError) -> [String: JSONValue] {
        let bytes: [UInt8]? = await withCheckedContinuation { continuation in write(call.bytes, for: continuation) }
        guard let bytes else { throw .disconnected }
        return try Self.parameters(of: bytes)
    }

    /// Calls dockd for dockd's only accessory (nil) or the one named, and reads the reply as the
    /// method's reply type says.
    ///
    /// - Throws: ``DockClientError/remote(name:parameters:)`` for a named error,
    ///   ``DockClientError/invalidReply(_:)`` for a reply that lacks a field or has one of the
    ///   wrong type, ``DockClientError/disconnected`` when dockd went away.
    public func call(_ call: DockCall, accessory: String? = nil) async throws(DockClientError) -> Dock.Reply {
        let parameters = try await send(call.encoded(accessory: accessory))
        guard let method = call.method else { return .done }
        do {
            return try Dock.Reply(method, parameters: parameters)
        } catch {
            throw .invalidReply(error)
        }
    }

    /// dockd's status of its dock (nil) or of the one named.
    public func status(accessory: String? = nil) async throws(DockClientError) -> Dock.Status {
        guard case .status(let status) = try await call(.getStatus, accessory: accessory) else {
            preconditionFailure("GetStatus answers a status")
        }
        return status
    }

    /// Calls a streaming method (`more`); its replies' parameters arrive on the returned stream,
    /// which ends with the stream's last reply or with the connection. A connection carries one
    /// stream at a time (a second fails with ``DockClientError/streamInUse``); calls go on beside
    /// it. The stream's call waits for the replies of calls made before it, and calls made while
    /// it starts wait for its first reply.
    public func stream(_ call: VarlinkCall) -> AsyncThrowingStream<[String: JSONValue], any Error> {
        var streaming = call
        streaming.wantsMore = true
        let (raw, continuation) = AsyncStream<[UInt8]>.makeStream()
        let starting = Task { [self] () async -> DockClientError? in
            do {
                try await self.start(streaming.bytes, into: continuation)
                return nil
            } catch {
                return error as? DockClientError ?? .disconnected
            }
        }
        return AsyncThrowingStream { output in
            // The task holds the connection: the stream lives as long as its reader wants it.
            let task = Task { [self] in
                _ = self
                if let error = await starting.value {
                    output.finish(throwing: error)
                    return
                }
                for await bytes in raw {
                    do {
                        output.yield(try Self.parameters(of: bytes))
                    } catch {
                        output.finish(throwing: error)
                        return
                    }
                }
                output.finish(throwing: DockClientError.disconnected)
            }
            output.onTermination = { _ in task.cancel() }
        }
    }

    /// Starts a stream: holds new calls back, waits until no call is waiting for its reply, then
    /// writes the stream's call (the reader lets the held calls go at its first reply).
    private func start(_ bytes: [UInt8], into continuation: AsyncStream<[UInt8]>.Continuation) async throws(DockClientError) {
        enum Claim { case claimed, inUse, closed }
        let claim: Claim = shared.routing.withLock { routing in
            if routing.isClosed { return .closed }
            if routing.stream != nil || routing.isStreamStarting { return .inUse }
            routing.stream = continuation
            routing.isStreamStarting = true
            return .claimed
        }
        switch claim {
        case .closed: throw .disconnected
        case .inUse: throw .streamInUse
        case .claimed: break
        }
        while true {
            enum Step { case wait, written, failed }
            let step: Step = sendLock.withLock { _ in
                let isClear = shared.routing.withLock { routing in
                    guard routing.pending.isEmpty, !routing.isClosed else { return false }
                    routing.isStreamCallWritten = true
                    return true
                }
                if shared.routing.withLock({ $0.isClosed }) { return .failed }
                guard isClear else { return .wait }
                return shared.isSocketClosed.withLock { $0 ? false : Self.sendAll(bytes, on: socket) } ? .written : .failed
            }
            switch step {
            case .written: return
            case .failed: throw .disconnected
            case .wait: try? await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    /// `Watch`'s events for dockd's only accessory (nil) or the one named, each read into a value; the
    /// stream fails with ``DockClientError/invalidReply(_:)`` at an event that is not what the
    /// interface says. Use a connection of its own for a stream.
    public func events(accessory: String? = nil) -> AsyncThrowingStream<Dock.Event, any Error> {
        let replies = stream(DockCall.watch.encoded(accessory: accessory))
        return AsyncThrowingStream { output in
            let task = Task {
                do {
                    for try await parameters in replies {
                        guard case .event(let event) = try Dock.Reply(.watch, parameters: parameters) else { continue }
                        output.yield(event)
                    }
                    output.finish()
                } catch let error as ReplyError {
                    output.finish(throwing: DockClientError.invalidReply(error))
                } catch {
                    output.finish(throwing: error)
                }
            }
            output.onTermination = { _ in task.cancel() }
        }
    }

    /// Writes all of `bytes` with `send(2)` and `MSG_NOSIGNAL`: when dockd has closed the
    /// connection the write fails with `EPIPE` instead of raising `SIGPIPE`, which would kill an
    /// app that keeps the signal's default. Returns false when the connection is gone.
    static func sendAll(_ bytes: [UInt8], on socket: FileDescriptor) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(socket.rawValue, raw.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += count
        }
        return true
    }

    private static func parameters(of bytes: [UInt8]) throws(DockClientError) -> [String: JSONValue] {
        guard let reply = try? VarlinkReply.parse(bytes) else { throw .unexpectedReply(String(decoding: bytes, as: UTF8.self)) }
        if let error = reply.error { throw .remote(name: error, parameters: reply.parameters) }
        return reply.parameters
    }
}
