import DockLinks

// Its own file, beside Configuration.swift, because validation reads the aspect: `scripts/fuzz
// configuration` compiles the two together.
extension Configuration {
    /// The crop of a fixed camera's picture as the settings describe it.
    func digitalLink() throws(Configuration.Error) -> DigitalSession {
        var settings = DigitalSession.Configuration()
        settings.horizontalFieldOfViewDegrees = digitalFieldOfViewDegrees
        settings.aspectRatio = try digitalAspectRatio()
        settings.maximumMagnification = digitalMaximumZoom
        settings.maximumDegreesPerSecond = digitalMaximumDegreesPerSecond
        settings.initialZoomFraction = digitalStartZoom
        return DigitalSession(configuration: settings)
    }

    /// `digital-aspect` as a number: `W:H` (`16:9`) or a decimal (`1.5`), from 0.2 to 5.
    func digitalAspectRatio() throws(Configuration.Error) -> Double {
        let parts = digitalAspect.split(separator: ":", omittingEmptySubsequences: false)
        let ratio: Double?
        switch parts.count {
        case 1: ratio = Double(parts[0])
        case 2: ratio = Double(parts[0]).flatMap { width in Double(parts[1]).map { width / $0 } }
        default: ratio = nil
        }
        guard let ratio, ratio.isFinite, ratio >= 0.2, ratio <= 5 else {
            throw Configuration.Error(
                location: "digital-aspect", message: "must be WIDTH:HEIGHT (16:9) or a number, from 0.2 to 5, got '\(digitalAspect)'")
        }
        return ratio
    }
}
