public import DockVision
public import DockVocabulary

/// A detector behind the one interface the service uses: given a frame, the faces or people in
/// it. OpenCV's cascades, HOG, YuNet and ONNX networks are each one (`OpenCVDetector`); a test
/// can put its own in their place.
public protocol Detector: AnyObject {
    /// What it finds.
    var kind: SubjectKind { get }
    /// Its name, for the log and the benchmarks (`lbp`, `hog`).
    var name: String { get }
    /// The faces or people in the image, in its pixels.
    /// - Throws: `DetectorError.failed` when the detector itself fails on the frame.
    func detect(in image: VisionImage) throws(DetectorError) -> [Detection]
}

/// Why a detector cannot be made or could not run.
public enum DetectorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Its model file is not there or cannot be read (the path, why).
    case modelMissing(path: String, reason: String)
    /// Its model file is there but is not a model it can load (the path, OpenCV's word).
    case notAModel(path: String, reason: String)
    /// It failed on a frame (its name, OpenCV's word).
    case failed(detector: String, reason: String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .modelMissing(let path, let reason): "model missing: \(path): \(reason)"
        case .notAModel(let path, let reason): "not a model: \(path): \(reason)"
        case .failed(let detector, let reason): "detector failed: \(detector): \(reason)"
        }
    }
}
