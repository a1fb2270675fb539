import DockAPI
import DockVocabulary

extension DockAccessory {
    /// The motion a dock reports: positions and velocities in DockKit's axes and signs, with the
    /// host's monotonic time (not the UNIX epoch DockKit uses).
    public struct MotionState: Hashable, Sendable {
        /// Where the dock points, radians.
        public var angularPositions: Vector3D
        /// How fast it turns, rad/s.
        public var angularVelocities: Vector3D
        /// When dockd read this state, on the host's monotonic clock (as
        /// ``CameraInformation/hostTimeSeconds()``), seconds.
        public var timestamp: Double
    }

    /// The dock's motion at 10 Hz, in DockKit's axes and signs (on the manager's connection).
    ///
    /// A stream opened just after a call returned may first bring states dockd sent before the
    /// call's answer: compare ``MotionState/timestamp`` with
    /// ``CameraInformation/hostTimeSeconds()`` read when the call returned to skip them.
    public var motionStates: AsyncThrowingStream<MotionState, any Error> {
        get throws(DockClientError) {
            try watchEvents { event in
                guard event.kind == .status, let pose = event.status.pose else { return nil }
                return MotionState(
                    angularPositions: .fromDockd(yaw: pose.yawRadians, pitch: pose.pitchRadians),
                    angularVelocities: .fromDockd(yaw: pose.yawRadiansPerSecond, pitch: pose.pitchRadiansPerSecond),
                    timestamp: event.timeSeconds)
            }
        }
    }
}
