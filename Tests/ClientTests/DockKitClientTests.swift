import DockAPI
import DockJSON
import DockVocabulary
import Foundation
import Glibc
import TestSupport
import Testing

@testable import DockClient

/// The DockKit-shaped Swift client, with DockKit's axes converted to dockd's.
@Suite(.serialized, .onAThreadOfItsOwn) struct DockKitClientTests {
    @Test func visionRectanglesBecomeTopLeftBoxes() {
        let observation = DockAccessory.Observation(
            identifier: 9, type: .humanBody, rect: VisionRect(x: 0.25, y: 0.1, width: 0.5, height: 0.3))
        #expect(abs(observation.dockd.box.y - 0.6) < 1e-12, "1 - 0.1 - 0.3")
        #expect(observation.dockd.box.x == 0.25 && observation.dockd.box.width == 0.5 && observation.dockd.box.height == 0.3)
        #expect(observation.dockd.kind == .body && observation.dockd.identifier == 9 && observation.dockd.appearance == nil)
        let described = DockAccessory.Observation(
            identifier: 9, type: .humanBody, rect: VisionRect(x: 0.25, y: 0.1, width: 0.5, height: 0.3), appearance: [1, 0, 0.5, 2])
        #expect(described.dockd.appearance == [1, 0, 0.5, 2])
        #expect(Vector3D.fromDockd(yaw: 0.2, pitch: 0.3) == Vector3D(x: -0.3, y: 0.2, z: 0))
    }

    /// The one conversion between the two origins, both ways: a box in the top fifth of the
    /// picture has its bottom edge high up (y near 1) with Vision's origin.
    @Test func visionRectsConvertToAndFromTopLeftOnes() {
        let topLeft = NormalizedRect(x: 0.1, y: 0.05, width: 0.3, height: 0.15)
        let rect = VisionRect(topLeft: topLeft)
        #expect(rect.x == 0.1 && rect.width == 0.3 && rect.height == 0.15)
        #expect(abs(rect.y - 0.8) < 1e-12, "1 - 0.05 - 0.15: \(rect.y)")
        let back = rect.topLeft
        #expect(back.x == topLeft.x && back.width == topLeft.width && back.height == topLeft.height)
        #expect(abs(back.y - topLeft.y) < 1e-12, "\(back.y)")
        // Symmetric about the middle only when centred: the whole picture is itself either way.
        #expect(VisionRect(topLeft: NormalizedRect(x: 0, y: 0, width: 1, height: 1)) == VisionRect(x: 0, y: 0, width: 1, height: 1))
        for _ in 0..<100 {
            let height = Double.random(in: 0...1)
            let original = VisionRect(x: .random(in: 0...1), y: .random(in: 0...(1 - height)), width: .random(in: 0...1), height: height)
            let there = original.topLeft
            #expect(abs(there.y + there.height - (1 - original.y)) < 1e-12, "the bottom edge is 1 - y from the top: \(original)")
            #expect(abs(VisionRect(topLeft: there).y - original.y) < 1e-12, "\(original)")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func theDockKitShapedClientConvertsSignsAndStreamsMotion() async throws {
        let (dockd, socket) = try ClientProcessTests.startDaemon()
        var failure: (any Error)?
        do {
            try await signsAndMotion(socket: socket)
        } catch {
            failure = error
        }
        dockd.signal(SIGTERM)
        let run = try dockd.finish()
        #expect(run.status == 0)
        if let failure {
            // Say what dockd said, to its last line (read to its end, not for a while), so a
            // failure here can be understood.
            let said = dockd.errorLines + run.error.split(separator: "\n").map(String.init)
            Issue.record("\(failure); dockd said: \(said.suffix(12))")
        }
    }

    func signsAndMotion(socket: String) async throws {
        let manager = try DockAccessoryManager(socketPath: socket)
        let accessories = try await manager.accessories()
        let dock = try #require(accessories.first)
        #expect(dock.identifier == "SIM-0001")
        #expect(dock.model == "DK-1 Demo")

        // DockKit: x is pitch and positive DOWN; y is yaw and positive right. First tilt up and
        // left (it returns once there), so the motion has seconds before a limit.
        let start = Vector3D(x: -0.5, y: -1), velocity = Vector3D(x: 0.3, y: 0.4)
        try await dock.setOrientation(start, duration: .milliseconds(400))
        // Paced by dockd's own reports (10 a second), not by how fast this machine can loop: a
        // hundred calls in a row were over in a fifth of a second on an idle machine, before the
        // dock had come up to speed. The velocity lasts half a second: it is sent again at each
        // report, so however long a look takes a loaded machine it is fresh when the next report
        // comes; near a limit (the pitch's, 3.4 s from the start) the dock is tilted back. Until
        // the rates are seen, or a minute of looks has not seen them.
        try await dock.setAngularVelocity(velocity)
        var converted = false
        var seen: [String] = []
        let deadline = ContinuousClock.now + .seconds(60)
        for try await _ in try dock.motionStates {
            let pose = try await manager.status().pose
            seen.append(pose.map { "\($0.pitchRadiansPerSecond), \($0.yawRadiansPerSecond)" } ?? "none")
            if let pose, pose.pitchRadiansPerSecond < -0.25, pose.yawRadiansPerSecond > 0.35 {
                converted = true
                break
            }
            guard ContinuousClock.now < deadline else { break }
            if let pose, pose.pitchRadians < -0.3 || pose.yawRadians > 2.5 {
                try await dock.setOrientation(start, duration: .milliseconds(400))
            }
            try await dock.setAngularVelocity(velocity)
        }
        #expect(
            converted,
            "DockKit's +x (down) is dockd's negative pitch; +y is dockd's positive yaw; rates seen (\(seen.count)): \(seen.suffix(30))")

        // And motionStates reports it back in DockKit's signs. First tilt the dock well up (DockKit's
        // −x) and to the left, so the motion below has a few seconds before the pitch limit (−0.52
        // rad): on a slow run the loop above can already have brought the dock down to it.
        let up = Vector3D(x: -0.9, y: -1.5)
        try await dock.setOrientation(up, duration: .milliseconds(600))
        // Like DockKit's Progress, it returns once the move has ended: the dock is there.
        let arrived = try #require(try await manager.status().pose)
        #expect(abs(arrived.yawRadians + 1.5) < 0.01, "at yaw -1.5: \(arrived)")
        #expect(abs(arrived.pitchRadians - 0.9) < 0.01, "DockKit's x -0.9 is dockd's pitch +0.9")
        // The same way: the velocity sent again at each state, the dock tilted back near a limit.
        try await dock.setAngularVelocity(velocity)
        var sawMotion = false
        let motionDeadline = ContinuousClock.now + .seconds(60)
        for try await state in try dock.motionStates {
            if state.angularVelocities.y > 0.35 && state.angularVelocities.x > 0.25 {
                sawMotion = true
                break
            }
            guard ContinuousClock.now < motionDeadline else { break }
            if state.angularPositions.x > 0.3 || state.angularPositions.y > 2.5 {
                try await dock.setOrientation(up, duration: .milliseconds(600))
            }
            try await dock.setAngularVelocity(velocity)
        }
        #expect(sawMotion)

        // Vision rectangles (origin bottom left) go to dockd as top-left boxes.
        try await dock.track(
            [DockAccessory.Observation(identifier: 1, type: .humanFace, rect: VisionRect(x: 0.4, y: 0.6, width: 0.1, height: 0.2))],
            cameraInformation: DockAccessory.CameraInformation(
                horizontalFieldOfViewRadians: 1.2, aspectRatio: 16.0 / 9,
                captureTimeSeconds: 1))
        #expect(try await manager.status().counters.observations == 1)
        // An appearance goes with its observation: dockd checks it (the same length on one
        // connection, 4 to 512 values) and names the one it refuses.
        let camera = DockAccessory.CameraInformation(horizontalFieldOfViewRadians: 1.2, aspectRatio: 16.0 / 9, captureTimeSeconds: 2)
        let body = VisionRect(x: 0.3, y: 0.1, width: 0.2, height: 0.7)
        try await dock.track(
            [DockAccessory.Observation(identifier: 2, type: .humanBody, rect: body, appearance: [0.5, 0.25, 0.125, 0.125, 0, 0])],
            cameraInformation: camera)
        #expect(try await manager.status().counters.observations == 2)
        for (appearance, reason) in [([Float](repeating: 1, count: 3), "4 to 512"), ([1, 2, 3, 4], "earlier ones")] {
            do {
                try await dock.track(
                    [DockAccessory.Observation(identifier: 2, type: .humanBody, rect: body, appearance: appearance)],
                    cameraInformation: camera)
                Issue.record("an appearance of \(appearance.count) values after 6 was taken")
            } catch {
                guard case .invalidParameter(let refused)? = error.failure else {
                    Issue.record("not InvalidParameter: \(error)")
                    continue
                }
                #expect(refused.parameter == "observations[0].appearance", "\(refused)")
                #expect(refused.reason.contains(reason), "\(refused.reason)")
            }
        }
        #expect(try await manager.status().counters.observations == 2, "a refused call adds nothing")
        try await dock.setFramingMode(.left)
        // The region of interest has Vision's origin too: its bottom edge at 0.3, 0.5 high, is
        // dockd's top edge at 1 - 0.3 - 0.5 = 0.2.
        try await dock.setRegionOfInterest(VisionRect(x: 0.2, y: 0.3, width: 0.6, height: 0.5))
        #expect(try await manager.status().framingMode == .left)
        let region = try await manager.status().regionOfInterest
        #expect(region.x == 0.2 && region.width == 0.6 && region.height == 0.5, "\(region)")
        #expect(abs(region.y - 0.2) < 1e-9, "dockd's top-left y: \(region)")
        // Half of this one lies beyond the picture's top right: dockd keeps the rest and says so.
        let kept = try await dock.setRegionOfInterest(VisionRect(x: 0.5, y: 0.5, width: 0.8, height: 0.8))
        #expect(abs(kept.x - 0.5) < 1e-9 && abs(kept.y - 0.5) < 1e-9, "\(kept)")
        #expect(abs(kept.width - 0.5) < 1e-9 && abs(kept.height - 0.5) < 1e-9, "\(kept)")
        #expect(try await manager.status().regionOfInterest == kept.topLeft)

        try await dock.animate(motion: .yes)
        #expect(try await manager.status().motion == .idle, "animate returns when the nod has finished")
        try await manager.setSystemTrackingEnabled(true)
        #expect(try await manager.status().isTrackingEnabled)
        do {
            try await dock.setOrientation(Vector3D(x: .nan, y: 0))
            Issue.record("NaN accepted")
        } catch {
            // JSON has no NaN: it goes as null, which dockd refuses by name.
            guard case .invalidParameter(let refused)? = error.failure else {
                Issue.record("not InvalidParameter: \(error)")
                return
            }
            #expect(refused.parameter == "pitch", "DockKit's x is dockd's pitch")
        }
    }
}

extension DockKitClientTests {
    @Test func trackedSubjectsComeWithVisionsBottomLeftOrigin() throws {
        let summary = JSONValue.object([
            "id": .integer(7), "kind": .string("body"), "primary": .bool(true), "saliency_rank": .integer(2),
            "coasting": .bool(false),
            "box": .object(["x": .number(0.2), "y": .number(0.1), "width": .number(0.25), "height": .number(0.6)]),
        ])
        let subject = DockAccessory.TrackedSubject(try SubjectSummary(json: summary, path: "subject"))
        #expect(subject.identifier == 7 && subject.type == .person && subject.isPrimary && subject.saliencyRank == 2)
        let rect = try #require(subject.rect)
        #expect(abs(rect.y - 0.3) < 1e-12 && rect.x == 0.2 && rect.height == 0.6, "top 0.1, height 0.6 → bottom-left y 0.3")
        let behind = JSONValue.object([
            "id": .integer(8), "kind": .string("face"), "primary": .bool(false), "saliency_rank": .integer(1),
            "coasting": .bool(true),
        ])
        let unseen = DockAccessory.TrackedSubject(try SubjectSummary(json: behind, path: "subject"))
        #expect(unseen.rect == nil && unseen.type == .face)
        #expect(throws: ReplyError(path: "subject", reason: "must be an object, got a string")) {
            try SubjectSummary(json: .string("nonsense"), path: "subject")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func buttonsAndTrackingStatesStream() async throws {
        // dock-faults presses the tracking button at 1 s.
        let (dockd, socket) = try ClientProcessTests.startDaemon(scenario: "dock-faults.json")
        let manager = try DockAccessoryManager(socketPath: socket)
        let dock = try #require(try await manager.accessories().first)
        var pressed = false
        for try await event in try dock.accessoryEvents {
            if event == .trackingButton(pressed: true) {
                pressed = true
                break
            }
        }
        #expect(pressed)
        var sawFraming = false
        var followed: DockAccessory.TrackedSubject?
        for try await state in try dock.trackingStates {
            if state.framingMode == .automatic { try await dock.setFramingMode(.center) }
            if state.framingMode == .center {
                sawFraming = true
                #expect(state.isSystemTrackingEnabled, "the button turned tracking on")
            }
            // The scenario's person, tracked from the simulated camera and followed.
            if sawFraming, let primary = state.trackedSubjects.first(where: \.isPrimary), primary.rect != nil {
                followed = primary
                break
            }
        }
        #expect(sawFraming)
        let subject = try #require(followed)
        #expect(subject.type == .person && subject.saliencyRank >= 1)
        let rect = try #require(subject.rect)
        #expect(rect.y >= 0 && rect.y + rect.height <= 1 && rect.height > rect.width, "a standing person's box: \(rect)")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}

extension DockKitClientTests {
    @Test(.timeLimit(.minutes(5)))
    func streamsAndCallsShareTheManagersOneConnection() async throws {
        let (dockd, socket) = try ClientProcessTests.startDaemon()
        let manager = try DockAccessoryManager(socketPath: socket)
        let dock = try #require(try await manager.accessories().first)
        let motion = try dock.motionStates, tracking = try dock.trackingStates, changes = try manager.accessoryStateChanges
        var motionIterator = motion.makeAsyncIterator()
        #expect(try await motionIterator.next() != nil, "motion states come")
        var trackingIterator = tracking.makeAsyncIterator()
        let first = try #require(try await trackingIterator.next())
        // A call beside the streams: answered, and the streams see what it did.
        let mode: DockAccessory.FramingMode = first.framingMode == .left ? .right : .left
        try await dock.setFramingMode(mode)
        #expect(try await manager.status().framingMode.rawValue == mode.rawValue)
        var seen = false
        for _ in 0..<100 {
            guard let state = try await trackingIterator.next() else { break }
            if state.framingMode == mode {
                seen = true
                break
            }
        }
        #expect(seen, "the tracking states show the new framing")
        #expect(try await motionIterator.next() != nil, "the first stream still runs")
        _ = changes
        // dockd logs each connection with the client's process as it accepts it, and the
        // manager's were accepted before the calls above were answered. A connection of the
        // test's own, opened and closed now, is logged after them: once its end is read (the only
        // "disconnected": the manager's connection stays open), so is every connection before it.
        var marker: VarlinkTestClient? = try VarlinkTestClient(path: socket)
        #expect(marker != nil)
        marker = nil
        #expect(dockd.waitForErrorLine(containing: " disconnected") != nil, "the marker's end is logged")
        let connections = dockd.errorLines.filter { $0.contains("connected (pid \(getpid()),") }
        #expect(connections.count == 2, "the manager's one connection, and the marker's: \(connections)")
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
