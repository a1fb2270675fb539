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
/// fails with `ENOENT`), until the replug listens again. Its video is the room as the webcam
/// sees it (`makeFrames`).
final class WebcamEndpoint {
    private struct Connection {
        var descriptor: FileDescriptor
        /// The file handle it is to the camera (its event subscriptions).
        var fileHandle: Int
        var decoder = V4L2Frame.Decoder.requests()
        /// Replies not yet sent, each with the descriptors that go with it (copies, closed once sent).
        var replies: [(due: Duration, bytes: [UInt8], descriptors: [FileDescriptor])] = []
    }

    let path: String
    private var listener: FileDescriptor?
    private var connections: [Connection] = []
    private var nextFileHandle = 0
    /// File handles closed since the last `serve`, for the camera to forget.
    private var closedHandles: [Int] = []
    private let log: (String) -> Void
    private let video: WebcamVideo
    private let maker: FrameMaker

    /// Listens at `path` (a stale socket there is replaced); draws frames with `maker`.
    init(path: String, maker: FrameMaker, log: @escaping (String) -> Void) throws(SystemError) {
        self.path = path
        self.log = log
        self.maker = maker
        video = WebcamVideo(log: log)
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
            close(connection)
        }
        connections = []
    }

    /// Takes new connections and the requests that arrived on `ready` descriptors, answering
    /// each from `simulation` at `now`; returns what the world did meanwhile.
    func serve(_ ready: [FileDescriptor], simulation: inout Simulation, now: Duration) -> SimulationOutput {
        var output = SimulationOutput()
        forgetClosed(&simulation)
        if let listener, ready.contains(listener), let accepted = UnixSocket.accept(listener) {
            nextFileHandle += 1
            connections.append(Connection(descriptor: accepted, fileHandle: nextFileHandle))
            video.opened(nextFileHandle)
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
                let fileHandle = connections[index].fileHandle
                let answer = simulation.answerUVC(request, at: now, fileHandle: fileHandle)
                output.append(answer.output)
                if request.request == V4L2Request.setExtendedControls, answer.reply.errno == 0 { logControls(request) }
                let descriptors =
                    simulation.uvc.map { video.replied(to: request, with: answer.reply, fileHandle: fileHandle, stream: $0.video) } ?? []
                let due = max(now + answer.delay, connections[index].replies.last?.due ?? .zero)
                connections[index].replies.append((due, answer.reply.encode(), descriptors))
            }
        }
        for index in closed.reversed() {
            close(connections[index])
            connections.remove(at: index)
        }
        forgetClosed(&simulation)
        return output
    }

    /// Draws the video frames due by `now` (the run already advanced to `now`) into the buffers
    /// queued for them.
    func makeFrames(_ simulation: inout Simulation, now: Duration) {
        while let (slot, scene) = simulation.beginVideoFrame(now: now) {
            guard let stream = simulation.uvc?.video, let memory = video.memory(for: slot.generation) else {
                simulation.finishVideoFrame(slot, bytesUsed: 0, isDamaged: true)
                continue
            }
            let drawn = maker.draw(scene, into: slot, of: memory, monotonicOrigin: stream.monotonicOrigin)
            simulation.finishVideoFrame(slot, bytesUsed: drawn.bytesUsed, isDamaged: false)
            if let stream = simulation.uvc?.video { video.updateReadiness(stream) }
        }
    }

    /// Logs the controls a program set, with the time docksim took the request on `CLOCK_MONOTONIC`
    /// (`scripts/vision-latency` reads it), as the webcam alone does.
    private func logControls(_ request: V4L2Frame.Request) {
        guard let controls = try? V4L2ExtendedControls.decode(request.bytes).controls else { return }
        let (seconds, attoseconds) = MonotonicClock.now().components
        let micro = String(attoseconds / 1_000_000_000_000)
        log(
            "set " + controls.map { "\(V4L2ControlID.name(of: $0.id) ?? "\($0.id)")=\($0.value)" }.joined(separator: ",")
                + " at \(seconds)." + String(repeating: "0", count: max(0, 6 - micro.count)) + micro)
    }

    /// The camera forgets the file handles closed since it last heard, and their video goes.
    private func forgetClosed(_ simulation: inout Simulation) {
        for handle in closedHandles {
            simulation.uvcFileHandleClosed(handle)
            if let stream = simulation.uvc?.video {
                video.closed(handle, stream: stream)
                video.updateReadiness(stream)
            }
        }
        closedHandles = []
    }

    private func close(_ connection: Connection) {
        connection.descriptor.close()
        for reply in connection.replies {
            for descriptor in reply.descriptors { descriptor.close() }
        }
        closedHandles.append(connection.fileHandle)
    }

    /// Sends every reply due by `now`.
    func flush(now: Duration) {
        var closed: [Int] = []
        for index in connections.indices {
            while let first = connections[index].replies.first, first.due <= now {
                connections[index].replies.removeFirst()
                let sent = UnixSocket.send(first.bytes, passing: first.descriptors, on: connections[index].descriptor)
                for descriptor in first.descriptors { descriptor.close() }
                guard sent else {
                    closed.append(index)
                    break
                }
            }
        }
        for index in closed.reversed() {
            close(connections[index])
            connections.remove(at: index)
        }
    }

    /// Closes everything and removes the socket.
    func close() { unplug() }
}
