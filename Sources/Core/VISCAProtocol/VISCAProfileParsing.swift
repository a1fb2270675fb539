import DockJSON

extension VISCAProfile {
    /// The serial speeds a profile may list.
    public static let supportedBaudRates: Set<Int> = [1200, 2400, 4800, 9600, 14400, 19200, 38400, 57600, 115200]

    /// Parses and validates a profile (the format of `Protocol/visca/*.json`, documented in
    /// `Protocol/visca.md`).
    ///
    /// - Throws: `.invalidProfile` naming the field (`pan.speeds[3].degrees_per_second`) and its
    ///   line for text that is not JSON, a missing or unknown field, a value of the wrong type or
    ///   out of range, or a speed table that `VISCASpeedTable` refuses.
    public static func parse(json: String) throws(VISCAError) -> VISCAProfile {
        let document: JSONDocument
        do {
            document = try JSONReader.document(json)
        } catch {
            throw .invalidProfile(field: "(document)", line: error.line, reason: "not JSON: \(error)")
        }
        do {
            return try parse(document.fields())
        } catch {
            throw .invalidProfile(field: error.path.isEmpty ? "(document)" : error.path, line: error.line ?? 1, reason: error.reason)
        }
    }

    private static func parse(_ root: JSONFields) throws(JSONFieldError) -> VISCAProfile {
        let name = try root.string("name")
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            throw root.error("name", "must be lower-case letters, digits and '-', got '\(name)'")
        }
        let displayName = try root.string("display_name")
        guard !displayName.isEmpty else { throw root.error("display_name", "must not be empty") }
        let source = try root.string("source")
        guard !source.isEmpty else { throw root.error("source", "must say where the numbers came from") }
        let address = try root.integer("address", in: 1...7)
        let baudRates = try root.array("baud_rates").map { element throws(JSONFieldError) -> Int in
            let rate = try element.integer()
            guard let rate = Int(exactly: rate), supportedBaudRates.contains(rate) else {
                throw element.error("must be one of \(supportedBaudRates.sorted()), got \(rate)")
            }
            return rate
        }
        guard !baudRates.isEmpty else { throw root.error("baud_rates", "must list at least one speed") }
        guard Set(baudRates).count == baudRates.count else { throw root.error("baud_rates", "lists a speed twice: \(baudRates)") }
        let sockets = try root.integer("sockets", in: 1...15)
        let pan = try axis(root.object("pan"))
        let tilt = try axis(root.object("tilt"))
        var zoom: ClosedRange<UInt16>?
        var zoomMaximumSpeed: UInt8 = 0
        var zoomFullTravel = Duration.zero
        var zoomMagnification: [ZoomPoint] = []
        var zoomSource = ""
        if !root.isNull("zoom") {
            let object = try root.object("zoom")
            let minimum = try object.integer("minimum", in: 0...0xFFFF)
            let maximum = try object.integer("maximum", in: 0...0xFFFF)
            guard minimum < maximum else { throw object.error("maximum", "must be above zoom.minimum (\(minimum)), got \(maximum)") }
            zoom = UInt16(minimum)...UInt16(maximum)
            zoomMaximumSpeed = UInt8(try object.integer("maximum_speed", in: 0...15))
            let seconds = try object.number("full_travel_seconds")
            guard seconds > 0, seconds <= 60 else {
                throw object.error("full_travel_seconds", "must be above 0 and at most 60, got \(seconds)")
            }
            zoomFullTravel = .milliseconds(Int64((seconds * 1000).rounded()))
            zoomMagnification = try magnification(object, range: zoom!)
            zoomSource = try object.string("source")
            guard !zoomSource.isEmpty else { throw object.error("source", "must say where the zoom's figures came from") }
            try object.finish()
        }
        // Optional, so that a profile written before preset memories reads as one without them.
        var presetMemories = 0
        var presetMemorySource = ""
        if root.value("preset_memory") != nil, !root.isNull("preset_memory") {
            let object = try root.object("preset_memory")
            // Numbers 0 to count − 1 travel as one byte, and 0xFF would end the packet.
            presetMemories = try object.integer("count", in: 1...255)
            presetMemorySource = try object.string("source")
            guard !presetMemorySource.isEmpty else { throw object.error("source", "must say where the count came from") }
            try object.finish()
        }
        let quirksObject = try root.object("quirks")
        let quirks = Quirks(
            completionWithoutAck: try quirksObject.bool("completion_without_ack"),
            oneSpeedByteInPositionMoves: try quirksObject.bool("one_speed_byte_in_position_moves"),
            udpWithoutSequenceHeader: try quirksObject.bool("udp_without_sequence_header"),
            completionBeforeArrival: try quirksObject.bool("completion_before_arrival"))
        try quirksObject.finish()
        try root.finish()
        return VISCAProfile(
            name: name, displayName: displayName, source: source, address: UInt8(address), baudRates: baudRates,
            pan: pan, tilt: tilt, zoom: zoom, zoomMaximumSpeed: zoomMaximumSpeed, zoomFullTravel: zoomFullTravel,
            zoomMagnification: zoomMagnification, zoomSource: zoomSource,
            presetMemories: presetMemories, presetMemorySource: presetMemorySource, sockets: sockets, quirks: quirks)
    }

    /// The zoom's magnification table: positions rising inside the range, the first at its wide
    /// end and 1×, magnifications not falling; empty allowed (optics not known).
    private static func magnification(_ object: JSONFields, range: ClosedRange<UInt16>) throws(JSONFieldError) -> [ZoomPoint] {
        var points: [ZoomPoint] = []
        for element in try object.array("magnification") {
            let point = try element.fields()
            let position = try point.integer("position", in: Int(range.lowerBound)...Int(range.upperBound))
            let magnification = try point.number("magnification")
            if let previous = points.last {
                guard position > Int(previous.position) else {
                    throw point.error("position", "must be above the previous point's (\(previous.position)), got \(position)")
                }
                guard magnification >= previous.magnification else {
                    throw point.error(
                        "magnification", "must not fall below the previous point's (\(previous.magnification)), got \(magnification)")
                }
            } else {
                guard position == Int(range.lowerBound) else {
                    throw point.error("position", "the first point must be the wide end (\(range.lowerBound)), got \(position)")
                }
                guard magnification == 1 else { throw point.error("magnification", "must be 1 at the wide end, got \(magnification)") }
            }
            guard magnification.isFinite, magnification <= 1000 else {
                throw point.error("magnification", "must be at most 1000, got \(magnification)")
            }
            points.append(ZoomPoint(position: UInt16(position), magnification: magnification))
            try point.finish()
        }
        return points
    }

    private static func axis(_ object: JSONFields) throws(JSONFieldError) -> Axis {
        let countsPerDegree = try object.number("counts_per_degree")
        guard countsPerDegree > 0 else { throw object.error("counts_per_degree", "must be above 0, got \(countsPerDegree)") }
        let minimum = try object.number("minimum_degrees")
        let maximum = try object.number("maximum_degrees")
        guard minimum <= 0 else { throw object.error("minimum_degrees", "must be at most 0 (home), got \(minimum)") }
        guard maximum >= 0, maximum > minimum else {
            throw object.error("maximum_degrees", "must be at least 0 (home) and above minimum_degrees, got \(maximum)")
        }
        for (key, degrees) in [("minimum_degrees", minimum), ("maximum_degrees", maximum)] {
            guard Double(Int16.min)...Double(Int16.max) ~= (degrees * countsPerDegree).rounded() else {
                throw object.error(key, "\(degrees)° is \(degrees * countsPerDegree) counts, beyond 16 bits")
            }
        }
        var points: [(step: UInt8, degreesPerSecond: Double)] = []
        for element in try object.array("speeds") {
            let point = try element.fields()
            points.append(
                (
                    step: UInt8(try point.integer("step", in: 1...254)),
                    degreesPerSecond: try point.number("degrees_per_second")
                ))
            try point.finish()
        }
        let speeds: VISCASpeedTable
        do {
            speeds = try VISCASpeedTable(points: points)
        } catch {
            throw object.error("speeds", error.description)
        }
        try object.finish()
        return Axis(speeds: speeds, countsPerDegree: countsPerDegree, minimumDegrees: minimum, maximumDegrees: maximum)
    }
}
