import DockNumbers
import DockProtocol
import Testing
import VISCAProtocol

@testable import DockLinks

/// A VISCA camera's zoom as transcripts in virtual time: CAM_Zoom Direct on the line, the position
/// read back with CAM_ZoomPosInq, the pose history carrying the zoom the camera reported with its
/// time.
@Suite struct VISCAZoomTests {
    typealias Line = VISCASessionTests.Line
    static let generic = VISCAProfile.named("generic")!

    /// A line attached to a generic camera (zoom 0...0x4000) that has stood for a while.
    static func attached() -> Line {
        var line = Line()
        line.attach()
        line.wait(.milliseconds(100))
        _ = line.takeWritten()
        return line
    }

    @Test func aZoomIsCAMZoomDirectToTheProfilesNearestPosition() throws {
        var line = Self.attached()
        #expect(line.session.capabilities.contains(.zoom))
        #expect(line.session.zoomFraction(nearest: 0.5) == 0.5)
        let nearest = try #require(line.session.zoomFraction(nearest: 1.0 / 3))
        #expect(abs(nearest - 5461.0 / 16384) < 1e-12, "0x1555, the position nearest a third: \(nearest)")
        let sent = line.send(.zoom(fraction: 0.5))
        let id = try #require(sent)
        #expect(line.takeWritten().contains("81 01 04 47 02 00 00 00 FF"), "zoom direct to 0x2000")
        line.answer("90 41 FF")
        #expect(line.events.last == .answered(id, .accepted))
        line.answer("90 51 FF")
        #expect(line.events.last == .answered(id, .ended))
        #expect(line.session.refusalCount == 0)
    }

    /// While the zoom moves it is read as often as the pose, and each report goes into the pose
    /// history at its time (half a round trip before its answer): the zoom at a frame's capture
    /// time is the camera's, not the one commanded.
    @Test func theZoomReadBackIsInThePoseHistoryWithItsTime() throws {
        var line = Self.attached()
        line.pollDelay = .milliseconds(20)
        line.send(.zoom(fraction: 1))
        line.answer("90 41 FF")
        let start = line.now
        let polls = line.zoomPollTimes.count
        // The camera zooms at 0x4000 per second: wide to tele in a second.
        var reported: [(time: Duration, position: UInt16)] = []
        while line.now < start + .milliseconds(1200) {
            line.zoom = UInt16(min(max((line.now - start).secondsValue, 0), 1) * 0x4000)
            if line.zoomPollTimes.count > polls + reported.count {
                reported.append((line.zoomPollTimes.last!, line.zoom))
            }
            line.wait(.milliseconds(1))
        }
        line.answer("90 51 FF")
        let moving = line.zoomPollTimes.filter { $0 > start && $0 < start + .seconds(1) }.count
        #expect(moving >= 15, "read about as often as the pose while it moves (40 ms): \(moving) in a second")
        // A report answered 20 ms after its inquiry is the zoom 10 ms after it.
        let middle = try #require(reported.first { $0.time > start + .milliseconds(400) })
        let sampled = middle.time + .milliseconds(10)
        let pose = try #require(line.session.pose(at: sampled))
        let zoom = try #require(pose.zoomFraction)
        let camera = (sampled - start).secondsValue
        #expect(abs(zoom - camera) < 0.03, "the camera's zoom at that time (\(camera)), not the target 1: \(zoom)")
        let end = try #require(line.session.pose(at: line.now)?.zoomFraction)
        #expect(end == 1, "reached: \(end)")
        // Reached, it is read again only about once a second.
        let settled = line.zoomPollTimes.count
        line.wait(.seconds(3))
        let idle = line.zoomPollTimes.count - settled
        #expect(idle >= 2 && idle <= 4, "an idle zoom read once a second: \(idle) in 3 s")
    }

    /// Between two reports the pose samples carry the zoom on at its last rate, but never past
    /// the position commanded.
    @Test func theZoomBetweenReportsNeverPassesTheTarget() throws {
        var line = Self.attached()
        line.send(.zoom(fraction: 0.25))
        line.answer("90 41 FF")
        let start = line.now
        while line.now < start + .milliseconds(600) {
            // Fast: 0x4000 per 250 ms, stopping at 0x1000.
            line.zoom = UInt16(min((line.now - start).secondsValue * 4, 0.25) * 0x4000)
            line.wait(.milliseconds(1))
            let zoom = line.session.pose(at: line.now)?.zoomFraction ?? 0
            #expect(zoom <= 0.25 + 1e-9, "never past the target: \(zoom) at \(line.now - start)")
        }
        #expect(line.session.pose(at: line.now)?.zoomFraction == 0.25)
    }

    @Test func aZoomAndAVelocitySentTogetherBothReachTheLine() throws {
        var line = Self.attached()
        line.send(.zoom(fraction: 0.75))
        line.send(.velocity(yawRadiansPerSecond: 0.2, pitchRadiansPerSecond: 0, timeToLive: .seconds(1)))
        line.answer("90 41 FF")
        line.answer("90 42 FF")
        let written = line.takeWritten()
        #expect(written.contains("81 01 04 47 03 00 00 00 FF"), "the zoom: \(written)")
        #expect(written.contains { $0.hasPrefix("81 01 06 01") }, "and the drive: \(written)")
    }

    @Test func aZoomOnACameraWithoutOneIsRefusedAsUnsupported() throws {
        var profile = Self.generic
        profile.zoom = nil
        var line = Line(profile: profile)
        line.attach()
        _ = line.takeWritten()
        #expect(!line.session.capabilities.contains(.zoom))
        #expect(line.session.zoomFraction(nearest: 0.5) == nil)
        #expect(line.session.magnification(atZoomFraction: 0.5) == nil)
        let sent = line.send(.zoom(fraction: 0.5))
        let id = try #require(sent)
        #expect(line.events.last == .answered(id, .refused(CommandRefusal(reason: .unsupported, command: .zoom))))
        line.wait(.seconds(2))
        #expect(line.takeWritten().allSatisfy { $0 == "81 09 06 12 FF" }, "no zoom command nor zoom inquiry")
    }

    @Test func aZoomThatIsNotANumberIsRefusedAsOutOfRange() throws {
        var line = Self.attached()
        let sent = line.send(.zoom(fraction: .nan))
        let id = try #require(sent)
        #expect(line.events.last == .answered(id, .refused(CommandRefusal(reason: .outOfRange, command: .zoom))))
        #expect(!line.takeWritten().contains { $0.hasPrefix("81 01 04 47") })
    }

    /// A camera whose profile says it zooms but which does not know the inquiry (syntax error):
    /// its zoom is driven and no longer asked for; the camera is not counted gone.
    @Test func aCameraThatRefusesTheZoomInquiryIsDrivenButNotRead() throws {
        var line = Line()
        line.perform(line.session.start(now: line.now))
        line.answer("88 30 02 FF")
        line.answer("90 50 FF")
        line.answer("90 41 FF", "90 51 FF")
        line.answer("90 50 00 01 05 1D 01 00 02 FF")
        line.answer("90 50 00 00 00 00 00 00 00 00 FF")
        #expect(line.takeWritten().last == "81 09 04 47 FF")
        line.answer("90 60 02 FF")
        line.wait(.seconds(3))
        #expect(!line.takeWritten().contains("81 09 04 47 FF"), "not asked again")
        #expect(line.session.state == .ready(isDocked: true))
        let sent = line.send(.zoom(fraction: 1))
        let id = try #require(sent)
        #expect(line.takeWritten().contains("81 01 04 47 04 00 00 00 FF"))
        line.answer("90 41 FF")
        #expect(line.events.last == .answered(id, .accepted))
        #expect(line.session.pose(at: line.now)?.zoomFraction == nil, "a zoom not read is not known")
    }

    /// A camera that answers its pose but never the zoom inquiry is not gone: after the inquiry's
    /// three sendings its zoom is driven and no longer asked for.
    @Test func aCameraSilentToTheZoomInquiryStaysAttached() throws {
        var line = Line()
        line.answersZoom = false
        line.perform(line.session.start(now: line.now))
        line.answer("88 30 02 FF")
        line.answer("90 50 FF")
        line.answer("90 41 FF", "90 51 FF")
        line.answer("90 50 00 01 05 1D 01 00 02 FF")
        line.answer("90 50 00 00 00 00 00 00 00 00 FF")
        #expect(line.takeWritten().last == "81 09 04 47 FF", "attached: the zoom asked for")
        line.wait(.seconds(3))
        #expect(line.session.state == .ready(isDocked: true))
        #expect(!line.events.contains(.disconnected))
        let asked = line.takeWritten().filter { $0 == "81 09 04 47 FF" }.count
        #expect(asked == 2, "sent again twice (three sendings in all), then no more: \(asked)")
        #expect(line.pollTimes.count > 50, "the pose polled all along: \(line.pollTimes.count)")
    }

    @Test func theFieldOfViewFollowsTheProfilesTable() throws {
        let line = Self.attached()
        #expect(line.session.magnification(atZoomFraction: 0) == 1)
        #expect(line.session.magnification(atZoomFraction: 1) == 25)
        #expect(line.session.magnification(atZoomFraction: Double(0x1781) / 0x4000) == 2)
        var sony = Line(profile: VISCAProfile.named("sony-evi-d100")!)
        sony.attach()
        #expect(sony.session.magnification(atZoomFraction: Double(0x4000) / 0x7000) == 10, "the optical tele end")
    }

    /// Over Sony's VISCA over IP the zoom inquiry travels as an inquiry with its own number.
    @Test func overSonyIPTheZoomIsAskedAsAnInquiry() throws {
        var line = Line(framing: .sonyIP)
        line.perform(line.session.start(now: line.now))
        func next() throws -> VISCAIPMessage { try VISCAIPMessage.decode(line.written.removeFirst()) }
        func answer(_ reply: VISCAReply, to message: VISCAIPMessage) {
            line.now += .milliseconds(5)
            line.perform(line.session.bytesReceived(VISCAIPMessage.reply(reply, sequence: message.sequence).encode(), now: line.now))
        }
        let reset = try next()
        line.now += .milliseconds(5)
        line.perform(line.session.bytesReceived(VISCAIPMessage.resetAcknowledgement(sequence: reset.sequence).encode(), now: line.now))
        answer(.completion(socket: 0), to: try next())  // IF_Clear
        answer(.ack(socket: 1), to: try next())  // the stop
        let version = VISCAVersion(vendor: 1, model: 0x51D, romVersion: 0x100, maximumSocket: 2)
        answer(.inquiryReply(data: version.data), to: try next())
        answer(.inquiryReply(data: VISCAPanTiltPosition(pan: 0, tilt: 0).data), to: try next())
        #expect(line.session.state == .ready(isDocked: true))
        let zoom = try next()
        #expect(zoom.payloadType == .inquiry && hexText(zoom.payload) == "81 09 04 47 FF")
        answer(.inquiryReply(data: VISCAZoomPosition(position: 0x1000).data), to: zoom)
        #expect(line.session.pose(at: line.now)?.zoomFraction == 0.25)
    }
}
