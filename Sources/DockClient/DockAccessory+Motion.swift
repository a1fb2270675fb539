import DockCore
import DockHost

extension DockAccessory {
    /// Turns the dock at `angularVelocity` (DockKit axes: x pitch, + down; y yaw, + right) for
    /// half a second; call again to keep it turning, or pass a zero vector to stop.
    public func setAngularVelocity(_ angularVelocity: Vector3D) async throws(DockClientError) {
        _ = try await call(.motion(.velocity(yawRadiansPerSecond: angularVelocity.dockdYaw, pitchRadiansPerSecond: angularVelocity.dockdPitch,
                                             duration: nil), takeOver: false, waitsForEnd: false))
    }

    /// Moves the dock to `rotation` (DockKit axes) over `duration`, absolute or relative.
    public func setOrientation(_ rotation: Vector3D, duration: Duration = .seconds(1), relative: Bool = false)
        async throws(DockClientError)
    {
        // Like DockKit's Progress, this returns when the move has ended (or throws how it failed).
        _ = try await call(.motion(.orientation(yawRadians: rotation.dockdYaw, pitchRadians: rotation.dockdPitch, isRelative: relative,
                                                pace: .duration(duration)), takeOver: false, waitsForEnd: true))
    }
}
