import DockSimulator
import Testing
import V4L2Protocol

/// The emulated webcam's video capture answers the capture ioctls as uvcvideo and videobuf2 do:
/// what it offers, what it negotiates, who may stream, the buffers' lifecycle, and the errno
/// of each mistake.
@Suite struct UVCVideoStreamTests {
    /// A camera's stream with a file handle's requests made easy.
    struct Client {
        var camera = UVCCamera(model: UVCCameraModel.named("obsbot-tiny")!)
        var now = Duration.milliseconds(100)

        mutating func ask(_ request: UInt32, _ bytes: [UInt8], handle: Int = 1) -> V4L2Frame.Reply {
            camera.handle(V4L2Frame.Request(request: request, bytes: bytes), now: now, fileHandle: handle)
        }

        mutating func format(_ request: UInt32, width: UInt32, height: UInt32, pixelFormat: UInt32, handle: Int = 1) throws
            -> (errno: Int32, format: V4L2PixelFormat)
        {
            let reply = ask(request, V4L2PixelFormat(width: width, height: height, pixelFormat: pixelFormat).bytes, handle: handle)
            return (reply.errno, try V4L2PixelFormat(bytes: reply.bytes))
        }

        mutating func requestBuffers(_ count: UInt32, memory: UInt32 = V4L2Capture.memoryMapped, handle: Int = 1) throws
            -> (errno: Int32, answer: V4L2RequestBuffers)
        {
            let reply = ask(V4L2Request.requestBuffers, V4L2RequestBuffers(count: count, memory: memory).bytes, handle: handle)
            return (reply.errno, try V4L2RequestBuffers(bytes: reply.bytes))
        }

        mutating func buffer(_ request: UInt32, index: UInt32, handle: Int = 1) throws -> (errno: Int32, buffer: V4L2Buffer) {
            let reply = ask(request, V4L2Buffer(index: index).bytes, handle: handle)
            return (reply.errno, try V4L2Buffer(bytes: reply.bytes))
        }

        mutating func stream(_ on: Bool, handle: Int = 1) -> Int32 {
            ask(on ? V4L2Request.streamOn : V4L2Request.streamOff, V4L2Integer.image(V4L2Capture.videoCaptureType), handle: handle).errno
        }

        /// Moves the clock on and fills every frame that falls due meanwhile with `bytes` bytes.
        mutating func run(until time: Duration, bytes: Int = 460_800) -> [UVCVideoStream.FrameSlot] {
            var slots: [UVCVideoStream.FrameSlot] = []
            while let due = camera.video.nextFrameDue, due <= time {
                now = due
                if let slot = camera.video.beginFrame(now: now) {
                    let finished = camera.video.finishFrame(slot, bytesUsed: bytes)
                    #expect(finished)
                    slots.append(slot)
                }
            }
            now = time
            return slots
        }
    }

    /// ENUM_FMT, ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS list the offer and end with EINVAL; a
    /// format not offered has no sizes.
    @Test func theOfferIsEnumeratedAndEndsWithEINVAL() throws {
        var client = Client()
        var names: [String] = []
        for index in 0..<3 {
            let reply = client.ask(V4L2Request.enumerateFormat, V4L2FormatDescription(index: UInt32(index)).bytes)
            if index == 2 {
                #expect(reply.errno == LinuxErrno.invalid)
                break
            }
            #expect(reply.errno == 0)
            let description = try V4L2FormatDescription(bytes: reply.bytes)
            names.append(description.description)
            #expect(description.flags == (description.pixelFormat == V4L2Capture.mjpeg ? V4L2Capture.compressedFormatFlag : 0))
        }
        #expect(names == ["YUYV 4:2:2", "Motion-JPEG"])
        let output = client.ask(V4L2Request.enumerateFormat, V4L2FormatDescription(index: 0, type: 2).bytes)
        #expect(output.errno == LinuxErrno.invalid, "an output type is not this node's")

        var sizes: [String] = []
        for index in 0..<4 {
            let reply = client.ask(
                V4L2Request.enumerateFrameSizes, V4L2FrameSize(index: UInt32(index), pixelFormat: V4L2Capture.yuyv).bytes)
            guard reply.errno == 0 else {
                #expect(reply.errno == LinuxErrno.invalid)
                break
            }
            let size = try V4L2FrameSize(bytes: reply.bytes)
            #expect(size.type == V4L2Capture.discrete)
            sizes.append("\(size.width)x\(size.height)")
        }
        #expect(sizes == ["640x360", "320x180", "1280x720"])
        #expect(
            client.ask(V4L2Request.enumerateFrameSizes, V4L2FrameSize(index: 0, pixelFormat: V4L2Capture.nv12).bytes).errno
                == LinuxErrno.invalid)

        let interval = client.ask(
            V4L2Request.enumerateFrameIntervals, V4L2FrameInterval(index: 1, pixelFormat: V4L2Capture.yuyv, width: 640, height: 360).bytes)
        let fraction = try V4L2FrameInterval(bytes: interval.bytes)
        #expect(interval.errno == 0 && fraction.numerator == 1 && fraction.denominator == 15)
        let missing = client.ask(
            V4L2Request.enumerateFrameIntervals, V4L2FrameInterval(index: 0, pixelFormat: V4L2Capture.yuyv, width: 641, height: 360).bytes)
        #expect(missing.errno == LinuxErrno.invalid, "a size not offered has no intervals")
    }

    /// uvcvideo's reduction of 100 ns intervals to fractions of a second.
    @Test func intervalsReduceAsTheDriverReducesThem() {
        #expect(frameIntervalFraction(333_333) == (1, 30))
        #expect(frameIntervalFraction(666_666) == (1, 15))
        #expect(frameIntervalFraction(1_000_000) == (1, 10))
        #expect(frameIntervalFraction(400_000) == (1, 25))
        #expect(frameIntervalFraction(10_000_000) == (1, 1))
        #expect(frameIntervalFraction(20_000_000) == (2, 1))
    }

    /// A format not offered is answered with the default format, as uvcvideo does (no errno); the
    /// nearest size is chosen; another buffer type is EINVAL.
    @Test func aFormatNotOfferedGetsTheDefaultNotAnError() throws {
        var client = Client()
        let tried = try client.format(V4L2Request.tryFormat, width: 1920, height: 1080, pixelFormat: V4L2Capture.nv12)
        #expect(tried.errno == 0)
        #expect(tried.format.pixelFormat == V4L2Capture.yuyv && tried.format.width == 1280 && tried.format.height == 720)
        #expect(tried.format.bytesPerLine == 2560 && tried.format.sizeImage == 1280 * 720 * 2)
        let current = try client.format(V4L2Request.getFormat, width: 0, height: 0, pixelFormat: 0)
        #expect(current.format.width == 640, "TRY_FMT changes nothing")
        let set = try client.format(V4L2Request.setFormat, width: 640, height: 480, pixelFormat: V4L2Capture.mjpeg)
        #expect(set.errno == 0 && set.format.pixelFormat == V4L2Capture.mjpeg && set.format.height == 360)
        #expect(set.format.bytesPerLine == 0, "a compressed format has no row length")
        let multiplanar = client.ask(
            V4L2Request.setFormat, V4L2PixelFormat(type: 9, width: 640, height: 360, pixelFormat: V4L2Capture.yuyv).bytes)
        #expect(multiplanar.errno == LinuxErrno.invalid)
        #expect(try client.format(V4L2Request.getFormat, width: 0, height: 0, pixelFormat: 0).format.pixelFormat == V4L2Capture.mjpeg)
    }

    /// One open streams: the first to set a format (or request buffers) holds the stream; the
    /// other's tries are EBUSY, its queries too; controls stay open to both; closing frees it.
    @Test func oneOpenHoldsTheStreamTheOtherIsBusy() throws {
        var client = Client()
        #expect(try client.format(V4L2Request.setFormat, width: 640, height: 360, pixelFormat: V4L2Capture.yuyv, handle: 1).errno == 0)
        #expect(
            try client.format(V4L2Request.setFormat, width: 320, height: 180, pixelFormat: V4L2Capture.yuyv, handle: 2).errno
                == LinuxErrno.busy)
        #expect(try client.requestBuffers(4, handle: 2).errno == LinuxErrno.busy)
        #expect(try client.format(V4L2Request.tryFormat, width: 320, height: 180, pixelFormat: V4L2Capture.yuyv, handle: 2).errno == 0)
        #expect(client.stream(true, handle: 2) == LinuxErrno.busy, "STREAMON from an open that does not hold the stream")
        let set = client.ask(V4L2Request.setExtendedControls, V4L2ExtendedControls.encode([(V4L2ControlID.panAbsolute, 36000)]), handle: 2)
        #expect(set.errno == 0, "controls stay open to every open")
        client.camera.closed(fileHandle: 1)
        #expect(try client.requestBuffers(4, handle: 2).errno == 0, "closing gave the stream up")
    }

    /// The capture ioctls' mistakes, each with the errno videobuf2 gives.
    @Test func badRequestsGetTheDriversErrno() throws {
        var client = Client()
        #expect(try client.format(V4L2Request.setFormat, width: 640, height: 360, pixelFormat: V4L2Capture.yuyv).errno == 0)
        #expect(client.stream(true) == LinuxErrno.invalid, "STREAMON without buffers")
        #expect(try client.requestBuffers(4, memory: V4L2Capture.memoryUserPointer).errno == LinuxErrno.invalid, "USERPTR is not emulated")
        #expect(try client.buffer(V4L2Request.queryBuffer, index: 0).errno == LinuxErrno.invalid, "no buffers yet")
        let given = try client.requestBuffers(100)
        #expect(given.errno == 0 && given.answer.count == 32, "at most 32")
        #expect(given.answer.capabilities & V4L2Capture.supportsMemoryMapped != 0)
        #expect(try client.requestBuffers(4).answer.count == 4)
        #expect(try client.buffer(V4L2Request.queueBuffer, index: 4).errno == LinuxErrno.invalid, "a buffer index past the last")
        #expect(try client.buffer(V4L2Request.queryBuffer, index: 7).errno == LinuxErrno.invalid)
        #expect(try client.buffer(V4L2Request.queueBuffer, index: 0).errno == 0)
        #expect(try client.buffer(V4L2Request.queueBuffer, index: 0).errno == LinuxErrno.invalid, "a buffer already queued")
        #expect(try client.buffer(V4L2Request.dequeueBuffer, index: 0).errno == LinuxErrno.invalid, "DQBUF when not streaming")
        #expect(try client.format(V4L2Request.setFormat, width: 320, height: 180, pixelFormat: V4L2Capture.yuyv).errno == LinuxErrno.busy)
        #expect(client.stream(true) == 0)
        #expect(client.stream(true) == 0, "twice is fine")
        #expect(try client.buffer(V4L2Request.dequeueBuffer, index: 0).errno == LinuxErrno.again, "nothing filled yet")
        #expect(try client.requestBuffers(2).errno == LinuxErrno.busy, "REQBUFS while streaming")
        let parameters = client.ask(V4L2Request.setParameters, V4L2StreamParameters(numerator: 1, denominator: 15).bytes)
        #expect(parameters.errno == LinuxErrno.busy, "S_PARM while streaming")
        let wrongType = client.ask(V4L2Request.streamOff, V4L2Integer.image(2))
        #expect(wrongType.errno == LinuxErrno.invalid)
        #expect(client.ask(V4L2Request.exportBuffer, [UInt8](repeating: 0, count: 64)).errno == LinuxErrno.notTTY, "EXPBUF is not emulated")
    }

    /// Frames fall due every interval from STREAMON, fill the oldest queued buffer, carry the
    /// capture time on the monotonic clock and their sequence number; with no buffer queued a
    /// frame is dropped and its number skipped. STREAMOFF hands every buffer back unfilled.
    @Test func framesFillQueuedBuffersInOrderAndDropWhenNoneIsQueued() throws {
        var client = Client()
        client.camera.video.monotonicOrigin = .seconds(1000)
        #expect(try client.requestBuffers(2).errno == 0)
        #expect(try client.buffer(V4L2Request.queueBuffer, index: 1).errno == 0)
        #expect(try client.buffer(V4L2Request.queueBuffer, index: 0).errno == 0)
        #expect(client.stream(true) == 0)
        // Three intervals: two buffers filled, the third frame dropped.
        let slots = client.run(until: client.now + .milliseconds(101))
        #expect(slots.map(\.bufferIndex) == [1, 0])
        #expect(slots.map(\.sequence) == [0, 1])
        #expect(client.camera.video.framesDropped == 1)
        #expect(client.camera.video.readyCount(for: 1) == 2 && client.camera.video.readyCount(for: 2) == 0)
        #expect(client.camera.video.pollState(for: 1) == 1 && client.camera.video.pollState(for: 2) == 2)
        let first = try client.buffer(V4L2Request.dequeueBuffer, index: 0)
        #expect(first.errno == 0 && first.buffer.index == 1 && first.buffer.sequence == 0 && first.buffer.bytesUsed == 460_800)
        #expect(first.buffer.flags == [.timestampMonotonic, .timestampStartOfExposure])
        // Captured one interval after STREAMON at 100 ms: 1000.133333 s on the monotonic clock.
        #expect(first.buffer.timestampSeconds == 1000 && first.buffer.timestampMicroseconds == 133_333)
        #expect(first.buffer.offset == 462_848 && first.buffer.length == 460_800, "buffer 1 starts a page-rounded buffer in (113 pages)")
        #expect(try client.buffer(V4L2Request.queueBuffer, index: 1).errno == 0)
        let more = client.run(until: client.now + .milliseconds(34))
        #expect(more.map(\.sequence) == [3], "the dropped frame's number was skipped")
        #expect(try client.buffer(V4L2Request.dequeueBuffer, index: 0).buffer.sequence == 1)
        #expect(client.stream(false) == 0)
        #expect(client.camera.video.readyCount(for: 1) == 0)
        #expect(try client.buffer(V4L2Request.queryBuffer, index: 1).buffer.flags.isDisjoint(with: [.queued, .done]))
        #expect(try client.buffer(V4L2Request.queueBuffer, index: 1).errno == 0, "every buffer is the program's again")
    }

    /// A frame begun when the buffers are freed meanwhile is not finished into the new ones; a
    /// mapping is checked as videobuf2's mmap checks it, and counted in the MAPPED flag.
    @Test func staleFramesAndBadMappingsAreRefused() throws {
        var client = Client()
        #expect(try client.requestBuffers(2).errno == 0)
        #expect(try client.buffer(V4L2Request.queueBuffer, index: 0).errno == 0)
        #expect(client.stream(true) == 0)
        client.now += .milliseconds(34)
        let begun = client.camera.video.beginFrame(now: client.now)
        let slot = try #require(begun)
        #expect(client.stream(false) == 0)
        let finished = client.camera.video.finishFrame(slot, bytesUsed: 10)
        #expect(!finished, "streaming stopped meanwhile")
        func map(offset: Int64, length: Int64, protection: UInt32 = 3, flags: UInt32 = 1) -> Int32 {
            var image = [UInt8](repeating: 0, count: 24)
            for index in 0..<8 {
                image[index] = UInt8(truncatingIfNeeded: offset >> (8 * index))
                image[8 + index] = UInt8(truncatingIfNeeded: length >> (8 * index))
            }
            for index in 0..<4 {
                image[16 + index] = UInt8(truncatingIfNeeded: protection >> (8 * index))
                image[20 + index] = UInt8(truncatingIfNeeded: flags >> (8 * index))
            }
            return client.ask(V4L2Request.emulatedMap, image).errno
        }
        #expect(map(offset: 0, length: 460_800, flags: 2) == LinuxErrno.invalid, "MAP_PRIVATE")
        #expect(map(offset: 0, length: 460_800, protection: 2) == LinuxErrno.invalid, "not readable")
        #expect(map(offset: 4096, length: 4096) == LinuxErrno.invalid, "not a buffer's offset")
        #expect(map(offset: 0, length: 2 * 460_800) == LinuxErrno.invalid, "longer than the buffer")
        #expect(map(offset: 462_848, length: 460_800) == 0)
        #expect(try client.buffer(V4L2Request.queryBuffer, index: 1).buffer.flags.contains(.mapped))
        #expect(try !client.buffer(V4L2Request.queryBuffer, index: 0).buffer.flags.contains(.mapped))
        #expect(try client.requestBuffers(0).errno == 0)
        #expect(client.camera.video.bufferCount == 0 && client.camera.video.owner == nil, "zero buffers give the stream up")
    }

    /// The webcam's zoom magnifies: 1 at the control's minimum, 2 at its maximum.
    @Test func zoomMagnifiesTheCamera() {
        var client = Client()
        #expect(client.camera.magnification == 1)
        _ = client.ask(V4L2Request.setExtendedControls, V4L2ExtendedControls.encode([(V4L2ControlID.zoomAbsolute, 50)]))
        #expect(client.camera.magnification == 1.5)
        _ = client.ask(V4L2Request.setExtendedControls, V4L2ExtendedControls.encode([(V4L2ControlID.zoomAbsolute, 100)]))
        #expect(client.camera.magnification == UVCCamera.maximumMagnification)
    }
}
