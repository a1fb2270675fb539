public import DockVocabulary

/// The tracker run offline over recorded detections, so that it can be tuned and scored on real
/// data with the MOTChallenge tools: each frame's boxes (pixels) become normalised observations
/// of a still camera with the given field of view, the tracker predicts to the frame's capture
/// time and fuses them, and every confirmed track (and, if asked, every coasting one, but none out
/// of the picture) is reported with its filtered box projected back into the image and cut to it,
/// in pixels.
public enum MOTReplay {
    /// What the recording was and how to replay it.
    public struct Settings: Hashable, Sendable {
        /// The image's width, pixels.
        public var imageWidthPixels: Int
        /// The image's height, pixels.
        public var imageHeightPixels: Int
        /// Frames per second: frame n was captured at (n − 1) / fps seconds.
        public var framesPerSecond: Double = 30
        /// The camera's horizontal field of view, radians (default 60°).
        public var horizontalFieldOfViewRadians: Double = .pi / 3
        /// The last frame to step through; nil for the last frame that has a detection.
        public var lastFrame: Int?
        /// What every detection is taken to be.
        public var kind: SubjectKind = .body
        /// Whether coasting tracks (unseen for a moment, position predicted) are reported too.
        public var includesCoastingTracks = false
        /// Whether a detection's id (when not negative) is the detector's own identifier, handed
        /// to the tracker (`Observation.identifier`); otherwise ids are ignored.
        public var usesDetectorIdentifiers = false
        /// The tracker's tuning.
        public var tracker = SubjectTracker.Configuration()

        /// Settings for images of the given size, with the defaults for everything else.
        public init(imageWidthPixels: Int, imageHeightPixels: Int) {
            self.imageWidthPixels = imageWidthPixels
            self.imageHeightPixels = imageHeightPixels
        }

        /// The highest frame rate accepted.
        public static let maximumFramesPerSecond = 1000.0
        /// The lowest frame rate accepted (one frame in 100 s); with `MOTFormat.maximumFrame`, it
        /// keeps capture times within `Duration`'s range.
        public static let minimumFramesPerSecond = 0.01

        /// Whether the settings can be replayed: a positive image size, a frame rate within
        /// `minimumFramesPerSecond...maximumFramesPerSecond`, a field of view strictly between 0
        /// and π, a last frame, if given, from 0 to `MOTFormat.maximumFrame`, and valid tracker settings.
        public var isValid: Bool {
            imageWidthPixels > 0 && imageHeightPixels > 0
                && (Self.minimumFramesPerSecond...Self.maximumFramesPerSecond).contains(framesPerSecond)
                && horizontalFieldOfViewRadians.isFinite && horizontalFieldOfViewRadians > 0
                && horizontalFieldOfViewRadians < .pi
                && (lastFrame.map { (0...MOTFormat.maximumFrame).contains($0) } ?? true) && tracker.isValid
        }

        /// The camera the boxes are taken to come from: upright, not mirrored.
        public var camera: CameraInformation {
            CameraInformation(
                horizontalFieldOfViewRadians: horizontalFieldOfViewRadians,
                aspectRatio: Double(imageWidthPixels) / Double(imageHeightPixels))
        }

        /// When frame `frame` (counted from 1) was captured.
        public func captureTime(ofFrame frame: Int) -> Duration {
            .nanoseconds(Int64((Double(frame - 1) * 1e9 / framesPerSecond).rounded()))
        }
    }

    /// Whether a box is one a camera could show, and so one to write: finite, at least a pixel wide
    /// and tall, at most four images wide and tall, and overlapping the image.
    public static func isShowable(_ box: PixelRect, imageWidthPixels width: Double, imageHeightPixels height: Double) -> Bool {
        box.x.isFinite && box.y.isFinite && box.width.isFinite && box.height.isFinite
            && box.width >= 1 && box.height >= 1 && box.width <= 4 * width && box.height <= 4 * height
            && box.x + box.width > 0 && box.y + box.height > 0 && box.x < width && box.y < height
    }

    /// Replays `detections` (in any order; their identifiers ignored unless `usesDetectorIdentifiers`) and returns the tracks
    /// frame by frame, sorted by frame and then identifier, each with confidence 1.
    ///
    /// Every frame from 1 to the last is stepped through, with or without detections, so tracks
    /// coast and die on time. Within a frame the detections go to the tracker most confident
    /// first, since it takes at most 64 per frame (and keeps at most
    /// `settings.tracker.maximumTracks`). Detections after the last frame are ignored, and a track
    /// whose box no camera could show (`isShowable`) is left out of that frame's results.
    ///
    /// - Precondition: `settings.isValid`.
    public static func run(_ detections: [MOTRecord], settings: Settings) -> [MOTRecord] {
        precondition(settings.isValid, "invalid replay settings: \(settings)")
        let lastFrame = settings.lastFrame ?? detections.map(\.frame).max() ?? 0
        guard lastFrame >= 1 else { return [] }
        let width = Double(settings.imageWidthPixels), height = Double(settings.imageHeightPixels)
        let camera = settings.camera
        let ordered = detections.filter { $0.frame >= 1 && $0.frame <= lastFrame }.sorted {
            ($0.frame, -$0.confidence) < ($1.frame, -$1.confidence)
        }
        var tracker = SubjectTracker(configuration: settings.tracker)
        var results: [MOTRecord] = []
        var next = ordered.startIndex
        var observations: [Observation] = []
        var reported: [MOTRecord] = []
        for frame in 1...lastFrame {
            observations.removeAll(keepingCapacity: true)
            while next < ordered.endIndex, ordered[next].frame == frame {
                let box = ordered[next].box
                observations.append(
                    Observation(
                        kind: settings.kind,
                        box: NormalizedRect(
                            x: box.x / width, y: box.y / height, width: box.width / width,
                            height: box.height / height),
                        confidence: min(1, max(0, ordered[next].confidence)),
                        identifier: settings.usesDetectorIdentifiers && ordered[next].identifier >= 0 ? ordered[next].identifier : nil,
                        appearance: ordered[next].appearance))
                next += 1
            }
            let time = settings.captureTime(ofFrame: frame)
            tracker.predict(to: time)
            tracker.update(observations, camera: camera, captureTime: time, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            reported.removeAll(keepingCapacity: true)
            for track in tracker.tracks where !track.isOutOfPicture {
                switch track.phase {
                case .tentative: continue
                case .coasting where !settings.includesCoastingTracks: continue
                case .confirmed, .coasting: break
                }
                // As the camera shows it: a track whose subject reaches past the picture (its cut
                // edges are not measured, `ClippedEdges`) is written as the part in the image.
                guard let projected = track.filter.angularBox.project(camera: camera, gimbalYawRadians: 0, gimbalPitchRadians: 0),
                    let box = projected.intersection(.fullImage)
                else { continue }
                let pixels = PixelRect(x: box.x * width, y: box.y * height, width: box.width * width, height: box.height * height)
                guard Self.isShowable(pixels, imageWidthPixels: width, imageHeightPixels: height) else { continue }
                reported.append(MOTRecord(frame: frame, identifier: track.identifier, box: pixels, confidence: 1))
            }
            results += reported.sorted { $0.identifier < $1.identifier }
        }
        return results
    }
}
