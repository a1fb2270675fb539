public import V4L2Protocol

/// What a UVC camera's controls say it can do, once enumerated, and how the session drives it.
public struct UVCControls: Hashable, Sendable {
    /// How pan and tilt move the picture.
    public enum PanTilt: String, Hashable, Sendable {
        /// Motors turn the camera.
        case mechanical
        /// A crop moves inside the zoomed picture (Logitech C920/Brio: ±10° at most).
        case digital
        /// No pan or tilt control answered.
        case none
    }

    /// How a velocity reaches the camera.
    public enum VelocityPath: String, Hashable, Sendable {
        /// `PAN_SPEED`/`TILT_SPEED`: the sign is the direction, 0 stops.
        case speedControls = "speed controls"
        /// No speed controls: the absolute target is stepped at the velocity, a step at a time.
        case steppedAbsolute = "stepped absolute"
        /// Neither.
        case none
    }

    /// The controls that answered, by id.
    public var found: [UInt32: V4L2ControlDescription] = [:]
    /// The controls that failed with `EIO` (tolerated: the others are used).
    public var failing: Set<UInt32> = []
    /// Set by the model: pan/tilt is digital whatever the ranges say.
    public var isDigitalByModel = false

    /// Creates an empty set (before enumeration).
    public init() {}

    /// `PAN_ABSOLUTE`, when usable.
    public var panAbsolute: V4L2ControlDescription? { found[V4L2ControlID.panAbsolute] }
    /// `TILT_ABSOLUTE`, when usable.
    public var tiltAbsolute: V4L2ControlDescription? { found[V4L2ControlID.tiltAbsolute] }
    /// `PAN_SPEED`, when usable.
    public var panSpeed: V4L2ControlDescription? { found[V4L2ControlID.panSpeed] }
    /// `TILT_SPEED`, when usable.
    public var tiltSpeed: V4L2ControlDescription? { found[V4L2ControlID.tiltSpeed] }
    /// `ZOOM_ABSOLUTE`, when usable.
    public var zoomAbsolute: V4L2ControlDescription? { found[V4L2ControlID.zoomAbsolute] }

    /// Mechanical, digital or none. A camera whose absolute pan and tilt both stay within ±10°
    /// (36000 arc-seconds) and that has an absolute zoom is taken for digital PTZ — a crop
    /// inside the zoomed picture — unless its model says so outright.
    public var panTilt: PanTilt {
        guard panAbsolute != nil || tiltAbsolute != nil || panSpeed != nil || tiltSpeed != nil else { return .none }
        if isDigitalByModel { return .digital }
        let absolutes = [panAbsolute, tiltAbsolute].compactMap(\.self)
        let narrow = !absolutes.isEmpty && absolutes.allSatisfy { max(abs($0.minimum), abs($0.maximum)) <= 36_000 }
        return narrow && zoomAbsolute != nil && panSpeed == nil && tiltSpeed == nil ? .digital : .mechanical
    }

    /// Speed controls where there are any, else stepped absolute targets, else none.
    public var velocity: VelocityPath {
        if panSpeed != nil || tiltSpeed != nil { return .speedControls }
        if panAbsolute != nil || tiltAbsolute != nil { return .steppedAbsolute }
        return .none
    }

    /// Whether an absolute zoom is there.
    public var hasZoom: Bool { zoomAbsolute != nil || found[V4L2ControlID.zoomContinuous] != nil }

    /// One line for status and logs: `mechanical pan/tilt, speed controls, zoom`.
    public var summary: String {
        var parts = ["\(panTilt.rawValue) pan/tilt", velocity == .none ? "no velocity" : velocity.rawValue]
        if hasZoom { parts.append("zoom") }
        if !failing.isEmpty {
            parts.append("EIO on " + failing.sorted().map { V4L2ControlID.name(of: $0) ?? "\($0)" }.joined(separator: ", "))
        }
        return parts.joined(separator: ", ")
    }

    /// The highest magnitude a speed control takes: its maximum, at most 255 (the UVC speed
    /// byte). The reported minimum is not the negative bound: uvcvideo reports a device minimum
    /// of 1 as −1 (OBSBOT Tiny: −1…160), so both directions run to the maximum.
    public static func speedMagnitudeLimit(_ control: V4L2ControlDescription) -> Int32 {
        Int32(clamping: min(max(control.maximum, -control.minimum, 0), 255))
    }

    /// The speed value for a rate: its sign the direction, rounded to whole units, its
    /// magnitude within `speedMagnitudeLimit`.
    public static func speedValue(degreesPerSecond: Double, unitDegreesPerSecond: Double, control: V4L2ControlDescription) -> Int32 {
        guard degreesPerSecond.isFinite, unitDegreesPerSecond > 0 else { return 0 }
        let limit = Double(speedMagnitudeLimit(control))
        let units = (degreesPerSecond / unitDegreesPerSecond).rounded()
        return Int32(min(max(units, -limit), limit))
    }

    /// An absolute value within the control's range, on its step grid (counted from the minimum).
    public static func absoluteValue(arcSeconds: Double, control: V4L2ControlDescription) -> Int32 {
        guard arcSeconds.isFinite else { return Int32(clamping: min(max(0, control.minimum), control.maximum)) }
        let step = Double(max(control.step, 1))
        let low = Double(control.minimum), high = Double(control.maximum)
        let clamped = min(max(arcSeconds, low), high)
        var snapped = low + ((clamped - low) / step).rounded() * step
        if snapped > high { snapped -= step }
        return Int32(clamping: Int64(snapped))
    }
}
