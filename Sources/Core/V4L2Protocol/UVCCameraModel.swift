import DockJSON

/// A UVC PTZ camera as data (`Protocol/uvc/*.json`, documented in `Protocol/uvc.md`): the
/// controls it shows, with their ranges as the driver reports them, and its quirks. The session
/// takes the motion figures and quirks from it (what enumeration cannot tell); an emulated
/// camera answers from all of it.
public struct UVCCameraModel: Hashable, Sendable {
    /// One control as `v4l2-ctl --list-ctrls` shows it.
    public struct Control: Hashable, Sendable {
        /// Its `v4l2-ctl` name (`pan_absolute`).
        public var name: String
        /// Its id.
        public var id: UInt32
        /// The range, step and default as the driver reports them.
        public var minimum: Int64
        /// The highest value.
        public var maximum: Int64
        /// The step.
        public var step: UInt64
        /// The default.
        public var defaultValue: Int64
        /// Whether reading or writing it fails with `EIO` (firmware that does not answer it).
        public var failsWithIO: Bool
        /// Where the numbers come from.
        public var source: String

        /// The description enumeration gives.
        public var description: V4L2ControlDescription {
            let names: [UInt32: String] = [
                V4L2ControlID.panAbsolute: "Pan, Absolute", V4L2ControlID.tiltAbsolute: "Tilt, Absolute",
                V4L2ControlID.panSpeed: "Pan, Speed", V4L2ControlID.tiltSpeed: "Tilt, Speed",
                V4L2ControlID.zoomAbsolute: "Zoom, Absolute", V4L2ControlID.zoomContinuous: "Zoom, Continuous",
                V4L2ControlID.panRelative: "Pan, Relative", V4L2ControlID.tiltRelative: "Tilt, Relative",
            ]
            let isSpeed = id == V4L2ControlID.panSpeed || id == V4L2ControlID.tiltSpeed || id == V4L2ControlID.zoomContinuous
            return V4L2ControlDescription(
                id: id, name: names[id] ?? name, minimum: minimum, maximum: maximum, step: step,
                defaultValue: defaultValue,
                flags: isSpeed ? [] : [.volatile])
        }
    }

    /// The model's name, lower-case (`obsbot-tiny`).
    public var name: String
    /// For status and `QUERYCAP`'s card (`OBSBOT Tiny`).
    public var displayName: String
    /// Where the model's numbers come from, overall.
    public var source: String
    /// USB vendor:product, `6e30:fef0`; empty when unknown.
    public var usbID: String
    /// The controls it shows.
    public var controls: [Control]
    /// Degrees per second for one unit of `pan_speed`/`tilt_speed`.
    public var degreesPerSecondPerSpeedUnit: Double
    /// How fast the motors follow an absolute target, degrees per second (also the pace of a
    /// velocity stepped through absolute targets).
    public var absoluteDegreesPerSecond: Double
    /// Pan and tilt are a crop inside the zoomed picture, not motors.
    public var isDigital: Bool
    /// Reading pan/tilt answers the target written, not where the camera is.
    public var readBackIsTarget: Bool
    /// How long after a write the camera is at the target it reads back (with `readBackIsTarget`).
    public var motionLag: Duration
    /// How long enumeration takes on this camera (each query waits this share of it).
    public var enumerationDelay: Duration
    /// How many times the picture is magnified along `zoom_absolute`'s range: points of the
    /// fraction of the range (0 the widest, 1 the longest) and the magnification there (1 at the
    /// widest), straight lines between; empty when the model's optics are not known.
    public var zoomMagnification: [ZoomPoint] = []
    /// Where `zoomMagnification` comes from.
    public var zoomMagnificationSource = ""
    /// How long the zoom takes from one end of `zoom_absolute`'s range to the other; zero: it
    /// jumps to where it is told (a digital zoom), or the model does not say.
    public var zoomFullTravel: Duration = .zero

    /// One point of the zoom's magnification table.
    public struct ZoomPoint: Hashable, Sendable {
        /// The fraction of `zoom_absolute`'s range, 0...1.
        public var fraction: Double
        /// How many times the picture is magnified there (≥ 1; a field of view whose half-angle's
        /// tangent is the widest one's over it).
        public var magnification: Double

        /// Creates a point.
        public init(fraction: Double, magnification: Double) {
            self.fraction = fraction
            self.magnification = magnification
        }
    }

    /// The magnification at `fraction` of the zoom's range, from `zoomMagnification`; nil when
    /// the table is empty or the fraction is not finite.
    public func magnification(atZoomFraction fraction: Double) -> Double? {
        Self.magnification(fraction, in: zoomMagnification)
    }

    /// The magnification at `fraction` of a zoom's range by `table` (as `zoomMagnification`);
    /// nil when the table is empty or the fraction is not finite.
    public static func magnification(_ fraction: Double, in table: [ZoomPoint]) -> Double? {
        guard let first = table.first, fraction.isFinite else { return nil }
        let clamped = min(max(fraction, 0), 1)
        guard clamped > first.fraction else { return first.magnification }
        for (earlier, later) in zip(table, table.dropFirst()) where clamped <= later.fraction {
            let share = (clamped - earlier.fraction) / (later.fraction - earlier.fraction)
            return earlier.magnification + (later.magnification - earlier.magnification) * share
        }
        return table.last?.magnification
    }

    /// The control of an id.
    public func control(_ id: UInt32) -> Control? { controls.first { $0.id == id } }

    /// A parse failure, naming the field.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The field (`controls[2].maximum`).
        public var field: String
        /// The line of the file it is on.
        public var line: Int
        /// What is wrong.
        public var reason: String

        /// Creates an error.
        public init(field: String, line: Int, reason: String) {
            self.field = field
            self.line = line
            self.reason = reason
        }

        public var description: String { "line \(line): \(field): \(reason)" }
    }

    /// Parses and checks a model.
    ///
    /// - Throws: `ParseError` for text that is not such JSON, an unknown control name, a range
    ///   upside down, a step of zero, a missing source.
    public static func parse(json: String) throws(ParseError) -> UVCCameraModel {
        let document: JSONDocument
        do {
            document = try JSONReader.document(json)
        } catch {
            throw ParseError(field: "(document)", line: error.line, reason: "not JSON: \(error)")
        }
        do {
            return try parse(document.fields())
        } catch {
            throw ParseError(field: error.path.isEmpty ? "(document)" : error.path, line: error.line ?? 1, reason: error.reason)
        }
    }

    private static func parse(_ document: JSONFields) throws(JSONFieldError) -> UVCCameraModel {
        let name = try document.string("name")
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            throw document.error("name", "must be lower-case letters, digits and '-', got '\(name)'")
        }
        let displayName = try document.string("display_name")
        let source = try document.string("source")
        guard !source.isEmpty else { throw document.error("source", "must say where the numbers came from") }
        let usbID = try document.string("usb_id")
        var controls: [Control] = []
        for element in try document.array("controls") {
            let entry = try element.fields()
            let controlName = try entry.string("name")
            guard let id = V4L2ControlID.id(named: controlName) else { throw entry.error("name", "no PTZ control '\(controlName)'") }
            let minimum = try entry.integer("minimum")
            let maximum = try entry.integer("maximum")
            guard minimum <= maximum else { throw entry.error("maximum", "must not be below the minimum \(minimum)") }
            let step = try entry.integer("step")
            guard step > 0 else { throw entry.error("step", "must be positive") }
            let defaultValue = try entry.integer("default")
            let failsWithIO = try entry.optionalBool("fails_with_eio") ?? false
            let controlSource = try entry.string("source")
            guard !controlSource.isEmpty else { throw entry.error("source", "must say where the numbers came from") }
            try entry.finish()
            guard !controls.contains(where: { $0.id == id }) else { throw entry.error("name", "listed twice") }
            controls.append(
                Control(
                    name: controlName, id: id, minimum: minimum, maximum: maximum, step: UInt64(step),
                    defaultValue: defaultValue, failsWithIO: failsWithIO, source: controlSource))
        }
        let speedPerUnit = try document.number("speed_degrees_per_second_per_unit")
        let absoluteSpeed = try document.number("absolute_degrees_per_second")
        guard speedPerUnit > 0, absoluteSpeed > 0 else {
            throw document.error("speed_degrees_per_second_per_unit", "speeds must be positive")
        }
        let isDigital = try document.bool("digital_pan_tilt")
        let readBackIsTarget = try document.bool("read_back_is_target")
        let motionLag = try document.integer("motion_lag_ms")
        let enumerationDelay = try document.integer("enumeration_delay_ms")
        guard (0...10_000).contains(motionLag), (0...30_000).contains(enumerationDelay) else {
            throw document.error("motion_lag_ms", "lags must be 0 to 10000 ms, enumeration 0 to 30000 ms")
        }
        var zoomPoints: [ZoomPoint] = []
        var zoomSource = ""
        if let table = try document.optionalObject("zoom_magnification") {
            guard controls.contains(where: { $0.id == V4L2ControlID.zoomAbsolute }) else {
                throw document.error("zoom_magnification", "needs a zoom_absolute control")
            }
            (zoomPoints, zoomSource) = try parseZoomMagnification(table)
        }
        var zoomTravel = 0
        if document.value("zoom_full_travel_ms") != nil {
            guard controls.contains(where: { $0.id == V4L2ControlID.zoomAbsolute }) else {
                throw document.error("zoom_full_travel_ms", "needs a zoom_absolute control")
            }
            zoomTravel = try document.integer("zoom_full_travel_ms", in: 1...60_000)
        }
        try document.finish()
        var model = UVCCameraModel(
            name: name, displayName: displayName, source: source, usbID: usbID,
            controls: controls, degreesPerSecondPerSpeedUnit: speedPerUnit,
            absoluteDegreesPerSecond: absoluteSpeed, isDigital: isDigital,
            readBackIsTarget: readBackIsTarget, motionLag: .milliseconds(motionLag),
            enumerationDelay: .milliseconds(enumerationDelay))
        model.zoomMagnification = zoomPoints
        model.zoomMagnificationSource = zoomSource
        model.zoomFullTravel = .milliseconds(zoomTravel)
        return model
    }

    /// `zoom_magnification`: `{"points": [{"fraction": F, "magnification": M}, ...], "source": S}`,
    /// fractions from 0 to 1 rising, magnifications from 1 never falling, a source named.
    private static func parseZoomMagnification(_ table: JSONFields) throws(JSONFieldError) -> ([ZoomPoint], String) {
        var points: [ZoomPoint] = []
        for element in try table.array("points") {
            let point = try element.fields()
            let fraction = try point.number("fraction")
            let magnification = try point.number("magnification")
            try point.finish()
            guard (0...1).contains(fraction), fraction > (points.last?.fraction ?? -1) else {
                throw point.error("fraction", "must rise from 0 to 1, got \(fraction)")
            }
            guard magnification >= (points.last?.magnification ?? 1), magnification <= 1000 else {
                throw point.error("magnification", "must rise from 1 (at most 1000), got \(magnification)")
            }
            points.append(ZoomPoint(fraction: fraction, magnification: magnification))
        }
        guard points.first?.fraction == 0, points.first?.magnification == 1, points.last?.fraction == 1 else {
            throw table.error("points", "must start at fraction 0, magnification 1, and end at fraction 1")
        }
        let source = try table.string("source")
        guard !source.isEmpty else { throw table.error("source", "must say where the numbers came from") }
        try table.finish()
        return (points, source)
    }
}

extension UVCCameraModel {
    /// The models of `Protocol/uvc/`, embedded (`scripts/embed-uvc-models`), in file name order.
    public static let builtIn: [UVCCameraModel] = builtInFiles.map { file in
        do {
            return try parse(json: file.json)
        } catch {
            preconditionFailure("the embedded model \(file.name) does not parse: \(error)")
        }
    }

    /// The built-in model of a name; nil when there is none.
    public static func named(_ name: String) -> UVCCameraModel? { builtIn.first { $0.name == name } }
}
