import DockSimulator
import DockVocabulary
import Foundation
import Glibc
import TestSupport
import Testing
import V4L2Protocol

/// The preload library's own `open`, `ioctl`, `mmap`, `munmap`, `poll` and `close`, loaded into
/// the test process with `dlopen` and called directly: the library's code, its socket and docksim
/// — the path any program takes under `LD_PRELOAD`, but for the dynamic linker's interposition,
/// which `scripts/check-uvc` exercises with v4l2-ctl and ffmpeg.
final class PreloadLibrary {
    typealias Open = @convention(c) (UnsafePointer<CChar>, Int32) -> Int32
    typealias Ioctl = @convention(c) (Int32, UInt, UnsafeMutableRawPointer?) -> Int32
    typealias Map = @convention(c) (UnsafeMutableRawPointer?, Int, Int32, Int32, Int32, Int) -> UnsafeMutableRawPointer?
    typealias Unmap = @convention(c) (UnsafeMutableRawPointer?, Int) -> Int32
    typealias Poll = @convention(c) (UnsafeMutablePointer<pollfd>, UInt, Int32) -> Int32
    typealias Close = @convention(c) (Int32) -> Int32

    let handle: UnsafeMutableRawPointer
    let open: Open
    let ioctl: Ioctl
    let mmap: Map
    let munmap: Unmap
    let poll: Poll
    let close: Close

    init() throws {
        let path = try ChildProcess.executable("docksim").deletingLastPathComponent().appendingPathComponent("libdockd-uvc-preload.so").path
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
        func symbol<T>(_ name: String, as type: T.Type) -> T { unsafeBitCast(dlsym(handle, name), to: type) }
        open = symbol("open", as: Open.self)
        ioctl = symbol("ioctl", as: Ioctl.self)
        mmap = symbol("mmap", as: Map.self)
        munmap = symbol("munmap", as: Unmap.self)
        poll = symbol("poll", as: Poll.self)
        close = symbol("close", as: Close.self)
    }

    /// One ioctl with `bytes` as the struct: the errno (0 on success) and the struct after it.
    func call(_ fd: Int32, _ request: UInt32, _ bytes: [UInt8]) -> (errno: Int32, bytes: [UInt8]) {
        var image = bytes
        let result = image.withUnsafeMutableBytes { ioctl(fd, UInt(request), $0.baseAddress) }
        return (result == 0 ? 0 : errno, image)
    }

    deinit { dlclose(handle) }
}

/// The emulated webcam's video through the real path — docksim as a process, the preload
/// library's calls — as a V4L2 program streams: negotiation, buffers requested, mapped, queued
/// and dequeued with their timestamps and sequence numbers, `poll`, a blocking `DQBUF`, a second
/// open that may set controls but not stream, and each mistake with the errno uvcvideo gives.
@Suite(.serialized) struct WebcamVideoTests {
    static func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    static func monotonicNow() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    @Test func aProgramStreamsFramesByMappedBuffers() throws {
        let library = try PreloadLibrary()
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let base = "\(directory)/webcam-video-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let device = base + ".video", frameLog = base + ".frames"
        defer { unlink(frameLog) }
        let docksim = try ChildProcess(
            "docksim", ["--protocol", "uvc", "--model", "obsbot-tiny", "--v4l2", device, "--frame-log", frameLog, "--quiet"])
        var fd: Int32 = -1
        #expect(
            Self.waitUntil(60) {
                fd = library.open(device, O_RDWR | O_NONBLOCK)
                return fd >= 0
            }, "the device opens")
        try #require(fd >= 0)

        // What it is, and the format: a format not offered is answered with YUYV, no errno.
        let capability = try V4L2Capability(bytes: library.call(fd, V4L2Request.queryCapability, [UInt8](repeating: 0, count: 104)).bytes)
        #expect(capability.deviceCapabilities & 0x0400_0001 == 0x0400_0001, "video capture and streaming")
        let nv12 = library.call(fd, V4L2Request.setFormat, V4L2PixelFormat(width: 640, height: 360, pixelFormat: V4L2Capture.nv12).bytes)
        #expect(nv12.errno == 0)
        #expect(try V4L2PixelFormat(bytes: nv12.bytes).pixelFormat == V4L2Capture.yuyv)
        #expect(library.call(fd, V4L2Request.streamOn, V4L2Integer.image(1)).errno == LinuxErrno.invalid, "STREAMON without buffers")

        // Buffers: requested, each queried and mapped; a bad index and a private mapping refused.
        let given = library.call(fd, V4L2Request.requestBuffers, V4L2RequestBuffers(count: 4).bytes)
        #expect(given.errno == 0)
        #expect(try V4L2RequestBuffers(bytes: given.bytes).count == 4)
        #expect(library.call(fd, V4L2Request.queryBuffer, V4L2Buffer(index: 4).bytes).errno == LinuxErrno.invalid, "index past the last")
        #expect(library.call(fd, V4L2Request.queueBuffer, V4L2Buffer(index: 9).bytes).errno == LinuxErrno.invalid)
        var mappings: [(UnsafeMutableRawPointer, Int)] = []
        for index in 0..<4 {
            let record = try V4L2Buffer(bytes: library.call(fd, V4L2Request.queryBuffer, V4L2Buffer(index: UInt32(index)).bytes).bytes)
            #expect(record.length == 460_800)
            let mapped = library.mmap(nil, Int(record.length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, Int(record.offset))
            let address = try #require(mapped == MAP_FAILED ? nil : mapped)
            mappings.append((address, Int(record.length)))
        }
        let privateMapping = library.mmap(nil, 460_800, PROT_READ, MAP_PRIVATE, fd, 0)
        #expect(privateMapping == MAP_FAILED && errno == EINVAL, "a private mapping of a buffer")
        let mappedFlags = try V4L2Buffer(bytes: library.call(fd, V4L2Request.queryBuffer, V4L2Buffer(index: 2).bytes).bytes).flags
        #expect(mappedFlags.contains(.mapped))

        // A second open: controls yes, streaming no.
        let other = library.open(device, O_RDWR | O_NONBLOCK)
        try #require(other >= 0)
        #expect(library.call(other, V4L2Request.requestBuffers, V4L2RequestBuffers(count: 2).bytes).errno == LinuxErrno.busy)
        #expect(library.call(other, V4L2Request.dequeueBuffer, V4L2Buffer(index: 0).bytes).errno == LinuxErrno.busy)
        let pan = library.call(other, V4L2Request.getControl, V4L2Control.encode(id: V4L2ControlID.panAbsolute, value: 0))
        #expect(pan.errno == 0, "another open reads the controls while one streams")

        for index in 0..<4 { #expect(library.call(fd, V4L2Request.queueBuffer, V4L2Buffer(index: UInt32(index)).bytes).errno == 0) }
        let startedAt = Self.monotonicNow()
        #expect(library.call(fd, V4L2Request.streamOn, V4L2Integer.image(1)).errno == 0)

        // poll wakes for the first frame; DQBUF gives it with its timestamp and number.
        var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(library.poll(&wanted, 1, 2000) == 1 && wanted.revents & Int16(POLLIN) != 0, "readable when a frame waits")
        let first = library.call(fd, V4L2Request.dequeueBuffer, V4L2Buffer(index: 0).bytes)
        #expect(first.errno == 0)
        let frame = try V4L2Buffer(bytes: first.bytes)
        #expect(frame.sequence == 0 && frame.bytesUsed == 460_800 && frame.index == 0, "\(frame)")
        #expect(frame.flags.contains(.timestampMonotonic) && frame.flags.contains(.mapped))
        let stamp = Duration.seconds(frame.timestampSeconds) + .microseconds(frame.timestampMicroseconds)
        #expect(stamp > startedAt && stamp <= Self.monotonicNow(), "captured after STREAMON, on CLOCK_MONOTONIC")

        // Its pixels are the test pattern at the camera's pose (0, 0), outside the person docksim
        // says it drew — read from the mapping, no copy in between.
        let logged = try #require(
            Self.frameLine(frameLog, timestampMicroseconds: frame.timestampSeconds * 1_000_000 + frame.timestampMicroseconds))
        var renderer = VideoRenderer(footage: .testPattern)
        renderer.render(
            VideoScene(
                captureTime: .zero, yawRadians: 0, pitchRadians: 0,
                camera: CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9)),
            width: 640, height: 360)
        var expected = [UInt8](repeating: 0, count: 460_800)
        expected.withUnsafeMutableBytes { renderer.packYUYV(into: $0) }
        let received = [UInt8](UnsafeRawBufferPointer(start: mappings[0].0, count: 460_800))
        #expect(library.call(fd, V4L2Request.queueBuffer, V4L2Buffer(index: 0).bytes).errno == 0)
        var compared = 0, differing = 0
        for row in 0..<360 {
            for column in 0..<640 where !logged.covers(x: Double(column) + 0.5, y: Double(row) + 0.5, margin: 2) {
                let at = (row * 640 + column) * 2
                compared += 1
                if received[at] != expected[at] { differing += 1 }
            }
        }
        #expect(compared > 150_000 && differing == 0, "\(differing) of \(compared) luma samples differ from the pattern")

        // A blocking DQBUF waits for the next frame; the numbers follow on, each frame's timestamp
        // its number of intervals after the first (a frame that fell due while the program held
        // every buffer was dropped, and its number skipped — as a camera does).
        _ = fcntl(fd, F_SETFL, O_RDWR)
        var sequences: [UInt32] = [0]
        var stamps: [Duration] = [stamp]
        for _ in 0..<5 {
            let reply = library.call(fd, V4L2Request.dequeueBuffer, V4L2Buffer(index: 0).bytes)
            #expect(reply.errno == 0)
            let buffer = try V4L2Buffer(bytes: reply.bytes)
            sequences.append(buffer.sequence)
            stamps.append(.seconds(buffer.timestampSeconds) + .microseconds(buffer.timestampMicroseconds))
            #expect(library.call(fd, V4L2Request.queueBuffer, V4L2Buffer(index: buffer.index).bytes).errno == 0)
        }
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "\(sequences)")
        // The period is UVC's, in 100 ns units: 333 333 of them, 33 333 300 ns (not a third of
        // 100 ms, which drifts 33 ns a frame: 2.6 µs by frame 68, where a loaded machine's test
        // dequeued, the drops skipping the numbers between).
        for (sequence, stamp) in zip(sequences, stamps) {
            let expected = stamps[0] + .nanoseconds(33_333_300) * Int(sequence)
            #expect(abs((stamp - expected) / .microseconds(1)) <= 2, "frame \(sequence) at \(stamp), \(expected) expected")
        }

        // STREAMOFF: DQBUF is EINVAL, poll says POLLERR; closing gives the stream to the other open.
        #expect(library.call(fd, V4L2Request.streamOff, V4L2Integer.image(1)).errno == 0)
        #expect(library.call(fd, V4L2Request.dequeueBuffer, V4L2Buffer(index: 0).bytes).errno == LinuxErrno.invalid)
        wanted.revents = 0
        #expect(library.poll(&wanted, 1, 100) == 1 && wanted.revents & Int16(POLLERR) != 0)
        for (address, length) in mappings { #expect(library.munmap(address, length) == 0) }
        #expect(library.close(fd) == 0)
        #expect(
            Self.waitUntil(60) { library.call(other, V4L2Request.requestBuffers, V4L2RequestBuffers(count: 2).bytes).errno == 0 },
            "the stream is free once the first open closed")

        // docksim gone: the device answers ENODEV, as an unplugged camera does.
        docksim.process.terminate()
        docksim.process.waitUntilExit()
        #expect(library.call(other, V4L2Request.getFormat, V4L2PixelFormat(width: 0, height: 0, pixelFormat: 0).bytes).errno == ENODEV)
        _ = library.close(other)
    }

    /// O_NONBLOCK given to open() is honoured as a driver honours it: with every buffer held by
    /// the program (none queued, so no frame can be filled), DQBUF fails at once with EAGAIN —
    /// where a blocking open's DQBUF would wait for a frame — and the descriptor's flags say so.
    @Test(.timeLimit(.minutes(1))) func nonBlockingGivenAtOpenIsHonoured() throws {
        let library = try PreloadLibrary()
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let device = "\(directory)/webcam-nonblock-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).video"
        let docksim = try ChildProcess("docksim", ["--protocol", "uvc", "--v4l2", device, "--quiet"])
        defer {
            docksim.process.terminate()
            docksim.process.waitUntilExit()
        }
        var fd: Int32 = -1
        #expect(
            Self.waitUntil(10) {
                fd = library.open(device, O_RDWR | O_NONBLOCK)
                return fd >= 0
            }, "the device opens")
        try #require(fd >= 0)
        defer { _ = library.close(fd) }
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0, "the descriptor is non-blocking")
        #expect(library.call(fd, V4L2Request.requestBuffers, V4L2RequestBuffers(count: 2).bytes).errno == 0)
        #expect(library.call(fd, V4L2Request.streamOn, V4L2Integer.image(1)).errno == 0)
        #expect(library.call(fd, V4L2Request.dequeueBuffer, V4L2Buffer(index: 0).bytes).errno == LinuxErrno.again)
        // And a blocking open stays blocking.
        let blocking = library.open(device, O_RDWR)
        try #require(blocking >= 0)
        #expect(fcntl(blocking, F_GETFL) & O_NONBLOCK == 0)
        _ = library.close(blocking)
    }

    /// The webcam in a scenario's room streams the room: its frames show the scenario's person
    /// where the scenario puts it at each frame's capture time (docksim's frame log says where it
    /// stood and where it was drawn), and the frames keep coming while the world runs.
    @Test func theWebcamInTheRoomStreamsItsPeople() throws {
        let library = try PreloadLibrary()
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let base = "\(directory)/webcam-room-video-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let device = base + ".video", frameLog = base + ".frames", scenario = base + ".json"
        try #"""
        {"name": "webcam-video", "duration_s": 4, "seed": 3,
         "subjects": [{"id": 1, "kind": "person", "primary": true,
                       "path": {"waypoints": [{"t_s": 0, "x_m": -1, "y_m": 3}, {"t_s": 4, "x_m": 1, "y_m": 3}]}}]}
        """#.write(toFile: scenario, atomically: true, encoding: .utf8)
        defer {
            unlink(scenario)
            unlink(frameLog)
        }
        let docksim = try ChildProcess(
            "docksim",
            ["--protocol", "uvc", "--model", "generic", "--v4l2", device, "--scenario", scenario, "--frame-log", frameLog, "--quiet"])
        var fd: Int32 = -1
        #expect(
            Self.waitUntil(60) {
                fd = library.open(device, O_RDWR)
                return fd >= 0
            }, "the device opens")
        try #require(fd >= 0)
        #expect(library.call(fd, V4L2Request.requestBuffers, V4L2RequestBuffers(count: 2).bytes).errno == 0)
        for index in 0..<2 { #expect(library.call(fd, V4L2Request.queueBuffer, V4L2Buffer(index: UInt32(index)).bytes).errno == 0) }
        #expect(library.call(fd, V4L2Request.streamOn, V4L2Integer.image(1)).errno == 0)
        var stamps: [Int64] = []
        for _ in 0..<10 {
            let reply = library.call(fd, V4L2Request.dequeueBuffer, V4L2Buffer(index: 0).bytes)  // blocking
            #expect(reply.errno == 0)
            let buffer = try V4L2Buffer(bytes: reply.bytes)
            #expect(buffer.bytesUsed == 460_800)
            stamps.append(buffer.timestampSeconds * 1_000_000 + buffer.timestampMicroseconds)
            #expect(library.call(fd, V4L2Request.queueBuffer, V4L2Buffer(index: buffer.index).bytes).errno == 0)
        }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        let text = try String(contentsOfFile: frameLog, encoding: .utf8)
        var drawn = 0
        for line in text.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let stamp = (object["timestamp_us"] as? NSNumber)?.int64Value, stamps.contains(stamp),
                let people = object["people"] as? [[String: Any]], let person = people.first,
                let x = person["x_m"] as? Double, let rect = person["rect_px"] as? [Double], rect.count == 4
            else { continue }
            drawn += 1
            // Walking from x = −1 m to 1 m, 3 m ahead, with the camera at rest: left of centre
            // while x < 0, right of it after.
            let centre = rect[0] + rect[2] / 2
            #expect(x < 0 ? centre < 320 : centre >= 320, "x \(x) m drawn centred at \(centre) px")
        }
        #expect(drawn == 10, "each dequeued frame is one docksim drew with the person in it")
        _ = library.close(fd)
        docksim.process.terminate()
        docksim.process.waitUntilExit()
    }

    /// Where docksim says it drew a person in the frame of this timestamp.
    struct LoggedFrame {
        var rectangles: [(x: Double, y: Double, width: Double, height: Double)]
        func covers(x: Double, y: Double, margin: Double) -> Bool {
            rectangles.contains {
                x >= $0.x - margin && x <= $0.x + $0.width + margin && y >= $0.y - margin && y <= $0.y + $0.height + margin
            }
        }
    }

    static func frameLine(_ path: String, timestampMicroseconds: Int64) -> LoggedFrame? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                (object["timestamp_us"] as? NSNumber)?.int64Value == timestampMicroseconds
            else { continue }
            let people = object["people"] as? [[String: Any]] ?? []
            return LoggedFrame(
                rectangles: people.compactMap { person in
                    guard let rect = person["rect_px"] as? [Double], rect.count == 4 else { return nil }
                    return (rect[0], rect[1], rect[2], rect[3])
                })
        }
        return nil
    }
}
