#if canImport(Glibc)
    import Glibc
#endif

/// How an image relates to the dock: the camera's field of view, and how the delivered image is
/// turned or mirrored relative to the dock's axes. The tracker needs it to turn a box in the image
/// into angles; the simulator uses it to draw the boxes a camera app would send.
///
/// Coordinates are defined in two steps. A *dock-aligned* image has x growing with yaw (to the
/// right) and y growing against pitch (downwards), as a camera mounted upright on the dock sees.
/// The *delivered* image is the dock-aligned one mirrored left-right when `isMirrored` (first),
/// then turned by `orientation` (second). Observations and regions of interest are in delivered
/// coordinates.
public struct CameraInformation: Hashable, Sendable {
    /// The dock-aligned image's horizontal field of view, in radians (0 < fov < π).
    public var horizontalFieldOfViewRadians: Double
    /// The dock-aligned image's width divided by its height (in pixels).
    public var aspectRatio: Double
    /// How the delivered image is turned relative to the dock-aligned one.
    public var orientation: ImageOrientation
    /// Whether the delivered image is mirrored left-right (a selfie preview).
    public var isMirrored: Bool

    /// Creates camera information.
    public init(
        horizontalFieldOfViewRadians: Double, aspectRatio: Double,
        orientation: ImageOrientation = .up, isMirrored: Bool = false
    ) {
        self.horizontalFieldOfViewRadians = horizontalFieldOfViewRadians
        self.aspectRatio = aspectRatio
        self.orientation = orientation
        self.isMirrored = isMirrored
    }

    /// The dock-aligned image's vertical field of view, in radians.
    public var verticalFieldOfViewRadians: Double {
        2 * atan(tan(horizontalFieldOfViewRadians / 2) / aspectRatio)
    }

    /// The same camera magnified `magnification` times (a zoom): the field of view whose
    /// half-angle's tangent is this one's over the magnification — a box seen at 3× spans a
    /// third of the angle. A magnification that is not finite or not above 1 changes nothing.
    public func zoomed(by magnification: Double) -> CameraInformation {
        guard magnification.isFinite, magnification > 1 else { return self }
        var zoomed = self
        zoomed.horizontalFieldOfViewRadians = 2 * atan(tan(horizontalFieldOfViewRadians / 2) / magnification)
        return zoomed
    }

    /// Whether the field of view and aspect ratio are finite and in range.
    @inlinable public var isValid: Bool {
        horizontalFieldOfViewRadians.isFinite && horizontalFieldOfViewRadians > 0
            && horizontalFieldOfViewRadians < .pi && aspectRatio.isFinite && aspectRatio > 0
    }

    /// The delivered-image point that shows what the dock-aligned point shows.
    @inlinable public func deliveredPoint(fromDockAligned point: NormalizedPoint) -> NormalizedPoint {
        let mirrored = isMirrored ? NormalizedPoint(x: 1 - point.x, y: point.y) : point
        return orientation.turn(mirrored)
    }

    /// The dock-aligned point that shows what the delivered point shows.
    @inlinable public func dockAlignedPoint(fromDelivered point: NormalizedPoint) -> NormalizedPoint {
        let unturned = orientation.unturn(point)
        return isMirrored ? NormalizedPoint(x: 1 - unturned.x, y: unturned.y) : unturned
    }

    /// The delivered-image box of a dock-aligned box.
    @inlinable public func deliveredRect(fromDockAligned rect: NormalizedRect) -> NormalizedRect {
        let centre = deliveredPoint(fromDockAligned: rect.center)
        let (width, height) = orientation.swapsAxes ? (rect.height, rect.width) : (rect.width, rect.height)
        return NormalizedRect(x: centre.x - width / 2, y: centre.y - height / 2, width: width, height: height)
    }

    /// The dock-aligned box of a delivered-image box.
    @inlinable public func dockAlignedRect(fromDelivered rect: NormalizedRect) -> NormalizedRect {
        let centre = dockAlignedPoint(fromDelivered: rect.center)
        let (width, height) = orientation.swapsAxes ? (rect.height, rect.width) : (rect.width, rect.height)
        return NormalizedRect(x: centre.x - width / 2, y: centre.y - height / 2, width: width, height: height)
    }

    /// Projects a direction given in the camera's frame (right, up, forward components) onto the
    /// dock-aligned image through an ideal pinhole; nil when it points behind the camera.
    public func dockAlignedPoint(right: Double, up: Double, forward: Double) -> NormalizedPoint? {
        guard forward > 1e-9 else { return nil }
        let halfWidth = tan(horizontalFieldOfViewRadians / 2)
        let halfHeight = halfWidth / aspectRatio
        return NormalizedPoint(
            x: 0.5 + right / forward / (2 * halfWidth),
            y: 0.5 - up / forward / (2 * halfHeight))
    }

    /// The direction (right, up, forward with forward = 1) that the pinhole maps to a
    /// dock-aligned point.
    public func cameraRay(throughDockAligned point: NormalizedPoint) -> (right: Double, up: Double, forward: Double) {
        let halfWidth = tan(horizontalFieldOfViewRadians / 2)
        let halfHeight = halfWidth / aspectRatio
        return ((point.x - 0.5) * 2 * halfWidth, (0.5 - point.y) * 2 * halfHeight, 1)
    }
}

/// How a delivered image is turned relative to the dock-aligned image.
public enum ImageOrientation: String, CaseIterable, Hashable, Sendable {
    /// Not turned.
    case up
    /// Turned a quarter turn clockwise: the dock's up shows at the image's right.
    case rotatedClockwise = "rotated_clockwise"
    /// Turned a half turn.
    case upsideDown = "upside_down"
    /// Turned a quarter turn counter-clockwise: the dock's up shows at the image's left.
    case rotatedCounterclockwise = "rotated_counterclockwise"

    /// Whether the turn swaps the image's width and height.
    @inlinable public var swapsAxes: Bool { self == .rotatedClockwise || self == .rotatedCounterclockwise }

    /// The delivered-image point of a dock-aligned point (already mirrored when the image is).
    @inlinable public func turn(_ p: NormalizedPoint) -> NormalizedPoint {
        switch self {
        case .up: p
        case .rotatedClockwise: NormalizedPoint(x: 1 - p.y, y: p.x)
        case .upsideDown: NormalizedPoint(x: 1 - p.x, y: 1 - p.y)
        case .rotatedCounterclockwise: NormalizedPoint(x: p.y, y: 1 - p.x)
        }
    }

    /// The point before the turn: `turn`'s inverse.
    @inlinable public func unturn(_ p: NormalizedPoint) -> NormalizedPoint {
        switch self {
        case .up: p
        case .rotatedClockwise: NormalizedPoint(x: p.y, y: 1 - p.x)
        case .upsideDown: NormalizedPoint(x: 1 - p.x, y: 1 - p.y)
        case .rotatedCounterclockwise: NormalizedPoint(x: 1 - p.y, y: p.x)
        }
    }
}
