import DockJSON
import DockVocabulary
import Testing

@testable import DockAPI

/// The preset and lost-behaviour calls as dockd reads them: every bad name, field or combination
/// a named `InvalidParameter` naming it, and nothing of the call kept.
@Suite struct PresetCallTests {
    func parse(_ method: String, _ parameters: [String: JSONValue]) throws(DockCall.Refusal) -> DockCall {
        try DockCall.parse(VarlinkCall(method: "io.dockd.Dock." + method, parameters: parameters)).call
    }

    func refusal(_ parameter: String, _ reason: String) -> DockCall.Refusal {
        .parameter(ParameterError(parameter: parameter, reason: reason))
    }

    @Test func aPresetNameIsOneToThirtyTwoCharactersOfPrintableText() throws {
        #expect(try parse("SavePreset", ["name": .string("stage")]) == .host(.savePreset(name: "stage")))
        let longest = String(repeating: "é", count: 32)  // 32 characters, 64 bytes
        #expect(try parse("SavePreset", ["name": .string(longest)]) == .host(.savePreset(name: longest)))
        #expect(try parse("DeletePreset", ["name": .string("two words")]) == .host(.deletePreset(name: "two words")))
        let refused: [(JSONValue, String)] = [
            (.string(""), "must not be empty"),
            (.string(String(repeating: "x", count: 33)), "must be at most 32 characters, got 33"),
            (.string("tab\there"), "must be printable text, got U+9"),
            (.string("line\nbreak"), "must be printable text, got U+A"),
            (.string("escape\u{1B}[2J"), "must be printable text, got U+1B"),
            (.string("bidi\u{202E}"), "must be printable text, got U+202E"),
            (.string(" stage"), "must not begin or end with a space"),
            (.string("stage "), "must not begin or end with a space"),
        ]
        for method in ["SavePreset", "RecallPreset", "DeletePreset"] {
            for (name, reason) in refused {
                #expect(throws: refusal("name", reason), "\(method) \(name.serialized)") { try parse(method, ["name": name]) }
            }
            #expect(throws: refusal("name", "must be a string, got a number")) { try parse(method, ["name": .integer(3)]) }
            #expect(throws: refusal("name", "required")) { try parse(method, [:]) }
            #expect(throws: refusal("speed", "unknown parameter")) { try parse(method, ["name": .string("a"), "speed": .number(1)]) }
        }
    }

    @Test func recallTakesTheMotionFlags() throws {
        #expect(
            try parse("RecallPreset", ["name": .string("stage"), "take_over": .bool(true), "wait": .bool(true)])
                == .host(.recallPreset(name: "stage", takeOver: true, waitsForEnd: true)))
        #expect(
            try parse("RecallPreset", ["name": .string("stage")])
                == .host(.recallPreset(name: "stage", takeOver: false, waitsForEnd: false)))
        #expect(try parse("ListPresets", [:]) == .host(.listPresets))
    }

    @Test func aLostBehaviourIsReadWithTheFieldsItsActionTakes() throws {
        #expect(try parse("SetLostBehaviour", [:]) == .host(.setLostBehaviour(after: nil, action: nil)))
        #expect(
            try parse("SetLostBehaviour", ["after": .number(2.5), "action": .string("zoom_out")])
                == .host(.setLostBehaviour(after: .milliseconds(2500), action: .zoomOut)))
        #expect(
            try parse("SetLostBehaviour", ["action": .string("pose"), "yaw": .number(0.5), "pitch": .integer(0)])
                == .host(.setLostBehaviour(after: nil, action: .pose(yawRadians: 0.5, pitchRadians: 0))))
        #expect(
            try parse("SetLostBehaviour", ["action": .string("preset"), "preset": .string("door")])
                == .host(.setLostBehaviour(after: nil, action: .preset(name: "door"))))
        let refused: [([String: JSONValue], DockCall.Refusal)] = [
            (["after": .number(-1)], refusal("after", "must be 0 to 3600 seconds")),
            (["after": .number(3601)], refusal("after", "must be 0 to 3600 seconds")),
            (["action": .string("wander")], refusal("action", #"must be one of hold, home, pose, preset, zoom_out, got "wander""#)),
            (["action": .string("pose"), "yaw": .number(1)], refusal("pitch", "required")),
            (["action": .string("pose"), "yaw": .number(20), "pitch": .number(0)], refusal("yaw", "must be within ±4π radians")),
            (["action": .string("home"), "yaw": .number(1)], refusal("yaw", "goes only with action pose")),
            (
                ["action": .string("pose"), "yaw": .number(1), "pitch": .number(0), "preset": .string("a")],
                refusal("preset", "goes only with action preset")
            ),
            (["action": .string("preset")], refusal("preset", "required")),
            (["action": .string("preset"), "preset": .string("")], refusal("preset", "must not be empty")),
            (["yaw": .number(1)], refusal("yaw", "goes only with action pose")),
        ]
        for (parameters, expected) in refused {
            #expect(throws: expected, "\(JSONValue.object(parameters).serialized)") { try parse("SetLostBehaviour", parameters) }
        }
    }

    @Test func theNewErrorsAreNamedInTheInterface() {
        for name in ["NoSuchPreset (name: string)", "PresetsUnavailable (file: string, reason: string)"] {
            #expect(DockInterface.definition.contains("error \(name)"))
        }
        #expect(Dock.Failure.noSuchPreset("stage").reply.error == DockInterface.Error.noSuchPreset)
        #expect(Dock.Failure.noSuchPreset("stage").reply.parameters == ["name": .string("stage")])
    }
}
