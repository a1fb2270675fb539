import DockVocabulary
import Testing

@testable import DockVision

/// Where the framed picture's crop comes from: dockd's digital crop, dockd's tracker, or this
/// service's own framer.
@Suite struct FramedCropSourceTests {
    static let region = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    @Test func dockdsDigitalCropWinsThenTheTrackerThenItsOwn() {
        let crop = NormalizedRect(x: 0.1, y: 0.2, width: 0.5, height: 0.5)
        let person = NormalizedRect(x: 0.4, y: 0.3, width: 0.1, height: 0.4)
        let digital = TrackerFraming(person: person, mode: .center, region: Self.region, time: .seconds(10), crop: crop)
        #expect(FramedCropSource.choose(digital) == .accessory(crop))
        let motorised = TrackerFraming(person: person, mode: .center, region: Self.region, time: .seconds(10))
        #expect(FramedCropSource.choose(motorised) == .tracker(motorised))
        // dockd away (no framing that is dockd's now): this service frames on its own.
        #expect(FramedCropSource.choose(nil) == .own)
    }
}
