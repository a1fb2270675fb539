import DockAPI
import DockLinks
public import DockSockets
public import DockSystem
import DockVocabulary
import Glibc

/// The control API's server on the daemon's event loop: the listening Unix socket and every
/// client are descriptors the loop watches, each client a ``ClientConnection`` with its own read
/// and write buffers — no thread and no task per client. `Watch` streams events and, for all
/// watchers at once, the status at 10 Hz; a client whose unsent replies pass
/// ``writeBufferLimit`` is not reading and is dropped, so it can never hold up the daemon.
public final class VarlinkServer {
    /// The most a client may leave unread before it is dropped (the socket's own buffer comes
    /// on top).
    public static let writeBufferLimit = 128 * 1024
    /// How long accepting pauses when the process is out of descriptors (`EMFILE`).
    public static let acceptBackoff = Duration.milliseconds(100)

    private let listener: FileDescriptor?
    let service: DockService
    let loop: any EventLoop
    let log: Logger
    private let maximumConnections: Int
    private var clients: [ClientID: ClientConnection] = [:]
    private var nextClient: ClientID = 0
    private var watchers: Set<ClientID> = []
    /// The accessory (its name) each watcher that follows one follows; a watcher not here
    /// follows them all.
    private var watchedAccessory: [ClientID: String] = [:]
    private var statusTimer: LoopTimer?
    private var isPaused = false
    private var isShortOfDescriptors = false
    private var isStopped = false

    /// Creates a server on a listening socket (nil: only connections handed to ``serve(_:)``).
    public init(
        listener: FileDescriptor?, service: DockService, loop: any EventLoop, log: Logger,
        maximumConnections: Int = 128
    ) {
        self.listener = listener
        self.service = service
        self.loop = loop
        self.log = log
        self.maximumConnections = maximumConnections
    }

    /// The number of open connections.
    public var connectionCount: Int { clients.count }

    /// Starts accepting connections.
    public func start() {
        guard let listener else { return }
        try? listener.setNonBlocking()  // accept until none is waiting, never waiting for one
        loop.watch(listener, for: .readable) { [weak self] _ in self?.acceptWaiting() }
    }

    /// Closes every connection and stops accepting (at shutdown, once the runner has answered
    /// what it still owed: those replies are written if the socket takes them at once).
    public func stop() {
        isStopped = true
        if let listener { loop.unwatch(listener) }
        if let statusTimer { loop.cancel(statusTimer) }
        statusTimer = nil
        for client in clients.values { client.close() }
        clients.removeAll()
    }

    /// Serves a connected socket as a new client (an accepted one, or in a test one end of a
    /// socket pair).
    public func serve(_ connection: FileDescriptor) {
        guard !isStopped else { return connection.close() }
        guard clients.count < maximumConnections else {
            log.warning("refusing a connection: \(maximumConnections) clients already")
            return connection.close()
        }
        try? connection.setNonBlocking()
        nextClient += 1
        let peer = UnixSocket.peerCredentials(connection)
        log.debug("client \(nextClient) connected" + (peer.map { " (pid \($0.processID), uid \($0.userID), gid \($0.groupID))" } ?? ""))
        clients[nextClient] = ClientConnection(id: nextClient, descriptor: connection, server: self)
    }

    private func acceptWaiting() {
        guard let listener, !isPaused else { return }
        while !isStopped {
            do {
                guard let connection = try UnixSocket.acceptWaiting(listener) else { return }
                if isShortOfDescriptors {
                    isShortOfDescriptors = false
                    log.notice("accepting connections again")
                }
                serve(connection)
            } catch {
                // Out of descriptors (or another failure that would repeat at once): the listener
                // stays readable, so stop watching it for a while instead of spinning; said once.
                if !isShortOfDescriptors { log.warning("\(error); not accepting for \(Self.acceptBackoff) at a time") }
                isShortOfDescriptors = true
                isPaused = true
                loop.unwatch(listener)
                loop.schedule(at: loop.now + Self.acceptBackoff) { [weak self] in
                    guard let self, !isStopped else { return }
                    isPaused = false
                    start()
                }
                return
            }
        }
    }

    // MARK: For the connections

    /// A client was released: its control goes back (on the loop's next turn, so never from
    /// inside the runner's own work).
    func released(_ client: ClientID) {
        log.debug("client \(client) disconnected")
        watching(client, false)
        let accessories = service.accessories
        loop.execute {
            for accessory in accessories { accessory.runner.clientDisconnected(client) }
        }
    }

    /// A connection is closed and gone.
    func closed(_ client: ClientID) {
        watching(client, false)
        clients.removeValue(forKey: client)
    }

    /// A client starts or stops watching (`accessory`: the name of the one it follows; nil:
    /// all): the runners' events and the 10 Hz status go to the watchers while there are any.
    func watching(_ client: ClientID, _ isWatching: Bool, accessory: String? = nil) {
        let hadWatchers = !watchers.isEmpty
        if isWatching { watchers.insert(client) } else { watchers.remove(client) }
        watchedAccessory[client] = isWatching ? accessory : nil
        guard hadWatchers != !watchers.isEmpty else { return }
        if watchers.isEmpty {
            for accessory in service.accessories { accessory.runner.watcher = nil }
            if let statusTimer { loop.cancel(statusTimer) }
            statusTimer = nil
        } else {
            followAccessories()
            scheduleStatus(at: loop.now + .milliseconds(100))
        }
    }

    private func scheduleStatus(at time: Duration) {
        statusTimer = loop.schedule(at: time) { [weak self] in
            guard let self, !watchers.isEmpty else { return }
            for accessory in service.accessories {
                broadcast(.watch(accessory.named(accessory.runner.statusEvent())), from: accessory.name)
            }
            scheduleStatus(at: max(time + .milliseconds(100), loop.now))
        }
    }

    /// Has every accessory's events told to the watchers (while there are any): at the first
    /// watcher, and when SIGHUP added an accessory.
    public func followAccessories() {
        guard !watchers.isEmpty else { return }
        for accessory in service.accessories {
            accessory.runner.watcher = { [weak self] event in self?.broadcast(.watch(accessory.named(event)), from: accessory.name) }
        }
    }

    /// One reply about the accessory named `name`, encoded once, to every watcher that follows it.
    private func broadcast(_ reply: VarlinkReply, from name: String) {
        let bytes = reply.bytes
        for client in watchers.sorted() where watchedAccessory[client].map({ $0 == name }) ?? true {
            clients[client]?.send(bytes)
        }
    }
}

/// One client of the API: a small state machine over its socket, with its own read buffer (the
/// frame splitter) and write buffer. Each call goes to the host as soon as it is read; the replies
/// go out in call order, each once it is ready, so a call waiting for its motion's end holds up
/// neither the calls after it nor, when the client goes, the release of its control.
final class ClientConnection {
    /// Where the connection is in its life.
    enum State {
        /// Reading calls and writing replies.
        case open
        /// The client has gone, shut its sending side or broke the protocol: what it held is
        /// released; replies still owed are written (a client that only shut its sending side
        /// still reads them), then the connection closes.
        case draining
        /// Closed.
        case closed
    }

    /// The most one read takes from the socket.
    static let readSize = 16_384

    let id: ClientID
    private let descriptor: FileDescriptor
    private unowned let server: VarlinkServer
    private(set) var state = State.open
    private var splitter = VarlinkFrameSplitter()
    /// Replies in call order: nil until the host has answered.
    private var owed: [(sequence: Int, bytes: [UInt8]?)] = []
    private var nextSequence = 0
    private var output: [UInt8] = []
    private var outputStart = 0
    private var interest: LoopInterest?

    init(id: ClientID, descriptor: FileDescriptor, server: VarlinkServer) {
        self.id = id
        self.descriptor = descriptor
        self.server = server
        setInterest(.readable)
    }

    private func setInterest(_ wanted: LoopInterest?) {
        guard wanted != interest else { return }
        switch (interest, wanted) {
        case (nil, let wanted?):
            server.loop.watch(descriptor, for: wanted) { [weak self] readiness in self?.ready(readiness) }
        case (_?, let wanted?): server.loop.change(descriptor, to: wanted)
        case (_?, nil): server.loop.unwatch(descriptor)
        case (nil, nil): break
        }
        interest = wanted
    }

    private func ready(_ readiness: LoopReadiness) {
        if state == .open, !readiness.isDisjoint(with: [.readable, .hangUp, .error]) { readAvailable() }
        if state != .closed, outputStart < output.count { flush() }
    }

    // MARK: Reading

    private func readAvailable() {
        while state == .open {
            switch try? descriptor.read(maximumCount: Self.readSize) {
            case .bytes(let bytes)?:
                let messages: [[UInt8]]
                do {
                    messages = try splitter.append(bytes)
                } catch {
                    send(ParameterError(parameter: "", reason: "message longer than 65536 bytes").reply.bytes)
                    server.log.warning("client \(id) sent a message over 64 KiB; closing")
                    return finishReading()
                }
                for message in messages where state == .open { handle(message) }
                // A read that did not fill its buffer found the socket empty: the loop is
                // level-triggered and says when more comes, so no second read just to hear
                // EAGAIN (a third of the reads dockd made while a client sent 30 Track calls a
                // second).
                if bytes.count < Self.readSize { return }
            case .wouldBlock?: return
            case .hangUp?, nil: return finishReading()
            }
        }
    }

    private func handle(_ bytes: [UInt8]) {
        let call: VarlinkCall
        do {
            call = try VarlinkCall.parse(bytes)
        } catch {
            server.log.warning("client \(id): \(error); closing")
            return finishReading()
        }
        if call.method == DockMethod.watch.qualifiedName { return watch(call) }
        let sequence = call.isOneway ? nil : owe()
        server.service.answer(call, from: id) { [weak self] reply in
            guard let self, let sequence else { return }
            settle(sequence, reply)
        }
    }

    /// `Watch`: its parameters (the `accessory` among them) checked like every other call's,
    /// then a first status (from each accessory, when it names none), then events and the
    /// 10 Hz status until the client goes.
    private func watch(_ call: VarlinkCall) {
        guard call.wantsMore else { return send(VarlinkReply.failure(VarlinkService.Error.expectedMore).bytes) }
        let followed: String?
        do {
            let parsed = try DockCall.parse(call)
            if let name = parsed.accessory {
                switch server.service.accessory(name) {
                case .success(let accessory): followed = accessory.name
                case .failure(let refusal): return send(refusal.reply.bytes)
                }
            } else {
                followed = nil
            }
        } catch {
            return send(error.reply.bytes)
        }
        for accessory in server.service.accessories where followed.map({ $0 == accessory.name }) ?? true {
            send(VarlinkReply.watch(accessory.named(accessory.runner.statusEvent())).bytes)
        }
        if state == .open { server.watching(id, true, accessory: followed) }
    }

    /// No more calls: what the client held is released now; the connection closes once the
    /// replies it is owed are written.
    private func finishReading() {
        guard state == .open else { return }
        state = .draining
        server.released(id)
        closeIfDone()
    }

    // MARK: Writing

    /// A place in the reply order.
    private func owe() -> Int {
        nextSequence += 1
        owed.append((nextSequence, nil))
        return nextSequence
    }

    /// The host answered the call at `sequence`.
    private func settle(_ sequence: Int, _ bytes: [UInt8]) {
        guard state != .closed, let index = owed.firstIndex(where: { $0.sequence == sequence }) else { return }
        owed[index].bytes = bytes
        var ready: [UInt8] = []
        while let first = owed.first, let bytes = first.bytes {
            ready += bytes
            owed.removeFirst()
        }
        if !ready.isEmpty { enqueue(ready) }
        closeIfDone()
    }

    /// Sends bytes after the replies still owed (a ready reply, a watch item).
    func send(_ bytes: [UInt8]) {
        guard state != .closed else { return }
        if owed.isEmpty {
            enqueue(bytes)
        } else {
            nextSequence += 1
            owed.append((nextSequence, bytes))
        }
    }

    private func enqueue(_ bytes: [UInt8]) {
        output += bytes
        flush()
    }

    /// Writes what the socket takes now; the rest waits for it to be writable, up to the limit.
    private func flush() {
        guard state != .closed else { return }
        while outputStart < output.count {
            let count = output.withUnsafeBytes { raw in
                // MSG_NOSIGNAL: a client gone is an EPIPE here, never a SIGPIPE.
                Glibc.send(descriptor.rawValue, raw.baseAddress! + outputStart, output.count - outputStart, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                outputStart += count
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN { break }
            return drop("the client is gone")  // EPIPE, ECONNRESET
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 65_536)
            outputStart = 0
        } else if output.count - outputStart > VarlinkServer.writeBufferLimit {
            return drop("not reading: over \(VarlinkServer.writeBufferLimit / 1024) KiB unsent")
        } else if outputStart > 65_536 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
        updateInterest()
        closeIfDone()
    }

    private func updateInterest() {
        let isWriting = outputStart < output.count
        switch state {
        case .open: setInterest(isWriting ? [.readable, .writable] : .readable)
        // Half-closed: a hang-up would be reported on every turn; only room to write is of use.
        case .draining: setInterest(isWriting ? .writable : nil)
        case .closed: setInterest(nil)
        }
    }

    private func closeIfDone() {
        if state == .draining, owed.isEmpty, outputStart == output.count { close() } else if state == .draining { updateInterest() }
    }

    private func drop(_ reason: String) {
        server.log.info("client \(id): \(reason); dropping it")
        if state == .open {
            state = .draining
            server.released(id)
        }
        close()
    }

    /// Closes the socket at once (shutdown, or a dropped client).
    func close() {
        guard state != .closed else { return }
        state = .closed
        setInterest(nil)
        descriptor.close()
        owed.removeAll()
        output.removeAll()
        outputStart = 0
        server.closed(id)
    }
}
