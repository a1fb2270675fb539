/// An angle or an angular rate in DockKit's axes (radians, or rad/s): x is pitch, **positive
/// downwards**, y is yaw, positive to the right, z is roll, which a pan-tilt dock does not drive.
/// dockd's pitch is positive upwards; the client flips it both ways (see <doc:Coordinates>).
public struct Vector3D: Hashable, Sendable {
    /// Pitch, positive downwards (DockKit's sign).
    public var x: Double
    /// Yaw, positive to the right.
    public var y: Double
    /// Roll (not driven by a pan-tilt dock).
    public var z: Double

    /// Creates a vector in DockKit's axes.
    ///
    /// - Parameters:
    ///   - x: Pitch, positive downwards.
    ///   - y: Yaw, positive to the right.
    ///   - z: Roll (ignored by a pan-tilt dock).
    public init(x: Double = 0, y: Double = 0, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// dockd's yaw.
    var dockdYaw: Double { y }
    /// dockd's pitch (DockKit's x, sign flipped).
    var dockdPitch: Double { -x }

    /// The DockKit vector of a dockd yaw and pitch.
    static func fromDockd(yaw: Double, pitch: Double) -> Vector3D { Vector3D(x: -pitch, y: yaw, z: 0) }
}
