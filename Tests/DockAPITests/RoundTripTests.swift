import DockJSON
import DockVocabulary
import Testing

@testable import DockAPI

/// The API typed in both directions: every call a client encodes parses back into the same call,
/// and every reply and event the daemon encodes decodes into the same values, after a trip through
/// the JSON text (where 1.0 comes back as an integer); a missing or mistyped field is an error
/// that names it.
@Suite struct RoundTripTests {
    /// The bytes of a call or a reply read back as the other side reads them.
    static func reread(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue.parse(bytes: Array(bytes.dropLast())) }

    static let box = NormalizedRect(x: 0.25, y: 0.125, width: 0.5, height: 0.375)

    /// Calls of every method, each with and without its optional parameters.
    static let calls: [DockCall.Parsed] = {
        let batch = ObservationBatch(
            observations: [
                Observation(kind: .face, box: box, confidence: 0.75, identifier: 42),
                Observation(kind: .body, box: NormalizedRect(x: 0, y: 0, width: 1, height: 1), confidence: 1),
                // A descriptor's floats travel as doubles and come back bit for bit,
                // whole ones too (the parser makes 3 an integer).
                Observation(kind: .body, box: box, confidence: 0.5, appearance: [0.1, -1, 3, 0, 1e-7, .greatestFiniteMagnitude]),
            ],
            camera: CameraInformation(
                horizontalFieldOfViewRadians: 1.2, aspectRatio: 16.0 / 9, orientation: .rotatedClockwise,
                isMirrored: true),
            captureTime: .nanoseconds(12_345_678_901))
        let calls: [DockCall] = [
            .getStatus, .listAccessories, .watch, .serviceInfo, .interfaceDescription("io.dockd.Dock"),
            .host(
                .motion(
                    .velocity(yawRadiansPerSecond: 0.5, pitchRadiansPerSecond: -0.25, duration: .milliseconds(1500)),
                    takeOver: true, waitsForEnd: true)),
            .host(
                .motion(.velocity(yawRadiansPerSecond: 0, pitchRadiansPerSecond: 0.1, duration: nil), takeOver: false, waitsForEnd: false)),
            .host(
                .motion(
                    .orientation(yawRadians: 1, pitchRadians: -0.5, isRelative: true, pace: .duration(.seconds(2))),
                    takeOver: false, waitsForEnd: true)),
            .host(
                .motion(
                    .orientation(yawRadians: 0.3, pitchRadians: 0, isRelative: false, pace: .maximumSpeed(0.75)),
                    takeOver: true, waitsForEnd: false)),
            .host(
                .motion(
                    .orientation(yawRadians: -0.3, pitchRadians: 0.2, isRelative: false, pace: .fastest),
                    takeOver: false, waitsForEnd: false)),
            .host(.motion(.animate(.kapow), takeOver: true, waitsForEnd: true)),
            .host(.stop(takeOver: true)), .host(.stop(takeOver: false)),
            .host(.acquireControl(takeOver: true)), .host(.releaseControl),
            .host(.setSystemTracking(true)), .host(.setSystemTracking(false)),
            .host(
                .setLimits(
                    LimitRequest(
                        yawRadians: -1...1, pitchRadians: -0.5...0.25, yawSpeedRadiansPerSecond: 0.5,
                        pitchSpeedRadiansPerSecond: 0.5))),
            .host(.setLimits(LimitRequest(pitchRadians: 0...0))), .host(.setLimits(LimitRequest())),
            .host(.setFramingMode(.left)), .host(.setShotSize(.head)), .host(.setShotSize(.off)),
            .host(.setShotSize(.fraction(0.45))), .host(.setRegionOfInterest(box)), .host(.setRegionOfInterest(.fullImage)),
            .host(.selectSubjects([3, 7])), .host(.selectSubjects([])),
            .host(.selectSubject(at: NormalizedPoint(x: 0.5, y: 0.625))), .host(.setZoom(0.25)), .host(.setZoom(1)),
            .host(.track(batch)),
            .host(.track(ObservationBatch(observations: [], camera: batch.camera, captureTime: .zero))),
            .host(.savePreset(name: "stage left")), .host(.listPresets), .host(.deletePreset(name: "Bühne")),
            .host(.recallPreset(name: "stage", takeOver: true, waitsForEnd: false)),
            .host(.recallPreset(name: "x", takeOver: false, waitsForEnd: true)),
            .host(.setLostBehaviour(after: nil, action: nil)), .host(.setLostBehaviour(after: .milliseconds(2500), action: .hold)),
            .host(.setLostBehaviour(after: .zero, action: .zoomOut)), .host(.setLostBehaviour(after: nil, action: .home)),
            .host(.setLostBehaviour(after: nil, action: .pose(yawRadians: 0.5, pitchRadians: -0.125))),
            .host(.setLostBehaviour(after: .seconds(3600), action: .preset(name: "door"))),
            .host(.setFramingSpeed(FramingSpeedChange())), .host(.setFramingSpeed(FramingSpeedChange(profile: "smooth"))),
            .host(
                .setFramingSpeed(
                    FramingSpeedChange(
                        profile: "fast", yawMaximumSpeed: 2, yawAcceleration: 6, yawDeadBand: 0.03, pitchMaximumSpeed: 1,
                        pitchAcceleration: 4, pitchDeadBand: 0))),
        ]
        return calls.flatMap { call -> [DockCall.Parsed] in
            switch call {
            case .listAccessories, .serviceInfo, .interfaceDescription: [DockCall.Parsed(call: call)]
            default: [DockCall.Parsed(call: call), DockCall.Parsed(call: call, accessory: "SIM-0001")]
            }
        }
    }()

    @Test func everyCallParsesBackIntoTheSameCall() throws {
        for call in Self.calls {
            let varlink = call.encoded
            let sent = try VarlinkCall.parse(Array(varlink.bytes.dropLast()))
            #expect(sent.method == varlink.method && sent.wantsMore == varlink.wantsMore && sent.parameters.keys == varlink.parameters.keys)
            #expect(try DockCall.parse(sent) == call, "\(varlink.method) \(JSONValue.object(varlink.parameters).serialized)")
        }
        let methods = Set(Self.calls.map { $0.encoded.method })
        for method in DockMethod.allCases {
            #expect(methods.contains(method.qualifiedName), "\(method) has a round trip")
        }
        #expect(DockCall.Parsed(call: .watch).encoded.wantsMore, "Watch streams")
    }

    @Test func requestsWithoutAWireFormOfTheirOwnEncodeAsTheirNearestCall() throws {
        let stop = DockCall.host(.motion(.stop, takeOver: true, waitsForEnd: false)).encoded()
        #expect(try DockCall.parse(stop).call == .host(.stop(takeOver: true)))
        let limits = DockCall.host(.setLimits(LimitRequest(yawSpeedRadiansPerSecond: 2, pitchSpeedRadiansPerSecond: 1))).encoded()
        #expect(limits.parameters["max_speed"] == .number(1), "the lower speed of the two")
    }

    /// A status with every optional field present.
    static func fullStatus() -> Dock.Status {
        Dock.Status(
            state: .ready, isDocked: true,
            accessory: Dock.Accessory(
                identifier: "SIM-0001", device: "/dev/dock0", model: "DK-1 Demo", firmwareVersion: "1.0.0",
                protocolName: "dock-serial", protocolVersion: 1, capabilities: ["failsafe", "telemetry_stream"],
                lacks: ["velocity_ttl", "zoom"]),
            pose: Dock.Pose(yawRadians: 0.5, pitchRadians: -0.25, yawRadiansPerSecond: 1, pitchRadiansPerSecond: 0, ageSeconds: 0.02),
            limits: Dock.Limits(
                yawRadians: -2.96706...2.96706, pitchRadians: -0.523599...1.047198, yawSpeedRadiansPerSecond: 3.141593,
                pitchSpeedRadiansPerSecond: 1.570796),
            isTrackingEnabled: true, framingMode: .right, regionOfInterest: box, selectedSubjects: [2, 5],
            controller: .client(7, isExplicit: true), motion: .velocity,
            faults: [
                Dock.Fault(code: "over_temperature", axis: .pitch, isActive: true),
                Dock.Fault(code: "failsafe_stop", axis: nil, isActive: true),
            ],
            tracker: .following, isSubjectInFrame: true, primary: 2,
            subjects: [
                SubjectSummary(identifier: 2, kind: .face, box: box, isPrimary: true, saliencyRank: 1, isCoasting: false),
                SubjectSummary(identifier: 5, kind: .object, box: nil, isPrimary: false, saliencyRank: 2, isCoasting: true),
            ],
            loop: Dock.Loop(ticks: 900, missed: 1, latenessP50Seconds: 0.000_12, latenessP99Seconds: 0.002, latenessMaximumSeconds: 0.004),
            counters: Dock.Counters(badFrames: 1, reconnects: 2, refusals: 3, observations: 4, cameraFrames: 5))
    }

    /// A status with every optional field absent: no dock yet.
    static let emptyStatus = Dock.Status(
        state: .disconnected, isDocked: false, accessory: nil, pose: nil, limits: nil, isTrackingEnabled: false,
        framingMode: .automatic, regionOfInterest: .fullImage, selectedSubjects: [], controller: .none, motion: .idle, faults: [],
        tracker: .idle, isSubjectInFrame: false, primary: nil, subjects: [], loop: .none,
        counters: Dock.Counters(badFrames: 0, reconnects: 0, refusals: 0, observations: 0, cameraFrames: 0))

    /// The host's status is in enums; the API alone names them, each case once, as the interface says,
    /// and every host case has its API case.
    /// The core names a refused or clamped parameter by a `MotionParameter`; the API spells it as
    /// the method that took it does (before, a limits request's range was refused as `yaw_range`,
    /// a parameter no method has).
    @Test func everyMotionParameterIsSpelledAsItsMethodTakesIt() {
        func parameters(of method: String) -> Set<String> {
            guard let line = DockInterface.definition.split(separator: "\n").first(where: { $0.hasPrefix("method \(method)(") }),
                let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")")
            else { return [] }
            return Set(
                line[line.index(after: open)..<close].split(separator: ",").compactMap {
                    $0.split(separator: ":").first.map { String($0.filter { $0 != " " }) }
                })
        }
        let motion = parameters(of: "SetVelocity").union(parameters(of: "SetOrientation"))
        let limits = parameters(of: "SetLimits")
        #expect(limits == ["yaw", "pitch", "max_speed", "accessory"])
        for parameter in [MotionParameter.yaw, .pitch, .duration, .speed] {
            #expect(motion.contains(parameter.wireName), "\(parameter) is \(parameter.wireName)")
        }
        for parameter in [MotionParameter.yawRange, .pitchRange, .yawMaximumSpeed, .pitchMaximumSpeed] {
            #expect(limits.contains(parameter.wireName), "\(parameter) is \(parameter.wireName)")
        }
        #expect(
            Dock.Failure(MotionError.outOfRange(field: .pitchRange, allowed: -1...1)).reply.parameters["parameter"]
                == .string("pitch"))
    }

    @Test func everyStateMotionAndTrackerCaseHasItsOwnWireName() {
        func names<Value: CaseIterable & RawRepresentable<String> & Equatable>(_ type: Value.Type) -> [String] {
            let names = Value.allCases.map(\.rawValue)
            #expect(Set(names).count == names.count, "\(Value.self): two cases share a name")
            for value in Value.allCases { #expect(Value(rawValue: value.rawValue) == value) }
            #expect(Value(rawValue: "nonsense") == nil)
            return names
        }
        #expect(names(Dock.Status.State.self) == ["disconnected", "connecting", "handshaking", "ready", "incompatible"])
        #expect(names(Dock.Status.Motion.self) == ["idle", "velocity", "moving", "animating", "settling"])
        #expect(names(Dock.Status.Tracker.self) == ["idle", "following", "holding", "returning", "paused"])
    }

    @Test func statusesDecodeIntoTheValuesTheDaemonEncoded() throws {
        for status in [Self.fullStatus(), Self.emptyStatus] {
            let reply = VarlinkReply(.success(.status(status)))
            let parameters = try Self.reread(reply.bytes)["parameters"]?.objectMembers ?? [:]
            #expect(try Dock.Reply(.getStatus, parameters: parameters) == .status(status))
            #expect(reply.parameters == ["status": status.json])
        }
    }

    @Test func everyReplyDecodesIntoWhatDockdSent() throws {
        let results = [
            Dock.MotionResult(), Dock.MotionResult(clamped: ["yaw", "pitch"], cancelledAnimation: .wake, ended: .completed(.reached)),
            Dock.MotionResult(ended: .completed(.finished)), Dock.MotionResult(ended: .completed(.expired)),
            Dock.MotionResult(ended: .completed(.timedOut)), Dock.MotionResult(ended: .replaced(byClient: 4)),
            Dock.MotionResult(ended: .stopped(byClient: 9)), Dock.MotionResult(ended: .stopped(byClient: nil)),
        ]
        var cases: [(DockMethod, Dock.Reply)] = results.map { (.setOrientation, .motion($0)) }
        cases += [
            (.setLimits, .limits(try #require(Self.fullStatus().limits))), (.selectSubjectAt, .subject(12)),
            (.selectSubjects, .selection(untracked: [999, 4])), (.selectSubjects, .selection(untracked: [])),
            (.setRegionOfInterest, .region(NormalizedRect(x: 0.5, y: 0.25, width: 0.5, height: 0.75))),
            (.setZoom, .zoom(0.5)), (.stop, .done), (.track, .done),
            (
                .listAccessories,
                .accessories([
                    Dock.AccessoryEntry(name: "desk", state: .ready, device: "/dev/dock0", accessory: Self.fullStatus().accessory),
                    Dock.AccessoryEntry(name: "stage", state: .connecting, device: "udp:192.0.2.7:52381", accessory: nil),
                ])
            ),
            (.listAccessories, .accessories([])),
            (.savePreset, .preset(Preset(name: "stage", yawRadians: 0.5, pitchRadians: -0.25, zoomFraction: 0.75))),
            (.savePreset, .preset(Preset(name: "desk", yawRadians: 0, pitchRadians: 1))),
            (.listPresets, .presets([])), (.listPresets, .presets([Preset(name: "a", yawRadians: 1, pitchRadians: 2, zoomFraction: 0)])),
            (.recallPreset, .motion(Dock.MotionResult(ended: .completed(.reached)))), (.deletePreset, .done),
            (.setLostBehaviour, .lostBehaviour(LostBehaviour(after: .seconds(5), action: .home))),
            (.setLostBehaviour, .lostBehaviour(LostBehaviour(after: .milliseconds(250), action: .preset(name: "door")))),
            (.setLostBehaviour, .lostBehaviour(LostBehaviour(after: .zero, action: .pose(yawRadians: -1, pitchRadians: 0.5)))),
            (.setLostBehaviour, .lostBehaviour(LostBehaviour(after: .seconds(1), action: .zoomOut))),
            (.setFramingSpeed, .framingSpeed(Dock.FramingSpeedState(speed: FramingSpeed(.smooth), applied: nil))),
            (
                .setFramingSpeed,
                .framingSpeed(
                    Dock.FramingSpeedState(
                        speed: FramingSpeed(.fast),
                        applied: FramingSpeed(profile: .fast, yaw: FramingSpeed(.normal).yaw, pitch: FramingSpeed(.normal).pitch)))
            ),
        ]
        for (method, sent) in cases {
            let reply = try Self.reread(VarlinkReply(.success(sent)).bytes)
            #expect(try Dock.Reply(method, parameters: reply["parameters"]?.objectMembers ?? [:]) == sent, "\(sent)")
        }
        #expect(Dock.MotionEnd.completed(.reached).isSuccess && Dock.MotionEnd.completed(.finished).isSuccess)
        #expect(!Dock.MotionEnd.completed(.timedOut).isSuccess, "timed out is not a success")
        #expect(!Dock.MotionEnd.replaced(byClient: 4).isSuccess && !Dock.MotionEnd.stopped(byClient: nil).isSuccess)
    }

    @Test func everyErrorDecodesWithItsFields() throws {
        let failures: [Dock.Failure] = [
            .notReady, .busy(holder: 3), .noSubjectFound, .notSupported(capability: "zoom"),
            .dockRefused(reason: "out_of_range", detail: 2), .dockFault(Dock.Fault(code: "motor_stall", axis: .yaw, isActive: true)),
            .invalidParameter(ParameterError(parameter: "yaw", reason: "must be finite")), .noSuchAccessory("X-1"),
            .accessoryAmbiguous(["desk", "stage"]),
            .methodNotFound("io.dockd.Dock.Fly"), .interfaceNotFound("com.example"), .expectedMore,
            .other(name: "com.example.Odd", parameters: ["n": .integer(1)]),
            .noSuchPreset("stage"), .presetsUnavailable(file: "/var/lib/dockd/presets.json", reason: "cannot be written"),
        ]
        var cases: [(VarlinkReply, Dock.Failure)] = failures.map { ($0.reply, $0) }
        cases += [
            (DockCall.Refusal.methodNotFound("io.dockd.Dock.Fly").reply, .methodNotFound("io.dockd.Dock.Fly")),
            (DockCall.Refusal.interfaceNotFound("com.example").reply, .interfaceNotFound("com.example")),
            (.failure(VarlinkService.Error.expectedMore), .expectedMore),
        ]
        for (reply, expected) in cases {
            let reread = try Self.reread(reply.bytes)
            let name = try #require(reread["error"]?.stringValue)
            #expect(try Dock.Failure(name: name, parameters: reread["parameters"]?.objectMembers ?? [:]) == expected)
        }
        #expect(throws: ReplyError(path: "holder", reason: "required")) {
            try Dock.Failure(name: DockInterface.Error.busy, parameters: [:])
        }
    }

    /// One event of every kind.
    static let events: [Dock.Event.Payload] = [
        .status, .attached(fullStatus().accessory!), .docked, .undocked, .disconnected,
        .button(.trackingButton(isPressed: true)), .button(.shutterButton(isPressed: false)), .button(.flipButton(isPressed: true)),
        .button(.zoom(steps: -2)), .button(.customButton(identifier: 9, isPressed: true)), .button(.dockChanged(isDocked: false)),
        .fault(Dock.Fault(code: "encoder_error", axis: .yaw, isActive: false)),
        .refused(Dock.CommandRefusal(reason: "faulted", detail: 1, command: "set_velocity")),
        .refused(Dock.CommandRefusal(reason: "unsupported", detail: 0, command: nil)),
        .control(from: .systemTracker, to: .client(3, isExplicit: false)), .control(from: .unattended(formerClient: 4), to: .none),
        .framing(.center),
        .motionEnded(client: 3, ending: .completed(.expired)), .motionEnded(client: 3, ending: .stopped(byClient: nil)),
        .motionEnded(client: 5, ending: .replaced(byClient: 6)),
    ]

    @Test func everyWatchEventDecodesIntoWhatHappened() throws {
        var kinds = Set<Dock.Event.Kind>()
        for payload in Self.events {
            let event = Dock.Event(
                timeSeconds: 1.25, payload: payload, detail: "what happened", status: Self.fullStatus(),
                accessoryName: kinds.count.isMultiple(of: 2) ? "desk" : nil)
            let reply = VarlinkReply.watch(event)
            #expect(reply.continues)
            let reread = try Self.reread(reply.bytes)
            let decoded = try Dock.Reply(.watch, parameters: reread["parameters"]?.objectMembers ?? [:])
            #expect(decoded == .event(event), "\(payload)")
            #expect(reread["parameters"]?["event"]?["kind"] == .string(event.kind.rawValue))
            kinds.insert(event.kind)
        }
        #expect(kinds == Set(Dock.Event.Kind.allCases), "every kind is covered")
    }

    /// `parameters` with the value at `path` replaced (nil: removed).
    static func replacing(_ path: [String], in value: JSONValue, with replacement: JSONValue?) -> JSONValue? {
        guard let key = path.first else { return replacement }
        switch value {
        case .object(var members):
            if path.count == 1 {
                members[key] = replacement
            } else {
                members[key] = members[key].flatMap { replacing(Array(path.dropFirst()), in: $0, with: replacement) }
            }
            return .object(members)
        case .array(var elements):
            let index = Int(key)!
            if let changed = replacing(Array(path.dropFirst()), in: elements[index], with: replacement) { elements[index] = changed }
            return .array(elements)
        default:
            return value
        }
    }

    @Test func aMissingOrMistypedFieldIsAnErrorThatNamesIt() throws {
        let status = JSONValue.object(["status": Self.fullStatus().json])
        let cases: [([String], JSONValue?, ReplyError)] = [
            (["status", "pose", "yaw"], nil, ReplyError(path: "status.pose.yaw", reason: "required")),
            (["status", "pose", "yaw"], .string("0"), ReplyError(path: "status.pose.yaw", reason: "must be a number, got a string")),
            (["status", "subjects", "0", "saliency_rank"], nil, ReplyError(path: "status.subjects[0].saliency_rank", reason: "required")),
            (
                ["status", "subjects", "0", "saliency_rank"], .number(1.5),
                ReplyError(path: "status.subjects[0].saliency_rank", reason: "must be a whole number, got a number")
            ),
            (["status", "accessory", "id"], nil, ReplyError(path: "status.accessory.id", reason: "required")),
            (["status", "limits", "yaw", "min"], nil, ReplyError(path: "status.limits.yaw.min", reason: "required")),
            (["status", "controller", "client"], nil, ReplyError(path: "status.controller.client", reason: "required")),
            (
                ["status", "state"], .string("asleep"),
                ReplyError(
                    path: "status.state",
                    reason: "must be one of disconnected, connecting, handshaking, ready, incompatible, got \"asleep\"")
            ),
            (["status", "counters"], .array([]), ReplyError(path: "status.counters", reason: "must be an object, got an array")),
            (
                ["status", "faults", "1", "axis"], .string("roll"),
                ReplyError(path: "status.faults[1].axis", reason: "must be one of yaw, pitch, got \"roll\"")
            ),
        ]
        for (path, replacement, error) in cases {
            let broken = try #require(Self.replacing(path, in: status, with: replacement)?.objectMembers)
            #expect(throws: error, "\(path)") { try Dock.Reply(.getStatus, parameters: broken) }
        }
        // An event of a kind whose own field is missing.
        let faultEvent = Dock.Event(timeSeconds: 0, payload: Self.events[11], detail: "", status: Self.fullStatus())
        #expect(faultEvent.kind == .fault)
        let fault = VarlinkReply.watch(faultEvent).parameters
        let withoutFault = try #require(Self.replacing(["event", "fault"], in: .object(fault), with: nil)?.objectMembers)
        #expect(throws: ReplyError(path: "event.fault", reason: "required")) { try Dock.Reply(.watch, parameters: withoutFault) }
        let unknownKind = try #require(Self.replacing(["event", "kind"], in: .object(fault), with: .string("party"))?.objectMembers)
        #expect(throws: ReplyError.self) { try Dock.Reply(.watch, parameters: unknownKind) }
        // A field a newer dockd adds is no error.
        let newer = try #require(Self.replacing(["status", "colour"], in: status, with: .string("blue"))?.objectMembers)
        #expect(try Dock.Reply(.getStatus, parameters: newer) == .status(Self.fullStatus()))
    }

    @Test func aNumberBeyondADoublesRangeIsAnInvalidParameterNamedByItsPath() throws {
        func refusal(_ text: String) throws -> DockCall.Refusal? {
            let call = try VarlinkCall.parse(Array(text.utf8))
            do {
                _ = try DockCall.parse(call)
                return nil
            } catch {
                return error
            }
        }
        #expect(
            try refusal(#"{"method":"io.dockd.Dock.SetVelocity","parameters":{"yaw":1e999,"pitch":0}}"#)
                == .parameter(ParameterError(parameter: "yaw", reason: "must be finite")))
        #expect(
            try refusal(#"{"method":"io.dockd.Dock.SelectSubjectAt","parameters":{"point":{"x":-1e999,"y":0.5}}}"#)
                == .parameter(ParameterError(parameter: "point.x", reason: "must be finite")))
        #expect(
            try refusal(#"{"method":"io.dockd.Dock.SelectSubjects","parameters":{"subjects":[1,1e999]}}"#)
                == .parameter(ParameterError(parameter: "subjects[1]", reason: "must be a subject ID (a whole number)")))
        let digits = "1" + String(repeating: "0", count: 400)
        #expect(
            try refusal(
                #"{"method":"io.dockd.Dock.Track","parameters":{"observations":[],"camera":{"horizontal_fov":1,"aspect_ratio":1},"capture_time":\#(digits)}}"#
            )
                == .parameter(ParameterError(parameter: "capture_time", reason: "must be finite")))
        #expect(throws: (any Error).self, "JSON text elsewhere still refuses it") { try JSONValue.parse(bytes: Array("1e999".utf8)) }
    }
}
