import Foundation
import Testing
import VISCAProtocol

/// Camera profiles: the committed files, the embedded copies, and the checks of every field.
@Suite struct VISCAProfileTests {
    /// The profile files on disk, by file name.
    static func filesOnDisk() throws -> [(name: String, text: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: VISCAVectors.profileDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            (name, try String(contentsOf: VISCAVectors.profileDirectory.appendingPathComponent(name), encoding: .utf8))
        }
    }

    @Test func theEmbeddedProfilesAreTheFilesOnDisk() throws {
        let files = try Self.filesOnDisk()
        #expect(files.count >= 3)
        #expect(
            VISCAProfile.builtIn.count == files.count,
            "Protocol/visca/ and the embedded profiles differ: run scripts/embed-visca-profiles")
        for ((file, text), embedded) in zip(files, VISCAProfile.builtIn) {
            let parsed = try VISCAProfile.parse(json: text)
            #expect(parsed == embedded, "\(file): run scripts/embed-visca-profiles")
            #expect(file == parsed.name + ".json", "\(file) holds the profile named \(parsed.name)")
            #expect(VISCAProfile.named(parsed.name) == parsed)
            #expect(!parsed.source.isEmpty)
        }
        #expect(VISCAProfile.named("generic") != nil)
        #expect(VISCAProfile.named("no-such-camera") == nil)
    }

    @Test func telycamPositionsAreTheManualsCounts() throws {
        let profile = try #require(VISCAProfile.named("telycam-tlc-700"))
        let degree = Double.pi / 180
        // User manual p. 13: pan −170° = 0xF670, +170° = 0x0990, −90° = 0xFAF0; tilt −30° = 0xFE50, +90° = 0x0510.
        #expect(profile.pan.count(radians: -170 * degree) == Int16(bitPattern: 0xF670))
        #expect(profile.pan.count(radians: 170 * degree) == 0x0990)
        #expect(profile.pan.count(radians: -90 * degree) == Int16(bitPattern: 0xFAF0))
        #expect(profile.pan.count(radians: 45 * degree) == 0x0288)
        #expect(profile.tilt.count(radians: -30 * degree) == Int16(bitPattern: 0xFE50))
        #expect(profile.tilt.count(radians: 90 * degree) == 0x0510)
        #expect(profile.tilt.count(radians: 60 * degree) == 0x0360)
        #expect(profile.pan.minimumCount == Int16(bitPattern: 0xF670) && profile.pan.maximumCount == 0x0990)
        #expect(profile.tilt.count(radians: 2) == 0x0510, "beyond the range: held at its end")
        #expect(profile.tilt.count(radians: .nan) == 0)
        #expect(abs(profile.pan.radians(count: 0x0990) - 170 * degree) < 1e-9)
        #expect(abs(profile.pan.speeds.radiansPerSecond(step: 24) - 120 * degree) < 1e-9)
        #expect(profile.pan.speeds.maximumStep == 0x18 && profile.tilt.speeds.maximumStep == 0x12)
        #expect(abs(profile.tilt.speeds.radiansPerSecond(step: 18) - 80 * degree) < 1e-9)
    }

    @Test func sonyEVID100IsItsManualsTable() throws {
        let profile = try #require(VISCAProfile.named("sony-evi-d100"))
        let degree = Double.pi / 180
        // Technical manual p. 45: pan 0xFA60 (−100°) to 0x05A0 (+100°), tilt 0xFE98 (−25°) to 0x0168 (+25°).
        #expect(profile.pan.minimumCount == Int16(bitPattern: 0xFA60) && profile.pan.maximumCount == 0x05A0)
        #expect(profile.tilt.minimumCount == Int16(bitPattern: 0xFE98) && profile.tilt.maximumCount == 0x0168)
        // p. 44: pan 0x18 is 300 °/s, tilt 0x14 is 125 °/s, both start at 2.0 °/s.
        #expect(abs(profile.pan.speeds.radiansPerSecond(step: 0x18) - 300 * degree) < 1e-9)
        #expect(abs(profile.tilt.speeds.radiansPerSecond(step: 0x14) - 125 * degree) < 1e-9)
        #expect(abs(profile.tilt.speeds.radiansPerSecond(step: 1) - 2 * degree) < 1e-9)
        #expect(profile.baudRates == [9600])
        #expect(profile.zoom == 0...0x7000)
        // p. 42: 4000h is the optical tele end (10x), 7000h digital 4x beyond it.
        #expect(profile.magnification(atZoomPosition: 0) == 1)
        #expect(profile.magnification(atZoomPosition: 0x4000) == 10)
        #expect(profile.magnification(atZoomPosition: 0x7000) == 40)
        let middle = try #require(profile.magnification(atZoomPosition: 0x2000))
        #expect(abs(middle - 10.0.squareRoot()) < 1e-9, "geometric between the points: \(middle)")
        #expect(!profile.zoomSource.isEmpty)
    }

    /// Every built-in profile's zoom says where its figures come from, and its table (where it
    /// has one) starts at 1x at the wide end and never falls.
    @Test func everyZoomNamesItsSourceAndItsTableRises() throws {
        for profile in VISCAProfile.builtIn {
            let range = try #require(profile.zoom, "\(profile.name)")
            #expect(!profile.zoomSource.isEmpty, "\(profile.name)")
            #expect(profile.zoomFullTravel > .zero, "\(profile.name)")
            #expect(profile.zoomPosition(fraction: 0) == range.lowerBound && profile.zoomPosition(fraction: 1) == range.upperBound)
            #expect(profile.zoomPosition(fraction: 2) == range.upperBound && profile.zoomPosition(fraction: -1) == range.lowerBound)
            #expect(profile.zoomPosition(fraction: .nan) == nil)
            guard !profile.zoomMagnification.isEmpty else { continue }
            var last = 0.0
            for position in stride(from: Int(range.lowerBound), through: Int(range.upperBound), by: 64) {
                let magnification = try #require(profile.magnification(atZoomPosition: UInt16(position)))
                #expect(magnification >= last, "\(profile.name) at \(position)")
                last = magnification
            }
            #expect(profile.magnification(atZoomPosition: range.lowerBound) == 1)
        }
        let generic = try #require(VISCAProfile.named("generic"))
        // The x25 lens table: 2x at 0x1781, 10x at 0x362C, 25x at the optical tele end.
        #expect(generic.magnification(atZoomPosition: 0x1781) == 2)
        #expect(generic.magnification(atZoomPosition: 0x362C) == 10)
        #expect(generic.magnification(atZoomPosition: 0x4000) == 25)
    }

    @Test func genericIsTheCautiousChoice() throws {
        let generic = try #require(VISCAProfile.named("generic"))
        #expect(generic.address == 1 && generic.sockets == 2)
        #expect(generic.baudRates == [9600, 115200, 38400])
        #expect(generic.quirks.completionBeforeArrival)
        for profile in VISCAProfile.builtIn {
            #expect(generic.tilt.speeds.maximumStep <= profile.tilt.speeds.maximumStep, "\(profile.name)")
            #expect(generic.pan.speeds.maximumStep <= profile.pan.speeds.maximumStep, "\(profile.name)")
        }
    }

    // MARK: Refusals

    /// The generic profile's JSON as a dictionary, to break one field at a time.
    static func genericDocument() throws -> [String: Any] {
        let text = try #require(try Self.filesOnDisk().first { $0.name == "generic.json" }).text
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func text(_ document: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
    }

    /// Parses `document` and returns the field the error names, nil if it parsed.
    static func refusedField(_ document: [String: Any]) throws -> String? {
        let json = try text(document)
        do {
            _ = try VISCAProfile.parse(json: json)
            return nil
        } catch {
            guard case .invalidProfile(let field, let line, let reason) = error else { return "not invalid_profile: \(error)" }
            #expect(!reason.isEmpty && line >= 1)
            return field
        }
    }

    @Test func theGenericDocumentParsesAfterReserialising() throws {
        #expect(try Self.refusedField(try Self.genericDocument()) == nil)
    }

    @Test func everyBrokenFieldIsNamed() throws {
        typealias Edit = (inout [String: Any]) -> Void
        func axis(_ key: String, _ edit: @escaping (inout [String: Any]) -> Void) -> Edit {
            { document in
                var object = document[key] as! [String: Any]
                edit(&object)
                document[key] = object
            }
        }
        func speeds(_ key: String, _ edit: @escaping (inout [[String: Any]]) -> Void) -> Edit {
            axis(key) { object in
                var list = object["speeds"] as! [[String: Any]]
                edit(&list)
                object["speeds"] = list
            }
        }
        func zoomTable(_ edit: @escaping (inout [[String: Any]]) -> Void) -> Edit {
            axis("zoom") { object in
                var list = object["magnification"] as! [[String: Any]]
                edit(&list)
                object["magnification"] = list
            }
        }
        let cases: [(String, String, Edit)] = [
            ("name missing", "name", { $0["name"] = nil }),
            ("name upper case", "name", { $0["name"] = "Generic" }),
            ("name a number", "name", { $0["name"] = 3 }),
            ("display name empty", "display_name", { $0["display_name"] = "" }),
            ("source empty", "source", { $0["source"] = "" }),
            ("address 0", "address", { $0["address"] = 0 }),
            ("address 8", "address", { $0["address"] = 8 }),
            ("address a fraction", "address", { $0["address"] = 1.5 }),
            ("address true", "address", { $0["address"] = true }),
            ("no baud rates", "baud_rates", { $0["baud_rates"] = [Int]() }),
            ("odd baud rate", "baud_rates[1]", { $0["baud_rates"] = [9600, 12345] }),
            ("baud rate twice", "baud_rates", { $0["baud_rates"] = [9600, 9600] }),
            ("sockets 0", "sockets", { $0["sockets"] = 0 }),
            ("unknown field", "colour", { $0["colour"] = "grey" }),
            ("quirk missing", "quirks.completion_without_ack", axis("quirks") { $0["completion_without_ack"] = nil }),
            ("quirk not a Boolean", "quirks.udp_without_sequence_header", axis("quirks") { $0["udp_without_sequence_header"] = 1 }),
            ("unknown quirk", "quirks.fast", axis("quirks") { $0["fast"] = true }),
            ("counts per degree 0", "pan.counts_per_degree", axis("pan") { $0["counts_per_degree"] = 0 }),
            ("minimum above home", "tilt.minimum_degrees", axis("tilt") { $0["minimum_degrees"] = 5 }),
            ("maximum below home", "tilt.maximum_degrees", axis("tilt") { $0["maximum_degrees"] = -5 }),
            ("range beyond 16 bits", "pan.maximum_degrees", axis("pan") { $0["maximum_degrees"] = 3000 }),
            ("unknown axis field", "pan.backlash", axis("pan") { $0["backlash"] = 0 }),
            ("speeds not a list", "pan.speeds", axis("pan") { $0["speeds"] = "fast" }),
            ("speeds falling", "pan.speeds", speeds("pan") { $0[3]["degrees_per_second"] = 0.5 }),
            ("speeds from step 2", "tilt.speeds", speeds("tilt") { $0.removeFirst() }),
            ("step a string", "tilt.speeds[3].step", speeds("tilt") { $0[3]["step"] = "four" }),
            ("step 0", "pan.speeds[0].step", speeds("pan") { $0[0]["step"] = 0 }),
            ("speed missing", "pan.speeds[2].degrees_per_second", speeds("pan") { $0[2]["degrees_per_second"] = nil }),
            ("unknown point field", "pan.speeds[1].note", speeds("pan") { $0[1]["note"] = "x" }),
            ("zoom not an object", "zoom", { $0["zoom"] = 5 }),
            ("zoom range reversed", "zoom.maximum", axis("zoom") { $0["maximum"] = 0 }),
            ("zoom beyond 16 bits", "zoom.maximum", axis("zoom") { $0["maximum"] = 70000 }),
            ("zoom speed over a nibble", "zoom.maximum_speed", axis("zoom") { $0["maximum_speed"] = 16 }),
            ("zoom travel 0", "zoom.full_travel_seconds", axis("zoom") { $0["full_travel_seconds"] = 0 }),
            ("zoom travel missing", "zoom.full_travel_seconds", axis("zoom") { $0["full_travel_seconds"] = nil }),
            ("zoom source empty", "zoom.source", axis("zoom") { $0["source"] = "" }),
            ("zoom table not from the wide end", "zoom.magnification[0].position", zoomTable { $0[0]["position"] = 5 }),
            ("zoom table not 1x at the wide end", "zoom.magnification[0].magnification", zoomTable { $0[0]["magnification"] = 2 }),
            ("zoom table positions falling", "zoom.magnification[2].position", zoomTable { $0[2]["position"] = 10 }),
            ("zoom table magnification falling", "zoom.magnification[3].magnification", zoomTable { $0[3]["magnification"] = 1.5 }),
            ("zoom table past the range", "zoom.magnification[11].position", zoomTable { $0[11]["position"] = 20000 }),
            ("zoom table point field unknown", "zoom.magnification[1].focus", zoomTable { $0[1]["focus"] = 3 }),
        ]
        for (name, field, edit) in cases {
            var document = try Self.genericDocument()
            edit(&document)
            #expect(try Self.refusedField(document) == field, "\(name)")
        }
    }

    @Test func aProfileWithoutZoomHasNone() throws {
        var document = try Self.genericDocument()
        document["zoom"] = NSNull()
        let profile = try VISCAProfile.parse(json: try Self.text(document))
        #expect(profile.zoom == nil)
    }

    /// A field of a profile file is named with the line it is on, as every file dockd reads is.
    @Test func aBadFieldIsNamedWithItsLine() throws {
        let generic = try #require(try Self.filesOnDisk().first { $0.name == "generic.json" }).text
        let text = generic.replacingOccurrences(of: "\"sockets\": 2", with: "\"sockets\": 2.5")
        #expect(throws: VISCAError.invalidProfile(field: "sockets", line: 11, reason: "must be a whole number, got 2.5")) {
            try VISCAProfile.parse(json: text)
        }
        let unknown = generic.replacingOccurrences(of: "\"sockets\": 2", with: "\"sockets\": 2, \"colour\": 1")
        #expect(throws: VISCAError.invalidProfile(field: "colour", line: 11, reason: "is not a known field")) {
            try VISCAProfile.parse(json: unknown)
        }
    }

    @Test func textThatIsNotJSONIsRefused() {
        #expect(throws: VISCAError.self) { try VISCAProfile.parse(json: "name = generic") }
        #expect(throws: VISCAError.invalidProfile(field: "(document)", line: 1, reason: "must be an object, got an array")) {
            try VISCAProfile.parse(json: "[1, 2]")
        }
    }
}
