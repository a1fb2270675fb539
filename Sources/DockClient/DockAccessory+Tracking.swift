import DockAPI
import DockHost
import DockTracking

extension DockAccessory {
    /// Chooses where the subject sits in the frame.
    public func setFramingMode(_ mode: FramingMode) async throws(DockClientError) {
        _ = try await call(.setFramingMode(mode.dockd))
    }

    /// Limits framing to a region of the image (top-left origin, as DockKit's region of interest).
    public func setRegionOfInterest(_ region: Rect) async throws(DockClientError) {
        _ = try await call(.setRegionOfInterest(region.normalized))
    }

    /// Hands the tracker one frame's observations (Vision's bottom-left rectangles).
    ///
    /// - Throws: ``DockClientError/invalidArgument(_:)`` when the capture time is not a finite
    ///   number of seconds; dockd's own checks as ``DockClientError/remote(name:parameters:)``.
    public func track(_ observations: [Observation], cameraInformation: CameraInformation) async throws(DockClientError) {
        guard let captureTime = Duration.fromSeconds(cameraInformation.captureTimeSeconds) else {
            throw .invalidArgument(ParameterError(parameter: "cameraInformation.captureTimeSeconds", reason: "must be finite"))
        }
        let camera = DockTracking.CameraInformation(horizontalFieldOfViewRadians: cameraInformation.horizontalFieldOfViewRadians,
                                                    aspectRatio: cameraInformation.aspectRatio, orientation: .up,
                                                    isMirrored: cameraInformation.isMirrored)
        _ = try await call(.track(ObservationBatch(observations: observations.map(\.dockd), camera: camera, captureTime: captureTime)))
    }
}
