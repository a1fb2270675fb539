/// DockKit's vector: x is pitch, y is yaw, z is roll (radians, or rad/s). **DockKit's pitch is
/// positive downwards; dockd's is positive upwards.** The conversions below flip pitch; yaw is
/// positive to the right in both. Roll is not driven by a pan-tilt dock and is always zero here.
public struct Vector3D: Hashable, Sendable {
    /// Pitch, positive downwards (DockKit's sign).
    public var x: Double
    /// Yaw, positive to the right.
    public var y: Double
    /// Roll (not driven by a pan-tilt dock).
    public var z: Double

    /// Creates a vector in DockKit's axes.
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
