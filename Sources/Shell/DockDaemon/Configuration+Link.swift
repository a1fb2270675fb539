public import DockLinks

extension Configuration {
    /// The link to the accessory the settings describe, named `identifier` (the port) where the
    /// protocol reports no serial number; nil for dock-serial, whose session `HostPolicy` makes
    /// from the host's settings.
    public func accessoryLink(identifier: String) throws(Configuration.Error) -> (any AccessoryLink)? {
        switch accessoryProtocol {
        case .dockSerial: nil
        case .visca: try viscaLink(identifier: identifier)
        case .uvc: try uvcLink(identifier: identifier)
        case .pelcoD: pelcoDLink(identifier: identifier)
        case .digital: try digitalLink()
        }
    }

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

    /// The link to a Pelco-D head as the settings describe it, named `identifier` (the port).
    func pelcoDLink(identifier: String) -> PelcoDSession {
        var settings = PelcoDSession.Configuration()
        settings.address = UInt8(clamping: pelcoDAddress)
        settings.baudRate = pelcoDBaud
        settings.panDegreesPerSecondAtFastestStep = pelcoDPanDegreesPerSecond
        settings.tiltDegreesPerSecondAtFastestStep = pelcoDTiltDegreesPerSecond
        settings.speedExponent = pelcoDSpeedExponent
        settings.answersPositionQueries = pelcoDPositionQueries
        settings.zoomFullTravel = .milliseconds(Int64((pelcoDZoomSeconds * 1000).rounded()))
        settings.identifier = identifier
        return PelcoDSession(configuration: settings)
    }
}
