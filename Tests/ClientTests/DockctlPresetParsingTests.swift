import DockVocabulary
import Testing

@testable import DockctlProgram

/// `dockctl preset` and `dockctl lost` as parsed, and their usage errors: a bad name or action is
/// refused before dockd is asked anything (exit status 64).
@Suite struct DockctlPresetParsingTests {
    func action(_ arguments: [String]) throws(Invocation.UsageError) -> Invocation.Action {
        try Invocation.parse(arguments, environment: [:]).action
    }

    @Test func presetAndLostParse() throws {
        #expect(try action(["preset", "save", "stage"]) == .savePreset("stage"))
        #expect(try action(["preset", "list"]) == .listPresets)
        #expect(try action(["preset", "recall", "stage"]) == .recallPreset("stage", takeOver: false, waits: true))
        #expect(
            try action(["preset", "recall", "stage left", "--take-over", "--no-wait"])
                == .recallPreset("stage left", takeOver: true, waits: false))
        #expect(try action(["preset", "delete", "stage"]) == .deletePreset("stage"))
        #expect(try action(["lost"]) == .lost(afterSeconds: nil, action: nil))
        #expect(
            try action(["lost", "--after", "2.5", "--action", "preset:door"]) == .lost(afterSeconds: 2.5, action: .preset(name: "door")))
        #expect(
            try action(["lost", "--action", "pose:90,0"]) == .lost(afterSeconds: nil, action: .pose(yawRadians: .pi / 2, pitchRadians: 0)))
    }

    @Test func badPresetsAndActionsAreUsageErrors() {
        let refused: [([String], String)] = [
            (["preset"], "preset needs save, list, recall or delete"),
            (["preset", "rename", "a"], "'rename' is not one of save, list, recall, delete"),
            (["preset", "save"], "preset save needs a NAME"),
            (["preset", "save", String(repeating: "x", count: 33)], "a preset's name must be at most 32 characters, got 33"),
            (["preset", "save", "a\tb"], "a preset's name must be printable text, got U+9"),
            (["preset", "save", "a", "b"], "unexpected 'b' for preset"),
            (["preset", "list", "--take-over"], "--take-over and --no-wait go with preset recall only"),
            (
                ["lost", "--action", "wander"],
                "--action: expected hold, home, zoom-out, pose:YAW,PITCH (degrees) or preset:NAME, got 'wander'"
            ),
        ]
        for (arguments, message) in refused {
            #expect(throws: Invocation.UsageError(message: message, command: arguments[0]), "\(arguments)") { try action(arguments) }
        }
        #expect(throws: Invocation.UsageError.self) { try action(["lost", "--after", "-1"]) }
    }
}
