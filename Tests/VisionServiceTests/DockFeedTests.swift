import DockLogLevel
import DockSystem
import DockVision
import DockVocabulary
import Foundation
import Glibc
import TestSupport
import Testing
import VisionService

/// The feed's view of dockd's framing, which the framed picture follows, against a real dockd
/// (`--simulator`): dockd's while it answers — however long ago the feed last asked — and not
/// once a call has gone unanswered for a second (dockd stopped with SIGSTOP), then dockd's again
/// when it answers.
@Suite(.onTheProcessThreads) struct DockFeedTests {
    static func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool { VisionProcessTests.waitUntil(seconds, condition) }

    static func batch() -> ObservationBatch {
        ObservationBatch(
            observations: [Observation(kind: .body, box: NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.6), confidence: 0.9)],
            camera: CameraInformation(horizontalFieldOfViewRadians: 1.2, aspectRatio: 16.0 / 9), captureTime: MonotonicClock.now())
    }

    @Test func dockdsFramingHoldsWhileItAnswersAndNotOnceACallGoesUnansweredForASecond() throws {
        let base = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/feed-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = base + ".sock"
        let dockd = try ChildProcess(
            "dockd", ["--config", "", "--simulator", "--socket", socket, "--state-dir", base + ".state", "--wake-on-attach=false"])
        defer {
            dockd.signal(SIGCONT)
            dockd.signal(SIGKILL)
            unlink(socket)
        }
        #expect(dockd.waitForErrorLine(containing: "attached") != nil, "\(dockd.errorLines)")
        let feed = DockFeed(
            socketPaths: [socket], accessory: nil, turnsTrackingOn: true,
            logger: Logger(threshold: .warning, usesJournalPrefixes: false) { _ in }, readsFraming: true)
        defer { feed.stop() }

        // dockd's tracker follows the person the batches show: its framing has them.
        let followed = Self.waitUntil(60) {
            feed.deliver(Self.batch())
            return feed.currentFraming(now: MonotonicClock.now())?.person != nil
        }
        #expect(followed, "dockd's framing never named a primary subject: \(feed.counts)")

        // No calls for a while (slow detectors): every call answered (its status read too), the
        // framing older than a second, and still dockd's.
        let answered = Self.waitUntil(60) {
            let counts = feed.counts
            return counts.sent + counts.refused + counts.dropped == counts.batches && !feed.isCalling
        }
        #expect(answered, "\(feed.counts)")
        let framing = try #require(feed.framing)
        #expect(Self.waitUntil(60) { MonotonicClock.now() - framing.time > .milliseconds(1500) })
        #expect(feed.currentFraming(now: MonotonicClock.now()) == framing, "an old framing of a dockd that answers is dockd's")

        // dockd stops answering: once a call has waited a second, the framing is not dockd's.
        dockd.signal(SIGSTOP)
        feed.deliver(Self.batch())
        #expect(Self.waitUntil(60) { feed.currentFraming(now: MonotonicClock.now()) == nil }, "\(feed.counts)")

        // dockd answers again: its framing is back.
        dockd.signal(SIGCONT)
        let back = Self.waitUntil(60) {
            feed.deliver(Self.batch())
            return feed.currentFraming(now: MonotonicClock.now()) != nil
        }
        #expect(back, "\(feed.counts)")
    }
}
