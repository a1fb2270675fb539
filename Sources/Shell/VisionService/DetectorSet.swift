public import DockVision

/// The detectors the settings ask for, made with the search each was measured at
/// (BENCHMARKS.md, "The vision service's detectors").
public enum DetectorSet {
    /// The face detector the settings name; nil for `none`.
    /// - Throws: `DetectorError.modelMissing` or `.notAModel` when its file cannot be loaded.
    public static func faces(_ settings: VisionSettings) throws(DetectorError) -> (any Detector)? {
        switch settings.faces {
        case .none: return nil
        case .lbp, .haar:
            return try OpenCVDetector.cascade(
                path: settings.faceModelPath, name: settings.faces.rawValue,
                search: OpenCVDetector.Search(
                    scaleStep: 1.2, minimumNeighbours: 3, minimumSize: settings.faceMinimumPixels, inputScale: settings.faceScale))
        case .yunet:
            return try OpenCVDetector.yunet(path: settings.faceModel)
        }
    }

    /// The person detector the settings name; nil for `none`.
    /// - Throws: `DetectorError.modelMissing` or `.notAModel` when its file cannot be loaded.
    public static func bodies(_ settings: VisionSettings) throws(DetectorError) -> (any Detector)? {
        switch settings.bodies {
        case .none: return nil
        case .hog:
            return try OpenCVDetector.hog(
                search: OpenCVDetector.Search(scaleStep: 1.2, minimumNeighbours: 2, stride: 8, inputScale: settings.bodyScale))
        case .onnx: return try OpenCVDetector.onnxPerson(path: settings.bodyModel, size: settings.bodyModelSize)
        }
    }
}
