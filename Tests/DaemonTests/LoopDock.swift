import DockDaemon
import DockProtocol
import DockSimulator
import DockSockets
import DockSystem
import Foundation
import Glibc
import Synchronization

/// The log lines a test's daemon writes.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger writing here.
    var logger: Logger { Logger(usesJournalPrefixes: false) { [self] line in lines.withLock { $0.append(line) } } }
    /// Every line so far.
    var all: [String] { lines.withLock { $0 } }
    /// Whether a line contains `text`.
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
    /// How many lines contain `text`.
    func count(_ text: String) -> Int { all.filter { $0.contains(text) }.count }
}

/// A dock's firmware on the far end of a `MemoryTransport`, played on the test's virtual loop:
/// it answers what the host writes at once and sends its telemetry every millisecond of the
/// loop's time, as a real dock would; pulling its cable reboots it, as losing power does.
final class LoopDock {
    private(set) var firmware: AccessoryFirmware
    let transport = MemoryTransport()
    private let loop: VirtualEventLoop
    private let origin: Duration
    private var decoder = FrameDecoder()
    /// When each of the host's frames arrived (loop time), and what it was.
    private(set) var hostFrames: [(time: Duration, frame: Frame)] = []
    /// Whether the dock has stalled: it reads nothing and sends nothing (``stall()``).
    private(set) var isStalled = false

    init(loop: VirtualEventLoop, configuration: AccessoryConfiguration = AccessoryConfiguration()) {
        self.loop = loop
        origin = loop.now
        firmware = AccessoryFirmware(configuration: configuration, seed: 1)
        transport.written = { [unowned self] bytes in
            for case .success(let frame) in decoder.decode(bytes) { hostFrames.append((loop.now, frame)) }
            let answer = firmware.receive(bytes: bytes, now: now)
            if !answer.isEmpty { transport.peerSend(answer) }
        }
        scheduleTelemetry()
    }

    var now: Duration { loop.now - origin }

    private func scheduleTelemetry() {
        loop.schedule(at: loop.now + .milliseconds(1)) { [weak self] in
            guard let self else { return }
            guard !isStalled else { return scheduleTelemetry() }
            let bytes = firmware.advanceBytes(to: now)
            if !bytes.isEmpty { transport.peerSend(bytes) }
            scheduleTelemetry()
        }
    }

    /// The dock stalls: it stops reading the host's bytes and sends nothing more, its cable
    /// still in (a hung firmware, a wedged USB serial adapter).
    func stall() {
        isStalled = true
        transport.setStalled(true)
    }

    /// Presses and releases the tracking button.
    func pressTrackingButton() {
        let frames = firmware.button(.tracking, isPressed: true, now: now) + firmware.button(.tracking, isPressed: false, now: now)
        var bytes: [UInt8] = []
        for frame in frames { try? FrameEncoder.encode(frame, into: &bytes) }
        transport.peerSend(bytes)
    }

    /// Pulls the cable (the dock loses power) or puts it back.
    func setPluggedIn(_ pluggedIn: Bool) {
        if !pluggedIn {
            firmware.reboot(now: now)
            decoder = FrameDecoder()
        }
        transport.setPluggedIn(pluggedIn)
    }
}

/// A Varlink client on one end of a socket pair whose other end the daemon's server serves.
final class PairedClient {
    let descriptor: FileDescriptor
    private var pending: [UInt8] = []
    private(set) var isClosed = false

    init(_ server: VarlinkServer) throws {
        let (client, connection) = try UnixSocket.pair()
        descriptor = client
        server.serve(connection)
    }

    /// Sends a call.
    func send(_ method: String, _ parameters: [String: Any] = [:], more: Bool = false) {
        var message: [String: Any] = ["method": method]
        if !parameters.isEmpty { message["parameters"] = parameters }
        if more { message["more"] = true }
        let data = try! JSONSerialization.data(withJSONObject: message)
        _ = try? descriptor.write(Array(data) + [0])
    }

    /// Every reply that has arrived, in order (run the loop first).
    func replies() -> [[String: Any]] {
        while !isClosed, case .bytes(let bytes)? = try? descriptor.read(maximumCount: 65_536) { pending += bytes }
        var replies: [[String: Any]] = []
        while let end = pending.firstIndex(of: 0) {
            let message = Array(pending[..<end])
            pending.removeSubrange(...end)
            replies.append((try? JSONSerialization.jsonObject(with: Data(message))) as? [String: Any] ?? [:])
        }
        return replies
    }

    /// Whether the daemon has closed its end: waits for the end of the stream, keeping what
    /// arrives before it for ``replies()``, and gives up after `timeoutSeconds` of real time.
    ///
    /// The daemon closes its end at once, on the virtual loop; but until a child process that
    /// another test of this process is spawning has reached `exec`, that child holds a copy of the
    /// daemon's descriptor (close-on-exec closes it only then), and the socket stays open. A CPU
    /// hog stretches that moment; a single look after the close found it open.
    func isClosedByServer(timeoutSeconds: Double = 30) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeoutSeconds * 1000))
        while !isClosed {
            switch try? descriptor.read(maximumCount: 65_536) {
            case .bytes(let bytes)?: pending += bytes
            case .hangUp?: return true
            case .wouldBlock?, nil:
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else { return false }
                var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, Int32(remaining / .milliseconds(1)) + 1)
            }
        }
        return false
    }

    /// The client vanishes (its process killed: the socket closes). Shut down before it is
    /// closed, so that the daemon hears the hang-up now even while a child process that another
    /// test is spawning holds a copy of this descriptor until its `exec` (the end of a killed
    /// process's socket does not wait for that).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = shutdown(descriptor.rawValue, Int32(SHUT_RDWR))
        descriptor.close()
    }

    deinit { close() }
}

extension [String: Any] {
    /// A reply's parameters.
    var parameters: [String: Any] { self["parameters"] as? [String: Any] ?? [:] }
    /// A reply's error name.
    var error: String? { self["error"] as? String }
    /// The status in a `GetStatus` or `Watch` reply.
    var status: [String: Any] {
        parameters["status"] as? [String: Any] ?? (parameters["event"] as? [String: Any])?["status"] as? [String: Any] ?? [:]
    }
}
