import DockJSON
import DockVocabulary
import Testing

@testable import DockAPI

/// SetFramingSpeed as dockd reads it, and the status's speed as a client reads it back.
@Suite struct FramingSpeedCallTests {
    func parse(_ parameters: [String: JSONValue]) throws(DockCall.Refusal) -> DockCall {
        try DockCall.parse(VarlinkCall(method: "io.dockd.Dock.SetFramingSpeed", parameters: parameters)).call
    }

    @Test func everyFieldIsOptionalAndNamedAsTheInterfaceSays() throws {
        #expect(try parse([:]) == .host(.setFramingSpeed(FramingSpeedChange())))
        #expect(
            try parse(["profile": .string("smooth"), "yaw_max_speed": .number(0.8), "pitch_dead_band": .integer(0)])
                == .host(.setFramingSpeed(FramingSpeedChange(profile: "smooth", yawMaximumSpeed: 0.8, pitchDeadBand: 0))))
        // The profile's name and the numbers' ranges are the policy's to judge (all or nothing);
        // a field of the wrong type or an unknown one is refused here.
        #expect(throws: DockCall.Refusal.self) { try parse(["yaw_max_speed": .string("fast")]) }
        #expect(throws: DockCall.Refusal.self) { try parse(["profile": .integer(1)]) }
        #expect(throws: DockCall.Refusal.self) { try parse(["yaw_speed": .number(1)]) }
    }

    @Test func theStatusCarriesTheSpeedAndReadsBackWithout() throws {
        var status = RoundTripTests.fullStatus()
        status.framingSpeed = Dock.FramingSpeedState(speed: FramingSpeed(.smooth), applied: FramingSpeed(.smooth))
        let json = status.json
        #expect(json.objectMembers["speed"]?.objectMembers["profile"] == .string("smooth"))
        #expect(try Dock.Status(json: json, path: "status") == status)
        status.framingSpeed = nil
        #expect(try Dock.Status(json: status.json, path: "status") == status, "a dockd that does not say")
    }

    @Test func theStatusCarriesADigitalCropAndReadsBackWithout() throws {
        var status = RoundTripTests.fullStatus()
        status.crop = NormalizedRect(x: 0.25, y: 0.125, width: 0.5, height: 0.5)
        let json = status.json
        #expect(json.objectMembers["crop"]?.objectMembers["width"] == .number(0.5))
        #expect(try Dock.Status(json: json, path: "status") == status)
        status.crop = nil
        #expect(json.objectMembers["crop"] != nil && status.json.objectMembers["crop"] == nil, "absent for any other accessory")
        #expect(try Dock.Status(json: status.json, path: "status") == status)
    }
}
