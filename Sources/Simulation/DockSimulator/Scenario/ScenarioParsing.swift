import DockJSON
import DockProtocol
import DockVocabulary

extension Scenario {
    /// Reads a scenario file's text.
    ///
    /// - Throws: `ScenarioError` naming the first bad field and its line.
    public static func parse(_ text: String) throws(ScenarioError) -> Scenario {
        let document: JSONDocument
        do {
            document = try JSONReader.document(text)
        } catch {
            throw ScenarioError(field: "", line: error.line, message: error.message)
        }
        do {
            return try parse(document.fields())
        } catch {
            throw ScenarioError(error)
        }
    }

    private static func parse(_ top: JSONFields) throws(JSONFieldError) -> Scenario {
        let duration = try top.number("duration_s", in: 0...3600, excludingLowerBound: true)
        var scenario = Scenario(
            name: try (top.optionalString("name") ?? "unnamed"),
            summary: try (top.optionalString("description") ?? ""),
            duration: .milliseconds(Int64((duration * 1000).rounded())),
            seed: UInt64(try (top.optionalInteger("seed", in: 0...Int(1 << 53)) ?? 1)),
            accessory: try parseAccessory(top.optionalObject("accessory")),
            camera: try parseCamera(top.optionalObject("camera")),
            detector: try parseDetector(top.optionalObject("detector")),
            subjects: [], faults: [], events: [],
            criteria: try parseCriteria(top.optionalObject("pass"), durationSeconds: duration))
        if let text = try top.optionalString("shot", maximumBytes: 32) {
            do {
                scenario.shot = try ShotSize(setting: text)
            } catch {
                throw top.error("shot", error.description)
            }
        }

        // An error about a subject as a whole is at the line where its object starts.
        func subjectError(_ element: JSONElement, _ key: String, _ reason: String) -> JSONFieldError {
            JSONFieldError(path: "\(element.path).\(key)", line: element.line, problem: .invalid(reason))
        }
        let subjects = try top.optionalArray("subjects") ?? []
        for element in subjects {
            let subject = try parseSubject(element.fields(), durationSeconds: duration)
            if scenario.subjects.contains(where: { $0.identifier == subject.identifier }) {
                throw subjectError(element, "id", "identifier \(subject.identifier) is used by an earlier subject")
            }
            if subject.isPrimary, scenario.primarySubject != nil {
                throw subjectError(element, "primary", "only one subject may be primary")
            }
            scenario.subjects.append(subject)
        }
        for (subject, element) in zip(scenario.subjects, subjects) {
            guard let model = subject.looksLike else { continue }
            guard model != subject.identifier, scenario.subjects.contains(where: { $0.identifier == model }) else {
                throw subjectError(element, "looks_like", "must be another subject's id, got \(model)")
            }
        }
        for element in try top.optionalArray("faults") ?? [] {
            scenario.faults.append(try parseFault(element.fields(), durationSeconds: duration))
        }
        for element in try top.optionalArray("events") ?? [] {
            scenario.events.append(try parseEvent(element.fields(), durationSeconds: duration))
        }
        try top.finish()
        return scenario
    }

    private static func parseAccessory(_ reader: JSONFields?) throws(JSONFieldError) -> AccessoryConfiguration {
        var configuration = AccessoryConfiguration()
        guard let reader else { return configuration }
        configuration.model = try (reader.optionalString("model", maximumBytes: 32) ?? configuration.model)
        configuration.firmwareVersion = try (reader.optionalString("firmware", maximumBytes: 32) ?? configuration.firmwareVersion)
        configuration.serialNumber = try (reader.optionalString("serial", maximumBytes: 32) ?? configuration.serialNumber)
        configuration.telemetryRateHertz = try (reader.optionalInteger("telemetry_rate_hz", in: 1...200) ?? 50)
        configuration.failsafeTimeout = .milliseconds(try (reader.optionalInteger("failsafe_timeout_ms", in: 50...10_000) ?? 500))
        configuration.isDocked = try (reader.optionalBool("docked") ?? true)
        configuration.yaw = try parseAxis(reader.optionalObject("yaw"), default: .defaultYaw)
        configuration.pitch = try parseAxis(reader.optionalObject("pitch"), default: .defaultPitch)
        try reader.finish()
        return configuration
    }

    private static func parseAxis(_ reader: JSONFields?, default axis: AxisParameters) throws(JSONFieldError) -> AxisParameters {
        guard let reader else { return axis }
        let degree = Double.pi / 180
        var result = axis
        result.minimumRadians = try (reader.optionalNumber("min_deg", in: -720...0) ?? axis.minimumRadians / degree) * degree
        result.maximumRadians = try (reader.optionalNumber("max_deg", in: 0...720) ?? axis.maximumRadians / degree) * degree
        let maximumSpeed = try reader.optionalNumber("max_speed_deg_s", in: 0...1145, excludingLowerBound: true)
        result.maximumSpeedRadiansPerSecond = (maximumSpeed ?? axis.maximumSpeedRadiansPerSecond / degree) * degree
        let maximumAcceleration = try reader.optionalNumber("max_accel_deg_s2", in: 0...11_459, excludingLowerBound: true)
        result.maximumAccelerationRadiansPerSecondSquared =
            (maximumAcceleration ?? axis.maximumAccelerationRadiansPerSecondSquared / degree) * degree
        result.responseTimeSeconds = try (reader.optionalNumber("response_time_s", in: 0...1) ?? axis.responseTimeSeconds)
        result.backlashRadians = try (reader.optionalNumber("backlash_deg", in: 0...10) ?? 0) * degree
        result.encoderNoiseRadians = try (reader.optionalNumber("encoder_noise_deg", in: 0...5) ?? 0) * degree
        try reader.finish()
        return result
    }

    private static func parseCamera(_ reader: JSONFields?) throws(JSONFieldError) -> CameraSetup {
        var setup = CameraSetup(
            information: CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9),
            widthPixels: 1280, heightPixels: 720, framesPerSecond: 30, mountHeightMeters: 1.2)
        guard let reader else { return setup }
        let fieldOfView = try (reader.optionalNumber("hfov_deg", in: 0...170, excludingLowerBound: true) ?? 70)
        setup.widthPixels = try (reader.optionalInteger("width_px", in: 16...16_384) ?? 1280)
        setup.heightPixels = try (reader.optionalInteger("height_px", in: 16...16_384) ?? 720)
        setup.framesPerSecond = try (reader.optionalNumber("fps", in: 0...240, excludingLowerBound: true) ?? 30)
        setup.mountHeightMeters = try (reader.optionalNumber("height_m", in: 0...5) ?? 1.2)
        setup.information = CameraInformation(
            horizontalFieldOfViewRadians: fieldOfView * .pi / 180,
            aspectRatio: Double(setup.widthPixels) / Double(setup.heightPixels),
            orientation: try (reader.optionalChoice("orientation", ImageOrientation.allCases.map { ($0.rawValue, $0) }) ?? .up),
            isMirrored: try (reader.optionalBool("mirrored") ?? false))
        try reader.finish()
        return setup
    }

    private static func parseDetector(_ reader: JSONFields?) throws(JSONFieldError) -> DetectorParameters {
        var detector = DetectorParameters(
            missRate: 0.05, positionNoise: 0.02, sizeNoise: 0.03, falsePositivesPerFrame: 0,
            latency: .milliseconds(40), latencyJitter: .milliseconds(10), reportsFaces: true, reportsBodies: true,
            minimumVisibleFraction: 0.5)
        guard let reader else { return detector }
        detector.missRate = try (reader.optionalNumber("miss_rate", in: 0...1) ?? detector.missRate)
        detector.positionNoise = try (reader.optionalNumber("position_noise", in: 0...1) ?? detector.positionNoise)
        detector.sizeNoise = try (reader.optionalNumber("size_noise", in: 0...1) ?? detector.sizeNoise)
        detector.falsePositivesPerFrame = try (reader.optionalNumber("false_positives_per_frame", in: 0...10) ?? 0)
        detector.latency = .milliseconds(try (reader.optionalInteger("latency_ms", in: 0...5000) ?? 40))
        detector.latencyJitter = .milliseconds(try (reader.optionalInteger("latency_jitter_ms", in: 0...5000) ?? 10))
        detector.reportsFaces = try (reader.optionalBool("faces") ?? true)
        detector.reportsBodies = try (reader.optionalBool("bodies") ?? true)
        detector.minimumVisibleFraction = try (reader.optionalNumber("min_visible", in: 0...1) ?? 0.5)
        if reader.value("appearance_length") != nil {
            detector.appearanceLength = try reader.integer("appearance_length", in: 4...512)
        }
        try reader.finish()
        return detector
    }

    private static func parseCriteria(_ reader: JSONFields?, durationSeconds: Double) throws(JSONFieldError) -> PassCriteria {
        var criteria = PassCriteria(framingToleranceFraction: 0.1)
        guard let reader else { return criteria }
        if reader.value("primary_in_frame_min") != nil {
            criteria.minimumPrimaryInFrameShare = try reader.number("primary_in_frame_min", in: 0...1)
        }
        if reader.value("primary_id_switches_max") != nil {
            criteria.maximumPrimaryIDSwitches = try reader.integer("primary_id_switches_max", in: 0...1_000_000)
        }
        if reader.value("primary_person_switches_max") != nil {
            criteria.maximumPrimaryPersonSwitches = try reader.integer("primary_person_switches_max", in: 0...1_000_000)
        }
        if reader.value("still_reversals_per_s_max") != nil {
            criteria.maximumStillReversalsPerSecond = try reader.number("still_reversals_per_s_max", in: 0...1000)
        }
        if reader.value("still_jitter_deg_max") != nil {
            criteria.maximumStillJitterDegrees = try reader.number("still_jitter_deg_max", in: 0...180)
        }
        criteria.framingToleranceFraction = try (reader.optionalNumber("framing_tolerance", in: 0...1, excludingLowerBound: true) ?? 0.1)
        if reader.value("reconnect_max_s") != nil {
            criteria.maximumReconnectSeconds = try reader.number("reconnect_max_s", in: 0...600, excludingLowerBound: true)
        }
        if reader.value("reframe_max_s") != nil {
            criteria.maximumReframeSeconds = try reader.number("reframe_max_s", in: 0...600, excludingLowerBound: true)
        }
        if reader.value("silence_stop_max_s") != nil {
            criteria.maximumSilenceStopSeconds = try reader.number("silence_stop_max_s", in: 0...600, excludingLowerBound: true)
        }
        if let band = try reader.optionalObject("shot_band") {
            let low = try band.number("low", in: 0...1, excludingLowerBound: true)
            let from = try (band.optionalNumber("from_s", in: 0...durationSeconds) ?? 0)
            criteria.shotBand = ShotBand(
                part: try (band.optionalChoice("part", [("body", SubjectKind.body), ("face", .face)]) ?? .body),
                lowFraction: low, highFraction: try band.number("high", in: low...2), fromSeconds: from,
                toSeconds: try (band.optionalNumber("to_s", in: from...durationSeconds) ?? durationSeconds),
                minimumShare: try band.number("share_min", in: 0...1))
            try band.finish()
        }
        if reader.value("zoom_reversals_per_min_max") != nil {
            criteria.maximumZoomReversalsPerMinute = try reader.number("zoom_reversals_per_min_max", in: 0...10_000)
        }
        if reader.value("face_in_picture_min") != nil {
            criteria.minimumFaceInPicture = try reader.number("face_in_picture_min", in: 0...1)
        }
        try reader.finish()
        return criteria
    }

    private static func parseSubject(_ reader: JSONFields, durationSeconds: Double) throws(JSONFieldError) -> SubjectScript {
        let identifier = try reader.integer("id", in: 1...1000)
        let kind: SubjectScript.Kind
        switch try reader.choice("kind", [("person", "person"), ("object", "object")]) {
        case "person":
            kind = .person(heightMeters: try (reader.optionalNumber("height_m", in: 0.3...2.5) ?? 1.75))
        default:
            kind = .object(
                widthMeters: try reader.number("width_m", in: 0.01...5),
                heightMeters: try reader.number("height_m", in: 0.01...5),
                elevationMeters: try (reader.optionalNumber("elevation_m", in: 0...5) ?? 0))
        }
        let isPrimary = try (reader.optionalBool("primary") ?? false)
        let pathReader = try reader.object("path")
        let waypointNodes = try pathReader.optionalArray("waypoints") ?? []
        let walkReader = try pathReader.optionalObject("random_walk")
        let subjectPath: SubjectScript.Path
        switch (waypointNodes.isEmpty, walkReader) {
        case (false, nil):
            var waypoints: [Waypoint] = []
            for element in waypointNodes {
                let point = try element.fields()
                let time = try point.number("t_s", in: 0...durationSeconds)
                if let previous = waypoints.last, time <= previous.timeSeconds {
                    throw point.error("t_s", "must be later than the previous waypoint's (\(previous.timeSeconds) s)")
                }
                waypoints.append(
                    Waypoint(
                        timeSeconds: time, xMeters: try point.number("x_m", in: -100...100),
                        yMeters: try point.number("y_m", in: -100...100)))
                try point.finish()
            }
            subjectPath = .waypoints(waypoints)
        case (true, let walk?):
            let xMinimum = try walk.number("x_min_m", in: -100...100)
            let xMaximum = try walk.number("x_max_m", in: xMinimum...100)
            let yMinimum = try walk.number("y_min_m", in: -100...100)
            let yMaximum = try walk.number("y_max_m", in: yMinimum...100)
            subjectPath = .randomWalk(
                RandomWalk(
                    startXMeters: try walk.number("start_x_m", in: xMinimum...xMaximum),
                    startYMeters: try walk.number("start_y_m", in: yMinimum...yMaximum),
                    speedMetersPerSecond: try walk.number("speed_m_s", in: 0...10),
                    xRangeMeters: xMinimum...xMaximum, yRangeMeters: yMinimum...yMaximum,
                    turnIntervalSeconds: try (walk.optionalNumber("turn_s", in: 0...3600, excludingLowerBound: true) ?? 2)))
            try walk.finish()
        default:
            throw JSONFieldError(
                path: pathReader.path, line: pathReader.line,
                problem: .invalid("needs either \"waypoints\" (a non-empty array) or \"random_walk\", not both"))
        }
        try pathReader.finish()

        let looksLike = reader.value("looks_like") != nil ? try reader.integer("looks_like", in: 1...1000) : nil
        var absences: [ClosedRange<Double>] = []
        for element in try reader.optionalArray("absent") ?? [] {
            let span = try element.fields()
            let from = try span.number("from_s", in: 0...durationSeconds)
            absences.append(from...(try span.number("to_s", in: from...durationSeconds)))
            try span.finish()
        }
        try reader.finish()
        var subject = SubjectScript(identifier: identifier, kind: kind, isPrimary: isPrimary, path: subjectPath, absences: absences)
        subject.looksLike = looksLike
        return subject
    }

    private static func parseFault(_ reader: JSONFields, durationSeconds: Double) throws(JSONFieldError) -> FaultScript {
        let at = try reader.number("at_s", in: 0...durationSeconds)
        let names = [
            "unplug", "line_noise", "telemetry_stall", "reboot", "motor_stall", "host_silence", "over_temperature",
            "reply_delay", "reply_loss",
        ]
        let name = try reader.choice("kind", names.map { ($0, $0) })
        func length() throws(JSONFieldError) -> Double {
            try reader.number("duration_s", in: 0...3600, excludingLowerBound: true)
        }
        let kind: FaultScript.Kind
        switch name {
        case "unplug": kind = .unplug(durationSeconds: try length())
        case "line_noise":
            kind = .lineNoise(
                durationSeconds: try length(),
                bitErrorRate: try reader.number("bit_error_rate", in: 0...0.5, excludingLowerBound: true))
        case "telemetry_stall": kind = .telemetryStall(durationSeconds: try length())
        case "reboot": kind = .reboot
        case "motor_stall":
            kind = .motorStall(
                axis: try reader.choice("axis", [("yaw", Axis.yaw), ("pitch", Axis.pitch)]),
                durationSeconds: try length())
        case "host_silence": kind = .hostSilence(durationSeconds: try length())
        case "reply_delay":
            kind = .replyDelay(durationSeconds: try length(), delay: .milliseconds(try reader.integer("delay_ms", in: 1...5000)))
        case "reply_loss":
            kind = .replyLoss(durationSeconds: try length(), fraction: try reader.number("fraction", in: 0...1, excludingLowerBound: true))
        default: kind = .overTemperature(durationSeconds: try length())
        }
        try reader.finish()
        return FaultScript(atSeconds: at, kind: kind)
    }

    private static func parseEvent(_ reader: JSONFields, durationSeconds: Double) throws(JSONFieldError) -> EventScript {
        let at = try reader.number("at_s", in: 0...durationSeconds)
        let kind: EventScript.Kind
        switch try reader.choice("kind", ["press", "zoom", "dock", "undock"].map { ($0, $0) }) {
        case "press":
            let button: AccessoryFirmware.Button
            switch try reader.choice("button", ["tracking", "shutter", "flip", "custom"].map { ($0, $0) }) {
            case "tracking": button = .tracking
            case "shutter": button = .shutter
            case "flip": button = .flip
            default: button = .custom(UInt8(try reader.integer("id", in: 1...255)))
            }
            kind = .press(button, durationSeconds: try (reader.optionalNumber("duration_s", in: 0...60) ?? 0.1))
        case "zoom":
            let steps = try reader.integer("steps", in: -128...127)
            guard steps != 0 else { throw reader.error("steps", "must not be 0") }
            kind = .zoom(steps: Int8(steps))
        case "dock": kind = .dock(true)
        default: kind = .dock(false)
        }
        try reader.finish()
        return EventScript(atSeconds: at, kind: kind)
    }
}
