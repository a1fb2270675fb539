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

/// The zoom's magnification table: read, interpolated, and refused by name when it is wrong.
extension UVCCameraModelTests {
    @Test func theZoomMagnificationTableIsReadAndInterpolated() throws {
        let generic = try #require(UVCCameraModel.named("generic"))
        #expect(generic.zoomMagnification.map(\.magnification) == [1, 2] && !generic.zoomMagnificationSource.isEmpty)
        #expect(generic.magnification(atZoomFraction: 0) == 1 && generic.magnification(atZoomFraction: 0.25) == 1.25)
        #expect(generic.magnification(atZoomFraction: 7) == 2 && generic.magnification(atZoomFraction: .nan) == nil)
        #expect(UVCCameraModel.named("obsbot-tiny")?.magnification(atZoomFraction: 1) == nil, "no optics known")
        let table: [UVCCameraModel.ZoomPoint] = [
            .init(fraction: 0, magnification: 1), .init(fraction: 0.5, magnification: 3), .init(fraction: 1, magnification: 4),
        ]
        #expect(UVCCameraModel.magnification(0.25, in: table) == 2 && UVCCameraModel.magnification(0.75, in: table) == 3.5)
    }

    @Test func aWrongZoomMagnificationTableIsRefusedByName() throws {
        let generic = try String(contentsOf: Self.directory.appendingPathComponent("generic.json"), encoding: .utf8)
        let points = "[{\"fraction\": 0, \"magnification\": 1}, {\"fraction\": 1, \"magnification\": 2}]"
        func refused(_ replacement: String) -> String? {
            do {
                _ = try UVCCameraModel.parse(json: generic.replacingOccurrences(of: points, with: replacement))
                return nil
            } catch {
                return error.field
            }
        }
        #expect(
            refused("[{\"fraction\": 0, \"magnification\": 2}, {\"fraction\": 1, \"magnification\": 2}]") == "zoom_magnification.points")
        #expect(
            refused("[{\"fraction\": 0, \"magnification\": 1}, {\"fraction\": 0.5, \"magnification\": 2}]") == "zoom_magnification.points")
        #expect(
            refused("[{\"fraction\": 0, \"magnification\": 1}, {\"fraction\": 0, \"magnification\": 2}]")
                == "zoom_magnification.points[1].fraction")
        #expect(
            refused("[{\"fraction\": 0, \"magnification\": 1}, {\"fraction\": 1, \"magnification\": 0.5}]")
                == "zoom_magnification.points[1].magnification")
        #expect(
            refused("[{\"fraction\": 0, \"magnification\": 1}, {\"fraction\": 1, \"times\": 2}]")
                == "zoom_magnification.points[1].magnification")
        #expect(refused("[]") == "zoom_magnification.points")
        #expect(refused("\"2x\"") == "zoom_magnification.points")
        let noZoom = generic.replacingOccurrences(of: "\"zoom_absolute\"", with: "\"zoom_continuous\"")
        do {
            _ = try UVCCameraModel.parse(json: noZoom)
            Issue.record("a table without a zoom_absolute control was taken")
        } catch {
            #expect(error.field == "zoom_magnification" && error.reason == "needs a zoom_absolute control", "\(error)")
        }
    }

    @Test func theZoomsTravelTimeIsReadAndAWrongOneRefusedByName() throws {
        #expect(UVCCameraModel.named("generic")?.zoomFullTravel == .milliseconds(1500))
        #expect(UVCCameraModel.named("obsbot-tiny")?.zoomFullTravel == .zero, "not given: the zoom jumps")
        let generic = try String(contentsOf: Self.directory.appendingPathComponent("generic.json"), encoding: .utf8)
        func refused(_ text: String) -> (field: String, reason: String)? {
            do {
                _ = try UVCCameraModel.parse(json: text)
                return nil
            } catch {
                return (error.field, error.reason)
            }
        }
        func travel(_ value: String) -> String {
            generic.replacingOccurrences(of: "\"zoom_full_travel_ms\": 1500", with: "\"zoom_full_travel_ms\": \(value)")
        }
        for bad in ["0", "60001", "1.5", "\"slow\""] {
            #expect(refused(travel(bad))?.field == "zoom_full_travel_ms", "\(bad)")
        }
        // Without an absolute zoom (and so without the table): refused by name.
        let table = try #require(generic.range(of: ",\n  \"zoom_magnification\""))
        let noZoom = (generic[..<table.lowerBound] + "\n}\n").replacingOccurrences(of: "\"zoom_absolute\"", with: "\"zoom_continuous\"")
        #expect(refused(noZoom).map { $0.field == "zoom_full_travel_ms" && $0.reason == "needs a zoom_absolute control" } == true)
        #expect(refused(noZoom.replacingOccurrences(of: ",\n  \"zoom_full_travel_ms\": 1500", with: "")) == nil)
    }
}
