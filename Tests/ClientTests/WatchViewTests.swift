import DockAPI
import DockVocabulary
import Testing

@testable import DockctlProgram

/// `dockctl watch`'s live view when dockd serves several accessories: each accessory's status
/// under its name, and each event named after its accessory; one accessory's view as it was.
@Suite struct WatchViewTests {
    static func status(tracking: Bool) -> Dock.Status {
        Dock.Status(
            state: .ready, isDocked: true, accessory: nil, pose: nil, limits: nil, isTrackingEnabled: tracking,
            framingMode: .automatic, regionOfInterest: .fullImage, selectedSubjects: [], controller: .none, motion: .idle, faults: [],
            tracker: .idle, isSubjectInFrame: false, primary: nil, subjects: [], loop: .none,
            counters: Dock.Counters(badFrames: 0, reconnects: 0, refusals: 0, observations: 0, cameraFrames: 0))
    }

    static func event(_ name: String?, _ payload: Dock.Event.Payload, tracking: Bool = false) -> Dock.Event {
        Dock.Event(timeSeconds: 1, payload: payload, detail: "what happened", status: status(tracking: tracking), accessoryName: name)
    }

    @Test func oneAccessoryIsShownAsBefore() {
        var statuses: [(name: String, status: Dock.Status)] = []
        var recent: [String] = []
        Presentation.heard(Self.event("default", .docked), statuses: &statuses, recent: &recent)
        Presentation.heard(Self.event("default", .status), statuses: &statuses, recent: &recent)
        #expect(recent == ["docked: what happened"])
        #expect(Presentation.live(statuses, recent: recent) == Presentation.live(Self.status(tracking: false), recent: recent))
    }

    @Test func severalAreShownEachUnderItsName() {
        var statuses: [(name: String, status: Dock.Status)] = []
        var recent: [String] = []
        Presentation.heard(Self.event("left", .status), statuses: &statuses, recent: &recent)
        Presentation.heard(Self.event("right", .docked, tracking: true), statuses: &statuses, recent: &recent)
        Presentation.heard(Self.event("left", .undocked), statuses: &statuses, recent: &recent)
        #expect(statuses.map(\.name) == ["left", "right"])
        #expect(statuses.map(\.status.isTrackingEnabled) == [false, true], "each accessory's latest status")
        #expect(recent == ["right docked: what happened", "left undocked: what happened"])
        let view = Presentation.live(statuses, recent: recent)
        #expect(
            view
                == "[left]\n" + Presentation.summary(Self.status(tracking: false)) + "\n\n[right]\n"
                + Presentation.summary(Self.status(tracking: true))
                + "\n\nrecent events:\n  right docked: what happened\n  left undocked: what happened\n")
    }
}
