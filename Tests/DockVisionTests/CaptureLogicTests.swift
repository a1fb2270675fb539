import DockVocabulary
import Testing

@testable import DockVision

@Suite struct FormatNegotiationTests {
    let sizes = [
        FrameSize(width: 1920, height: 1080), FrameSize(width: 1280, height: 720), FrameSize(width: 640, height: 480),
        FrameSize(width: 640, height: 360),
    ]
    let h264 = PixelFormat.fourCC("H264")

    @Test func autoTakesUncompressedFirstAtTheNearestSize() throws {
        let offered = [
            OfferedFormat(fourCC: PixelFormat.mjpeg.fourCC, sizes: sizes),
            OfferedFormat(fourCC: PixelFormat.yuyv.fourCC, sizes: Array(sizes.suffix(2))),
        ]
        #expect(
            try FormatNegotiation.choose(offered: offered, preference: .auto, wanted: FrameSize(width: 640, height: 360))
                == FormatChoice(format: .yuyv, size: FrameSize(width: 640, height: 360)))
        #expect(
            try FormatNegotiation.choose(offered: offered, preference: .mjpeg, wanted: FrameSize(width: 1200, height: 700))
                == FormatChoice(format: .mjpeg, size: FrameSize(width: 1280, height: 720)))
        // NV12 before MJPEG; no listed sizes: the wanted one.
        let nv12 = [
            OfferedFormat(fourCC: PixelFormat.mjpeg.fourCC, sizes: sizes), OfferedFormat(fourCC: PixelFormat.nv12.fourCC, sizes: []),
        ]
        #expect(
            try FormatNegotiation.choose(offered: nv12, preference: .auto, wanted: FrameSize(width: 800, height: 600))
                == FormatChoice(format: .nv12, size: FrameSize(width: 800, height: 600)))
    }

    @Test func aCameraWithNothingDecodableIsANamedError() {
        #expect(throws: FormatError.noDecodableFormat(offered: ["H264"])) {
            try FormatNegotiation.choose(
                offered: [OfferedFormat(fourCC: h264, sizes: sizes)], preference: .auto, wanted: FrameSize(width: 640, height: 360))
        }
        #expect(throws: FormatError.formatNotOffered(.nv12, offered: ["YUYV"])) {
            try FormatNegotiation.choose(
                offered: [OfferedFormat(fourCC: PixelFormat.yuyv.fourCC, sizes: sizes)], preference: .nv12,
                wanted: FrameSize(width: 640, height: 360))
        }
        #expect(FormatError.noDecodableFormat(offered: ["H264"]).description.hasPrefix("unsupported format: the camera offers H264"))
    }

    @Test func fourCharacterCodes() {
        #expect(PixelFormat.yuyv.fourCC == 0x5659_5559)
        #expect(PixelFormat.mjpeg.fourCC == 0x4750_4A4D)
        #expect(PixelFormat(fourCC: 0x3231_564E) == .nv12)
        #expect(PixelFormat(fourCC: h264) == nil)
        #expect(PixelFormat.text(ofFourCC: 0x0000_0001) == "????")
    }
}

@Suite struct FrameCheckTests {
    func check(_ bytes: [UInt8], _ format: PixelFormat, width: Int = 4, height: Int = 2, stride: Int = 0) throws {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { copy.deallocate() }
        copy.copyBytes(from: bytes)
        try FrameCheck.check(UnsafeRawBufferPointer(copy), format: format, width: width, height: height, stride: stride)
    }

    @Test func aJPEGMustStartAndEndAsOne() throws {
        try check([0xFF, 0xD8, 0x01, 0x02, 0xFF, 0xD9], .mjpeg)
        try check([0xFF, 0xD8, 0x01, 0x02, 0xFF, 0xD9, 0, 0, 0], .mjpeg)  // padded by the camera
        #expect(throws: FrameError.notJPEG(bytes: 6)) { try check([0x00, 0xD8, 0x01, 0x02, 0xFF, 0xD9], .mjpeg) }
        #expect(throws: FrameError.jpegCutShort(bytes: 5)) { try check([0xFF, 0xD8, 0x01, 0x02, 0x03], .mjpeg) }
        #expect(throws: FrameError.notJPEG(bytes: 0)) { try check([], .mjpeg) }
    }

    @Test func anUncompressedFrameMustBeWhole() throws {
        try check([UInt8](repeating: 0, count: 16), .yuyv)
        #expect(throws: FrameError.truncated(bytes: 15, needed: 16)) { try check([UInt8](repeating: 0, count: 15), .yuyv) }
        try check([UInt8](repeating: 0, count: 12), .nv12)
        #expect(throws: FrameError.truncated(bytes: 11, needed: 12)) { try check([UInt8](repeating: 0, count: 11), .nv12) }
        // A stride wider than the line: the last line needs only its pixels.
        try check([UInt8](repeating: 0, count: 18), .yuyv, stride: 10)
        #expect(throws: FrameError.truncated(bytes: 17, needed: 18)) { try check([UInt8](repeating: 0, count: 17), .yuyv, stride: 10) }
    }
}

@Suite struct CaptureTimeTests {
    let dequeued = Duration.seconds(100)

    @Test func aMonotonicTimestampIsTheCaptureTime() {
        let (time, problem) = CaptureTime.of(timestamp: .milliseconds(99_950), flags: 0x2001, dequeued: dequeued)
        #expect(time == .milliseconds(99_950))
        #expect(problem == nil)
    }

    @Test func anotherClockIsNamedAndTheDequeueTimeTaken() {
        // Realtime (UNKNOWN flags), a copied timestamp, a stamp from the future, one from long ago.
        #expect(
            CaptureTime.of(timestamp: .seconds(1_790_000_000), flags: 0x0001, dequeued: dequeued) == (
                dequeued, .notMonotonic(flags: 0x0001)
            ))
        #expect(CaptureTime.of(timestamp: .seconds(99), flags: 0x4000, dequeued: dequeued) == (dequeued, .notMonotonic(flags: 0x4000)))
        #expect(CaptureTime.of(timestamp: .seconds(101), flags: 0x2000, dequeued: dequeued) == (dequeued, .inTheFuture(.seconds(1))))
        #expect(CaptureTime.of(timestamp: .seconds(90), flags: 0x2000, dequeued: dequeued) == (dequeued, .tooOld(.seconds(10))))
        #expect(CaptureTime.Problem.notMonotonic(flags: 0x4000).description.hasPrefix("capture time from another clock"))
    }
}

@Suite struct DetectorScheduleTests {
    @Test func facesEveryFrameBodiesEveryThirdCaptured() {
        var schedule = DetectorSchedule(bodyEvery: 3)
        let bodies = (0..<10).map { schedule.plan(sequence: UInt32($0)).bodies }
        #expect(bodies == [true, false, false, true, false, false, true, false, false, true])
        #expect(schedule.plan(sequence: 10).faces)
    }

    @Test func skippedFramesCountTowardsTheBodies() {
        // The service was busy: it took frames 0, 2, 5, 6, 9.
        var schedule = DetectorSchedule(bodyEvery: 3)
        #expect([0, 2, 5, 6, 9].map { schedule.plan(sequence: $0).bodies } == [true, false, true, false, true])
    }

    @Test func aRestartedStreamOrAWrappedCounter() {
        var schedule = DetectorSchedule(bodyEvery: 3)
        #expect(schedule.plan(sequence: 500).bodies)
        #expect(schedule.plan(sequence: 501).bodies == false)
        #expect(schedule.plan(sequence: 0).bodies)  // the stream began again
        var wrapping = DetectorSchedule(bodyEvery: 2)
        #expect(wrapping.plan(sequence: .max).bodies)
        #expect(wrapping.plan(sequence: 0).bodies == false)
        #expect(wrapping.plan(sequence: 1).bodies)
        #expect(DetectorSchedule(bodyEvery: 0).bodyEvery == 1)
    }
}

@Suite struct TrackBuilderTests {
    let camera = CameraInformation(horizontalFieldOfViewRadians: 1.2, aspectRatio: 16.0 / 9)

    @Test func boxesAreCutToThePictureAndNormalised() {
        let detections = [
            Detection(kind: .face, box: PixelBox(x: 320, y: 90, width: 64, height: 72), confidence: 0.9),
            Detection(kind: .body, box: PixelBox(x: -40, y: 300, width: 80, height: 120), confidence: 0.7, appearance: [1, 0, 0, 0]),
            Detection(kind: .body, box: PixelBox(x: 700, y: 10, width: 50, height: 50), confidence: 0.8),  // outside
            Detection(kind: .face, box: PixelBox(x: .nan, y: 0, width: 10, height: 10), confidence: 0.8),
            Detection(kind: .face, box: PixelBox(x: 10, y: 10, width: 10, height: 10), confidence: .infinity),
        ]
        let batch = TrackBuilder.batch(detections, width: 640, height: 360, camera: camera, captureTime: .milliseconds(1234))
        #expect(batch.captureTime == .milliseconds(1234))
        #expect(batch.camera == camera)
        #expect(
            batch.observations == [
                Observation(kind: .face, box: NormalizedRect(x: 0.5, y: 0.25, width: 0.1, height: 0.2), confidence: 0.9),
                Observation(
                    kind: .body, box: NormalizedRect(x: 0, y: 300.0 / 360, width: 40.0 / 640, height: 60.0 / 360), confidence: 0.7,
                    appearance: [1, 0, 0, 0]),
            ])
    }

    @Test func atMostSixtyFourTheMostConfidentInTheirOrder() {
        let detections = (0..<70).map {
            Detection(kind: .face, box: PixelBox(x: Double($0), y: 0, width: 5, height: 5), confidence: Double($0 % 7) / 10)
        }
        let batch = TrackBuilder.batch(detections, width: 640, height: 360, camera: camera, captureTime: .zero)
        #expect(batch.observations.count == 64)
        // Ten have confidence 0 (indices 0, 7, ..., 63); the six dropped are the last of those,
        // and the kept stay in the detector's order.
        let kept = batch.observations.map { Int(($0.box.x * 640).rounded()) }
        #expect(kept == (0..<70).filter { ![28, 35, 42, 49, 56, 63].contains($0) })
    }

    @Test func scoresBecomeConfidences() {
        #expect(abs(ScoreScale.hogMargin.confidence(0.5) - 0.5) < 1e-12)
        #expect(abs(ScoreScale.cascadeNeighbours.confidence(3) - 1 / (1 + exp(-1.5))) < 1e-12)
        #expect(ScoreScale.probability.confidence(1.7) == 1)
        #expect(ScoreScale.probability.confidence(.nan) == 0)
    }

    @Test func theTorsoAndItsDescriptor() {
        #expect(Appearance.torso(of: PixelBox(x: 100, y: 0, width: 40, height: 100)) == PixelBox(x: 110, y: 20, width: 20, height: 35))
        #expect(Appearance.descriptor(histogram: [3, 4, 0, 0]) == [0.6, 0.8, 0, 0])
        #expect(Appearance.descriptor(histogram: [0, 0, 0, 0]) == nil)
        #expect(Appearance.descriptor(histogram: [1, .nan, 0, 0]) == nil)
        #expect(PixelBox(x: 0, y: 0, width: 10, height: 10).overlap(PixelBox(x: 5, y: 0, width: 10, height: 10)) == 50.0 / 150)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
