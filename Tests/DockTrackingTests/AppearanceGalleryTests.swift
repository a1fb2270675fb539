import Testing

@testable import DockTracking

/// A track's appearance descriptors and their cosine distances.
@Suite struct AppearanceGalleryTests {
    @Test func theDistanceIsCosineAndIgnoresScale() throws {
        var gallery = AppearanceGallery()
        #expect(gallery.distance(to: [1, 0, 0, 0]) == nil, "empty: no evidence")
        gallery.add([2, 0, 0, 0], at: .zero)
        #expect(try #require(gallery.distance(to: [5, 0, 0, 0])) < 1e-9, "the same direction at any scale")
        #expect(abs(try #require(gallery.distance(to: [0, 3, 0, 0])) - 1) < 1e-9, "orthogonal: 1")
        #expect(abs(try #require(gallery.distance(to: [-1, 0, 0, 0])) - 2) < 1e-9, "opposite: 2")
        #expect(abs(try #require(gallery.distance(to: [1, 1, 0, 0])) - (1 - 0.5.squareRoot())) < 1e-6)
        #expect(gallery.distance(to: [1, 0, 0]) == nil, "another length: not comparable")
        #expect(gallery.distance(to: [0, 0, 0, 0]) == nil, "no direction")
        #expect(gallery.distance(to: [.nan, 0, 0, 0]) == nil && gallery.distance(to: [.infinity, 1, 0, 0]) == nil)
    }

    @Test func snapshotsKeepEveryLightTheSubjectWasSeenInAndTheMeanForgetsNoise() throws {
        var gallery = AppearanceGallery()
        // A second under the window's light, then two under the lamp's: the mean, a snapshot
        // under the window, two under the lamp.
        for frame in 0..<30 { gallery.add([1, 0.2, 0, 0], at: .milliseconds(frame * 33)) }
        for frame in 30..<90 { gallery.add([0.2, 1, 0, 0], at: .milliseconds(frame * 33)) }
        #expect(gallery.count == AppearanceGallery.capacity)
        #expect(try #require(gallery.distance(to: [0.2, 1, 0, 0])) < 1e-6, "the lamp's light")
        #expect(try #require(gallery.distance(to: [1, 0.2, 0, 0])) < 1e-6, "the window's light is still known")
        // Many more seconds under the lamp: the oldest snapshot is overwritten, the rest stay.
        for frame in 90..<400 { gallery.add([0.2, 1, 0, 0], at: .milliseconds(frame * 33)) }
        #expect(gallery.count == AppearanceGallery.capacity)
        #expect(try #require(gallery.distance(to: [1, 0.2, 0, 0])) > 0.1, "forgotten after three later snapshots")
        // Junk is ignored; another length starts again.
        gallery.add([.nan, 1, 1, 1], at: .seconds(20))
        gallery.add([0, 0, 0, 0], at: .seconds(20))
        #expect(gallery.length == 4)
        gallery.add([1, 2, 3, 4, 5], at: .seconds(21))
        #expect(gallery.length == 5 && gallery.count == 1)
        let other = {
            var g = AppearanceGallery()
            g.add([1, 2, 3, 4, 5], at: .zero)
            return g
        }()
        #expect(try #require(gallery.distance(to: other)) < 1e-6)
    }
}
