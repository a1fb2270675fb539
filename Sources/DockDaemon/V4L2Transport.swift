import Dispatch
import Foundation
import Glibc
import Synchronization
public import DockSystem
import V4L2Protocol

/// A V4L2 video device (`/dev/videoN`) carrying the UVC session's framed ioctls
/// (`V4L2Frame`, `Protocol/uvc.md` §3): each request written is performed on the device by a
/// thread of its own — so a camera slow to answer never holds up the control loop — and its
/// result framed back on `incoming`, in order. The thin seam: raw request numbers and struct
/// images; all policy is in `UVCSession`. Another process may stream video from the same device
/// meanwhile: controls and streaming are separate in V4L2.
public struct V4L2Transport: DockTransport {
    /// The device path.
    public let path: String

    /// Creates the transport.
    public init(path: String) { self.path = path }

    public var name: String { path }

    public func open() throws(SystemError) -> DockConnection {
        let descriptor = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError("open", path) }
        let worker = V4L2Worker(descriptor: descriptor, name: path)
        return DockConnection(incoming: worker.replies, write: { worker.submit($0) }, close: { worker.close() })
    }
}

/// The thread that performs one device's ioctls, one at a time, and closes the descriptor when
/// it stops.
private final class V4L2Worker: Sendable {
    let replies: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation
    private let state = Mutex<(pending: [V4L2Frame.Request], decoder: V4L2Frame.Decoder, isClosed: Bool)>(
        ([], V4L2Frame.Decoder.requests(), false))
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(descriptor: Int32, name: String) {
        (replies, continuation) = AsyncStream<[UInt8]>.makeStream()
        let thread = Thread { [self] in
            while true {
                wake.wait()
                // What was written before the close is still performed: the stop at shutdown is.
                let next = state.withLock { state -> (request: V4L2Frame.Request?, isClosed: Bool) in
                    state.pending.isEmpty ? (nil, state.isClosed) : (state.pending.removeFirst(), false)
                }
                if next.isClosed { break }
                guard let request = next.request else { continue }
                continuation.yield(performFramedIoctl(request, on: descriptor).encode())
            }
            Glibc.close(descriptor)
            continuation.finish()
            finished.signal()
        }
        thread.name = "dockd v4l2 \(name)"
        thread.start()
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
