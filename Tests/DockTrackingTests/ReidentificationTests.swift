import DockVocabulary
import Testing

@testable import DockTracking

/// Appearance as evidence: a clearly different descriptor vetoes a pair, and a person lost for up
/// to `reidentificationWindow` comes back under their identifier when a new track looks like them
/// — and like nobody else. Virtual time, 30 fps, the camera of the other tracker tests.
extension SubjectTrackerTests {
    static let red: [Float] = [1, 0.1, 0.1, 0.2, 0.1, 0.05, 0.1, 0.3]
    static let blue: [Float] = [0.1, 0.2, 1, 0.1, 0.3, 0.1, 0.05, 0.1]
    /// Similar clothes: within 0.1 of red, farther than `reidentificationDistance`.
    static let reddish: [Float] = [1, 0.1, 0.45, 0.2, 0.1, 0.4, 0.1, 0.3]

    func person(_ yaw: Double, _ appearance: [Float]?) -> Observation {
        Observation(kind: .body, box: box(yaw: yaw), confidence: 0.9, appearance: appearance)
    }

    @Test func theLookAlikeIsBetweenTheThresholds() throws {
        var gallery = AppearanceGallery()
        gallery.add(Self.red, at: .zero)
        let configuration = SubjectTracker.Configuration()
        let lookAlike = try #require(gallery.distance(to: Self.reddish))
        #expect(lookAlike > configuration.reidentificationDistance && lookAlike < 0.15, "\(lookAlike)")
        #expect(try #require(gallery.distance(to: Self.blue)) > configuration.appearanceVetoDistance)
    }

    @Test func aLostPersonComesBackUnderTheirIdentifierAndALookAlikeDoesNot() throws {
        var tracker = SubjectTracker()
        // Two seconds in red at the centre, then gone (through a door) for ten seconds.
        for index in 0..<60 { update(&tracker, [person(0.1, Self.red)], at: index) }
        let subject = try #require(tracker.tracks.first).identifier
        for index in 60..<150 { update(&tracker, [], at: index) }
        #expect(tracker.tracks.isEmpty && tracker.lostTracks.map(\.identifier) == [subject], "deleted, kept as lost")
        // The look-alike comes in by the same door: a stranger.
        for index in 150..<240 { update(&tracker, [person(0.1, Self.reddish)], at: index) }
        let lookAlike = try #require(tracker.tracks.first { $0.phase == .confirmed }).identifier
        #expect(lookAlike != subject)
        for index in 240..<300 { update(&tracker, [], at: index) }
        // The subject comes back by the door, ten seconds after leaving.
        for index in 300..<330 { update(&tracker, [person(0.1, Self.red)], at: index) }
        #expect(tracker.tracks.filter { $0.phase == .confirmed }.map(\.identifier) == [subject])
        #expect(!tracker.lostTracks.contains { $0.identifier == subject } && tracker.lostTracks.map(\.identifier) == [lookAlike])
    }

    @Test func withoutDescriptorsOrAfterTheWindowTheyComeBackAsAStranger() throws {
        for (descriptor, window) in [(nil, Duration.seconds(30)), (Self.red, .seconds(5))] as [([Float]?, Duration)] {
            var configuration = SubjectTracker.Configuration()
            configuration.reidentificationWindow = window
            var tracker = SubjectTracker(configuration: configuration)
            for index in 0..<60 { update(&tracker, [person(0.1, descriptor)], at: index) }
            let subject = try #require(tracker.tracks.first).identifier
            for index in 60..<300 { update(&tracker, [], at: index) }
            for index in 300..<330 { update(&tracker, [person(0.1, descriptor)], at: index) }
            #expect(tracker.tracks.map(\.identifier) != [subject], "\(String(describing: descriptor)), window \(window)")
            #expect(tracker.tracks.count == 1 && tracker.lostTracks.isEmpty)
        }
    }

    @Test func twoLostPeopleInTheSameClothesAreNotGuessedBetween() throws {
        var tracker = SubjectTracker()
        for index in 0..<60 { update(&tracker, [person(-0.3, Self.red), person(0.3, Self.red)], at: index) }
        #expect(tracker.tracks.count == 2)
        for index in 60..<150 { update(&tracker, [], at: index) }
        #expect(tracker.lostTracks.count == 2)
        for index in 150..<180 { update(&tracker, [person(0, Self.red)], at: index) }
        let back = try #require(tracker.tracks.first)
        #expect(back.identifier > 2, "either could be them: a new identifier")
    }

    @Test func aClearlyDifferentAppearanceIsNotPairedWithATrackWhereItStands() throws {
        var tracker = SubjectTracker()
        for index in 0..<30 { update(&tracker, [person(0.1, Self.red)], at: index) }
        let red = try #require(tracker.tracks.first).identifier
        // The red one leaves and someone in blue steps in the same place at once.
        for index in 30..<40 { update(&tracker, [person(0.1, Self.blue)], at: index) }
        #expect(tracker.tracks.count == 2, "a new track for blue")
        #expect(tracker.tracks.first { $0.identifier == red }?.phase == .coasting, "red coasts, untouched")
        // Without descriptors the same boxes stay on one track.
        var blind = SubjectTracker()
        for index in 0..<40 { update(&blind, [person(0.1, nil)], at: index) }
        #expect(blind.tracks.count == 1)
    }

    @Test func theReidentificationSettingsAreValidated() {
        var configuration = SubjectTracker.Configuration()
        #expect(configuration.isValid && configuration.reidentificationWindow == .seconds(30))
        configuration.reidentificationWindow = .seconds(-1)
        #expect(!configuration.isValid)
        configuration = SubjectTracker.Configuration()
        configuration.reidentificationDistance = .nan
        #expect(!configuration.isValid)
        configuration = SubjectTracker.Configuration()
        configuration.appearanceVetoDistance = 3
        #expect(!configuration.isValid)
        configuration = SubjectTracker.Configuration()
        configuration.appearanceBonus = -1
        #expect(!configuration.isValid)
    }
}
