public import DockSimulator
public import DockVocabulary

extension GroundTruthFrame {
    /// The frame as a digital pan-tilt-zoom shows it: its boxes in the crop `window` of the fixed
    /// camera's picture (its own picture, before any mirroring, as `DigitalCrop` gives it; made
    /// into the delivered image's with `camera`), each part's in-frame and visible shares those
    /// of the crop, and the pose the crop's (`yawRadians`, `pitchRadians`, its pan range at the
    /// zoom in force `yawRangeRadians`).
    public func cropped(
        to window: NormalizedRect, camera: CameraInformation, yawRadians: Double, pitchRadians: Double,
        yawRangeRadians: ClosedRange<Double>
    ) -> GroundTruthFrame {
        let delivered = camera.deliveredRect(fromDockAligned: window)
        var frame = self
        frame.yawRadians = yawRadians
        frame.pitchRadians = pitchRadians
        frame.yawRangeRadians = yawRangeRadians
        frame.parts = parts.map { part in
            var seen = part
            seen.box = NormalizedRect(
                x: (part.box.x - delivered.x) / delivered.width, y: (part.box.y - delivered.y) / delivered.height,
                width: part.box.width / delivered.width, height: part.box.height / delivered.height)
            let inCrop = seen.box.area > 0 ? (seen.box.intersection(Self.wholePicture)?.area ?? 0) / seen.box.area : 0
            // Hidden by nearer subjects as much as in the whole picture, within what the crop shows.
            let hiddenShare = part.inFrameFraction > 0 ? part.visibleFraction / part.inFrameFraction : 0
            seen.inFrameFraction = min(inCrop, part.inFrameFraction)
            seen.visibleFraction = seen.inFrameFraction * hiddenShare
            return seen
        }
        return frame
    }

    private static let wholePicture = NormalizedRect(x: 0, y: 0, width: 1, height: 1)
}
