import DockVocabulary
import Testing

/// The presets file's text: written and read back the same, and a damaged one refused whole with
/// its line — never half-read.
@Suite struct PresetStoreTests {
    @Test func aStoreIsReadBackFromItsFileAsItWasWritten() throws {
        let store = try PresetStore([
            Preset(name: "stage", yawRadians: 0.5, pitchRadians: -0.1, zoomFraction: 0.25),
            Preset(name: "Bühne \"links\"", yawRadians: -1.234_567_890_123, pitchRadians: 0),
            Preset(name: "tiny", yawRadians: 1e-9, pitchRadians: -0.0, zoomFraction: 1),
        ])
        #expect(try PresetStore(fileText: store.fileText) == store)
        #expect(try PresetStore(fileText: PresetStore().fileText) == PresetStore())
        #expect(
            PresetStore().fileText == """
                {
                  "version": 1,
                  "presets": []
                }

                """)
        #expect(store.fileText.split(separator: "\n")[3] == #"    {"name": "stage", "yaw": 0.5, "pitch": -0.1, "zoom": 0.25},"#)
    }

    @Test func aPresetsCameraMemoryIsKeptInTheFileAndAFileWithoutSlotsStillReads() throws {
        let store = try PresetStore([
            Preset(name: "stage", yawRadians: 0.5, pitchRadians: -0.1, zoomFraction: 0.25, slot: 0),
            Preset(name: "desk", yawRadians: -0.5, pitchRadians: 0),
        ])
        #expect(try PresetStore(fileText: store.fileText) == store)
        #expect(store.fileText.split(separator: "\n")[3] == #"    {"name": "stage", "yaw": 0.5, "pitch": -0.1, "zoom": 0.25, "slot": 0},"#)
        // A file written before slots: poses only.
        let old = "{\n  \"version\": 1,\n  \"presets\": [\n    {\"name\": \"stage\", \"yaw\": 0.5, \"pitch\": -0.1}\n  ]\n}\n"
        #expect(try PresetStore(fileText: old).presets == [Preset(name: "stage", yawRadians: 0.5, pitchRadians: -0.1)])
        // The slot for a save: its own, else the lowest free, else none.
        #expect(store.slot(forSaving: "stage", in: 0...5) == 0)
        #expect(store.slot(forSaving: "new", in: 0...5) == 1)
        #expect(store.slot(forSaving: "new", in: 0...0) == nil)
        #expect(store.slot(forSaving: "stage", in: 3...5) == 3, "a memory outside the camera's numbers is not kept")
        // Two presets in one memory, or one out of range, are refused by name.
        #expect(throws: PresetError.invalidPose("desk", "slot 0 is preset 'stage''s")) {
            try store.saving(Preset(name: "desk", yawRadians: 0, pitchRadians: 0, slot: 0))
        }
        #expect(throws: PresetError.invalidPose("x", "slot must be within 0...254, got 255")) {
            try PresetStore([Preset(name: "x", yawRadians: 0, pitchRadians: 0, slot: 255)])
        }
        let twice =
            "{\n  \"version\": 1,\n  \"presets\": [\n    {\"name\": \"a\", \"yaw\": 0, \"pitch\": 0, \"slot\": 2},\n    {\"name\": \"b\", \"yaw\": 0, \"pitch\": 0, \"slot\": 2}\n  ]\n}\n"
        #expect(throws: PresetFileError(line: 5, message: "preset 'b': slot 2 is preset 'a''s too")) { try PresetStore(fileText: twice) }
        let outOfRange = "{\n  \"version\": 1,\n  \"presets\": [\n    {\"name\": \"a\", \"yaw\": 0, \"pitch\": 0, \"slot\": 300}\n  ]\n}\n"
        #expect(throws: PresetFileError.self) { try PresetStore(fileText: outOfRange) }
    }

    @Test func aDamagedFileIsRefusedWholeWithItsLine() {
        let good = #"    {"name": "a", "yaw": 0.1, "pitch": 0.2},"#
        func file(_ second: String) -> String { "{\n  \"version\": 1,\n  \"presets\": [\n\(good)\n\(second)\n  ]\n}\n" }
        let cases: [(String, PresetFileError)] = [
            ("", PresetFileError(line: 1, message: "unexpected end of the text")),
            (file(#"    {"name": "b", "yaw": 0.1}"#), PresetFileError(line: 5, message: "presets[1].pitch: is required")),
            (
                file(#"    {"name": "b", "yaw": "left", "pitch": 0}"#),
                PresetFileError(line: 5, message: "presets[1].yaw: must be a number, got a string")
            ),
            (
                file(#"    {"name": "b", "yaw": 0, "pitch": 0, "tilt": 1}"#),
                PresetFileError(line: 5, message: "presets[1].tilt: is not a known field")
            ),
            (file(#"    {"name": "a", "yaw": 0, "pitch": 0}"#), PresetFileError(line: 5, message: "preset 'a' is given twice")),
            (file(#"    {"name": "", "yaw": 0, "pitch": 0}"#), PresetFileError(line: 5, message: "a preset's name must not be empty")),
            (
                file(#"    {"name": "b", "yaw": 99, "pitch": 0}"#),
                PresetFileError(line: 5, message: "preset 'b': yaw must be a finite angle within ±4π radians, got 99.0")
            ),
            (
                file(#"    {"name": "b", "yaw": 0, "pitch": 0, "zoom": 2}"#),
                PresetFileError(line: 5, message: "preset 'b': zoom must be within 0...1, got 2.0")
            ),
            ("{\"version\": 2, \"presets\": []}", PresetFileError(line: 1, message: "version: must be 1 (this dockd's format), got 2")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try PresetStore(fileText: text) }
        }
        // A text cut short in the middle of a preset (a power cut without the atomic write).
        let cut = file(#"    {"name": "b", "yaw": 0, "pi"#)
        #expect(throws: PresetFileError.self) { try PresetStore(fileText: cut) }
    }

    @Test func savingAndDeletingReturnANewStoreAndRefuseBadInputByName() throws {
        let empty = PresetStore()
        let one = try empty.saving(Preset(name: "a", yawRadians: 0, pitchRadians: 0))
        #expect(empty.presets.isEmpty, "the store saved to is not changed")
        #expect(throws: PresetError.noSuchPreset("b")) { try one.deleting("b") }
        #expect(try one.deleting("a") == empty)
        #expect(throws: PresetError.invalidPose("a", "zoom must be within 0...1, got -0.5")) {
            try one.saving(Preset(name: "a", yawRadians: 0, pitchRadians: 0, zoomFraction: -0.5))
        }
        #expect(throws: PresetError.invalidPose("n", "pitch must be a finite angle within ±4π radians, got nan")) {
            try one.saving(Preset(name: "n", yawRadians: 0, pitchRadians: .nan))
        }
        var full = empty
        for index in 0..<PresetStore.mostPresets { full = try full.saving(Preset(name: "p\(index)", yawRadians: 0, pitchRadians: 0)) }
        #expect(throws: PresetError.tooMany) { try full.saving(Preset(name: "one more", yawRadians: 0, pitchRadians: 0)) }
        #expect(
            try full.saving(Preset(name: "p3", yawRadians: 1, pitchRadians: 0)).presets.count == PresetStore.mostPresets,
            "a replacement fits")
    }

    @Test func aLostActionNamesAPresetAsASettingSpellsIt() throws {
        #expect(try LostBehaviour.Action(setting: "preset:stage left") == .preset(name: "stage left"))
        #expect(LostBehaviour.Action.preset(name: "door").setting == "preset:door")
        #expect(throws: LostBehaviourError.invalidPresetName("preset:", "a preset's name must not be empty")) {
            try LostBehaviour.Action(setting: "preset:")
        }
        let target = LostBehaviour(after: .seconds(1), action: .preset(name: "door")).target(
            restYawRadians: 0, restPitchRadians: 0, presets: try PresetStore([Preset(name: "door", yawRadians: 0.7, pitchRadians: 0.1)]))
        #expect(target.map { [$0.yawRadians, $0.pitchRadians] } == [0.7, 0.1])
        #expect(LostBehaviour(after: .seconds(1), action: .preset(name: "door")).target(restYawRadians: 0, restPitchRadians: 0) == nil)
    }
}
