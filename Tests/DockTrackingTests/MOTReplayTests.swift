import DockSimulator
import DockVocabulary
import Testing

@testable import DockTracking

/// The tracker replayed over MOTChallenge detections: pixels in, pixels out, frame by frame.
@Suite struct MOTReplayTests {
    static let settings = MOTReplay.Settings(imageWidthPixels: 1920, imageHeightPixels: 1080)

    /// Two people walking towards each other along a line 60 px apart in height, seen in frames
    /// `frames`: A from the left, B from the right, each seen with a confidence that confirms its
    /// track on the third frame (two hits add up to less than the quick confirmation's 1.8).
    static func walkers(frames: ClosedRange<Int>) -> [MOTRecord] {
        frames.flatMap { frame in
            let t = Double(frame - 1) / 30
            return [
                MOTRecord(
                    frame: frame, identifier: -1, box: PixelRect(x: 300 + 150 * t, y: 400, width: 120, height: 360),
                    confidence: 0.85),
                MOTRecord(
                    frame: frame, identifier: -1, box: PixelRect(x: 1500 - 150 * t, y: 340, width: 130, height: 400),
                    confidence: 0.8),
            ]
        }
    }

    @Test func twoWalkersAreTwoTracksFromTheirThirdFrame() {
        let detections = Self.walkers(frames: 1...60)
        let results = MOTReplay.run(detections, settings: Self.settings)
        #expect(!results.contains { $0.frame < 3 }, "tentative tracks are not reported")
        #expect(results.count == 2 * 58)
        #expect(Set(results.map(\.identifier)) == [1, 2])
        #expect(results == results.sorted { ($0.frame, $0.identifier) < ($1.frame, $1.identifier) })
        #expect(results.allSatisfy { $0.confidence == 1 })
        // Identifier 1 is the first box of frame 1 (A), and each track stays on its walker.
        for result in results {
            let truth = detections[(result.frame - 1) * 2 + (result.identifier - 1)]
            #expect(result.box.intersectionOverUnion(truth.box) > 0.8, "frame \(result.frame), id \(result.identifier)")
        }
    }

    @Test func aStillBoxComesBackWhereItWasInPixels() throws {
        var settings = Self.settings
        settings.imageWidthPixels = 640
        settings.imageHeightPixels = 480
        settings.horizontalFieldOfViewRadians = 1.2
        let box = PixelRect(x: 500, y: 20, width: 100, height: 300)
        let detections = (1...30).map { MOTRecord(frame: $0, identifier: -1, box: box, confidence: 0.7) }
        let last = try #require(MOTReplay.run(detections, settings: settings).last)
        #expect(last.frame == 30)
        for (a, b) in [(last.box.x, box.x), (last.box.y, box.y), (last.box.width, box.width), (last.box.height, box.height)] {
            #expect(abs(a - b) < 0.5, "\(last.box) against \(box)")
        }
    }

    @Test func theOrderOfTheLinesDoesNotMatter() {
        let detections = Self.walkers(frames: 1...40)
        let seed: UInt64 = 17
        var random = SimulationRandom(seed: seed)
        let shuffled = detections.shuffled(using: &random)
        #expect(
            MOTReplay.run(shuffled, settings: Self.settings) == MOTReplay.run(detections, settings: Self.settings),
            "seed \(seed)")
    }

    @Test func coastingTracksAreReportedOnlyWhenAsked() throws {
        var settings = Self.settings
        settings.lastFrame = 120
        let detections = Self.walkers(frames: 1...30)
        let confirmed = MOTReplay.run(detections, settings: settings)
        settings.includesCoastingTracks = true
        let withCoasting = MOTReplay.run(detections, settings: settings)
        let lastConfirmed = try #require(confirmed.last?.frame)
        let lastCoasting = try #require(withCoasting.last?.frame)
        #expect((30...34).contains(lastConfirmed), "confirmed until about 100 ms unseen")
        // Coasting until deleted 1.5 s (45 frames) after the last sighting.
        #expect((70...77).contains(lastCoasting))
        #expect(Set(withCoasting.filter { $0.frame == lastCoasting }.map(\.identifier)) == [1, 2])
        #expect(Array(withCoasting.prefix(confirmed.count)) == confirmed, "the same until the detections stop")
    }

    @Test func theLastFrameBoundsTheReplay() {
        var settings = Self.settings
        settings.lastFrame = 10
        let results = MOTReplay.run(Self.walkers(frames: 1...60), settings: settings)
        #expect(results.map(\.frame).max() == 10)
        settings.lastFrame = 0
        #expect(MOTReplay.run(Self.walkers(frames: 1...60), settings: settings).isEmpty)
        #expect(MOTReplay.run([], settings: Self.settings).isEmpty)
    }

    @Test func framesWithoutDetectionsAreSteppedThrough() {
        // A frame with no line is a frame with no detections, not a frame that did not happen: a
        // gap of more than 300 ms drops a tentative track, so these two sightings never confirm.
        let detections = [1, 2, 15, 16].map {
            MOTRecord(frame: $0, identifier: -1, box: PixelRect(x: 100, y: 100, width: 50, height: 150), confidence: 0.8)
        }
        #expect(MOTReplay.run(detections, settings: Self.settings).isEmpty)
    }

    @Test func aClearlySeenPersonIsConfirmedOnTheSecondFrame() {
        let detections = (1...10).map {
            MOTRecord(frame: $0, identifier: -1, box: PixelRect(x: 100, y: 100, width: 50, height: 150), confidence: 0.95)
        }
        #expect(MOTReplay.run(detections, settings: Self.settings).first?.frame == 2)
    }

    @Test func noBoxWrittenIsOneNoCameraCouldShow() {
        // A walker running off the right edge at 1500 px/s, then unseen: its coasting track is
        // predicted on, beyond the image, and those boxes are left out.
        var settings = Self.settings
        settings.includesCoastingTracks = true
        settings.lastFrame = 90
        let detections = (1...40).map { (frame: Int) -> MOTRecord in
            let x: Double = 400 + 1500 * Double(frame - 1) / 30
            return MOTRecord(frame: frame, identifier: -1, box: PixelRect(x: x, y: 300, width: 120, height: 360), confidence: 0.9)
        }.filter { $0.box.x < 1920 }
        let results = MOTReplay.run(detections, settings: settings)
        #expect(!results.isEmpty)
        #expect(results.allSatisfy { MOTReplay.isShowable($0.box, imageWidthPixels: 1920, imageHeightPixels: 1080) })
        #expect(results.allSatisfy { $0.box.x < 1920 && $0.box.width >= 1 && $0.box.height >= 1 })
        for (box, showable) in [
            (PixelRect(x: 10, y: 10, width: 0.5, height: 10), false), (PixelRect(x: 10, y: 10, width: 10, height: -3), false),
            (PixelRect(x: .nan, y: 10, width: 10, height: 10), false), (PixelRect(x: 1920, y: 10, width: 10, height: 10), false),
            (PixelRect(x: -20, y: -20, width: 10, height: 10), false), (PixelRect(x: 0, y: 0, width: 9000, height: 10), false),
            (PixelRect(x: -20, y: 1000, width: 30, height: 300), true),
        ] {
            #expect(MOTReplay.isShowable(box, imageWidthPixels: 1920, imageHeightPixels: 1080) == showable, "\(box)")
        }
    }

    @Test func detectorIdentifiersAreUsedOnlyWhenAsked() {
        // The same walkers with ids 7 and 9 in the file: ignored by default (results identical),
        // taken as the detector's identifiers with usesDetectorIdentifiers (still two tracks).
        let plain = Self.walkers(frames: 1...30)
        let withIdentifiers = plain.enumerated().map { index, record in
            var record = record
            record.identifier = index % 2 == 0 ? 7 : 9
            return record
        }
        #expect(MOTReplay.run(withIdentifiers, settings: Self.settings) == MOTReplay.run(plain, settings: Self.settings))
        var settings = Self.settings
        settings.usesDetectorIdentifiers = true
        let results = MOTReplay.run(withIdentifiers, settings: settings)
        #expect(Set(results.map(\.identifier)) == [1, 2])
    }

    @Test func settingsAreChecked() {
        var settings = Self.settings
        #expect(settings.isValid)
        #expect(settings.captureTime(ofFrame: 31) == .seconds(1))
        #expect(settings.camera.aspectRatio == 1920.0 / 1080)
        for change: (inout MOTReplay.Settings) -> Void in [
            { $0.imageWidthPixels = 0 }, { $0.imageHeightPixels = -1 }, { $0.framesPerSecond = 0 },
            { $0.framesPerSecond = .nan }, { $0.framesPerSecond = 5000 }, { $0.horizontalFieldOfViewRadians = .pi },
            { $0.horizontalFieldOfViewRadians = 0 }, { $0.lastFrame = -1 }, { $0.lastFrame = MOTFormat.maximumFrame + 1 },
            { $0.tracker.sizeRatioGate = 0.5 },
        ] {
            settings = Self.settings
            change(&settings)
            #expect(!settings.isValid, "\(settings)")
        }
        settings = Self.settings
        settings.framesPerSecond = MOTReplay.Settings.minimumFramesPerSecond
        settings.lastFrame = MOTFormat.maximumFrame
        #expect(settings.isValid)
        #expect(settings.captureTime(ofFrame: MOTFormat.maximumFrame) > .seconds(999_999_000), "no overflow at the extremes")
    }
}
