/// One frame's observations as a detector delivered them, for the tracker: what was seen, the
/// camera that saw it, and when the frame was captured on the host's monotonic clock.
public struct ObservationBatch: Hashable, Sendable {
    /// The detections in the frame.
    public var observations: [Observation]
    /// The camera behind the frame.
    public var camera: CameraInformation
    /// When the frame was captured, on the host's monotonic clock.
    public var captureTime: Duration

    /// Creates a batch.
    public init(observations: [Observation], camera: CameraInformation, captureTime: Duration) {
        self.observations = observations
        self.camera = camera
        self.captureTime = captureTime
    }
}
