public import DockVocabulary

/// Turns one frame's detections into the batch `Track` sends: boxes cut to the picture and
/// normalised to it (0...1 from the top left), the 64 most confident (the API's limit), the
/// camera, and the frame's capture time — the buffer's, never the time of sending.
public enum TrackBuilder {
    /// The most observations one `Track` call takes.
    public static let maximumObservations = 64

    /// The batch for `detections` found in a picture of `width` x `height` pixels, captured at
    /// `captureTime` (CLOCK_MONOTONIC) by `camera`. Boxes with nothing inside the picture, or not
    /// finite, are left out.
    public static func batch(
        _ detections: [Detection], width: Int, height: Int, camera: CameraInformation, captureTime: Duration
    ) -> ObservationBatch {
        let w = Double(width), h = Double(height)
        var observations: [(Observation, Int)] = []
        for (index, detection) in detections.enumerated() {
            guard width > 0, height > 0, let box = detection.box.clipped(width: w, height: h),
                detection.confidence.isFinite
            else { continue }
            let normalised = NormalizedRect(x: box.x / w, y: box.y / h, width: box.width / w, height: box.height / h)
            let appearance = detection.appearance.flatMap { $0.allSatisfy(\.isFinite) ? $0 : nil }
            observations.append(
                (
                    Observation(
                        kind: detection.kind, box: normalised, confidence: min(1, max(0, detection.confidence)),
                        appearance: appearance), index
                ))
        }
        if observations.count > maximumObservations {
            observations = Array(
                observations.sorted { ($0.0.confidence, -$0.1) > ($1.0.confidence, -$1.1) }.prefix(maximumObservations)
                    .sorted { $0.1 < $1.1 })
        }
        return ObservationBatch(observations: observations.map(\.0), camera: camera, captureTime: captureTime)
    }
}
