import DockJSON
import DockPolicy
import DockProtocol
import DockVocabulary
import Testing

@testable import DockAPI
@testable import DockLinks

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
            .host(.setFramingMode(.left)), .host(.setRegionOfInterest(box)), .host(.setRegionOfInterest(.fullImage)),
            .host(.selectSubjects([3, 7])), .host(.selectSubjects([])),
            .host(.selectSubject(at: NormalizedPoint(x: 0.5, y: 0.625))), .host(.setZoom(0.25)), .host(.setZoom(1)),
            .host(.track(batch)),
            .host(.track(ObservationBatch(observations: [], camera: batch.camera, captureTime: .zero))),
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
    static func fullStatus() -> DockStatus {
        var status = HostPolicy().status(now: .zero, device: "/dev/dock0")
        status.state = .ready
        status.isDocked = true
        status.info = ExampleSession.info
        status.protocolName = "dock-serial"
        status.capabilities = [.failsafe, .telemetryStream]
        status.pose = Pose(yawRadians: 0.5, pitchRadians: -0.25, yawRadiansPerSecond: 1, pitchRadiansPerSecond: 0)
        status.poseAge = .milliseconds(20)
        status.limits = MotionLimits(info: ExampleSession.info)
        status.isTrackingEnabled = true
        status.framingMode = .right
        status.regionOfInterest = box
        status.selectedSubjects = [2, 5]
        status.controller = .client(7, isExplicit: true)
        status.motion = .velocity
        status.faults = [
            FaultReport(accessoryTime: AccessoryTimestamp(microseconds: 5), code: .overTemperature, axis: .pitch, isActive: true),
            FaultReport(accessoryTime: AccessoryTimestamp(microseconds: 5), code: .failsafeStop, axis: nil, isActive: true),
        ]
        status.badFrames = 1
        status.reconnects = 2
        status.refusals = 3
        status.observations = 4
        status.cameraFrames = 5
        status.subjects = [
            SubjectSummary(identifier: 2, kind: .face, box: box, isPrimary: true, saliencyRank: 1, isCoasting: false),
            SubjectSummary(identifier: 5, kind: .object, box: nil, isPrimary: false, saliencyRank: 2, isCoasting: true),
        ]
        status.primary = 2
        status.tracker = .following
        status.isSubjectInFrame = true
        status.loopTicks = 900
        status.loopMissedTicks = 1
        status.loopLateness = LoopLateness(p50: .microseconds(120), p99: .milliseconds(2), maximum: .milliseconds(4))
        return status
    }

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
            DockEncoding.reply(.invalid(.outOfRange(field: .pitchRange, allowed: -1...1))).parameters["parameter"]
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
        #expect(names(Dock.Status.Tracker.self) == ["idle", "following", "holding", "returning"])
        #expect(DockStatus.State.allCases.map { Dock.Status.State($0).rawValue } == names(Dock.Status.State.self))
        #expect(DockStatus.Motion.allCases.map { Dock.Status.Motion($0).rawValue } == names(Dock.Status.Motion.self))
        #expect(DockStatus.Tracker.allCases.map { Dock.Status.Tracker($0).rawValue } == names(Dock.Status.Tracker.self))
    }

    @Test func statusesDecodeIntoTheValuesTheDaemonEncoded() throws {
        for status in [Self.fullStatus(), HostPolicy().status(now: .zero, device: "memory")] {
            let reply = VarlinkReply.success(["status": DockEncoding.json(status)])
            let parameters = try Self.reread(reply.bytes)["parameters"]?.objectMembers ?? [:]
            let decoded = try Dock.Reply(.getStatus, parameters: parameters)
            #expect(decoded == .status(Dock.Status(status)))
            #expect(Dock.Status(status).json == DockEncoding.json(status))
        }
        #expect(Dock.Status(Self.fullStatus()).accessory?.capabilities == ["failsafe", "telemetry_stream"])
    }

    @Test func everyReplyDecodesIntoWhatTheHostAnswered() throws {
        let outcomes = [
            MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: nil),
            MotionOutcome(clampedFields: [.yaw, .pitch], cancelledAnimation: .wake, ending: .completed(.orientationReached)),
            MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: .completed(.animationFinished(.no))),
            MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: .completed(.velocityExpired)),
            MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: .completed(.timedOut)),
            MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: .replaced(byClient: 4)),
            MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: .stopped(byClient: 9)),
            MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: .stopped(byClient: nil)),
        ]
        let limits = MotionLimits(info: ExampleSession.info)
        var cases: [(DockMethod, HostReply, Dock.Reply)] = outcomes.map { (.setOrientation, .motion($0), .motion(Dock.MotionResult($0))) }
        cases += [
            (.setLimits, .limits(limits), .limits(Dock.Limits(limits))), (.selectSubjectAt, .subject(12), .subject(12)),
            (.selectSubjects, .selection(untracked: [999, 4]), .selection(untracked: [999, 4])),
            (.selectSubjects, .selection(untracked: []), .selection(untracked: [])),
            (
                .setRegionOfInterest, .region(NormalizedRect(x: 0.5, y: 0.25, width: 0.5, height: 0.75)),
                .region(NormalizedRect(x: 0.5, y: 0.25, width: 0.5, height: 0.75))
            ),
            (.setZoom, .zoom(0.5), .zoom(0.5)), (.stop, .done, .done), (.track, .done, .done),
        ]
        for (method, hostReply, expected) in cases {
            let reply = try Self.reread(DockEncoding.reply(hostReply).bytes)
            #expect(try Dock.Reply(method, parameters: reply["parameters"]?.objectMembers ?? [:]) == expected, "\(hostReply)")
        }
        #expect(Dock.MotionResult(outcomes[1]).ended == .completed(.reached))
        #expect(Dock.MotionResult(outcomes[2]).ended?.isSuccess == true)
        #expect(Dock.MotionResult(outcomes[4]).ended?.isSuccess == false, "timed out is not a success")
        let listed = [Dock.Accessory(ExampleSession.info, status: Self.fullStatus())]
        let list = try Self.reread(VarlinkReply.success(["accessories": .array(listed.map(\.json))]).bytes)
        #expect(try Dock.Reply(.listAccessories, parameters: list["parameters"]?.objectMembers ?? [:]) == .accessories(listed))
    }

    @Test func everyErrorDecodesWithItsFields() throws {
        let fault = FaultReport(accessoryTime: AccessoryTimestamp(microseconds: 0), code: .motorStall, axis: .yaw, isActive: true)
        let cases: [(VarlinkReply, Dock.Failure)] = [
            (DockEncoding.reply(.notReady), .notReady), (DockEncoding.reply(.busy(holder: 3)), .busy(holder: 3)),
            (DockEncoding.reply(.noSubjectFound), .noSubjectFound),
            (DockEncoding.reply(.notSupported("zoom")), .notSupported(capability: "zoom")),
            (DockEncoding.reply(.dockRefused(.outOfRange, detail: 2)), .dockRefused(reason: "out_of_range", detail: 2)),
            (DockEncoding.reply(.dockFault(fault)), .dockFault(Dock.Fault(code: "motor_stall", axis: .yaw, isActive: true))),
            (
                DockEncoding.reply(.invalid(.notFinite(field: .yaw))),
                .invalidParameter(ParameterError(parameter: "yaw", reason: "must be finite"))
            ),
            (DockEncoding.noSuchAccessory("X-1"), .noSuchAccessory("X-1")),
            (DockCall.Refusal.methodNotFound("io.dockd.Dock.Fly").reply, .methodNotFound("io.dockd.Dock.Fly")),
            (DockCall.Refusal.interfaceNotFound("com.example").reply, .interfaceNotFound("com.example")),
            (.failure(VarlinkService.Error.expectedMore), .expectedMore),
            (.failure("com.example.Odd", ["n": .integer(1)]), .other(name: "com.example.Odd", parameters: ["n": .integer(1)])),
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
    static let events: [HostEvent?] = [
        nil, .attached(ExampleSession.info, isDocked: true), .docked, .undocked, .disconnected,
        .button(.trackingButton(isPressed: true)), .button(.shutterButton(isPressed: false)), .button(.flipButton(isPressed: true)),
        .button(.zoom(steps: -2)), .button(.customButton(identifier: 9, isPressed: true)), .button(.dockChanged(isDocked: false)),
        .fault(FaultReport(accessoryTime: AccessoryTimestamp(microseconds: 1), code: .encoderError, axis: .yaw, isActive: false)),
        .refused(CommandRefusal(reason: .faulted, detail: 1, command: .velocity)),
        .refused(CommandRefusal(reason: .unsupported, detail: 0, command: nil)),
        .control(ControlArbiter.Change(from: .systemTracker, to: .client(3, isExplicit: false))),
        .control(ControlArbiter.Change(from: .unattended(formerClient: 4), to: .none)),
        .framing(.center),
        .motionEnded(owner: 3, ending: .completed(.velocityExpired)), .motionEnded(owner: 3, ending: .stopped(byClient: nil)),
        .motionEnded(owner: 5, ending: .replaced(byClient: 6)),
    ]

    @Test func everyWatchEventDecodesIntoWhatHappened() throws {
        var kinds = Set<Dock.Event.Kind>()
        for event in Self.events {
            let status = Self.fullStatus()
            let reply = DockEncoding.watchReply(event, time: .milliseconds(1250), status: status)
            #expect(reply.continues)
            let reread = try Self.reread(reply.bytes)
            let decoded = try Dock.Reply(.watch, parameters: reread["parameters"]?.objectMembers ?? [:])
            let expected = Dock.Event(event, time: .milliseconds(1250), status: status)
            #expect(decoded == .event(expected), "\(String(describing: event))")
            #expect(reread["parameters"]?["event"]?["kind"] == .string(expected.kind.rawValue))
            kinds.insert(expected.kind)
        }
        #expect(kinds == Set(Dock.Event.Kind.allCases), "every kind is covered")
        let attached = Dock.Event(.attached(ExampleSession.info, isDocked: true), time: .zero, status: Self.fullStatus())
        #expect(attached.payload == .attached(Dock.Accessory(ExampleSession.info, status: Self.fullStatus())))
        #expect(attached.detail == "DK-1 Demo SIM-0001, docked")
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
        let status = JSONValue.object(["status": DockEncoding.json(Self.fullStatus())])
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
        let fault = DockEncoding.watchReply(Self.events[11], time: .zero, status: Self.fullStatus()).parameters
        let withoutFault = try #require(Self.replacing(["event", "fault"], in: .object(fault), with: nil)?.objectMembers)
        #expect(throws: ReplyError(path: "event.fault", reason: "required")) { try Dock.Reply(.watch, parameters: withoutFault) }
        let unknownKind = try #require(Self.replacing(["event", "kind"], in: .object(fault), with: .string("party"))?.objectMembers)
        #expect(throws: ReplyError.self) { try Dock.Reply(.watch, parameters: unknownKind) }
        // A field a newer dockd adds is no error.
        let newer = try #require(Self.replacing(["status", "colour"], in: status, with: .string("blue"))?.objectMembers)
        #expect(try Dock.Reply(.getStatus, parameters: newer) == .status(Dock.Status(Self.fullStatus())))
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
