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
