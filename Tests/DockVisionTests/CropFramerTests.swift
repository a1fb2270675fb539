import DockVocabulary
import Testing

@testable import DockVision

/// The framed picture's crop, in virtual time at 30 frames a second, with fixed seeds for the
/// detector's noise.
@Suite struct CropFramerTests {
    /// A small deterministic generator (SplitMix64) for a detector's noise.
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    static let frame = 1.0 / 30
    /// Pixels of a 1280-wide picture.
    static let width = 1280.0

    @Test func aStillSubjectIsFramedAndTheCropHoldsStill() {
        var framer = CropFramer()
        var noise = Noise(state: 7)
        let person = NormalizedRect(x: 0.6, y: 0.15, width: 0.1, height: 0.8)
        var crops: [NormalizedRect] = []
        for index in 0..<300 {
            let now = Double(index) * Self.frame
            // HOG's boxes on a still person wander by a few pixels.
            let jitter = 0.004
            let seen = NormalizedRect(
                x: person.x + jitter * noise.next(), y: person.y + jitter * noise.next(), width: person.width, height: person.height)
            framer.observe(seen, now: now)
            crops.append(framer.advance(now: now, mode: .center))
        }
        // Settled on the subject: centred, head to waist 0.75 of the crop's height.
        let last = crops.last!
        #expect(abs(last.x + last.width / 2 - 0.65) < 0.06 * last.width)
        #expect(abs(last.width - 0.4 / 0.75) < 0.06 * last.width, "\(last)")
        // The last five seconds: the crop did not move by a pixel.
        let still = crops.suffix(150)
        let spread = (still.map(\.x).max()! - still.map(\.x).min()!) * Self.width
        #expect(spread < 1, "crop jitter \(spread) px")
    }

    @Test func aWalkerIsFollowedWithinTolerance() {
        var framer = CropFramer()
        var worst = 0.0
        for index in 0..<120 {
            let now = Double(index) * Self.frame
            // Walking across at 0.1 of the picture a second (a brisk walk, 3 m away), far enough
            // from the picture's edges for the crop to centre them.
            let x = 0.25 + 0.1 * now
            framer.observe(NormalizedRect(x: x, y: 0.3, width: 0.06, height: 0.6), now: now)
            let crop = framer.advance(now: now, mode: .center)
            if now > 1.5 {
                // The subject's centre in the crop, as a share of its width from the middle.
                worst = max(worst, abs((x + 0.03 - crop.x) / crop.width - 0.5))
            }
        }
        #expect(worst < 0.15, "the walker strayed \(worst) of the crop from its middle")
    }

    @Test func aLostSubjectWidensTheCropSmoothlyNeverSnapping() {
        var framer = CropFramer()
        var previous = framer.crop
        var biggestStep = 0.0
        func centre(_ crop: NormalizedRect) -> (Double, Double) { (crop.x + crop.width / 2, crop.y + crop.height / 2) }
        for index in 0..<300 {
            let now = Double(index) * Self.frame
            if now < 3 { framer.observe(NormalizedRect(x: 0.7, y: 0.3, width: 0.1, height: 0.3), now: now) }
            let crop = framer.advance(now: now, mode: .center)
            let (a, b) = (centre(previous), centre(crop))
            biggestStep = max(biggestStep, abs(crop.width - previous.width), abs(b.0 - a.0), abs(b.1 - a.1))
            previous = crop
        }
        // Back to the whole picture, its centre and size never faster than the speed limit.
        #expect(framer.crop == NormalizedRect(x: 0, y: 0, width: 1, height: 1) || abs(framer.crop.width - 1) < 0.01)
        #expect(biggestStep <= CropFramer.Configuration().maximumSpeed * Self.frame + 1e-9, "step \(biggestStep)")
    }

    @Test func theZoomStopsAtTheNarrowestAndTheRegionAndModeApply() {
        let framer = CropFramer()
        let far = NormalizedRect(x: 0.5, y: 0.5, width: 0.02, height: 0.05)
        #expect(framer.wanted(for: far, mode: .center, region: NormalizedRect(x: 0, y: 0, width: 1, height: 1)).width == 0.4)
        // Left third: the subject's centre a third of the way across the crop.
        let person = NormalizedRect(x: 0.45, y: 0.3, width: 0.1, height: 0.3)
        let left = framer.wanted(for: person, mode: .left, region: NormalizedRect(x: 0, y: 0, width: 1, height: 1))
        #expect(abs((0.5 - left.x) / left.width - 1.0 / 3) < 1e-9)
        // Kept inside the region of interest.
        let region = NormalizedRect(x: 0.2, y: 0.1, width: 0.6, height: 0.8)
        let edge = framer.wanted(for: NormalizedRect(x: 0.05, y: 0.3, width: 0.1, height: 0.3), mode: .center, region: region)
        #expect(edge.x == 0.2 && edge.y >= 0.1 && edge.y + edge.height <= 0.9 + 1e-9)
    }

    @Test func theSubjectIsThePersonFollowedElseTheTallestAndAFaceStandsForItsPerson() {
        var framer = CropFramer()
        let size = FrameSize(width: 640, height: 360)
        let near = Detection(kind: .body, box: PixelBox(x: 100, y: 60, width: 60, height: 200), confidence: 1)
        let tall = Detection(kind: .body, box: PixelBox(x: 400, y: 20, width: 80, height: 300), confidence: 1)
        let face = Detection(kind: .face, box: PixelBox(x: 300, y: 40, width: 20, height: 20), confidence: 1)
        // Nobody followed yet: the tallest; faces only when no body was found.
        let chosen = framer.primary(among: [near, tall, face], size: size)
        #expect(
            chosen.map { abs($0.x - 400.0 / 640) < 1e-9 && abs($0.height - 300.0 / 360) < 1e-9 } == true, "\(String(describing: chosen))")
        let stand = framer.primary(among: [face], size: size)
        #expect(stand.map { abs($0.x - 280.0 / 640) < 1e-9 && abs($0.height - 140.0 / 360) < 1e-9 } == true, "\(String(describing: stand))")
        #expect(framer.primary(among: [], size: size) == nil)
        // Following the nearer one: it stays the subject though the other is taller.
        framer.observe(NormalizedRect(x: 110.0 / 640, y: 60.0 / 360, width: 60.0 / 640, height: 200.0 / 360), now: 0)
        #expect(framer.primary(among: [tall, near], size: size)?.x == 100.0 / 640)
    }

    @Test func aTrackedFaceStandsForItsPersonCutToThePicture() {
        let body = NormalizedRect(x: 0.2, y: 0.1, width: 0.1, height: 0.8)
        #expect(CropFramer.person(of: body, kind: .body) == body)
        let face = CropFramer.person(of: NormalizedRect(x: 0.5, y: 0.2, width: 0.05, height: 0.1), kind: .face)
        #expect(abs(face.x - 0.45) < 1e-12 && abs(face.width - 0.15) < 1e-12 && abs(face.height - 0.7) < 1e-12)
        let low = CropFramer.person(of: NormalizedRect(x: 0.01, y: 0.5, width: 0.05, height: 0.1), kind: .face)
        #expect(low.x == 0 && abs(low.y + low.height - 1) < 1e-12)
    }
}
