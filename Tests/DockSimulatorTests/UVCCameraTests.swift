import DockSimulator
import Testing
import V4L2Protocol

/// The emulated UVC webcam answers framed ioctls as uvcvideo would, from its model.
@Suite struct UVCCameraTests {
    static let tiny = UVCCameraModel.named("obsbot-tiny")!

    static func set(_ camera: inout UVCCamera, _ controls: [(id: UInt32, value: Int32)], at now: Duration) -> V4L2Frame.Reply {
        camera.handle(V4L2Frame.Request(request: V4L2Request.setExtendedControls, bytes: V4L2ExtendedControls.encode(controls)), now: now)
    }

    static func read(_ camera: inout UVCCamera, _ ids: [UInt32], at now: Duration) throws -> [Int32] {
        let reply = camera.handle(
            V4L2Frame.Request(
                request: V4L2Request.getExtendedControls,
                bytes: V4L2ExtendedControls.encode(ids.map { ($0, 0) })), now: now)
        #expect(reply.errno == 0)
        return try V4L2ExtendedControls.decode(reply.bytes).controls.map(\.value)
    }

    /// Control events as the control framework sends them: an initial event when asked, a
    /// value-change event to every other file handle subscribed (not to the writer, unless it
    /// asked for feedback), `ENOENT` when none waits, none after unsubscribing or closing; the
    /// emulation's pending count says what waits. uvcvideo knows control events only.
    @Test func controlEventsReachTheOtherSubscribers() throws {
        var camera = UVCCamera(model: Self.tiny)
        func request(_ number: UInt32, _ bytes: [UInt8], handle: Int) -> V4L2Frame.Reply {
            camera.handle(V4L2Frame.Request(request: number, bytes: bytes), now: .milliseconds(10), fileHandle: handle)
        }
        func subscribe(_ handle: Int, flags: UInt32) -> Int32 {
            request(
                V4L2Request.subscribeEvent,
                V4L2Event.subscriptionImage(type: V4L2Event.controlType, id: V4L2ControlID.panAbsolute, flags: flags), handle: handle
            ).errno
        }
        func dequeue(_ handle: Int) -> V4L2Frame.Reply {
            request(V4L2Request.dequeueEvent, [UInt8](repeating: 0, count: V4L2Event.size), handle: handle)
        }
        func pending(_ handle: Int) -> [UInt8] { request(V4L2Request.emulatedEventsPending, [0, 0, 0, 0], handle: handle).bytes }

        #expect(subscribe(1, flags: V4L2Event.sendInitial) == 0)
        #expect(subscribe(2, flags: 0) == 0)
        #expect(
            request(V4L2Request.subscribeEvent, V4L2Event.subscriptionImage(type: 5, id: 0, flags: 0), handle: 2).errno
                == LinuxErrno.invalid, "a source-change event: not uvcvideo's")
        #expect(pending(1) == [1, 0, 0, 0] && pending(2) == [0, 0, 0, 0])
        let initial = dequeue(1)
        #expect(initial.errno == 0 && initial.bytes.count == V4L2Event.size)
        #expect(Array(initial.bytes[0..<4]) == [3, 0, 0, 0] && Array(initial.bytes[8..<12]) == [3, 0, 0, 0], "ctrl, value and flags")
        #expect(Array(initial.bytes[96..<100]) == [0x08, 0x09, 0x9a, 0x00], "pan_absolute")
        #expect(dequeue(1).errno == LinuxErrno.noEntry)

        #expect(Self.set(&camera, [(V4L2ControlID.panAbsolute, 36000), (V4L2ControlID.tiltAbsolute, 0)], at: .milliseconds(20)).errno == 0)
        #expect(pending(1) == [1, 0, 0, 0], "the other handle hears the write")
        #expect(pending(2) == [1, 0, 0, 0])
        let change = dequeue(2)
        #expect(Array(change.bytes[8..<12]) == [1, 0, 0, 0] && Array(change.bytes[16..<20]) == [0xa0, 0x8c, 0, 0], "value 36000")
        // The writer (file handle 0 here) subscribed without feedback hears nothing of its own.
        #expect(subscribe(0, flags: 0) == 0)
        _ = Self.set(&camera, [(V4L2ControlID.panAbsolute, 0), (V4L2ControlID.tiltAbsolute, 0)], at: .milliseconds(30))
        #expect(pending(0) == [0, 0, 0, 0] && pending(2) == [1, 0, 0, 0])
        _ = request(V4L2Request.unsubscribeEvent, V4L2Event.subscriptionImage(type: V4L2Event.allTypes, id: 0, flags: 0), handle: 2)
        camera.closed(fileHandle: 1)
        _ = Self.set(&camera, [(V4L2ControlID.panAbsolute, 7200), (V4L2ControlID.tiltAbsolute, 0)], at: .milliseconds(40))
        #expect(pending(1) == [0, 0, 0, 0], "closed: its subscriptions went with it")
        #expect(pending(2) == [1, 0, 0, 0], "the event queued before unsubscribing stays; no new one")
    }

    /// Enumeration with `NEXT_CTRL` walks the controls in id order and ends with `EINVAL`, as
    /// v4l2-ctl expects; the ranges are the model's, the −1 minimum included.
    @Test func enumerationWalksTheModelsControls() throws {
        var camera = UVCCamera(model: Self.tiny)
        var id: UInt32 = 0
        var found: [V4L2ControlDescription] = []
        while true {
            let reply = camera.handle(
                V4L2Frame.Request(
                    request: V4L2Request.queryExtendedControl,
                    bytes: V4L2QueryExtendedControl.request(id: id | V4L2ControlFlags.nextControl.rawValue)),
                now: .zero)
            guard reply.errno == 0 else {
                #expect(reply.errno == LinuxErrno.invalid)
                break
            }
            let control = try V4L2QueryExtendedControl.decode(reply.bytes)
            found.append(control)
            id = control.id
        }
        #expect(found.map(\.id) == found.map(\.id).sorted() && found.count == 6)
        let speed = try #require(found.first { $0.id == V4L2ControlID.panSpeed })
        #expect(speed.minimum == -1 && speed.maximum == 160 && speed.defaultValue == 20)
    }

    /// Values are clamped and snapped as the control framework does; a speed's magnitude runs
    /// to the maximum in both directions; read-back is the target, and the axis gets there at
    /// the model's absolute rate.
    @Test func writesAreClampedSnappedAndReadBackAsTheTarget() throws {
        var camera = UVCCamera(model: Self.tiny)
        #expect(Self.set(&camera, [(V4L2ControlID.panAbsolute, 37000), (V4L2ControlID.tiltAbsolute, -999_999)], at: .zero).errno == 0)
        #expect(try Self.read(&camera, [V4L2ControlID.panAbsolute, V4L2ControlID.tiltAbsolute], at: .zero) == [36000, -324_000])
        #expect(camera.panArcSeconds == 0, "read back at once, not there yet")
        camera.advance(to: .milliseconds(100))
        #expect(camera.panArcSeconds > 3600 && camera.panArcSeconds < 32_400, "on its way, below 90°/s for 100 ms with the ramp")
        camera.advance(to: .seconds(1))
        #expect(abs(camera.panArcSeconds - 36000) < 5, "there, without overshoot")
        _ = Self.set(&camera, [(V4L2ControlID.panSpeed, -500)], at: .seconds(1))
        #expect(try Self.read(&camera, [V4L2ControlID.panSpeed], at: .seconds(1)) == [-160], "past the −1 minimum, to −maximum")
        camera.advance(to: .seconds(2))
        let moved = 36000 - camera.panArcSeconds, full = 160 * 0.75 * 3600
        #expect(moved > 0.85 * full && moved <= full, "160 units of 0.75°/s for 1 s, less the ramp: \(moved)″")
    }

    /// The zoom travels at the model's pace (the generic model: its range, 0 to 100, in 1.5 s),
    /// the picture magnified as it goes; a camera that reads back its target answers the target at
    /// once, one that does not answers where the zoom is; a model without a travel time jumps.
    @Test func theZoomTravelsAtTheModelsPace() throws {
        let generic = UVCCameraModel.named("generic")!
        var camera = UVCCamera(model: generic)
        #expect(Self.set(&camera, [(V4L2ControlID.zoomAbsolute, 100)], at: .zero).errno == 0)
        #expect(try Self.read(&camera, [V4L2ControlID.zoomAbsolute], at: .zero) == [100], "the target, read back at once")
        camera.advance(to: .milliseconds(750))
        #expect(abs((camera.zoomPosition ?? 0) - 50) < 1e-6 && abs(camera.magnification - 1.5) < 1e-6)
        camera.advance(to: .milliseconds(1600))
        #expect(camera.zoomPosition == 100 && camera.magnification == 2)
        // Back down, read as it goes by a camera that answers its position.
        var honest = generic
        honest.readBackIsTarget = false
        camera = UVCCamera(model: honest)
        _ = Self.set(&camera, [(V4L2ControlID.zoomAbsolute, 60)], at: .zero)
        #expect(try Self.read(&camera, [V4L2ControlID.zoomAbsolute], at: .milliseconds(300)) == [20])
        #expect(try Self.read(&camera, [V4L2ControlID.zoomAbsolute], at: .seconds(2)) == [60])
        // No travel time: at the target at once.
        var digital = generic
        digital.zoomFullTravel = .zero
        camera = UVCCamera(model: digital)
        _ = Self.set(&camera, [(V4L2ControlID.zoomAbsolute, 100)], at: .zero)
        #expect(camera.zoomPosition == 100 && camera.magnification == 2)
    }

    @Test func faultsAnswerAsTheDriverWould() {
        var camera = UVCCamera(model: Self.tiny)
        camera.failingControls = [V4L2ControlID.tiltAbsolute]
        #expect(Self.set(&camera, [(V4L2ControlID.panAbsolute, 0), (V4L2ControlID.tiltAbsolute, 0)], at: .zero).errno == LinuxErrno.io)
        camera.knowsOnlyLegacyQuery = true
        let query = V4L2Frame.Request(
            request: V4L2Request.queryExtendedControl, bytes: V4L2QueryExtendedControl.request(id: V4L2ControlID.panAbsolute))
        #expect(camera.handle(query, now: .zero).errno == LinuxErrno.notTTY)
        camera.isGone = true
        #expect(camera.handle(query, now: .zero).errno == LinuxErrno.noDevice)
        #expect(camera.handle(V4L2Frame.Request(request: 0x1234, bytes: []), now: .zero).errno == LinuxErrno.noDevice)
    }
}
