import DockVocabulary
import Glibc

extension DockAccessory {
    /// The camera behind a batch of observations (DockKit's `DockAccessory.CameraInformation`,
    /// reduced to what the tracker needs): field of view, aspect ratio, mirroring, and when the
    /// frame was captured on the host's monotonic clock.
    public struct CameraInformation: Hashable, Sendable {
        /// The horizontal field of view, radians (0 to pi).
        public var horizontalFieldOfViewRadians: Double
        /// Width over height.
        public var aspectRatio: Double
        /// Whether the image is mirrored (a selfie preview).
        public var isMirrored: Bool
        /// When the frame was captured, on the host's monotonic clock, seconds
        /// (``hostTimeSeconds()`` reads that clock).
        public var captureTimeSeconds: Double

        /// Creates camera information.
        ///
        /// - Parameters:
        ///   - horizontalFieldOfViewRadians: The horizontal field of view, radians (0 to pi).
        ///   - aspectRatio: The picture's width over its height.
        ///   - isMirrored: Whether the picture is mirrored, as a selfie preview is.
        ///   - captureTimeSeconds: When the frame was captured, from ``hostTimeSeconds()``.
        public init(horizontalFieldOfViewRadians: Double, aspectRatio: Double, isMirrored: Bool = false, captureTimeSeconds: Double) {
            self.horizontalFieldOfViewRadians = horizontalFieldOfViewRadians
            self.aspectRatio = aspectRatio
            self.isMirrored = isMirrored
            self.captureTimeSeconds = captureTimeSeconds
        }

        /// The host's monotonic clock now (`CLOCK_MONOTONIC`, the clock dockd keeps the dock's
        /// poses on), in seconds: read it when a frame is captured, for ``captureTimeSeconds``.
        public static func hostTimeSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }
}
