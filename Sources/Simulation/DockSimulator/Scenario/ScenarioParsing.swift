import DockJSON
import DockProtocol
import DockTracking

extension Scenario {
    /// Reads a scenario file's text.
    ///
    /// - Throws: `ScenarioError` naming the first bad field and its line.
    public static func parse(_ text: String) throws(ScenarioError) -> Scenario {
        let root: JSONNode
        do {
            root = try JSONReader.parse(text, options: .file)
        } catch {
            throw ScenarioError(field: "", line: error.line, message: error.message)
        }
        var top = try ObjectReader(root, path: "")
        let duration = try top.number("duration_s", in: 0...3600, excludingLowerBound: true)
        var scenario = Scenario(
            name: try top.string("name", default: "unnamed"),
            summary: try top.string("description", default: ""),
            duration: .milliseconds(Int64((duration * 1000).rounded())),
            seed: UInt64(try top.integer("seed", in: 0...Int(1 << 53), default: 1)),
            accessory: try parseAccessory(top.object("accessory")),
            camera: try parseCamera(top.object("camera")),
            detector: try parseDetector(top.object("detector")),
            subjects: [], faults: [], events: [],
            criteria: try parseCriteria(top.object("pass")))

        for (node, path) in try top.array("subjects") {
            let subject = try parseSubject(node, path: path, durationSeconds: duration)
            if scenario.subjects.contains(where: { $0.identifier == subject.identifier }) {
                throw ScenarioError(
                    field: "\(path).id", line: node.line,
                    message: "identifier \(subject.identifier) is used by an earlier subject")
            }
            if subject.isPrimary, scenario.primarySubject != nil {
                throw ScenarioError(
                    field: "\(path).primary", line: node.line,
                    message: "only one subject may be primary")
            }
            scenario.subjects.append(subject)
        }
        for (subject, (node, path)) in zip(scenario.subjects, try top.array("subjects")) {
            guard let model = subject.looksLike else { continue }
            guard model != subject.identifier, scenario.subjects.contains(where: { $0.identifier == model }) else {
                throw ScenarioError(field: "\(path).looks_like", line: node.line, message: "must be another subject's id, got \(model)")
            }
        }
        for (node, path) in try top.array("faults") {
            scenario.faults.append(try parseFault(node, path: path, durationSeconds: duration))
        }
        for (node, path) in try top.array("events") {
            scenario.events.append(try parseEvent(node, path: path, durationSeconds: duration))
        }
        try top.finish()
        return scenario
    }

    private static func parseAccessory(_ reader: ObjectReader?) throws(ScenarioError) -> AccessoryConfiguration {
        var configuration = AccessoryConfiguration()
        guard var reader else { return configuration }
        configuration.model = try reader.string("model", default: configuration.model, maximumBytes: 32)
        configuration.firmwareVersion = try reader.string("firmware", default: configuration.firmwareVersion, maximumBytes: 32)
        configuration.serialNumber = try reader.string("serial", default: configuration.serialNumber, maximumBytes: 32)
        configuration.telemetryRateHertz = try reader.integer("telemetry_rate_hz", in: 1...200, default: 50)
        configuration.failsafeTimeout = .milliseconds(try reader.integer("failsafe_timeout_ms", in: 50...10_000, default: 500))
        configuration.isDocked = try reader.bool("docked", default: true)
        configuration.yaw = try parseAxis(reader.object("yaw"), default: .defaultYaw)
        configuration.pitch = try parseAxis(reader.object("pitch"), default: .defaultPitch)
        try reader.finish()
        return configuration
    }

    private static func parseAxis(_ reader: ObjectReader?, default axis: AxisParameters) throws(ScenarioError) -> AxisParameters {
        guard var reader else { return axis }
        let degree = Double.pi / 180
        var result = axis
        result.minimumRadians = try reader.number("min_deg", in: -720...0, default: axis.minimumRadians / degree) * degree
        result.maximumRadians = try reader.number("max_deg", in: 0...720, default: axis.maximumRadians / degree) * degree
        result.maximumSpeedRadiansPerSecond =
            try reader.number(
                "max_speed_deg_s", in: 0...1145, default: axis.maximumSpeedRadiansPerSecond / degree,
                excludingLowerBound: true) * degree
        result.maximumAccelerationRadiansPerSecondSquared =
            try reader.number(
                "max_accel_deg_s2", in: 0...11_459, default: axis.maximumAccelerationRadiansPerSecondSquared / degree,
                excludingLowerBound: true) * degree
        result.responseTimeSeconds = try reader.number("response_time_s", in: 0...1, default: axis.responseTimeSeconds)
        result.backlashRadians = try reader.number("backlash_deg", in: 0...10, default: 0) * degree
        result.encoderNoiseRadians = try reader.number("encoder_noise_deg", in: 0...5, default: 0) * degree
        try reader.finish()
        return result
    }

    private static func parseCamera(_ reader: ObjectReader?) throws(ScenarioError) -> CameraSetup {
        var setup = CameraSetup(
            information: CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9),
            widthPixels: 1280, heightPixels: 720, framesPerSecond: 30, mountHeightMeters: 1.2)
        guard var reader else { return setup }
        let fieldOfView = try reader.number("hfov_deg", in: 0...170, default: 70, excludingLowerBound: true)
        setup.widthPixels = try reader.integer("width_px", in: 16...16_384, default: 1280)
        setup.heightPixels = try reader.integer("height_px", in: 16...16_384, default: 720)
        setup.framesPerSecond = try reader.number("fps", in: 0...240, default: 30, excludingLowerBound: true)
        setup.mountHeightMeters = try reader.number("height_m", in: 0...5, default: 1.2)
        setup.information = CameraInformation(
            horizontalFieldOfViewRadians: fieldOfView * .pi / 180,
            aspectRatio: Double(setup.widthPixels) / Double(setup.heightPixels),
            orientation: try reader.choice("orientation", ImageOrientation.allCases.map { ($0.rawValue, $0) }, default: .up),
            isMirrored: try reader.bool("mirrored", default: false))
        try reader.finish()
        return setup
    }

    private static func parseDetector(_ reader: ObjectReader?) throws(ScenarioError) -> DetectorParameters {
        var detector = DetectorParameters(
            missRate: 0.05, positionNoise: 0.02, sizeNoise: 0.03, falsePositivesPerFrame: 0,
            latency: .milliseconds(40), latencyJitter: .milliseconds(10), reportsFaces: true, reportsBodies: true,
            minimumVisibleFraction: 0.5)
        guard var reader else { return detector }
        detector.missRate = try reader.number("miss_rate", in: 0...1, default: detector.missRate)
        detector.positionNoise = try reader.number("position_noise", in: 0...1, default: detector.positionNoise)
        detector.sizeNoise = try reader.number("size_noise", in: 0...1, default: detector.sizeNoise)
        detector.falsePositivesPerFrame = try reader.number("false_positives_per_frame", in: 0...10, default: 0)
        detector.latency = .milliseconds(try reader.integer("latency_ms", in: 0...5000, default: 40))
        detector.latencyJitter = .milliseconds(try reader.integer("latency_jitter_ms", in: 0...5000, default: 10))
        detector.reportsFaces = try reader.bool("faces", default: true)
        detector.reportsBodies = try reader.bool("bodies", default: true)
        detector.minimumVisibleFraction = try reader.number("min_visible", in: 0...1, default: 0.5)
        if reader.node("appearance_length") != nil {
            detector.appearanceLength = try reader.integer("appearance_length", in: 4...512)
        }
        try reader.finish()
        return detector
    }

    private static func parseCriteria(_ reader: ObjectReader?) throws(ScenarioError) -> PassCriteria {
        var criteria = PassCriteria(framingToleranceFraction: 0.1)
        guard var reader else { return criteria }
        if reader.node("primary_in_frame_min") != nil {
            criteria.minimumPrimaryInFrameShare = try reader.number("primary_in_frame_min", in: 0...1)
        }
        if reader.node("primary_id_switches_max") != nil {
            criteria.maximumPrimaryIDSwitches = try reader.integer("primary_id_switches_max", in: 0...1_000_000)
        }
        if reader.node("primary_person_switches_max") != nil {
            criteria.maximumPrimaryPersonSwitches = try reader.integer("primary_person_switches_max", in: 0...1_000_000)
        }
        if reader.node("still_reversals_per_s_max") != nil {
            criteria.maximumStillReversalsPerSecond = try reader.number("still_reversals_per_s_max", in: 0...1000)
        }
        if reader.node("still_jitter_deg_max") != nil {
            criteria.maximumStillJitterDegrees = try reader.number("still_jitter_deg_max", in: 0...180)
        }
        criteria.framingToleranceFraction = try reader.number(
            "framing_tolerance", in: 0...1, default: 0.1,
            excludingLowerBound: true)
        if reader.node("reconnect_max_s") != nil {
            criteria.maximumReconnectSeconds = try reader.number("reconnect_max_s", in: 0...600, excludingLowerBound: true)
        }
        if reader.node("reframe_max_s") != nil {
            criteria.maximumReframeSeconds = try reader.number("reframe_max_s", in: 0...600, excludingLowerBound: true)
        }
        if reader.node("silence_stop_max_s") != nil {
            criteria.maximumSilenceStopSeconds = try reader.number("silence_stop_max_s", in: 0...600, excludingLowerBound: true)
        }
        try reader.finish()
        return criteria
    }

    private static func parseSubject(_ node: JSONNode, path: String, durationSeconds: Double) throws(ScenarioError) -> SubjectScript {
        var reader = try ObjectReader(node, path: path)
        let identifier = try reader.integer("id", in: 1...1000)
        let kind: SubjectScript.Kind
        switch try reader.choice("kind", [("person", "person"), ("object", "object")]) {
        case "person":
            kind = .person(heightMeters: try reader.number("height_m", in: 0.3...2.5, default: 1.75))
        default:
            kind = .object(
                widthMeters: try reader.number("width_m", in: 0.01...5),
                heightMeters: try reader.number("height_m", in: 0.01...5),
                elevationMeters: try reader.number("elevation_m", in: 0...5, default: 0))
        }
        let isPrimary = try reader.bool("primary", default: false)
        guard var pathReader = try reader.object("path") else { throw reader.error("path", "is required") }
        let waypointNodes = try pathReader.array("waypoints")
        let walkReader = try pathReader.object("random_walk")
        let subjectPath: SubjectScript.Path
        switch (waypointNodes.isEmpty, walkReader) {
        case (false, nil):
            var waypoints: [Waypoint] = []
            for (node, path) in waypointNodes {
                var point = try ObjectReader(node, path: path)
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
        case (true, var walk?):
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
                    turnIntervalSeconds: try walk.number("turn_s", in: 0...3600, default: 2, excludingLowerBound: true)))
            try walk.finish()
        default:
            throw pathReader.error("", "needs either \"waypoints\" (a non-empty array) or \"random_walk\", not both")
        }
        try pathReader.finish()

        let looksLike = reader.node("looks_like") != nil ? try reader.integer("looks_like", in: 1...1000) : nil
        var absences: [ClosedRange<Double>] = []
        for (node, path) in try reader.array("absent") {
            var span = try ObjectReader(node, path: path)
            let from = try span.number("from_s", in: 0...durationSeconds)
            absences.append(from...(try span.number("to_s", in: from...durationSeconds)))
            try span.finish()
        }
        try reader.finish()
        var subject = SubjectScript(identifier: identifier, kind: kind, isPrimary: isPrimary, path: subjectPath, absences: absences)
        subject.looksLike = looksLike
        return subject
    }

    private static func parseFault(_ node: JSONNode, path: String, durationSeconds: Double) throws(ScenarioError) -> FaultScript {
        var reader = try ObjectReader(node, path: path)
        let at = try reader.number("at_s", in: 0...durationSeconds)
        let names = [
            "unplug", "line_noise", "telemetry_stall", "reboot", "motor_stall", "host_silence", "over_temperature",
            "reply_delay", "reply_loss",
        ]
        let name = try reader.choice("kind", names.map { ($0, $0) })
        func length() throws(ScenarioError) -> Double {
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

    private static func parseEvent(_ node: JSONNode, path: String, durationSeconds: Double) throws(ScenarioError) -> EventScript {
        var reader = try ObjectReader(node, path: path)
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
            kind = .press(button, durationSeconds: try reader.number("duration_s", in: 0...60, default: 0.1))
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
