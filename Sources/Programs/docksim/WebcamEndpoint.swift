import DockSimulator
import DockSockets
import DockSystem
import Glibc
import V4L2Protocol

/// The UVC webcam of a scenario run, where programs reach it: a Unix socket at the device path,
/// which the preload library (`docksim --preload-library`) shows them as a V4L2 device. Each
/// connection is one open of the device; its framed ioctls (`Protocol/uvc.md` §3) are answered
/// by the simulation's camera, each when it is due (a control query after its share of the
/// model's slow enumeration), without holding up the world. Unplugged, the device is gone: the
/// connections close (an ioctl in flight fails with `ENODEV`) and the socket is removed (an open
/// fails with `ENOENT`), until the replug listens again.
final class WebcamEndpoint {
    private struct Connection {
        var descriptor: FileDescriptor
        /// The file handle it is to the camera (its event subscriptions).
        var fileHandle: Int
        var decoder = V4L2Frame.Decoder.requests()
        var replies: [(due: Duration, bytes: [UInt8])] = []
    }

    let path: String
    private var listener: FileDescriptor?
    private var connections: [Connection] = []
    private var nextFileHandle = 0
    /// File handles closed since the last `serve`, for the camera to forget.
    private var closedHandles: [Int] = []
    private let log: (String) -> Void

    /// Listens at `path` (a stale socket there is replaced).
    init(path: String, log: @escaping (String) -> Void) throws(SystemError) {
        self.path = path
        self.log = log
        try plugIn()
    }

    /// The descriptors to wait on.
    var descriptors: [FileDescriptor] { (listener.map { [$0] } ?? []) + connections.map(\.descriptor) }

    /// When the next reply is due, if one waits.
    var nextReplyTime: Duration? { connections.compactMap { $0.replies.first?.due }.min() }

    /// The device back: the socket listens again.
    func plugIn() throws(SystemError) {
        guard listener == nil else { return }
        listener = try UnixSocket.listen(path: path, mode: 0o666)
        log("UVC camera on \(path) (run programs with LD_PRELOAD=$(docksim --preload-library))")
    }

    /// The device gone: the socket removed first (so a program that sees its connection close
    /// finds no device to open), then every connection closed.
    func unplug() {
        if listener != nil { unlink(path) }
        listener?.close()
        listener = nil
        for connection in connections {
            connection.descriptor.close()
            closedHandles.append(connection.fileHandle)
        }
        connections = []
    }

    /// Takes new connections and the requests that arrived on `ready` descriptors, answering
    /// each from `simulation` at `now`; returns what the world did meanwhile.
    func serve(_ ready: [FileDescriptor], simulation: inout Simulation, now: Duration) -> SimulationOutput {
        var output = SimulationOutput()
        for handle in closedHandles { simulation.uvcFileHandleClosed(handle) }
        closedHandles = []
        if let listener, ready.contains(listener), let accepted = UnixSocket.accept(listener) {
            nextFileHandle += 1
            connections.append(Connection(descriptor: accepted, fileHandle: nextFileHandle))
        }
        var closed: [Int] = []
        for index in connections.indices where ready.contains(connections[index].descriptor) {
            let bytes: [UInt8]
            switch try? connections[index].descriptor.read(maximumCount: 65_536) {
            case .bytes(let read)?: bytes = read
            case .wouldBlock?: continue
            case .hangUp?, nil:
                closed.append(index)
                continue
            }
            guard let requests = try? connections[index].decoder.requests(bytes) else {
                log("a program sent bytes that are not framed ioctls; closing it")
                closed.append(index)
                continue
            }
            for request in requests {
                let answer = simulation.answerUVC(request, at: now, fileHandle: connections[index].fileHandle)
                output.append(answer.output)
                let due = max(now + answer.delay, connections[index].replies.last?.due ?? .zero)
                connections[index].replies.append((due, answer.reply.encode()))
            }
        }
        for index in closed.reversed() {
            connections[index].descriptor.close()
            closedHandles.append(connections[index].fileHandle)
            connections.remove(at: index)
        }
        return output
    }

    /// Sends every reply due by `now`.
    func flush(now: Duration) {
        var closed: [Int] = []
        for index in connections.indices {
            while let first = connections[index].replies.first, first.due <= now {
                connections[index].replies.removeFirst()
                guard (try? connections[index].descriptor.write(first.bytes)) == first.bytes.count else {
                    closed.append(index)
                    break
                }
            }
        }
        for index in closed.reversed() {
            connections[index].descriptor.close()
            closedHandles.append(connections[index].fileHandle)
            connections.remove(at: index)
        }
    }

    /// Closes everything and removes the socket.
    func close() { unplug() }
}
