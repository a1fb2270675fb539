import Dispatch
public import DockSockets
public import DockSystem
import Glibc
import Synchronization
import V4L2Protocol

/// A V4L2 video device (`/dev/videoN`) carrying the UVC session's framed ioctls
/// (`V4L2Frame`, `Protocol/uvc.md` §3): each request written is performed on the device by a
/// thread of its own — so a camera slow to answer never holds up the control loop — and its
/// result framed back to the loop, in order (through a pipe the loop watches). The thin seam: raw
/// request numbers and struct images; all policy is in `UVCSession`. Another process may stream
/// video from the same device meanwhile: controls and streaming are separate in V4L2.
public struct V4L2Transport: DockTransport {
    /// The device path.
    public let path: String

    /// Creates the transport.
    public init(path: String) { self.path = path }

    public var name: String { path }

    public func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection {
        let descriptor = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError("open", path) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            let error = SystemError("pipe")
            Glibc.close(descriptor)
            throw error
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            try? FileDescriptor(rawValue: end).setNonBlocking()
        }
        let worker = V4L2Worker(descriptor: descriptor, name: path, wake: FileDescriptor(rawValue: ends[1]))
        return V4L2Connection(
            worker: worker, wake: (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1])),
            loop: loop, events: events)
    }
}

/// The loop's side of a device: takes the worker's replies when its pipe says there are some.
final class V4L2Connection: DockConnection {
    private let worker: V4L2Worker
    private let wake: (read: FileDescriptor, write: FileDescriptor)
    private let loop: any EventLoop
    private let events: DockLinkEvents
    private var isClosed = false

    init(worker: V4L2Worker, wake: (read: FileDescriptor, write: FileDescriptor), loop: any EventLoop, events: DockLinkEvents) {
        self.worker = worker
        self.wake = wake
        self.loop = loop
        self.events = events
        loop.watch(wake.read, for: .readable) { [weak self] _ in self?.repliesReady() }
    }

    private func repliesReady() {
        while case .bytes? = try? wake.read.read(maximumCount: 256) {}
        for reply in worker.takeReplies() where !isClosed { events.received(reply) }
    }

    func write(_ bytes: [UInt8]) -> Bool { !isClosed && worker.submit(bytes) }

    /// How many requests the device has performed (for tests).
    var performedCount: Int { worker.performedCount }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        worker.close()
        loop.unwatch(wake.read)
        wake.read.close()
        wake.write.close()
    }
}

/// The thread that performs one device's ioctls, one at a time, and closes the descriptor when
/// it stops.
final class V4L2Worker: Sendable {
    private let state = Mutex<
        (
            pending: [V4L2Frame.Request], decoder: V4L2Frame.Decoder, isClosed: Bool, replies: [[UInt8]],
            performed: Int
        )
    >(([], V4L2Frame.Decoder.requests(), false, [], 0))
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(descriptor: Int32, name: String, wake loopWake: FileDescriptor) {
        let body: @Sendable () -> Void = { [self] in
            while true {
                wake.wait()
                // What was written before the close is still performed: the stop at shutdown is.
                let next = state.withLock { state -> (request: V4L2Frame.Request?, isClosed: Bool) in
                    state.pending.isEmpty ? (nil, state.isClosed) : (state.pending.removeFirst(), false)
                }
                if next.isClosed { break }
                guard let request = next.request else { continue }
                let reply = performFramedIoctl(request, on: descriptor).encode()
                state.withLock { state in
                    state.replies.append(reply)
                    state.performed += 1
                }
                _ = try? loopWake.write([1])
            }
            Glibc.close(descriptor)
            finished.signal()
        }
        do {
            try DetachedThread.start(name: "v4l2 \(name)", body)
        } catch {
            // As Foundation's Thread did: a daemon that cannot start a thread cannot run the webcam.
            fatalError("dockd: cannot start the V4L2 thread for \(name): \(error)")
        }
    }

    /// How many requests were performed.
    var performedCount: Int { state.withLock { $0.performed } }

    /// The replies performed since the last look, in order.
    func takeReplies() -> [[UInt8]] {
        state.withLock { state in
            defer { state.replies.removeAll() }
            return state.replies
        }
    }

    /// Takes framed requests; false once closed, or for bytes that are not frames.
    func submit(_ bytes: [UInt8]) -> Bool {
        let count = state.withLock { state -> Int? in
            guard !state.isClosed, let requests = try? state.decoder.requests(bytes) else { return nil }
            state.pending += requests
            return requests.count
        }
        guard let count else { return false }
        for _ in 0..<count { wake.signal() }
        return true
    }

    /// Closes the device once the requests written before are performed (at shutdown, the
    /// stop must reach the camera before dockd exits); returns when the descriptor is closed.
    func close() {
        let first = state.withLock { state in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard first else { return }
        wake.signal()
        finished.wait()
    }
}

/// One framed ioctl on a descriptor: the image padded to the size the request number encodes;
/// for the `EXT_CTRLS` requests, the header's `controls` pointer pointed at the array after it
/// (and zeroed again in the reply). `EINTR` is retried.
func performFramedIoctl(_ request: V4L2Frame.Request, on descriptor: Int32) -> V4L2Frame.Reply {
    let number = request.request
    let size = Int((number >> 16) & 0x3FFF)
    var result: Int32 = 0
    var error: Int32 = 0
    var image = request.bytes
    if V4L2Request.carriesControlArray(number) {
        guard image.count >= V4L2ExtendedControls.headerSize else {
            return V4L2Frame.Reply(request: number, errno: EINVAL, bytes: request.bytes)
        }
        var header = Array(image[0..<V4L2ExtendedControls.headerSize])
        var array = Array(image[V4L2ExtendedControls.headerSize...])
        let count = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
        guard array.count >= count * V4L2ExtendedControls.controlSize else {
            return V4L2Frame.Reply(request: number, errno: EINVAL, bytes: request.bytes)
        }
        array.withUnsafeMutableBytes { controls in
            var pointer = UInt(bitPattern: controls.baseAddress)
            withUnsafeBytes(of: &pointer) { header.replaceSubrange(24..<32, with: $0) }
            repeat {
                result = header.withUnsafeMutableBytes { ioctl(descriptor, UInt(number), $0.baseAddress!) }
                error = result < 0 ? errno : 0
            } while error == EINTR
        }
        header.replaceSubrange(24..<32, with: repeatElement(0, count: 8))
        image = header + array
    } else {
        if image.count < size { image += [UInt8](repeating: 0, count: size - image.count) }
        if image.isEmpty { image = [0] }
        repeat {
            result = image.withUnsafeMutableBytes { ioctl(descriptor, UInt(number), $0.baseAddress!) }
            error = result < 0 ? errno : 0
        } while error == EINTR
    }
    return V4L2Frame.Reply(request: number, errno: error, bytes: image)
}
