import DockVocabulary

extension DockAccessory {
    /// Turns the dock at a velocity for half a second: call again to keep it turning, or pass a
    /// zero vector to stop. The app holds control of the dock meanwhile (system tracking pauses);
    /// if it goes away, the dock stops.
    ///
    /// - Parameter angularVelocity: rad/s in DockKit's axes: x pitch, positive down; y yaw,
    ///   positive right (see <doc:Coordinates>).
    /// - Throws: ``DockClientError/remote(name:parameters:)`` when dockd refuses (another client
    ///   holds control: ``DockClientError/failure`` is `.busy`; a non-finite rate:
    ///   `.invalidParameter`), ``DockClientError/disconnected`` when dockd went away.
    public func setAngularVelocity(_ angularVelocity: Vector3D) async throws(DockClientError) {
        _ = try await call(
            .motion(
                .velocity(
                    yawRadiansPerSecond: angularVelocity.dockdYaw, pitchRadiansPerSecond: angularVelocity.dockdPitch,
                    duration: nil), takeOver: false, waitsForEnd: false))
    }

    /// Turns the dock to an orientation over a duration, and returns once it is there (like
    /// DockKit's, whose `Progress` ends then), or throws why it stopped short.
    ///
    /// - Parameters:
    ///   - rotation: Radians in DockKit's axes: x pitch, positive down; y yaw, positive right
    ///     (see <doc:Coordinates>). dockd clamps it to the dock's limits.
    ///   - duration: How long the move takes.
    ///   - relative: Whether `rotation` is added to where the dock points now (true) or is where
    ///     it ends (false: from the dock's home pose).
    /// - Throws: ``DockClientError/remote(name:parameters:)`` when dockd refuses the move or it
    ///   was cut short, ``DockClientError/disconnected`` when dockd went away.
    public func setOrientation(_ rotation: Vector3D, duration: Duration = .seconds(1), relative: Bool = false)
        async throws(DockClientError)
    {
        // Like DockKit's Progress, this returns when the move has ended (or throws how it failed).
        _ = try await call(
            .motion(
                .orientation(
                    yawRadians: rotation.dockdYaw, pitchRadians: rotation.dockdPitch, isRelative: relative,
                    pace: .duration(duration)), takeOver: false, waitsForEnd: true))
    }
}
