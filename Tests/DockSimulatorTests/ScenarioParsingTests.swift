import DockVocabulary
import Foundation
import Testing

@testable import DockSimulator

/// Bad scenario files give an error naming the field and the line, and never crash.
@Suite struct ScenarioParsingTests {
    static let valid = """
        {
          "name": "t",
          "duration_s": 10,
          "subjects": [
            {"id": 1, "kind": "person", "primary": true,
             "path": {"waypoints": [{"t_s": 0, "x_m": 0, "y_m": 3}]}}
          ],
          "faults": [
            {"at_s": 1, "kind": "unplug", "duration_s": 2}
          ]
        }
        """

    func error(_ text: String) -> ScenarioError? {
        do {
            _ = try Scenario.parse(text)
            return nil
        } catch {
            return error
        }
    }

    func replacing(_ old: String, with new: String) -> String {
        precondition(Self.valid.contains(old))
        return Self.valid.replacingOccurrences(of: old, with: new)
    }

    @Test func theValidFileParses() throws {
        let scenario = try Scenario.parse(Self.valid)
        #expect(scenario.duration == .seconds(10))
        #expect(scenario.faults == [FaultScript(atSeconds: 1, kind: .unplug(durationSeconds: 2))])
        #expect(scenario.subjects.first?.kind == .person(heightMeters: 1.75))
    }

    @Test func wrongTypesAreNamed() {
        #expect(
            error(replacing("\"duration_s\": 10", with: "\"duration_s\": \"ten\""))
                == ScenarioError(field: "duration_s", line: 3, message: "must be a number, got a string"))
        #expect(
            error(replacing("\"primary\": true", with: "\"primary\": 1"))
                == ScenarioError(field: "subjects[0].primary", line: 5, message: "must be true or false, got a number"))
        #expect(
            error(replacing("\"id\": 1", with: "\"id\": 1.5"))
                == ScenarioError(field: "subjects[0].id", line: 5, message: "must be a whole number, got 1.5"))
    }

    @Test func negativeDurationsAreRefused() {
        #expect(
            error(replacing("\"duration_s\": 10", with: "\"duration_s\": -10"))
                == ScenarioError(field: "duration_s", line: 3, message: "must be greater than 0 and at most 3600, got -10"))
        #expect(
            error(replacing("\"duration_s\": 2}", with: "\"duration_s\": -2}"))
                == ScenarioError(
                    field: "faults[0].duration_s", line: 9,
                    message: "must be greater than 0 and at most 3600, got -2"))
    }

    @Test func aVISCACamerasFaultsAreReadAndTheirValuesChecked() throws {
        let late = Self.valid.replacingOccurrences(
            of: "\"kind\": \"unplug\", \"duration_s\": 2",
            with: "\"kind\": \"reply_delay\", \"duration_s\": 2, \"delay_ms\": 150")
        #expect(try Scenario.parse(late).faults.first?.kind == .replyDelay(durationSeconds: 2, delay: .milliseconds(150)))
        let lossy = Self.valid.replacingOccurrences(
            of: "\"kind\": \"unplug\", \"duration_s\": 2",
            with: "\"kind\": \"reply_loss\", \"duration_s\": 2, \"fraction\": 0")
        #expect(error(lossy)?.field == "faults[0].fraction", "a loss of nothing is no fault")
        let noDelay = Self.valid.replacingOccurrences(
            of: "\"kind\": \"unplug\", \"duration_s\": 2",
            with: "\"kind\": \"reply_delay\", \"duration_s\": 2")
        #expect(error(noDelay)?.field == "faults[0].delay_ms")
    }

    @Test func unknownFaultsAndFieldsAreRefused() {
        #expect(
            error(replacing("\"kind\": \"unplug\"", with: "\"kind\": \"meteor\""))
                == ScenarioError(
                    field: "faults[0].kind", line: 9,
                    message: "unknown value \"meteor\"; expected one of "
                        + "\"unplug\", \"line_noise\", \"telemetry_stall\", \"reboot\", \"motor_stall\", "
                        + "\"host_silence\", \"over_temperature\", \"reply_delay\", \"reply_loss\""))
        #expect(
            error(replacing("\"name\": \"t\",", with: "\"name\": \"t\", \"colour\": \"red\","))
                == ScenarioError(field: "colour", line: 2, message: "is not a known field"))
        #expect(
            error(replacing("\"duration_s\": 10,", with: ""))
                == ScenarioError(field: "duration_s", line: 1, message: "is required"))
    }

    @Test func nonFiniteNumbersAreRefused() {
        #expect(
            error(replacing("\"duration_s\": 10", with: "\"duration_s\": 1e999"))
                == ScenarioError(field: "duration_s", line: 3, message: "must be a finite number, got 1e999"))
        #expect(
            error(replacing("\"duration_s\": 10", with: "\"duration_s\": NaN"))
                == ScenarioError(field: "duration_s", line: 3, message: "must be a finite number, got NaN"))
        #expect(
            error(replacing("\"x_m\": 0", with: "\"x_m\": -Infinity"))
                == ScenarioError(
                    field: "subjects[0].path.waypoints[0].x_m", line: 6,
                    message: "must be a finite number, got -Infinity"))
        #expect(
            error(replacing("\"id\": 1", with: "\"id\": Infinity"))
                == ScenarioError(field: "subjects[0].id", line: 5, message: "must be a whole number, got Infinity"))
        #expect(
            error(replacing("\"duration_s\": 10", with: "\"duration_s\": Nope"))
                == ScenarioError(field: "", line: 3, message: "expected 'NaN'"))
    }

    @Test func lookAlikesAndDescriptorsAreChecked() throws {
        #expect(
            error(replacing("\"primary\": true,", with: "\"primary\": true, \"looks_like\": 1,"))
                == ScenarioError(field: "subjects[0].looks_like", line: 5, message: "must be another subject's id, got 1"))
        #expect(
            error(replacing("\"primary\": true,", with: "\"primary\": true, \"looks_like\": 7,"))
                == ScenarioError(field: "subjects[0].looks_like", line: 5, message: "must be another subject's id, got 7"))
        #expect(
            error(replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"detector\": {\"appearance_length\": 3},"))?.field
                == "detector.appearance_length")
        let scenario = try Scenario.parse(
            replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"detector\": {\"appearance_length\": 16},"))
        #expect(scenario.detector.appearanceLength == 16 && scenario.subjects[0].looksLike == nil)
        // Every person's descriptor is drawn from the seed: the same seed, the same clothes.
        var lookAlike = SubjectScript(
            identifier: 2, kind: .person(heightMeters: 1.7), isPrimary: false,
            path: .waypoints([]), absences: [])
        lookAlike.looksLike = 1
        let people = [scenario.subjects[0], lookAlike]
        let model = AppearanceModel(subjects: people, length: 16, seed: 9)
        #expect(model.histograms == AppearanceModel(subjects: people, length: 16, seed: 9).histograms)
        let (a, b) = (try #require(model.histograms[1]), try #require(model.histograms[2]))
        let cosine = zip(a, b).map { $0 * $1 }.reduce(0, +) / (AppearanceModel.norm(a) * AppearanceModel.norm(b))
        #expect(abs(1 - cosine - AppearanceModel.lookAlikeDistance) < 1e-6, "the look-alike at its distance: \(1 - cosine)")
    }

    @Test func structuralMistakesAreFound() {
        #expect(
            error(replacing("\"y_m\": 3}]", with: "\"y_m\": 3}, {\"t_s\": 0, \"x_m\": 1, \"y_m\": 3}]"))
                == ScenarioError(
                    field: "subjects[0].path.waypoints[1].t_s", line: 6,
                    message: "must be later than the previous waypoint's (0.0 s)"))
        #expect(error(replacing("\"duration_s\": 2}", with: "\"duration_s\": 2},"))?.message == "unexpected character ']'")
        #expect(
            error(replacing("\"at_s\": 1", with: "\"at_s\": 11"))
                == ScenarioError(field: "faults[0].at_s", line: 9, message: "must be at least 0 and at most 10, got 11"))
        #expect(error("[1, 2]") == ScenarioError(field: "", line: 1, message: "must be an object, got an array"))
        #expect(error("") == ScenarioError(field: "", line: 1, message: "unexpected end of the text"))
        #expect(error(String(repeating: "[", count: 200)) == ScenarioError(field: "", line: 1, message: "nested more than 128 levels deep"))
    }

    @Test func garbageNeverCrashes() {
        var random = SimulationRandom(seed: 77)
        let pieces = ["{", "}", "[", "]", "\"", ":", ",", "1", "-", "e", "true", "null", "\"duration_s\"", "\\", "\n", " ", "é"]
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int(random.next() % 40) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            _ = error(text)
        }
        for length in 0..<Self.valid.utf8.count {
            _ = error(String(decoding: Array(Self.valid.utf8.prefix(length)), as: UTF8.self))
        }
    }

    @Test func personSwitchAndStillnessCriteriaAreReadAndChecked() throws {
        let text = replacing(
            "\"duration_s\": 10,",
            with: """
                "duration_s": 10, "pass": {"primary_person_switches_max": 0, "still_reversals_per_s_max": 1,
                                           "still_jitter_deg_max": 0.1, "framing_tolerance": 0.05},
                """)
        let criteria = try Scenario.parse(text).criteria
        #expect(criteria.maximumPrimaryPersonSwitches == 0 && criteria.maximumStillReversalsPerSecond == 1)
        #expect(criteria.maximumStillJitterDegrees == 0.1 && criteria.framingToleranceFraction == 0.05)
        let bad = error(replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"pass\": {\"still_jitter_deg_max\": -1},"))
        #expect(bad?.field == "pass.still_jitter_deg_max")
        let fractional = error(
            replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"pass\": {\"primary_person_switches_max\": 0.5},"))
        #expect(fractional?.field == "pass.primary_person_switches_max")
    }

    @Test func theReframeCriterionIsReadAndChecked() throws {
        let text = replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"pass\": {\"reframe_max_s\": 1.5},")
        #expect(try Scenario.parse(text).criteria.maximumReframeSeconds == 1.5)
        for bad in ["0", "-1", "601", "\"soon\""] {
            let refused = error(replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"pass\": {\"reframe_max_s\": \(bad)},"))
            #expect(refused?.field == "pass.reframe_max_s", "\(bad)")
        }
    }

    @Test func aShotSizeAndTheZoomCriteriaAreReadAndChecked() throws {
        let text = replacing(
            "\"duration_s\": 10,",
            with: """
                "duration_s": 10, "shot": "0.45",
                "pass": {"shot_band": {"part": "face", "low": 0.15, "high": 0.25, "from_s": 2, "to_s": 8, "share_min": 0.9},
                         "zoom_reversals_per_min_max": 6, "face_in_picture_min": 0.5},
                """)
        let scenario = try Scenario.parse(text)
        #expect(scenario.shot == .fraction(0.45))
        #expect(
            scenario.criteria.shotBand
                == ShotBand(part: .face, lowFraction: 0.15, highFraction: 0.25, fromSeconds: 2, toSeconds: 8, minimumShare: 0.9))
        #expect(scenario.criteria.maximumZoomReversalsPerMinute == 6 && scenario.criteria.minimumFaceInPicture == 0.5)
        let named = try Scenario.parse(replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"shot\": \"half\","))
        #expect(named.shot == .half)
        #expect(try Scenario.parse(Self.valid).shot == nil)
        // A band's counting runs to the end of the run unless told, for the body unless told.
        let plain = try Scenario.parse(
            replacing(
                "\"duration_s\": 10,",
                with: "\"duration_s\": 10, \"pass\": {\"shot_band\": {\"low\": 0.3, \"high\": 0.5, \"share_min\": 1}},"))
        #expect(
            plain.criteria.shotBand
                == ShotBand(part: .body, lowFraction: 0.3, highFraction: 0.5, fromSeconds: 0, toSeconds: 10, minimumShare: 1))
    }

    @Test func aBadShotSizeOrZoomCriterionIsNamed() {
        let shots: [(String, String)] = [
            ("\"shot\": \"close\"", "expected off, head, half, full, group or a share of the picture's height, got 'close'"),
            ("\"shot\": \"1.5\"", "a share of the picture's height must be within 0.05...1.0, got 1.5"),
        ]
        for (field, message) in shots {
            let refused = error(replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \(field),"))
            #expect(refused?.field == "shot" && refused?.message == message, "\(field)")
        }
        #expect(error(replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"shot\": 0.4,"))?.field == "shot")
        let criteria: [(String, String)] = [
            ("\"shot_band\": {\"low\": 0.5, \"high\": 0.4, \"share_min\": 1}", "pass.shot_band.high"),
            ("\"shot_band\": {\"low\": 0, \"high\": 0.4, \"share_min\": 1}", "pass.shot_band.low"),
            ("\"shot_band\": {\"low\": 0.3, \"high\": 0.4}", "pass.shot_band.share_min"),
            ("\"shot_band\": {\"low\": 0.3, \"high\": 0.4, \"share_min\": 1, \"part\": \"hand\"}", "pass.shot_band.part"),
            ("\"shot_band\": {\"low\": 0.3, \"high\": 0.4, \"share_min\": 1, \"from_s\": 5, \"to_s\": 4}", "pass.shot_band.to_s"),
            ("\"shot_band\": {\"low\": 0.3, \"high\": 0.4, \"share_min\": 1, \"from_s\": 11}", "pass.shot_band.from_s"),
            ("\"shot_band\": {\"low\": 0.3, \"high\": 0.4, \"share_min\": 1, \"size\": 1}", "pass.shot_band.size"),
            ("\"zoom_reversals_per_min_max\": -1", "pass.zoom_reversals_per_min_max"),
            ("\"face_in_picture_min\": 1.5", "pass.face_in_picture_min"),
        ]
        for (field, path) in criteria {
            let refused = error(replacing("\"duration_s\": 10,", with: "\"duration_s\": 10, \"pass\": {\(field)},"))
            #expect(refused?.field == path, "\(field): \(String(describing: refused))")
        }
    }
}
