public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// A fixed camera's picture and the crop window that a digital pan-tilt-zoom accessory moves
/// inside it (`DigitalSession`, `Protocol/digital.md`): the geometry between the crop's pose —
/// the angles of its centre as the fixed camera sees them — and the window in the picture.
///
/// The camera is a pinhole whose picture spans `tan(hfov / 2)` each side of its axis across and
/// `tan(hfov / 2) / aspect` up and down, on a plane at distance 1. A direction at yaw ψ and pitch θ
/// (as the tracker measures them: `AngularBox`) meets that plane at `tan ψ` across and
/// `tan θ / cos ψ` up, so the crop whose centre shows that direction is centred at
/// x = ½ + tan ψ / (2 tan(hfov / 2)), y = ½ − (tan θ / cos ψ) / (2 tan(vfov / 2)), and magnified `m`
/// times it is 1/m of the picture wide and high. The crop never leaves the picture: its centre
/// stays within (1 − 1/m) of the half-widths, which bounds the yaw at every zoom, and the pitch at
/// every zoom and yaw.
public struct DigitalCrop: Hashable, Sendable {
    /// The fixed camera's horizontal field of view, radians (0 < hfov < π).
    public var horizontalFieldOfViewRadians: Double
    /// The picture's width over its height.
    public var aspectRatio: Double

    /// The picture of a camera with this field of view and aspect.
    public init(horizontalFieldOfViewRadians: Double, aspectRatio: Double) {
        self.horizontalFieldOfViewRadians = horizontalFieldOfViewRadians
        self.aspectRatio = aspectRatio
    }

    /// The half-width of the picture on the unit plane: tan(hfov / 2).
    public var halfWidth: Double { tan(horizontalFieldOfViewRadians / 2) }
    /// The half-height of the picture on the unit plane.
    public var halfHeight: Double { halfWidth / aspectRatio }

    /// The largest yaw the crop's centre can have magnified `magnification` times (the crop's edge
    /// at the picture's), radians; 0 at 1 (the crop is the whole picture).
    public func yawLimitRadians(magnification: Double) -> Double {
        atan(halfWidth * (1 - 1 / max(magnification, 1)))
    }

    /// The largest pitch the crop's centre can have magnified `magnification` times with its yaw at
    /// `yawRadians`, radians (the farther across, the less it may tilt).
    public func pitchLimitRadians(magnification: Double, yawRadians: Double = 0) -> Double {
        atan(halfHeight * (1 - 1 / max(magnification, 1)) * cos(yawRadians))
    }

    /// The crop window in the picture (normalised, x right and y down from its top left, the
    /// camera's own picture before any mirroring) whose centre shows yaw `yawRadians`, pitch
    /// `pitchRadians`, magnified `magnification` times.
    public func window(yawRadians: Double, pitchRadians: Double, magnification: Double) -> NormalizedRect {
        let scale = max(magnification, 1)
        let across = tan(yawRadians), up = tan(pitchRadians) / cos(yawRadians)
        let centreX = 0.5 + across / (2 * halfWidth), centreY = 0.5 - up / (2 * halfHeight)
        return NormalizedRect(x: centreX - 0.5 / scale, y: centreY - 0.5 / scale, width: 1 / scale, height: 1 / scale)
    }

    /// The crop's pose for a window centred at (`centreX`, `centreY`) in the picture: the inverse
    /// of `window`'s centre.
    public func angles(centreX: Double, centreY: Double) -> (yawRadians: Double, pitchRadians: Double) {
        let yaw = atan((2 * centreX - 1) * halfWidth)
        let pitch = atan((1 - 2 * centreY) * halfHeight * cos(yaw))
        return (yaw, pitch)
    }

    /// `box` (normalised in the whole picture) as it shows in `window`, normalised in the window.
    public static func box(_ box: NormalizedRect, inWindow window: NormalizedRect) -> NormalizedRect {
        NormalizedRect(
            x: (box.x - window.x) / window.width, y: (box.y - window.y) / window.height, width: box.width / window.width,
            height: box.height / window.height)
    }
}
