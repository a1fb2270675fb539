import CFrameKernel
import CJPEGEncoder
import DockSimulator
import DockSockets
import DockSystem
import DockTracking
import DockVocabulary
import Glibc
import V4L2Protocol

/// The emulated webcam's video, on docksim's side of the socket (`Protocol/uvc.md` §6): the
/// shared memory that holds the buffers a program requested (a memory file, passed to it with the
/// `REQBUFS` reply and mapped by it), one counter per open of the device that stands at the
/// number of filled buffers waiting (passed with it too; the program's `poll` waits on it), and
/// the frames themselves — drawn by `VideoRenderer` straight into the buffer's memory as YUYV,
/// or encoded as JPEG.
///
/// Not thread-safe: the threaded server keeps it under its camera's lock, and draws frames
/// outside it through `FrameMaker`.
final class WebcamVideo {
    private var counters: [Int: EventCounter] = [:]
    private var memory: (generation: Int, region: SharedMemory)?
    private let log: (String) -> Void

    init(log: @escaping (String) -> Void) { self.log = log }

    /// A program opened the device as `fileHandle`.
    func opened(_ fileHandle: Int) {
        counters[fileHandle] = try? EventCounter()
    }

    /// `fileHandle` was closed; `stream` is the camera's after it forgot the handle.
    func closed(_ fileHandle: Int, stream: UVCVideoStream) {
        counters[fileHandle] = nil
        if stream.bufferCount == 0 { memory = nil }
    }

    /// The camera answered `request` from `fileHandle` with `reply`; `stream` is its stream now.
    /// Returns the descriptors to send with the reply (after buffers were requested: copies of
    /// the buffers' memory file and of the handle's counter, which the sender closes), and brings
    /// every counter in line.
    func replied(to request: V4L2Frame.Request, with reply: V4L2Frame.Reply, fileHandle: Int, stream: UVCVideoStream) -> [FileDescriptor] {
        defer { updateReadiness(stream) }
        guard request.request == V4L2Request.requestBuffers, reply.errno == 0 else { return [] }
        guard stream.bufferCount > 0 else {
            memory = nil
            return []
        }
        do {
            let region = try SharedMemory(name: "docksim-uvc-buffers", count: stream.allocationLength)
            memory = (stream.allocationGeneration, region)
            guard let counter = counters[fileHandle] else { return [] }
            return [region.descriptor, counter.descriptor].compactMap { descriptor in
                let copy = dup(descriptor.rawValue)
                return copy >= 0 ? FileDescriptor(rawValue: copy) : nil
            }
        } catch {
            log("cannot make the buffers' memory: \(error)")
            return []
        }
    }

    /// The memory of allocation `generation`, if it is the current one.
    func memory(for generation: Int) -> SharedMemory? {
        guard let memory, memory.generation == generation else { return nil }
        return memory.region
    }

    /// Sets each handle's counter to the buffers waiting for it.
    func updateReadiness(_ stream: UVCVideoStream) {
        for (fileHandle, counter) in counters { counter.set(UInt64(stream.readyCount(for: fileHandle))) }
    }
}

/// Draws the webcam's frames (the one thread that draws owns it): renders a scene, writes it into
/// a buffer's memory as YUYV or JPEG, and appends a line for it to the frame log when there is
/// one — what was drawn where, so a check can draw the same frame on its own.
final class FrameMaker {
    private var renderer: VideoRenderer
    private var jpeg: [UInt8] = []
    private let frameLog: UnsafeMutablePointer<FILE>?
    private let corruptEvery: Int?
    /// Frames drawn.
    private(set) var framesDrawn = 0

    /// A maker drawing from `footage`, logging frames to `frameLogPath` when given, damaging every
    /// `corruptEvery`-th Motion-JPEG frame when given.
    init(footage: Footage, frameLogPath: String?, corruptEvery: Int?) throws(SystemError) {
        renderer = VideoRenderer(footage: footage)
        self.corruptEvery = corruptEvery
        if let frameLogPath {
            guard let file = fopen(frameLogPath, "w") else { throw SystemError("fopen", frameLogPath) }
            frameLog = file
        } else {
            frameLog = nil
        }
    }

    deinit { if let frameLog { fclose(frameLog) } }

    /// Draws `scene` into `slot`'s buffer in `memory`; returns the bytes used and whether the
    /// frame was damaged on purpose. `monotonicOrigin` turns the capture time into the buffer's
    /// timestamp for the log.
    func draw(_ scene: VideoScene, into slot: UVCVideoStream.FrameSlot, of memory: SharedMemory, monotonicOrigin: Duration) -> (
        bytesUsed: Int, isDamaged: Bool
    ) {
        let drawn = renderer.render(scene, width: slot.width, height: slot.height)
        let buffer = UnsafeMutableRawBufferPointer(start: memory.base + slot.offset, count: slot.length)
        var bytesUsed = 0
        var isDamaged = false
        if slot.pixelFormat == V4L2Capture.mjpeg {
            bytesUsed = encodeJPEG(into: buffer)
            if let corruptEvery, corruptEvery > 0, Int(slot.sequence) % corruptEvery == corruptEvery - 1, bytesUsed > 64 {
                Self.damage(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytesUsed]), sequence: slot.sequence)
                isDamaged = true
            }
        } else {
            renderer.packYUYV(into: buffer)
            bytesUsed = slot.width * slot.height * 2
        }
        framesDrawn += 1
        if let frameLog {
            log(scene, slot: slot, drawn: drawn, bytesUsed: bytesUsed, isDamaged: isDamaged, origin: monotonicOrigin, to: frameLog)
        }
        return (bytesUsed, isDamaged)
    }

    private func encodeJPEG(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let (y, u, v) = renderer.planes
        let (width, height) = (Int32(renderer.width), Int32(renderer.height))
        return y.withUnsafeBufferPointer { yBytes in
            u.withUnsafeBufferPointer { uBytes in
                v.withUnsafeBufferPointer { vBytes in
                    var canvas = dock_canvas(
                        y: UnsafeMutablePointer(mutating: yBytes.baseAddress), u: UnsafeMutablePointer(mutating: uBytes.baseAddress),
                        v: UnsafeMutablePointer(mutating: vBytes.baseAddress), width: width, height: height)
                    return dock_jpeg_encode(&canvas, 85, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count)
                }
            }
        }
    }

    /// Damages a JPEG as a camera's broken transfer might: everything after its first 64 bytes
    /// (the start marker and the JFIF header survive; the tables, the frame header and the data
    /// do not) is scrambled, so no decoder can read it.
    static func damage(_ bytes: UnsafeMutableRawBufferPointer, sequence: UInt32) {
        var state = UInt32(truncatingIfNeeded: sequence) &* 2_654_435_761 | 1
        for index in 64..<bytes.count {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
    }

    private func log(
        _ scene: VideoScene, slot: UVCVideoStream.FrameSlot, drawn: [VideoRenderer.DrawnPerson], bytesUsed: Int, isDamaged: Bool,
        origin: Duration, to file: UnsafeMutablePointer<FILE>
    ) {
        let stamp = origin + slot.captureTime
        let microseconds = stamp.components.seconds * 1_000_000 + stamp.components.attoseconds / 1_000_000_000_000
        let format = slot.pixelFormat == V4L2Capture.mjpeg ? "MJPG" : "YUYV"
        let people = scene.people.map { person -> String in
            let drawing = drawn.first { $0.subjectIdentifier == person.subjectIdentifier }
            var entry =
                "{\"id\": \(person.subjectIdentifier), \"x_m\": \(person.xMeters), \"y_m\": \(person.yMeters), \"height_m\": \(person.heightMeters)"
            if let drawing {
                entry +=
                    ", \"person\": \(drawing.personIndex), \"frame\": \(drawing.frameIndex), \"flipped\": \(drawing.isFlipped), "
                    + "\"rect_px\": [\(drawing.x), \(drawing.y), \(drawing.width), \(drawing.height)]"
            }
            return entry + "}"
        }
        let line =
            "{\"sequence\": \(slot.sequence), \"timestamp_us\": \(microseconds), \"format\": \"\(format)\", \"width\": \(slot.width), "
            + "\"height\": \(slot.height), \"bytes\": \(bytesUsed), \"damaged\": \(isDamaged), \"yaw_rad\": \(scene.yawRadians), "
            + "\"pitch_rad\": \(scene.pitchRadians), \"hfov_rad\": \(scene.camera.horizontalFieldOfViewRadians), "
            + "\"mirrored\": \(scene.camera.isMirrored), \"mount_height_m\": \(scene.mountHeightMeters), "
            + "\"people\": [\(people.joined(separator: ", "))]}\n"
        fputs(line, file)
        fflush(file)
    }
}

extension Footage {
    /// The footage in directory `path` (`docksim --make-footage`), or the test pattern when
    /// `path` is nil.
    static func load(directory path: String?) throws(FootageError) -> Footage {
        guard let path else { return .testPattern }
        let manifestPath = path + "/" + Footage.manifestName
        guard let data = try? FileContents.read(atPath: manifestPath) else {
            throw FootageError(message: "\(manifestPath): cannot be read (make it with docksim --make-footage \(path))")
        }
        return try Footage.read(manifest: String(decoding: data, as: UTF8.self)) { name in
            guard !name.contains("/") else { return nil }
            return try? FileContents.read(atPath: path + "/" + name)
        }
    }
}
