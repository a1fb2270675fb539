public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// Where a box in the image points, in the dock's fixed frame: the tracker's measurement model.
///
/// A box in the delivered image is first taken back to the dock-aligned image (undoing mirroring
/// and orientation, `CameraInformation`), its centre turned into a ray through the pinhole, and the
/// ray turned by the gimbal's yaw and pitch at capture time into the dock's frame (x right of the
/// dock, y ahead, z up). Yaw is then atan2(x, y) and pitch atan2(z, √(x² + y²)) — radians, yaw > 0
/// to the right, pitch > 0 up, as everywhere in dockd. The box's angular width and height are the
/// differences of the angles of its edges in the camera's frame (horizontal angle atan(right /
/// forward), vertical atan(up / forward)), and its centre lies midway between them. `project` is
/// the exact inverse, the EKF's measurement function h(state).
public struct AngularBox: Hashable, Sendable {
    /// Direction of the box's centre in the dock's frame, radians.
    public var yawRadians: Double
    /// Direction of the box's centre in the dock's frame, radians.
    public var pitchRadians: Double
    /// Angle across the box, radians.
    public var widthRadians: Double
    /// Angle from the box's top to its bottom, radians.
    public var heightRadians: Double

    /// Creates an angular box.
    public init(yawRadians: Double, pitchRadians: Double, widthRadians: Double, heightRadians: Double) {
        self.yawRadians = yawRadians
        self.pitchRadians = pitchRadians
        self.widthRadians = widthRadians
        self.heightRadians = heightRadians
    }

    /// The angular box of `box` (delivered-image coordinates) seen by `camera` with the gimbal at
    /// `gimbalYawRadians`, `gimbalPitchRadians`; nil for a box that is not finite or has no size.
    public init?(box: NormalizedRect, camera: CameraInformation, gimbalYawRadians: Double, gimbalPitchRadians: Double) {
        guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite, box.width > 0, box.height > 0,
            camera.isValid
        else { return nil }
        let aligned = camera.dockAlignedRect(fromDelivered: box)
        // Angles of the edges in the camera's frame; the centre is taken midway between them, so
        // that `project` inverts this exactly.
        let left = atan(camera.cameraRay(throughDockAligned: NormalizedPoint(x: aligned.x, y: 0.5)).right)
        let right = atan(camera.cameraRay(throughDockAligned: NormalizedPoint(x: aligned.maxX, y: 0.5)).right)
        let top = atan(camera.cameraRay(throughDockAligned: NormalizedPoint(x: 0.5, y: aligned.y)).up)
        let bottom = atan(camera.cameraRay(throughDockAligned: NormalizedPoint(x: 0.5, y: aligned.maxY)).up)
        let (yaw, pitch) = Self.dockDirection(
            right: tan((left + right) / 2), up: tan((top + bottom) / 2), forward: 1,
            gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians)
        self.init(yawRadians: yaw, pitchRadians: pitch, widthRadians: right - left, heightRadians: top - bottom)
    }

    /// The box this angular box shows as in the delivered image of `camera` with the gimbal at the
    /// given angles; nil when its centre is behind the camera.
    public func project(camera: CameraInformation, gimbalYawRadians: Double, gimbalPitchRadians: Double) -> NormalizedRect? {
        // Direction of the centre in the dock's frame, then in the camera's.
        let x = cos(pitchRadians) * sin(yawRadians), y = cos(pitchRadians) * cos(yawRadians), z = sin(pitchRadians)
        let (sinYaw, cosYaw) = (sin(gimbalYawRadians), cos(gimbalYawRadians))
        let (sinPitch, cosPitch) = (sin(gimbalPitchRadians), cos(gimbalPitchRadians))
        let forward = x * sinYaw * cosPitch + y * cosYaw * cosPitch + z * sinPitch
        let right = x * cosYaw - y * sinYaw
        let up = -x * sinYaw * sinPitch - y * cosYaw * sinPitch + z * cosPitch
        guard forward > 1e-9 else { return nil }
        let tanRight = right / forward, tanUp = up / forward
        let centreRight = atan(tanRight), centreUp = atan(tanUp)
        let halfWidth = tan(camera.horizontalFieldOfViewRadians / 2), halfHeight = halfWidth / camera.aspectRatio
        func imageX(_ tangent: Double) -> Double { 0.5 + tangent / (2 * halfWidth) }
        func imageY(_ tangent: Double) -> Double { 0.5 - tangent / (2 * halfHeight) }
        let left = imageX(tan(centreRight - widthRadians / 2)), rightEdge = imageX(tan(centreRight + widthRadians / 2))
        let top = imageY(tan(centreUp + heightRadians / 2)), bottom = imageY(tan(centreUp - heightRadians / 2))
        let aligned = NormalizedRect(x: left, y: top, width: rightEdge - left, height: bottom - top)
        return camera.deliveredRect(fromDockAligned: aligned)
    }

    /// Turns a camera-frame ray into yaw and pitch in the dock's frame.
    static func dockDirection(
        right: Double, up: Double, forward: Double,
        gimbalYawRadians: Double, gimbalPitchRadians: Double
    ) -> (yaw: Double, pitch: Double) {
        let (sinYaw, cosYaw) = (sin(gimbalYawRadians), cos(gimbalYawRadians))
        let (sinPitch, cosPitch) = (sin(gimbalPitchRadians), cos(gimbalPitchRadians))
        // The camera's axes in the dock's frame (the transpose of the projection's rotation).
        let x = forward * sinYaw * cosPitch + right * cosYaw - up * sinYaw * sinPitch
        let y = forward * cosYaw * cosPitch - right * sinYaw - up * cosYaw * sinPitch
        let z = forward * sinPitch + up * cosPitch
        return (atan2(x, y), atan2(z, (x * x + y * y).squareRoot()))
    }
}
