import DockAPI
import DockJSON
import DockVocabulary
import TestSupport
import Testing

@testable import DockClient

/// One connection carrying calls and a stream: replies told apart without request identifiers.
@Suite(.serialized, .onAThreadOfItsOwn) struct ConnectionRoutingTests {
    /// What a dockd with no dock yet says of itself.
    static let status = Dock.Status(
        state: .disconnected, isDocked: false, accessory: nil, pose: nil, limits: nil, isTrackingEnabled: false,
        framingMode: .automatic, regionOfInterest: .fullImage, selectedSubjects: [], controller: .none, motion: .idle, faults: [],
        tracker: .idle, isSubjectInFrame: false, primary: nil, subjects: [], loop: .none,
        counters: Dock.Counters(badFrames: 0, reconnects: 0, refusals: 0, observations: 0, cameraFrames: 0))

    /// `Watch`'s reply for `payload` (the periodic status when `.status`) at `seconds`.
    static func watchReply(_ payload: Dock.Event.Payload, seconds: Double) -> VarlinkReply {
        .watch(Dock.Event(timeSeconds: seconds, payload: payload, detail: "", status: status))
    }

    @Test(.timeLimit(.minutes(5)))
    func eventsAndRepliesInterleavedReachTheirOwnReaders() async throws {
        let dockd = StandInDockd()
        let connection = try VarlinkConnection(path: dockd.path)
        await dockd.accept()
        var events = connection.events().makeAsyncIterator()
        #expect(try await dockd.receive().method == DockMethod.watch.qualifiedName)
        dockd.send(Self.watchReply(.status, seconds: 1))
        #expect(try await events.next()?.timeSeconds == 1)
        async let reply = connection.status()
        #expect(try await dockd.receive().method == DockMethod.getStatus.qualifiedName)
        // An event comes between the call and its reply: it goes to the stream, the reply to the call.
        dockd.send(Self.watchReply(.docked, seconds: 2))
        dockd.send(.success(["status": Self.status.json]))
        #expect(try await reply == Self.status)
        let docked = try await events.next()
        #expect(docked?.kind == .docked && docked?.timeSeconds == 2)
    }

    /// The reader looks for `continues` only in a reply whose text could say it (the word, or
    /// an escape that might spell it); every reply that does say it is among those.
    @Test func onlyAReplyThatCouldContinueIsReadForIt() throws {
        let event = Array(Self.watchReply(.docked, seconds: 2).bytes.dropLast())
        let status = Array(VarlinkReply.success(["status": Self.status.json]).bytes.dropLast())
        let cases: [(text: [UInt8], mayContinue: Bool)] = [
            (event, true), (status, false),
            (Array(#"{"continues":true}"#.utf8), true), (Array(#"{"contin\u0075es":true}"#.utf8), true),
            (Array(#"{"parameters":{"note":"\\"}}"#.utf8), true), (Array(#"{"parameters":{}}"#.utf8), false),
            (Array(#"{"continue":true}"#.utf8), false), (Array("continue".utf8), false), ([], false),
        ]
        for (text, expected) in cases {
            #expect(VarlinkConnection.mayContinue(text) == expected, "\(String(decoding: text, as: UTF8.self))")
            if (try? VarlinkReply.parse(text))?.continues == true { #expect(VarlinkConnection.mayContinue(text)) }
        }
        #expect((try VarlinkReply.parse(Array(#"{"contin\u0075es":true}"#.utf8))).continues, "the escape spells it")
    }

    @Test(.timeLimit(.minutes(5)))
    func aStreamsRefusalIsNotTakenForACallsReply() async throws {
        let dockd = StandInDockd()
        let connection = try VarlinkConnection(path: dockd.path)
        await dockd.accept()
        let refused = Task {
            do {
                for try await _ in connection.events(accessory: "NOPE") {}
                return nil as Dock.Failure?
            } catch let error as DockClientError {
                return error.failure
            }
        }
        #expect(try await dockd.receive().parameters["accessory"] == .string("NOPE"))
        // A call made while the stream starts waits for the stream's first reply: once the
        // connection holds it back, nothing of it has been written.
        async let status = connection.status()
        let deadline = ContinuousClock.now + .seconds(60)
        while connection.heldBackCount == 0, ContinuousClock.now < deadline { await Task.yield() }
        #expect(connection.heldBackCount == 1, "the call is held back")
        #expect(await !dockd.hasInput(within: 0), "and not sent")
        dockd.send(Dock.Failure.noSuchAccessory("NOPE").reply)
        #expect(try await dockd.receive().method == DockMethod.getStatus.qualifiedName, "then it is sent")
        dockd.send(.success(["status": Self.status.json]))
        #expect(try await status == Self.status)
        #expect(try await refused.value == .noSuchAccessory("NOPE"))
        // The stream is over: another may start on the same connection.
        var again = connection.events().makeAsyncIterator()
        #expect(try await dockd.receive().method == DockMethod.watch.qualifiedName)
        dockd.send(Self.watchReply(.status, seconds: 3))
        #expect(try await again.next()?.timeSeconds == 3)
    }

    @Test(.timeLimit(.minutes(5)))
    func aSecondStreamOnOneConnectionIsRefusedByTheClient() async throws {
        let dockd = StandInDockd()
        let connection = try VarlinkConnection(path: dockd.path)
        await dockd.accept()
        var first = connection.events().makeAsyncIterator()
        _ = try await dockd.receive()
        dockd.send(Self.watchReply(.status, seconds: 1))
        #expect(try await first.next() != nil)
        var second = connection.events().makeAsyncIterator()
        await #expect(throws: DockClientError.streamInUse) { try await second.next() }
    }
}
