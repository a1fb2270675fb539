import DockJSON
import DockVocabulary
import Testing

@testable import DockAPI

/// Calls parsed into one typed value, and replies and events encoded with their fields.
@Suite struct DockCallTests {
    func parse(_ text: String) throws(DockCall.Refusal) -> DockCall.Parsed {
        try DockCall.parse(try! VarlinkCall.parse(Array(text.utf8)))
    }

    @Test func motionCallsParseWithTheirFlags() throws {
        let velocity = try parse(
            #"{"method":"io.dockd.Dock.SetVelocity","parameters":{"yaw":0.5,"pitch":-0.1,"duration":1,"wait":true,"accessory":"SIM-0001"}}"#
        )
        #expect(
            velocity
                == DockCall.Parsed(
                    call: .host(
                        .motion(
                            .velocity(
                                yawRadiansPerSecond: 0.5, pitchRadiansPerSecond: -0.1,
                                duration: .seconds(1)), takeOver: false, waitsForEnd: true)),
                    accessory: "SIM-0001"))
        let animate = try parse(#"{"method":"io.dockd.Dock.Animate","parameters":{"animation":"kapow","take_over":true}}"#)
        #expect(animate.call == .host(.motion(.animate(.kapow), takeOver: true, waitsForEnd: false)))
        let watch = try parse(#"{"method":"io.dockd.Dock.Watch","parameters":{"accessory":"X"},"more":true}"#)
        #expect(watch == DockCall.Parsed(call: .watch, accessory: "X"), "Watch names its accessory like every method")
        #expect(try parse(#"{"method":"io.dockd.Dock.Stop"}"#).call == .host(.stop(takeOver: false)))
    }

    @Test func badCallsAreRefusedByName() {
        #expect(
            throws: DockCall.Refusal.parameter(
                ParameterError(parameter: "duration", reason: "must be more than 0 and at most 3600 seconds"))
        ) {
            try parse(#"{"method":"io.dockd.Dock.SetVelocity","parameters":{"yaw":0.5,"pitch":0,"duration":-1}}"#)
        }
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "wait", reason: "must be true or false, got a string"))) {
            try parse(#"{"method":"io.dockd.Dock.Animate","parameters":{"animation":"yes","wait":"soon"}}"#)
        }
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "speed", reason: "unknown parameter"))) {
            try parse(#"{"method":"io.dockd.Dock.Watch","parameters":{"speed":1},"more":true}"#)
        }
        #expect(throws: DockCall.Refusal.methodNotFound("io.dockd.Dock.Fly")) { try parse(#"{"method":"io.dockd.Dock.Fly"}"#) }
        #expect(throws: DockCall.Refusal.interfaceNotFound("com.example")) { try parse(#"{"method":"com.example.Ping"}"#) }
    }

    /// Of several unknown names the first in sorted order is named, at every level, and a null
    /// counts as absent: what the checks did before they stopped sorting every object.
    @Test func theFirstUnknownNameIsNamedAndANullIsAbsent() throws {
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "alpha", reason: "unknown parameter"))) {
            try parse(#"{"method":"io.dockd.Dock.Stop","parameters":{"zulu":1,"take_over":true,"alpha":2}}"#)
        }
        let camera = #""camera":{"horizontal_fov":1.2,"aspect_ratio":1.5},"capture_time":3"#
        let box = #""box":{"x":0.1,"y":0.1,"width":0.2,"height":0.2}"#
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "colour", reason: "unknown parameter"))) {
            let observation = #"{"kind":"face",\#(box),"size":1,"colour":2}"#
            return try parse(#"{"method":"io.dockd.Dock.Track","parameters":{"observations":[\#(observation)],\#(camera)}}"#)
        }
        let observation = #"{"kind":"face",\#(box),"confidence":null}"#
        let nulls = try parse(
            #"{"method":"io.dockd.Dock.Track","parameters":{"observations":[\#(observation)],\#(camera),"accessory":null}}"#)
        guard case .host(.track(let batch)) = nulls.call else {
            Issue.record("not a Track call: \(nulls.call)")
            return
        }
        #expect(nulls.accessory == nil && batch.observations.first?.confidence == 1, "null is absent: the default confidence")
    }

    @Test func setShotSizeTakesANamedSizeOrAShareAndNamesTheFieldThatIsWrong() throws {
        func call(_ parameters: String) throws -> DockCall {
            try parse(#"{"method":"io.dockd.Dock.SetShotSize","parameters":\#(parameters)}"#).call
        }
        #expect(try call(#"{"shot":"half"}"#) == .host(.setShotSize(.half)))
        #expect(try call(#"{"shot":"fraction","fraction":0.4}"#) == .host(.setShotSize(.fraction(0.4))))
        #expect(
            throws: DockCall.Refusal.parameter(
                ParameterError(parameter: "fraction", reason: ShotSizeError.shareOutOfRange(1.5).description))
        ) {
            try call(#"{"shot":"fraction","fraction":1.5}"#)
        }
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "fraction", reason: ShotSizeError.missingShare.description))) {
            try call(#"{"shot":"fraction"}"#)
        }
        #expect(
            throws: DockCall.Refusal.parameter(ParameterError(parameter: "shot", reason: ShotSizeError.shareWithName("full").description))
        ) {
            try call(#"{"shot":"full","fraction":0.5}"#)
        }
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "shot", reason: ShotSizeError.unknown("waist").description))) {
            try call(#"{"shot":"waist"}"#)
        }
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "shot", reason: "required"))) { try call("{}") }
        #expect(DockInterface.definition.contains("method SetShotSize(shot: ShotSize, fraction: ?float, accessory: ?string) -> ()"))
    }

    @Test func setZoomTakesAFractionOfTheRange() throws {
        #expect(try parse(#"{"method":"io.dockd.Dock.SetZoom","parameters":{"zoom":0.25}}"#).call == .host(.setZoom(0.25)))
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "zoom", reason: "must be within 0...1"))) {
            try parse(#"{"method":"io.dockd.Dock.SetZoom","parameters":{"zoom":1.5}}"#)
        }
        #expect(throws: DockCall.Refusal.parameter(ParameterError(parameter: "zoom", reason: "required"))) {
            try parse(#"{"method":"io.dockd.Dock.SetZoom","parameters":{}}"#)
        }
        #expect(VarlinkReply(.success(.zoom(0.5))).parameters == ["zoom": .number(0.5)])
        let refused = VarlinkReply(.failure(.notSupported(capability: "zoom")))
        #expect(refused.error == "io.dockd.Dock.NotSupported" && refused.parameters == ["capability": .string("zoom")])
        #expect(DockInterface.definition.contains("error NotSupported (capability: string)"))
    }

    @Test func trackPassesTheDetectorsOwnIdentifierOn() throws {
        let track = try parse(
            #"{"method":"io.dockd.Dock.Track","parameters":{"observations":[{"kind":"face","box":{"x":0.1,"y":0.1,"width":0.2,"height":0.3},"identifier":42}],"camera":{"horizontal_fov":1.2,"aspect_ratio":1.7},"capture_time":3}}"#
        )
        guard case .host(.track(let batch)) = track.call else {
            Issue.record("not a Track: \(track)")
            return
        }
        #expect(batch.observations.first?.identifier == 42)
        #expect(
            throws: DockCall.Refusal.parameter(ParameterError(parameter: "observations[0].identifier", reason: "must be a whole number"))
        ) {
            try parse(
                #"{"method":"io.dockd.Dock.Track","parameters":{"observations":[{"kind":"face","box":{"x":0.1,"y":0.1,"width":0.2,"height":0.3},"identifier":1.5}],"camera":{"horizontal_fov":1.2,"aspect_ratio":1.7},"capture_time":3}}"#
            )
        }
    }

    @Test func trackTakesAnAppearanceOf4To512FiniteValuesAndRefusesOthersByPath() throws {
        func call(_ appearance: String) -> String {
            #"{"method":"io.dockd.Dock.Track","parameters":{"observations":[{"kind":"body","box":{"x":0.1,"y":0.1,"width":0.2,"height":0.3}},{"kind":"body","box":{"x":0.5,"y":0.1,"width":0.2,"height":0.3},"appearance":"#
                + appearance + #"}],"camera":{"horizontal_fov":1.2,"aspect_ratio":1.7},"capture_time":3}}"#
        }
        let track = try parse(call("[0.5,1,0,-2]"))
        guard case .host(.track(let batch)) = track.call else {
            Issue.record("not a Track: \(track)")
            return
        }
        #expect(batch.observations.map(\.appearance) == [nil, [0.5, 1, 0, -2]])
        let longest = "[" + Array(repeating: "0.25", count: 512).joined(separator: ",") + "]"
        if case .host(.track(let batch)) = try parse(call(longest)).call {
            #expect(batch.observations[1].appearance == Array(repeating: 0.25, count: 512))
        } else {
            Issue.record("512 values refused")
        }
        let refusals: [(String, ParameterError)] = [
            ("[1,2,3]", ParameterError(parameter: "observations[1].appearance", reason: "must have 4 to 512 values, got 3")),
            (
                "[" + Array(repeating: "1", count: 513).joined(separator: ",") + "]",
                ParameterError(parameter: "observations[1].appearance", reason: "must have 4 to 512 values, got 513")
            ),
            ("[]", ParameterError(parameter: "observations[1].appearance", reason: "must have 4 to 512 values, got 0")),
            // 1e999 overflows a double, 1e300 a float: neither is a descriptor's value.
            ("[1,2,1e999,4]", ParameterError(parameter: "observations[1].appearance[2]", reason: "must be finite")),
            ("[1,2,3,-1e300]", ParameterError(parameter: "observations[1].appearance[3]", reason: "must be finite")),
            (#"[1,2,"3",4]"#, ParameterError(parameter: "observations[1].appearance[2]", reason: "must be a number, got a string")),
            (#""red""#, ParameterError(parameter: "observations[1].appearance", reason: "must be an array of numbers, got a string")),
        ]
        for (appearance, error) in refusals {
            #expect(throws: DockCall.Refusal.parameter(error), "\(appearance.prefix(20))") { try parse(call(appearance)) }
        }
        if case .host(.track(let batch)) = try parse(call("null")).call {
            #expect(batch.observations[1].appearance == nil, "null is no appearance")
        }
    }

    @Test func everyMethodOfTheInterfaceIsKnownByName() {
        for method in DockMethod.allCases {
            #expect(DockInterface.definition.contains("method \(method.rawValue)("), "\(method.rawValue) is in the interface")
        }
    }

    @Test func refusalsAreNamedErrorsWithTheirFields() {
        let refused = VarlinkReply(.failure(.dockRefused(reason: "faulted", detail: 2)))
        #expect(refused.error == DockInterface.Error.dockRefused)
        #expect(refused.parameters == ["reason": .string("faulted"), "detail": .integer(2)])
        #expect(
            VarlinkReply(.failure(.dockFault(Dock.Fault(code: "motor_stall", axis: .yaw, isActive: true)))).parameters
                == ["fault": .object(["code": .string("motor_stall"), "axis": .string("yaw"), "active": .bool(true)])])
        let ended = VarlinkReply(.success(.motion(Dock.MotionResult(clamped: ["yaw"], ended: .replaced(byClient: 4)))))
        #expect(
            ended.parameters["result"]
                == .object([
                    "clamped": .array([.string("yaw")]),
                    "ended": .object(["how": .string("replaced"), "by_client": .integer(4)]),
                ]))
    }

    @Test func buttonEventsCarryTheButtonAndItsStateAsFields() throws {
        let status = RoundTripTests.emptyStatus
        let reply = VarlinkReply.watch(
            Dock.Event(timeSeconds: 2, payload: .button(.trackingButton(isPressed: true)), detail: "tracking pressed", status: status))
        let event = try #require(reply.parameters["event"]?.objectMembers)
        #expect(event["kind"] == .string("button"))
        #expect(event["button"] == .object(["button": .string("tracking"), "pressed": .bool(true)]))
        #expect(event["detail"] == .string("tracking pressed"))
        #expect(reply.continues)
        let zoom = VarlinkReply.watch(Dock.Event(timeSeconds: 0, payload: .button(.zoom(steps: -2)), detail: "", status: status))
        #expect(zoom.parameters["event"]?.objectMembers["button"] == .object(["button": .string("zoom"), "steps": .integer(-2)]))
    }

    /// The one field reader's problems, in the words `InvalidParameter` and a client's
    /// `ReplyError` have always used (a file's reader words them at more length, with a line).
    @Test func theFieldReadersProblemsAreWordedAsTheWireAlwaysHas() {
        func reason(_ problem: JSONFieldError.Problem) -> String {
            ParameterError(JSONFieldError(path: "yaw", line: nil, problem: problem)).reason
        }
        #expect(reason(.missing) == "required")
        #expect(reason(.unknown) == "unknown parameter")
        #expect(reason(.wrongType(expected: "a number", found: "a string")) == "must be a number, got a string")
        #expect(reason(.notFinite(written: "1e999")) == "must be finite")
        #expect(reason(.notWhole(written: "1.5")) == "must be a whole number, got a number")
        #expect(reason(.notOneOf(["yes", "no"], found: .name("maybe"))) == "must be one of yes, no, got \"maybe\"")
        #expect(reason(.notOneOf(["yes", "no"], found: .type("a number"))) == "must be a string, got a number")
        #expect(reason(.outOfRange(lower: "0", upper: "255", found: "300")) == "must be within 0...255")
        #expect(reason(.invalid("must be more than 0")) == "must be more than 0")
        #expect(
            ParameterError(JSONFieldError(path: "point.x", line: 4, problem: .missing))
                == ParameterError(parameter: "point.x", reason: "required"))
        #expect(
            ReplyError(JSONFieldError(path: "", line: nil, problem: .wrongType(expected: "an object", found: "an array")))
                == ReplyError(path: "parameters", reason: "must be an object, got an array"))
    }
}
