import DockAPI
import DockCore
import Foundation
import Glibc
import Synchronization
public import DockSystem

/// The control API's server: a listening Unix socket, a thread that accepts, and per connection a
/// reader thread (messages in order) and a task that answers them one at a time. `Watch` streams
/// events and the status at 10 Hz; a client that stops reading is dropped as soon as the socket
/// buffer is full, so it can never hold up the daemon.
public final class VarlinkServer: Sendable {
    private let listener: FileDescriptor
    private let service: DockService
    private let clock: any DaemonClock
    private let log: Logger
    private let maximumConnections: Int
    private let state = Mutex(State())

    private struct State {
        var nextClient: ClientID = 0
        var connections = 0
        var isStopped = false
    }

    /// Creates a server on a listening socket.
    public init(listener: FileDescriptor, service: DockService, clock: any DaemonClock, log: Logger,
                maximumConnections: Int = 128) {
        self.listener = listener
        self.service = service
        self.clock = clock
        self.log = log
        self.maximumConnections = maximumConnections
    }

    /// The number of open connections.
    public var connectionCount: Int { state.withLock { $0.connections } }

    /// Starts accepting connections.
    public func start() {
        let thread = Thread { [self] in
            while !state.withLock({ $0.isStopped }) {
                guard let ready = try? Poll.waitForReading([listener], timeout: .milliseconds(500)), !ready.isEmpty,
                    let connection = UnixSocket.accept(listener)
                else { continue }
                let client: ClientID? = state.withLock { state in
                    guard state.connections < maximumConnections else { return nil }
                    state.connections += 1
                    state.nextClient += 1
                    return state.nextClient
                }
                guard let client else {
                    log.warning("refusing a connection: \(maximumConnections) clients already")
                    connection.close()
                    continue
                }
                serve(connection, as: client)
            }
        }
        thread.name = "dockd accept"
        thread.start()
    }

    /// Stops accepting (open connections run on until their clients leave or the process exits).
    public func stop() {
        state.withLock { $0.isStopped = true }
    }

    private enum Inbound: Sendable {
        case message([UInt8])
        case oversize
    }

    private func serve(_ connection: FileDescriptor, as client: ClientID) {
        let peer = UnixSocket.peerCredentials(connection)
        log.info("client \(client) connected" + (peer.map { " (pid \($0.processID), uid \($0.userID), gid \($0.groupID))" } ?? ""))
        try? connection.setNonBlocking()
        let writer = ConnectionWriter(connection)
        let (inbound, continuation) = AsyncStream<Inbound>.makeStream()
        let reader = Thread {
            var splitter = VarlinkFrameSplitter()
            reading: while !writer.isClosed {
                guard let ready = try? Poll.waitForReading([connection], timeout: .milliseconds(500)) else { break }
                guard !ready.isEmpty else { continue }
                switch try? connection.read(maximumCount: 16_384) {
                case .bytes(let bytes)?:
                    do {
                        for message in try splitter.append(bytes) { continuation.yield(.message(message)) }
                    } catch {
                        continuation.yield(.oversize)
                        break reading
                    }
                case .wouldBlock?: continue
                case .hangUp?, nil: break reading
                }
            }
            continuation.finish()
            writer.release()
        }
        reader.name = "dockd client \(client)"
        reader.start()

        Task { [self] in
            // Each call goes to the host as soon as it is read; the replies go out in call order,
            // each once it is ready. So a call waiting for its motion's end holds up neither the
            // calls after it nor, when the client goes, the release of its control.
            let (answers, queue) = AsyncStream<(answer: DockService.Answer, isOneway: Bool)>.makeStream()
            // Answers still to be written: with none, a ready answer is written at once (no hop
            // through the replier task for the common GetStatus).
            let waiting = PendingCount()
            let replier = Task {
                for await (answer, isOneway) in answers {
                    let reply = await answer.reply()
                    if !isOneway { writer.send(reply) }
                    waiting.change(by: -1)
                }
            }
            func answer(_ answer: DockService.Answer, isOneway: Bool) {
                if case .ready(let reply) = answer, waiting.isZero {
                    if !isOneway { writer.send(reply) }
                    return
                }
                waiting.change(by: 1)
                queue.yield((answer, isOneway))
            }
            var watchers: [Task<Void, Never>] = []
            for await message in inbound {
                guard case .message(let bytes) = message else {
                    writer.send(ParameterError(parameter: "", reason: "message longer than 65536 bytes").reply)
                    log.warning("client \(client) sent a message over 64 KiB; closing")
                    break
                }
                let call: VarlinkCall
                do {
                    call = try VarlinkCall.parse(bytes)
                } catch {
                    log.warning("client \(client): \(error); closing")
                    break
                }
                if call.method == DockMethod.watch.qualifiedName {
                    guard call.wantsMore else {
                        answer(.ready(.failure(VarlinkService.Error.expectedMore)), isOneway: false)
                        continue
                    }
                    watchers += await watch(call, writer: writer)
                    continue
                }
                answer(await service.answer(call, from: client), isOneway: call.isOneway)
            }
            // The client has gone (or broke the protocol): what it held is released now; replies
            // still to come are written as they come (a client that only shut its sending side
            // still reads them), then the connection closes.
            for watcher in watchers { watcher.cancel() }
            await service.runner.clientDisconnected(client)
            state.withLock { $0.connections -= 1 }
            log.info("client \(client) disconnected")
            queue.finish()
            await replier.value
            writer.close()
            writer.release()
        }
    }

    /// Streams events and a 10 Hz status to a watcher until it goes away; its parameters (the
    /// `accessory` among them) are checked like every other call's.
    private func watch(_ call: VarlinkCall, writer: ConnectionWriter) async -> [Task<Void, Never>] {
        do {
            let parsed = try DockCall.parse(call)
            if let refusal = await service.accessoryRefusal(parsed.accessory) {
                writer.send(refusal)
                return []
            }
        } catch {
            writer.send(error.reply)
            return []
        }
        let runner = service.runner
        // The first reply (a status) goes out only once the watcher is subscribed, so a client
        // that has read it misses no event after it.
        let (subscribed, subscription) = AsyncStream<Void>.makeStream()
        let events = Task {
            let (id, stream) = runner.watchers.subscribe()
            subscription.finish()
            for await item in stream {
                guard !Task.isCancelled,
                    writer.send(DockEncoding.watchReply(item.event, time: item.time, status: item.status))
                else { break }
            }
            runner.watchers.unsubscribe(id)
        }
        let status = Task { [clock, service] in
            for await _ in subscribed {}
            var next = clock.now()
            while !Task.isCancelled {
                guard writer.send(DockEncoding.watchReply(nil, time: clock.now(), status: await service.currentStatus()))
                else { break }
                next += .milliseconds(100)
                try? await clock.sleep(until: next)
            }
        }
        return [events, status]
    }
}

/// Writes whole replies to a client's socket, or drops the client: a write that would block means
/// the client is not reading, and the connection is closed rather than buffered.
final class ConnectionWriter: Sendable {
    private let descriptor: FileDescriptor
    private let closed = Mutex(false)
    private let releases = Mutex(0)

    init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    var isClosed: Bool { closed.withLock { $0 } }

    /// Sends a reply; false when the client is gone or was dropped.
    @discardableResult
    func send(_ reply: VarlinkReply) -> Bool {
        closed.withLock { isClosed in
            guard !isClosed else { return false }
            let bytes = reply.bytes
            let written = (try? descriptor.write(bytes)) ?? -1
            if written != bytes.count {
                isClosed = true
                _ = shutdown(descriptor.rawValue, Int32(SHUT_RDWR))
                return false
            }
            return true
        }
    }

    /// Closes the connection (the reader thread releases the descriptor).
    func close() {
        closed.withLock { isClosed in
            guard !isClosed else { return }
            isClosed = true
            _ = shutdown(descriptor.rawValue, Int32(SHUT_RDWR))
        }
    }

    /// Called once by the reader thread when it stops and once by the task that answers calls
    /// when it is done: the second call closes the descriptor, so its number cannot be reused
    /// while either still uses it.
    func release() {
        releases.withLock { count in
            count += 1
            if count == 2 { descriptor.close() }
        }
    }
}

/// How many answers of a connection wait to be written.
final class PendingCount: Sendable {
    private let count = Mutex(0)

    /// Whether none wait.
    var isZero: Bool { count.withLock { $0 == 0 } }

    /// Adds `delta`.
    func change(by delta: Int) { count.withLock { $0 += delta } }
}
