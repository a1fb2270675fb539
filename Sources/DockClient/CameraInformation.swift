/// The camera behind a batch of observations (DockKit's `CameraInformation`, reduced to what the
/// tracker needs): field of view, aspect ratio, mirroring, and the capture time on the host's
/// monotonic clock in seconds.
public struct CameraInformation: Hashable, Sendable {
    /// The horizontal field of view, radians (0 to pi).
    public var horizontalFieldOfViewRadians: Double
    /// Width over height.
    public var aspectRatio: Double
    /// Whether the image is mirrored (a selfie preview).
    public var isMirrored: Bool
    /// When the frame was captured, on the host's monotonic clock, seconds.
    public var captureTimeSeconds: Double

    /// Creates camera information.
    public init(horizontalFieldOfViewRadians: Double, aspectRatio: Double, isMirrored: Bool = false, captureTimeSeconds: Double) {
        self.horizontalFieldOfViewRadians = horizontalFieldOfViewRadians
        self.aspectRatio = aspectRatio
        self.isMirrored = isMirrored
        self.captureTimeSeconds = captureTimeSeconds
    }
}
