import DockAPI
import DockNumbers
import DockVocabulary

extension DockAccessory {
    /// Hands the tracker one frame's observations; with system tracking on, dockd follows the
    /// subject it chooses among them (or the one selected).
    ///
    /// - Parameters:
    ///   - observations: The frame's detections (none: nothing was seen), rectangles with the
    ///     origin at the bottom left.
    ///   - cameraInformation: The camera, and when the frame was captured.
    /// - Throws: ``DockClientError/invalidArgument(_:)`` when the capture time is not a finite
    ///   number of seconds; dockd's own checks as ``DockClientError/remote(name:parameters:)``.
    public func track(_ observations: [Observation], cameraInformation: CameraInformation) async throws(DockClientError) {
        guard let captureTime = Duration.fromSeconds(cameraInformation.captureTimeSeconds) else {
            throw .invalidArgument(ParameterError(parameter: "cameraInformation.captureTimeSeconds", reason: "must be finite"))
        }
        let camera = DockVocabulary.CameraInformation(
            horizontalFieldOfViewRadians: cameraInformation.horizontalFieldOfViewRadians,
            aspectRatio: cameraInformation.aspectRatio, orientation: .up,
            isMirrored: cameraInformation.isMirrored)
        _ = try await call(.track(ObservationBatch(observations: observations.map(\.dockd), camera: camera, captureTime: captureTime)))
    }
}
