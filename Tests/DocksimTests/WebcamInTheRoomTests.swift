import DockSockets
import DockSystem
import Foundation
import Glibc
import TestSupport
import Testing
import V4L2Protocol

/// `docksim --protocol uvc --v4l2 PATH --scenario FILE` as a process: the webcam answers framed
/// ioctls on its socket, and the scenario's unplug takes the device away (the connection closes,
/// the socket goes) and puts it back.
@Suite(.serialized, .onTheProcessThreads) struct WebcamInTheRoomTests {
    static func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test func theWebcamAnswersAndIsUnpluggedAndBack() throws {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let base = "\(directory)/webcam-room-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let device = base + ".video", scenario = base + ".json"
        try #"""
        {"name": "webcam-unplug", "duration_s": 3, "seed": 5,
         "subjects": [{"id": 1, "kind": "person", "primary": true,
                       "path": {"waypoints": [{"t_s": 0, "x_m": 0, "y_m": 3}, {"t_s": 3, "x_m": 1, "y_m": 3}]}}],
         "faults": [{"at_s": 1, "kind": "unplug", "duration_s": 1}]}
        """#.write(toFile: scenario, atomically: true, encoding: .utf8)
        defer { unlink(scenario) }
        // What becomes of the device's path, as the kernel reports it in order however late this
        // test looks (a look at the path after the hang-up could come after the re-plug).
        let path = try PathEvents(directory: directory, name: String(device.split(separator: "/").last ?? ""))
        let docksim = try ChildProcess(
            "docksim",
            [
                "--protocol", "uvc", "--model", "obsbot-tiny", "--v4l2", device,
                "--scenario", scenario, "--quiet",
            ])
        // The socket's file is there a moment before it listens: connect until it does.
        var opened: FileDescriptor?
        #expect(
            Self.waitUntil(60) {
                opened = try? UnixSocket.connect(path: device)
                return opened != nil
            }, "the device's socket")
        let connection = try #require(opened)
        defer { connection.close() }
        _ = try connection.write(
            V4L2Frame.Request(
                request: V4L2Request.queryCapability,
                bytes: [UInt8](repeating: 0, count: V4L2Capability.size)
            ).encode())
        var decoder = V4L2Frame.Decoder.replies()
        var replies: [V4L2Frame.Reply] = []
        #expect(
            Self.waitUntil(60) {
                guard (try? Poll.waitForReading([connection], timeout: .milliseconds(10)).isEmpty) == false,
                    case .bytes(let bytes)? = try? connection.read(maximumCount: 4096)
                else { return false }
                replies += (try? decoder.replies(bytes)) ?? []
                return !replies.isEmpty
            })
        let reply = try #require(replies.first)
        #expect(reply.errno == 0)
        #expect(try V4L2Capability(bytes: reply.bytes).card == "OBSBOT Tiny")
        // (The scenario's first second is the test's to connect and be answered in.)
        #expect(path.events(atLeast: 1, withinSeconds: 0) == [.created], "answered before the unplug: \(path.seen)")

        // Unplugged at 1 s: the open device is gone (its connection hangs up) and so is the path.
        #expect(
            Self.waitUntil(60) {
                guard (try? Poll.waitForReading([connection], timeout: .milliseconds(10)).isEmpty) == false else { return false }
                if case .hangUp? = try? connection.read() { return true }
                return false
            }, "the connection closes at the unplug")
        #expect(path.events(atLeast: 3, withinSeconds: 60) == [.created, .removed, .created], "gone at the unplug, back at 2 s")
        let finished = try docksim.finish()
        #expect(finished.status == 0, "\(finished.error)")
        #expect(path.events(atLeast: 4, withinSeconds: 60) == [.created, .removed, .created, .removed], "removed at the end")
        #expect(access(device, F_OK) != 0, "removed at the end")
    }
}

/// The creations and removals of one name in a directory, from inotify(7): each is queued by the
/// kernel as it happens, so they are read in order however late the reader comes.
final class PathEvents {
    enum Event: Equatable { case created, removed }

    private let descriptor: Int32
    private let name: String
    private var pending: [UInt8] = []
    /// Every event of the name read so far.
    private(set) var seen: [Event] = []

    init(directory: String, name: String) throws {
        self.name = name
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, directory, UInt32(IN_CREATE | IN_DELETE)) >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    /// The events of the name once at least `count` have come, or all that came in `seconds`.
    func events(atLeast count: Int, withinSeconds seconds: Double) -> [Event] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        repeat {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = max(0, ContinuousClock.now.duration(to: deadline) / .milliseconds(1))
            if poll(&entry, 1, Int32(left.rounded(.up))) == 1 { read() }
        } while seen.count < count && ContinuousClock.now < deadline
        return seen
    }

    /// Reads what is queued: `struct inotify_event` (wd, mask, cookie, len, then len bytes of name).
    private func read() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return }
        pending += buffer[..<count]
        let header = 16
        while pending.count >= header {
            func word(_ at: Int) -> UInt32 { pending[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
            let mask = word(4), length = Int(word(12))
            guard pending.count >= header + length else { return }
            let text = String(decoding: pending[header..<header + length].prefix { $0 != 0 }, as: UTF8.self)
            pending.removeFirst(header + length)
            guard text == name else { continue }
            if mask & UInt32(IN_CREATE) != 0 { seen.append(.created) }
            if mask & UInt32(IN_DELETE) != 0 { seen.append(.removed) }
        }
    }
}
