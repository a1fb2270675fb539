import DockAPI
import DockClient
import DockVocabulary
import Foundation
import Glibc
import TestSupport
import Testing

/// examples/FollowMe (the `dockclient-example` program), written against DockClient's
/// documentation alone, run against `dockd --simulator`: what it prints is what it did.
@Suite(.serialized, .onAThreadOfItsOwn) struct ExampleAppTests {
    @Test(.timeLimit(.minutes(5)))
    func theExampleConnectsWatchesMovesTracksAndNods() async throws {
        let (dockd, socket) = try ClientProcessTests.startDaemon()
        let example = try ChildProcess("dockclient-example", ["--socket", socket])
        let run = try example.finish()
        #expect(run.status == 0, "stderr: \(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "\(lines)")
        guard lines.count == 7 else { return }

        // Connected, and said which dock and how it tracks.
        #expect(lines[0].hasPrefix("dock: DK-1 Demo (SIM-0001), firmware ") && lines[0].hasSuffix(", on simulator"), "\(lines[0])")
        #expect(lines[1].hasPrefix("tracking: off, framing: "), "\(lines[1])")

        // Moved to yaw 0.3, DockKit's pitch -0.1 (up), and read it back from the motion states.
        let numbers = lines[2].split(separator: " ").compactMap { Double($0) }
        #expect(lines[2].hasPrefix("at yaw ") && lines[2].hasSuffix(" rad (+ is down)") && numbers.count == 2, "\(lines[2])")
        if numbers.count == 2 {
            #expect(abs(numbers[0] - 0.3) < 0.02 && abs(numbers[1] + 0.1) < 0.02, "\(lines[2])")
        }

        // Watched the motion while it turned at 0.4 rad/s for a second (10 states a second).
        let watched = lines[3].split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .punctuationCharacters)) }
        #expect(lines[3].hasPrefix("watched ") && lines[3].hasSuffix(" rad/s") && watched.count == 2, "\(lines[3])")
        if watched.count == 2 {
            #expect(watched[0] >= 3, "motion states while turning: \(lines[3])")
            #expect(watched[1] > 0.3 && watched[1] < 0.45, "the fastest yaw rate seen: \(lines[3])")
        }

        // Sent its observations with tracking on, and nodded.
        #expect(lines[4] == "sent 10 observations of a face")
        #expect(lines[5].hasPrefix("tracking: on, framing: center, subjects tracked: "), "\(lines[5])")
        #expect(lines[6] == "played yes")

        // dockd's own word: it took the ten observations, and the example left tracking off.
        let status = try await DockAccessoryManager(socketPath: socket).status()
        #expect(status.counters.observations == 10)
        #expect(!status.isTrackingEnabled)
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
