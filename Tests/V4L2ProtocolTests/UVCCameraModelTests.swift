import Foundation
import Testing

@testable import V4L2Protocol

/// The camera models of `Protocol/uvc/` parse, carry the numbers their sources give, and bad
/// models are refused with the field named.
@Suite struct UVCCameraModelTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protocol/uvc")

    static func model(_ name: String) throws -> UVCCameraModel {
        let text = try String(contentsOf: directory.appendingPathComponent("\(name).json"), encoding: .utf8)
        return try UVCCameraModel.parse(json: text)
    }

    @Test func everyModelParses() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names == ["generic.json", "insta360-link.json", "logitech-c920.json", "obsbot-tiny.json"])
        for name in names {
            let model = try Self.model(String(name.dropLast(5)))
            #expect(model.name + ".json" == name)
            #expect(model.controls.allSatisfy { !$0.source.isEmpty })
        }
    }

    /// The OBSBOT Tiny's speeds as torvalds/linux#823 shows them before its patch: the −1
    /// minimum and the non-zero default.
    @Test func obsbotTinyHasTheMisreportedSpeeds() throws {
        let tiny = try Self.model("obsbot-tiny")
        let pan = try #require(tiny.control(V4L2ControlID.panSpeed))
        #expect(pan.minimum == -1 && pan.maximum == 160 && pan.defaultValue == 20)
        #expect(tiny.control(V4L2ControlID.tiltSpeed)?.maximum == 120)
        #expect(tiny.readBackIsTarget)
    }

    @Test func logitechIsDigitalWithoutSpeeds() throws {
        let c920 = try Self.model("logitech-c920")
        #expect(c920.isDigital)
        #expect(c920.control(V4L2ControlID.panSpeed) == nil)
        #expect(c920.control(V4L2ControlID.panAbsolute)?.maximum == 36000)
        #expect(c920.control(V4L2ControlID.zoomAbsolute)?.maximum == 500)
    }

    @Test func badModelsNameTheField() throws {
        var text = try String(contentsOf: Self.directory.appendingPathComponent("generic.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"pan_speed\"", with: "\"pan_sped\"")
        #expect(throws: UVCCameraModel.ParseError(field: "controls[2].name", line: 11, reason: "no PTZ control 'pan_sped'")) {
            try UVCCameraModel.parse(json: text)
        }
        #expect(throws: UVCCameraModel.ParseError.self) { try UVCCameraModel.parse(json: "{") }
        let upsideDown = try String(contentsOf: Self.directory.appendingPathComponent("generic.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"minimum\": -648000, \"maximum\": 648000", with: "\"minimum\": 648000, \"maximum\": -648000")
        #expect(throws: UVCCameraModel.ParseError.self) { try UVCCameraModel.parse(json: upsideDown) }
    }

    /// Read by dockd's one JSON reader and field reader, as the VISCA profiles and the scenarios are:
    /// a misspelt or mistyped field is named, with its line, never ignored or defaulted.
    @Test func unknownMistypedAndMissingFieldsAreNamed() throws {
        let generic = try String(contentsOf: Self.directory.appendingPathComponent("generic.json"), encoding: .utf8)
        #expect(throws: UVCCameraModel.ParseError(field: "motion_lag", line: 23, reason: "is not a known field")) {
            try UVCCameraModel.parse(
                json: generic.replacingOccurrences(of: "\"enumeration_delay_ms\"", with: "\"motion_lag\": 1, \"enumeration_delay_ms\""))
        }
        #expect(throws: UVCCameraModel.ParseError(field: "digital_pan_tilt", line: 20, reason: "must be true or false, got a string")) {
            try UVCCameraModel.parse(
                json: generic.replacingOccurrences(of: "\"digital_pan_tilt\": false", with: "\"digital_pan_tilt\": \"no\""))
        }
        #expect(throws: UVCCameraModel.ParseError(field: "usb_id", line: 1, reason: "is required")) {
            try UVCCameraModel.parse(json: generic.replacingOccurrences(of: "\"usb_id\"", with: "\"usb_idx\""))
        }
        #expect(throws: UVCCameraModel.ParseError(field: "(document)", line: 1, reason: "not JSON: line 1: a string is not closed")) {
            try UVCCameraModel.parse(json: "{\"name")
        }
    }
}

extension UVCCameraModelTests {
    @Test func theEmbeddedModelsAreTheFilesOnDisk() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(UVCCameraModel.builtIn.count == names.count, "Protocol/uvc/ and the embedded models differ: run scripts/embed-uvc-models")
        for (name, embedded) in zip(names, UVCCameraModel.builtIn) {
            #expect(try Self.model(String(name.dropLast(5))) == embedded, "\(name): run scripts/embed-uvc-models")
        }
        #expect(UVCCameraModel.named("obsbot-tiny")?.displayName == "OBSBOT Tiny")
        #expect(UVCCameraModel.named("no-such-camera") == nil)
    }
}
