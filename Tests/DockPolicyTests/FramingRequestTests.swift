import DockLinks
import DockPolicy
import DockVocabulary
import Testing

/// What the policy answers to the framing requests that can half-succeed: a region past the
/// picture's edge, and a selection of subjects it does not track.
@Suite struct FramingRequestTests {
    @Test func aRegionPastThePicturesEdgeIsCutAndTheAnswerIsTheRegionInForce() {
        var bench = HostBench()
        bench.attach()
        let past = bench.request(.setRegionOfInterest(NormalizedRect(x: 0.5, y: 0.5, width: 0.8, height: 0.8)), from: 2)
        let kept = NormalizedRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        #expect(bench.replies[past] == .region(kept))
        #expect(bench.host.regionOfInterest == kept, "what the answer says is what is framed within")

        let inside = NormalizedRect(x: 0.2, y: 0.3, width: 0.6, height: 0.5)
        let exact = bench.request(.setRegionOfInterest(inside), from: 2)
        #expect(bench.replies[exact] == .region(inside), "a region inside the picture is kept to the bit")
        #expect(bench.host.regionOfInterest == inside)
    }

    @Test func aSelectionOfUntrackedIDsIsKeptAndTheAnswerNamesThem() {
        var bench = HostBench()
        bench.attach()
        let unknown = bench.request(.selectSubjects([999, 4]), from: 2)
        #expect(bench.replies[unknown] == .selection(untracked: [999, 4]), "nothing is tracked yet")
        #expect(bench.host.selectedSubjects == [999, 4], "the choice is kept: a subject of that ID may yet appear")
        let automatic = bench.request(.selectSubjects([]), from: 2)
        #expect(bench.replies[automatic] == .selection(untracked: []))
        #expect(bench.host.selectedSubjects.isEmpty)
    }
}
