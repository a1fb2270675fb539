public import V4L2Protocol

/// A UVC camera's video capture as uvcvideo and videobuf2 present it, answering the capture
/// ioctls (`Protocol/uvc.md` §6): formats and frame sizes to enumerate, the format and frame
/// interval to negotiate, memory-mapped buffers to request, query, queue and dequeue, streaming
/// on and off, and which file handle may do so.
///
/// As uvcvideo does, one open file handle at a time is *privileged*: the first to set a format,
/// a frame interval or an input, or to request buffers; another handle's try gets `EBUSY`, and so
/// does a handle without the privilege that queries, queues or dequeues buffers or starts or
/// stops streaming. Requesting zero buffers, or closing, gives the privilege up (closing also
/// stops streaming and frees the buffers). A format not offered is not refused: the default
/// format is answered in its place, and the nearest size, as the driver does.
///
/// Frames are the shell's to make. While streaming, a frame falls due every frame interval from
/// `STREAMON`: `beginFrame(now:)` takes the oldest queued buffer for it (none queued: the frame
/// is dropped, its sequence number skipped), the shell fills the buffer's memory, and
/// `finishFrame` makes it ready to dequeue, stamped with its capture time on the monotonic clock
/// (`monotonicOrigin` plus the frame's time) and its sequence number.
///
/// Buffers are laid out one after another, each at a page-aligned offset, as videobuf2 lays them
/// out for `mmap`: the shell backs them with one shared memory region of `allocationLength` bytes
/// (generation `allocationGeneration`), passed to the program that requested them.
public struct UVCVideoStream: Sendable {
    /// The formats offered.
    public let formats: [UVCVideoFormat]
    /// The memory page size buffers are aligned to.
    public let pageSize: Int
    /// The host's `CLOCK_MONOTONIC` at the stream's time zero, for buffer timestamps.
    public var monotonicOrigin: Duration = .zero
    /// When set, buffers are stamped on another clock, as a driver on `CLOCK_REALTIME` would: this
    /// much added to each monotonic stamp (`CLOCK_REALTIME` minus `CLOCK_MONOTONIC`), and the
    /// flags name no clock (`V4L2_BUF_FLAG_TIMESTAMP_UNKNOWN`) instead of the monotonic one.
    public var otherClockOffset: Duration?

    /// The format in use (an index into `formats`).
    public private(set) var formatIndex = 0
    /// The frame size in use (an index into the format's sizes).
    public private(set) var frameSizeIndex = 0
    /// The frame interval in use, 100 ns units.
    public private(set) var interval: UInt32
    /// The privileged file handle, if one is.
    public private(set) var owner: Int?
    /// Whether frames are being captured.
    public private(set) var isStreaming = false
    /// Counts each allocation of buffers; the shell's memory for an older one is stale.
    public private(set) var allocationGeneration = 0
    /// Frames captured since `STREAMON` (their sequence numbers run from 0).
    public private(set) var framesCaptured: UInt32 = 0
    /// Frames that fell due with no buffer queued.
    public private(set) var framesDropped = 0

    private enum BufferState: Hashable, Sendable { case dequeued, queued, filling, done }
    private struct Buffer: Hashable, Sendable {
        var state = BufferState.dequeued
        var mappings = 0
        var bytesUsed = 0
        var sequence: UInt32 = 0
        var captureTime = Duration.zero
        var isDamaged = false
    }
    private var buffers: [Buffer] = []
    private var bufferLength = 0
    private var queued: [Int] = []
    private var done: [Int] = []
    private var nextFrameTime = Duration.zero

    /// The most buffers one request gets (videobuf2's `VB2_MAX_FRAME` in Linux 6.1).
    public static let maximumBuffers = 32

    /// A stream of `formats`, at the first format's first size and interval.
    public init(formats: [UVCVideoFormat] = UVCVideoFormat.emulated, pageSize: Int = 4096) {
        precondition(!formats.isEmpty && pageSize > 0, "a video stream needs a format and a page size")
        self.formats = formats
        self.pageSize = pageSize
        interval = formats[0].frameSizes[0].intervals[0]
    }

    /// The format in use.
    public var format: UVCVideoFormat { formats[formatIndex] }
    /// The frame size in use.
    public var frameSize: UVCVideoFrameSize { format.frameSizes[frameSizeIndex] }
    /// The frame interval in use.
    public var frameInterval: Duration { .nanoseconds(Int64(interval) * 100) }
    /// How many buffers are allocated.
    public var bufferCount: Int { buffers.count }
    /// The bytes the shell's memory for the buffers must hold (0: none allocated).
    public var allocationLength: Int { buffers.count * alignedBufferLength }
    /// How many filled buffers wait to be dequeued by `fileHandle` (none unless it is the owner).
    public func readyCount(for fileHandle: Int) -> Int { fileHandle == owner ? done.count : 0 }
    /// When the next frame falls due, while streaming.
    public var nextFrameDue: Duration? { isStreaming ? nextFrameTime : nil }

    private var alignedBufferLength: Int { (bufferLength + pageSize - 1) / pageSize * pageSize }

    // MARK: Frames

    /// A frame to fill: which buffer, where its memory is, and what the frame is.
    public struct FrameSlot: Hashable, Sendable {
        /// The allocation the buffer belongs to.
        public var generation: Int
        /// The buffer's index.
        public var bufferIndex: Int
        /// The buffer's offset in the allocation, bytes.
        public var offset: Int
        /// The buffer's size, bytes.
        public var length: Int
        /// The frame's sequence number.
        public var sequence: UInt32
        /// The frame's capture time, on the stream's clock.
        public var captureTime: Duration
        /// The format to fill it in.
        public var pixelFormat: UInt32
        /// The frame's width, pixels.
        public var width: Int
        /// The frame's height, pixels.
        public var height: Int
    }

    /// The frame due by `now`, if one is: the oldest queued buffer, taken to be filled. Frames
    /// that fell due earlier (the shell was late) are dropped, as are frames with no buffer
    /// queued; each still takes a sequence number.
    public mutating func beginFrame(now: Duration) -> FrameSlot? {
        guard isStreaming, now >= nextFrameTime else { return nil }
        let period = frameInterval
        // Frames missed altogether: counted, not made.
        let behind = Int((now - nextFrameTime) / period)
        if behind > 0 {
            framesCaptured &+= UInt32(clamping: behind)
            framesDropped += behind
            nextFrameTime += period * behind
        }
        let time = nextFrameTime
        let sequence = framesCaptured
        framesCaptured &+= 1
        nextFrameTime += period
        guard !queued.isEmpty else {
            framesDropped += 1
            return nil
        }
        let index = queued.removeFirst()
        buffers[index].state = .filling
        let size = frameSize
        return FrameSlot(
            generation: allocationGeneration, bufferIndex: index, offset: index * alignedBufferLength, length: bufferLength,
            sequence: sequence, captureTime: time, pixelFormat: format.pixelFormat, width: size.width, height: size.height)
    }

    /// The shell has filled `slot`'s buffer with `bytesUsed` bytes (`isDamaged`: flag it
    /// `ERROR`). False when the buffer is no longer the slot's (streaming stopped or the buffers
    /// were freed meanwhile): nothing changes.
    @discardableResult
    public mutating func finishFrame(_ slot: FrameSlot, bytesUsed: Int, isDamaged: Bool = false) -> Bool {
        guard slot.generation == allocationGeneration, buffers.indices.contains(slot.bufferIndex),
            buffers[slot.bufferIndex].state == .filling
        else { return false }
        buffers[slot.bufferIndex].state = .done
        buffers[slot.bufferIndex].bytesUsed = min(max(bytesUsed, 0), bufferLength)
        buffers[slot.bufferIndex].sequence = slot.sequence
        buffers[slot.bufferIndex].captureTime = slot.captureTime
        buffers[slot.bufferIndex].isDamaged = isDamaged
        done.append(slot.bufferIndex)
        return true
    }

    /// A file handle closed: the owner's buffers are freed and streaming stops.
    public mutating func closed(fileHandle: Int) {
        guard owner == fileHandle else { return }
        stopStreaming()
        freeBuffers()
        owner = nil
    }

    // MARK: Requests

    /// Whether `request` is one of the capture ioctls (or the emulation's own for them).
    public static func handles(_ request: UInt32) -> Bool {
        switch request {
        case V4L2Request.enumerateFormat, V4L2Request.getFormat, V4L2Request.setFormat, V4L2Request.tryFormat,
            V4L2Request.requestBuffers, V4L2Request.queryBuffer, V4L2Request.queueBuffer, V4L2Request.dequeueBuffer,
            V4L2Request.exportBuffer, V4L2Request.createBuffers, V4L2Request.streamOn, V4L2Request.streamOff,
            V4L2Request.getParameters, V4L2Request.setParameters, V4L2Request.enumerateInput, V4L2Request.getInput,
            V4L2Request.setInput, V4L2Request.enumerateFrameSizes, V4L2Request.enumerateFrameIntervals,
            V4L2Request.getSelection, V4L2Request.emulatedMap, V4L2Request.emulatedUnmap:
            true
        default: false
        }
    }

    /// Answers one capture request from `fileHandle` at `now`.
    public mutating func handle(_ request: V4L2Frame.Request, fileHandle: Int, now: Duration) -> V4L2Frame.Reply {
        func reply(_ errno: Int32, _ bytes: [UInt8]? = nil) -> V4L2Frame.Reply {
            V4L2Frame.Reply(request: request.request, errno: errno, bytes: bytes ?? request.bytes)
        }
        let bytes = request.bytes
        switch request.request {
        case V4L2Request.enumerateFormat:
            guard var asked = try? V4L2FormatDescription(bytes: bytes) else { return reply(LinuxErrno.invalid) }
            guard asked.type == V4L2Capture.videoCaptureType, Int(asked.index) < formats.count else { return reply(LinuxErrno.invalid) }
            let offered = formats[Int(asked.index)]
            asked.flags = offered.isCompressed ? V4L2Capture.compressedFormatFlag : 0
            asked.description = offered.description
            asked.pixelFormat = offered.pixelFormat
            return reply(0, asked.bytes)
        case V4L2Request.getFormat:
            guard let asked = try? V4L2PixelFormat(bytes: bytes), asked.type == V4L2Capture.videoCaptureType else {
                return reply(LinuxErrno.invalid)
            }
            return reply(0, image(formatIndex: formatIndex, sizeIndex: frameSizeIndex))
        case V4L2Request.tryFormat, V4L2Request.setFormat:
            guard let asked = try? V4L2PixelFormat(bytes: bytes), asked.type == V4L2Capture.videoCaptureType else {
                return reply(LinuxErrno.invalid)
            }
            let (chosenFormat, chosenSize) = closest(to: asked)
            if request.request == V4L2Request.setFormat {
                guard acquire(fileHandle) else { return reply(LinuxErrno.busy) }
                guard buffers.isEmpty else { return reply(LinuxErrno.busy) }
                formatIndex = chosenFormat
                frameSizeIndex = chosenSize
                interval = formats[chosenFormat].frameSizes[chosenSize].intervals[0]
            }
            return reply(0, image(formatIndex: chosenFormat, sizeIndex: chosenSize))
        case V4L2Request.getParameters:
            guard let asked = try? V4L2StreamParameters(bytes: bytes), asked.type == V4L2Capture.videoCaptureType else {
                return reply(LinuxErrno.invalid)
            }
            return reply(0, parameters(interval))
        case V4L2Request.setParameters:
            guard let asked = try? V4L2StreamParameters(bytes: bytes), asked.type == V4L2Capture.videoCaptureType else {
                return reply(LinuxErrno.invalid)
            }
            guard acquire(fileHandle) else { return reply(LinuxErrno.busy) }
            guard !isStreaming else { return reply(LinuxErrno.busy) }
            // The nearest interval the frame size runs at (a zero denominator reads as the
            // longest interval, as uvcvideo's conversion reads it).
            let wanted: Double = asked.denominator == 0 ? .infinity : Double(asked.numerator) / Double(asked.denominator) * 1e7
            interval = frameSize.intervals.min { abs(Double($0) - wanted) < abs(Double($1) - wanted) } ?? interval
            return reply(0, parameters(interval))
        case V4L2Request.enumerateFrameSizes:
            guard var asked = try? V4L2FrameSize(bytes: bytes),
                let offered = formats.first(where: { $0.pixelFormat == asked.pixelFormat }),
                Int(asked.index) < offered.frameSizes.count
            else { return reply(LinuxErrno.invalid) }
            let size = offered.frameSizes[Int(asked.index)]
            asked.type = V4L2Capture.discrete
            asked.width = UInt32(size.width)
            asked.height = UInt32(size.height)
            return reply(0, asked.bytes)
        case V4L2Request.enumerateFrameIntervals:
            guard var asked = try? V4L2FrameInterval(bytes: bytes),
                let offered = formats.first(where: { $0.pixelFormat == asked.pixelFormat }),
                let size = offered.frameSizes.first(where: { $0.width == Int(asked.width) && $0.height == Int(asked.height) }),
                Int(asked.index) < size.intervals.count
            else { return reply(LinuxErrno.invalid) }
            asked.type = V4L2Capture.discrete
            (asked.numerator, asked.denominator) = frameIntervalFraction(size.intervals[Int(asked.index)])
            return reply(0, asked.bytes)
        case V4L2Request.enumerateInput:
            guard let asked = try? V4L2Input(bytes: bytes), asked.index == 0 else { return reply(LinuxErrno.invalid) }
            return reply(0, V4L2Input(index: 0, name: "Camera 1", type: V4L2Capture.cameraInput).bytes)
        case V4L2Request.getInput:
            return reply(0, V4L2Integer.image(0))
        case V4L2Request.setInput:
            guard acquire(fileHandle) else { return reply(LinuxErrno.busy) }
            return reply(V4L2Integer.value(bytes) == 0 ? 0 : LinuxErrno.invalid)
        case V4L2Request.getSelection:
            guard var asked = try? V4L2Selection(bytes: bytes), asked.type == V4L2Capture.videoCaptureType,
                asked.target == V4L2Capture.cropDefaultTarget || asked.target == V4L2Capture.cropBoundsTarget
            else { return reply(LinuxErrno.invalid) }
            (asked.left, asked.top) = (0, 0)
            (asked.width, asked.height) = (UInt32(frameSize.width), UInt32(frameSize.height))
            return reply(0, asked.bytes)
        case V4L2Request.requestBuffers:
            return requestBuffers(bytes, fileHandle: fileHandle, reply: reply)
        case V4L2Request.queryBuffer, V4L2Request.queueBuffer, V4L2Request.dequeueBuffer:
            return bufferRequest(request.request, bytes, fileHandle: fileHandle, reply: reply)
        case V4L2Request.streamOn, V4L2Request.streamOff:
            guard owner == fileHandle else { return reply(LinuxErrno.busy) }
            guard V4L2Integer.value(bytes) == V4L2Capture.videoCaptureType else { return reply(LinuxErrno.invalid) }
            if request.request == V4L2Request.streamOff {
                stopStreaming()
                return reply(0)
            }
            guard !buffers.isEmpty else { return reply(LinuxErrno.invalid) }
            if !isStreaming {
                isStreaming = true
                framesCaptured = 0
                nextFrameTime = now + frameInterval
            }
            return reply(0)
        case V4L2Request.emulatedMap:
            guard owner == fileHandle, bytes.count >= 24 else { return reply(LinuxErrno.invalid) }
            let offset = Int(bytes.int64LE(at: 0)), length = Int(bytes.int64LE(at: 8))
            let protection = bytes.uint32LE(at: 16), flags = bytes.uint32LE(at: 20)
            // mmap(2) of a capture buffer: shared, readable, at a buffer's offset, no longer than it.
            guard flags & 0x01 != 0, protection & 0x1 != 0, alignedBufferLength > 0, offset % alignedBufferLength == 0,
                buffers.indices.contains(offset / alignedBufferLength), length > 0, length <= alignedBufferLength
            else { return reply(LinuxErrno.invalid) }
            buffers[offset / alignedBufferLength].mappings += 1
            return reply(0)
        case V4L2Request.emulatedUnmap:
            guard bytes.count >= 8, alignedBufferLength > 0 else { return reply(LinuxErrno.invalid) }
            let offset = Int(bytes.int64LE(at: 0))
            if owner == fileHandle, offset % alignedBufferLength == 0, buffers.indices.contains(offset / alignedBufferLength) {
                buffers[offset / alignedBufferLength].mappings = max(0, buffers[offset / alignedBufferLength].mappings - 1)
            }
            return reply(0)
        default:  // EXPBUF and CREATE_BUFS: uvcvideo has them, the emulation does not
            return reply(LinuxErrno.notTTY)
        }
    }

    /// The poll state of `fileHandle`: 1 when a filled buffer waits, 2 when polling for frames
    /// is an error (it is not streaming, or not the owner), 0 while frames are awaited.
    public func pollState(for fileHandle: Int) -> UInt32 {
        guard fileHandle == owner, isStreaming else { return 2 }
        return done.isEmpty ? 0 : 1
    }

    // MARK: Helpers

    private mutating func acquire(_ fileHandle: Int) -> Bool {
        if owner == nil { owner = fileHandle }
        return owner == fileHandle
    }

    private mutating func stopStreaming() {
        isStreaming = false
        queued = []
        done = []
        for index in buffers.indices { buffers[index].state = .dequeued }
    }

    private mutating func freeBuffers() {
        if !buffers.isEmpty { allocationGeneration += 1 }
        buffers = []
        bufferLength = 0
    }

    private mutating func requestBuffers(
        _ bytes: [UInt8], fileHandle: Int, reply: (Int32, [UInt8]?) -> V4L2Frame.Reply
    ) -> V4L2Frame.Reply {
        guard var asked = try? V4L2RequestBuffers(bytes: bytes) else { return reply(LinuxErrno.invalid, nil) }
        guard acquire(fileHandle) else { return reply(LinuxErrno.busy, nil) }
        // Memory-mapped buffers only: the emulation cannot reach a program's own memory (uvcvideo
        // also takes USERPTR and DMABUF).
        guard asked.type == V4L2Capture.videoCaptureType, asked.memory == V4L2Capture.memoryMapped else {
            return reply(LinuxErrno.invalid, nil)
        }
        guard !isStreaming else { return reply(LinuxErrno.busy, nil) }
        freeBuffers()
        asked.capabilities = V4L2Capture.supportsMemoryMapped | 0x10  // V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS
        if asked.count == 0 {
            owner = nil  // zero buffers gives the privilege up
            return reply(0, asked.bytes)
        }
        let count = min(Int(asked.count), Self.maximumBuffers)
        bufferLength = format.maximumFrameBytes(frameSize)
        buffers = Array(repeating: Buffer(), count: count)
        allocationGeneration += 1
        asked.count = UInt32(count)
        return reply(0, asked.bytes)
    }

    private mutating func bufferRequest(
        _ request: UInt32, _ bytes: [UInt8], fileHandle: Int, reply: (Int32, [UInt8]?) -> V4L2Frame.Reply
    ) -> V4L2Frame.Reply {
        guard owner == fileHandle else { return reply(LinuxErrno.busy, nil) }
        guard let asked = try? V4L2Buffer(bytes: bytes), asked.type == V4L2Capture.videoCaptureType else {
            return reply(LinuxErrno.invalid, nil)
        }
        switch request {
        case V4L2Request.queryBuffer:
            guard buffers.indices.contains(Int(asked.index)) else { return reply(LinuxErrno.invalid, nil) }
            return reply(0, record(Int(asked.index)).bytes)
        case V4L2Request.queueBuffer:
            guard asked.memory == V4L2Capture.memoryMapped, buffers.indices.contains(Int(asked.index)),
                buffers[Int(asked.index)].state == .dequeued
            else { return reply(LinuxErrno.invalid, nil) }
            buffers[Int(asked.index)].state = .queued
            buffers[Int(asked.index)].bytesUsed = 0
            queued.append(Int(asked.index))
            return reply(0, record(Int(asked.index)).bytes)
        default:  // DQBUF
            guard asked.memory == V4L2Capture.memoryMapped, isStreaming else { return reply(LinuxErrno.invalid, nil) }
            guard !done.isEmpty else { return reply(LinuxErrno.again, nil) }
            let index = done.removeFirst()
            buffers[index].state = .dequeued
            return reply(0, record(index).bytes)
        }
    }

    /// A buffer's record as the driver fills `struct v4l2_buffer` in.
    private func record(_ index: Int) -> V4L2Buffer {
        let buffer = buffers[index]
        var record = V4L2Buffer(index: UInt32(index))
        record.flags = otherClockOffset == nil ? [.timestampMonotonic, .timestampStartOfExposure] : [.timestampStartOfExposure]
        if buffer.mappings > 0 { record.flags.insert(.mapped) }
        switch buffer.state {
        case .queued, .filling: record.flags.insert(.queued)
        case .done: record.flags.insert(.done)
        case .dequeued: break
        }
        if buffer.isDamaged, buffer.state != .queued { record.flags.insert(.error) }
        record.field = V4L2Capture.fieldNone
        if buffer.state == .done || buffer.state == .dequeued {
            record.bytesUsed = UInt32(buffer.bytesUsed)
            record.sequence = buffer.sequence
            if buffer.bytesUsed > 0 {
                let stamp = monotonicOrigin + buffer.captureTime + (otherClockOffset ?? .zero)
                let (seconds, attoseconds) = stamp.components
                record.timestampSeconds = seconds
                record.timestampMicroseconds = attoseconds / 1_000_000_000_000
            }
        }
        record.offset = UInt32(index * alignedBufferLength)
        record.length = UInt32(bufferLength)
        return record
    }

    /// The nearest offer to what `asked` asks: its format if offered (else the default), and of
    /// that format's sizes the one whose non-overlapping area with the asked size is smallest.
    private func closest(to asked: V4L2PixelFormat) -> (format: Int, size: Int) {
        let format = formats.firstIndex { $0.pixelFormat == asked.pixelFormat } ?? 0
        let (width, height) = (Int(asked.width), Int(asked.height))
        var best = 0, bestDistance = Int.max
        for (index, size) in formats[format].frameSizes.enumerated() {
            let overlap = min(size.width, width) * min(size.height, height)
            let distance = size.width * size.height + width * height - 2 * overlap
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return (format, best)
    }

    private func image(formatIndex: Int, sizeIndex: Int) -> [UInt8] {
        let format = formats[formatIndex], size = format.frameSizes[sizeIndex]
        var image = V4L2PixelFormat(width: UInt32(size.width), height: UInt32(size.height), pixelFormat: format.pixelFormat)
        image.bytesPerLine = UInt32(format.bytesPerLine(width: size.width))
        image.sizeImage = UInt32(format.maximumFrameBytes(size))
        image.colorspace = V4L2Capture.colorspaceSRGB
        return image.bytes
    }

    private func parameters(_ interval: UInt32) -> [UInt8] {
        let (numerator, denominator) = frameIntervalFraction(interval)
        var answer = V4L2StreamParameters(numerator: numerator, denominator: denominator)
        answer.capability = V4L2Capture.timePerFrameCapability
        return answer.bytes
    }
}

extension [UInt8] {
    fileprivate func uint32LE(at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }

    fileprivate func int64LE(at offset: Int) -> Int64 {
        Int64(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(self[offset + $1]) << (8 * $1) })
    }
}
