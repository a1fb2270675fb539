import CVision
public import DockVision
public import DockVocabulary
import Glibc

/// One of OpenCV's detectors — a cascade (LBP or Haar), HOG, YuNet or an ONNX person network —
/// with how it searches and how its scores and boxes are read.
public final class OpenCVDetector: Detector {
    /// How a detector searches (a `dv_search`).
    public struct Search: Hashable, Sendable {
        /// The pyramid's step, above 1.
        public var scaleStep: Double
        /// A cascade's minNeighbors; HOG's group threshold.
        public var minimumNeighbours: Int
        /// The smallest object, pixels of the image looked at (cascades); 0: the detector's own.
        public var minimumSize: Int
        /// HOG's window stride, pixels.
        public var stride: Int
        /// The least score kept (HOG's hit threshold, a network's score).
        public var threshold: Double
        /// The image is scaled by this before the search; boxes come back in its own pixels.
        public var inputScale: Double

        /// Creates a search.
        public init(
            scaleStep: Double = 1.1, minimumNeighbours: Int = 3, minimumSize: Int = 0, stride: Int = 8, threshold: Double = 0,
            inputScale: Double = 1
        ) {
            self.scaleStep = scaleStep
            self.minimumNeighbours = minimumNeighbours
            self.minimumSize = minimumSize
            self.stride = stride
            self.threshold = threshold
            self.inputScale = inputScale
        }
    }

    public let kind: SubjectKind
    public let name: String
    /// How it searches.
    public var search: Search
    /// How its scores become confidences.
    public let scale: ScoreScale
    /// HOG's boxes hold a margin around the person: cut to it — the middle 80 % across, and the
    /// middle 75 % down, where the person stands in the detector's training windows (96 of 128
    /// pixels, centred), so that the box's centre is the person's. (OpenCV's people sample draws
    /// 7 % to 87 % down, centred 3 % of the box above the person's centre: in the closed loop on
    /// real pixels that held the framing 0.03 off centre; BENCHMARKS.md, 2026-12-07.)
    public var trimsMargin: Bool
    private let handle: OpaquePointer
    private var boxes = [dv_box](repeating: dv_box(), count: 256)

    private init(handle: OpaquePointer, kind: SubjectKind, name: String, search: Search, scale: ScoreScale, trimsMargin: Bool) {
        self.handle = handle
        self.kind = kind
        self.name = name
        self.search = search
        self.scale = scale
        self.trimsMargin = trimsMargin
    }

    deinit { dv_detector_destroy(handle) }

    /// A face cascade (LBP or Haar) from its XML file.
    /// - Throws: `DetectorError.modelMissing` or `.notAModel`.
    public static func cascade(path: String, name: String, search: Search) throws(DetectorError) -> OpenCVDetector {
        try checkReadable(path)
        var error = dv_error()
        guard let handle = dv_cascade_create(path, &error) else { throw .notAModel(path: path, reason: error.text) }
        return OpenCVDetector(handle: handle, kind: .face, name: name, search: search, scale: .cascadeNeighbours, trimsMargin: false)
    }

    /// OpenCV's HOG people detector.
    public static func hog(search: Search, trimsMargin: Bool = true) throws(DetectorError) -> OpenCVDetector {
        var error = dv_error()
        guard let handle = dv_hog_create(&error) else { throw .failed(detector: "hog", reason: error.text) }
        return OpenCVDetector(handle: handle, kind: .body, name: "hog", search: search, scale: .hogMargin, trimsMargin: trimsMargin)
    }

    /// YuNet from its ONNX file (the 2022mar model).
    /// - Throws: `DetectorError.modelMissing` or `.notAModel`.
    public static func yunet(path: String, threshold: Double = 0.6) throws(DetectorError) -> OpenCVDetector {
        try checkReadable(path)
        var error = dv_error()
        guard let handle = dv_yunet_create(path, Float(threshold), 0.3, &error) else {
            throw .notAModel(path: path, reason: error.text)
        }
        return OpenCVDetector(
            handle: handle, kind: .face, name: "yunet", search: Search(threshold: threshold), scale: .probability, trimsMargin: false)
    }

    /// An ONNX person detector (`vision_shim.h` says what output it reads) of input `size` x `size`.
    /// - Throws: `DetectorError.modelMissing` or `.notAModel`.
    public static func onnxPerson(path: String, size: Int, threshold: Double = 0.5) throws(DetectorError) -> OpenCVDetector {
        try checkReadable(path)
        var error = dv_error()
        guard let handle = dv_onnx_person_create(path, Int32(size), Int32(size), &error) else {
            throw .notAModel(path: path, reason: error.text)
        }
        return OpenCVDetector(
            handle: handle, kind: .body, name: "onnx", search: Search(threshold: threshold), scale: .probability, trimsMargin: false)
    }

    private static func checkReadable(_ path: String) throws(DetectorError) {
        guard !path.isEmpty else { throw .modelMissing(path: path, reason: "no file given") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .modelMissing(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        let isFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        close(descriptor)
        guard isFile else { throw .notAModel(path: path, reason: "not a regular file") }
    }

    public func detect(in image: VisionImage) throws(DetectorError) -> [Detection] {
        var parameters = dv_search(
            scale_step: search.scaleStep, min_neighbors: Int32(search.minimumNeighbours), min_size: Int32(search.minimumSize),
            stride: Int32(search.stride), threshold: search.threshold, input_scale: search.inputScale)
        var count: Int32 = 0
        var error = dv_error()
        let status = boxes.withUnsafeMutableBufferPointer { buffer in
            dv_detect(handle, image.handle, &parameters, buffer.baseAddress, Int32(buffer.count), &count, &error)
        }
        guard status == DV_OK else { throw .failed(detector: name, reason: error.text) }
        return (0..<Int(count)).map { index in
            let raw = boxes[index]
            var box = PixelBox(x: Double(raw.x), y: Double(raw.y), width: Double(raw.width), height: Double(raw.height))
            if trimsMargin {
                box = PixelBox(x: box.x + box.width * 0.1, y: box.y + box.height * 0.125, width: box.width * 0.8, height: box.height * 0.75)
            }
            return Detection(kind: kind, box: box, confidence: scale.confidence(Double(raw.score)))
        }
    }
}
