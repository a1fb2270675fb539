public import DockLinks
public import DockSystem
public import VISCAProtocol

/// Where a network VISCA camera is and how it is spoken to: `udp:HOST:PORT` (Sony's VISCA over
/// IP, with its header), `udp-raw:HOST:PORT` (bare packets in datagrams) or `tcp:HOST:PORT`.
public struct ViscaAddress: Hashable, Sendable {
    /// How the packets travel.
    public var framing: VISCASession.Framing
    /// UDP or TCP.
    public var kind: NetworkSocket.Kind
    /// Where the camera is.
    public var address: NetworkAddress

    /// Parses the `visca` setting; nil when it is none of the three forms.
    public init?(_ text: String) {
        let forms: [(prefix: String, framing: VISCASession.Framing, kind: NetworkSocket.Kind)] = [
            ("udp:", .sonyIP, .datagram), ("udp-raw:", .rawIP, .datagram), ("tcp:", .serial, .stream),
        ]
        guard let form = forms.first(where: { text.hasPrefix($0.prefix) }),
            let address = NetworkAddress(String(text.dropFirst(form.prefix.count)))
        else { return nil }
        framing = form.framing
        kind = form.kind
        self.address = address
    }
}

extension Configuration {
    /// The VISCA profile the settings name: a built-in one, or a JSON file.
    ///
    /// - Throws: a message naming the profile, when it is neither or the file is not a profile.
    public func viscaProfile() throws(Configuration.Error) -> VISCAProfile {
        if let builtIn = VISCAProfile.named(profile) { return builtIn }
        guard profile.contains("/") || profile.hasSuffix(".json") else {
            let names = VISCAProfile.builtIn.map(\.name).joined(separator: ", ")
            throw Error(location: "profile", message: "no built-in profile '\(profile)' (there are \(names)), and no file of that name")
        }
        guard let data = try? FileContents.read(atPath: profile) else {
            throw Error(location: "profile", message: "cannot read '\(profile)'")
        }
        do {
            return try VISCAProfile.parse(json: String(decoding: data, as: UTF8.self))
        } catch {
            throw Error(location: "profile", message: "\(profile): \(error)")
        }
    }

    /// The link to a VISCA camera of the settings' profile, on the network camera they name or
    /// a serial line, named `identifier` (the port: VISCA reports no serial number).
    func viscaLink(identifier: String) throws(Configuration.Error) -> VISCASession {
        let profile = try viscaProfile()
        var framing = ViscaAddress(visca)?.framing ?? .serial
        if framing == .sonyIP, profile.quirks.udpWithoutSequenceHeader { framing = .rawIP }
        var settings = VISCASession.Configuration(profile: profile, framing: framing)
        settings.identifier = identifier
        if viscaBaud != 0 { settings.baudRates = [viscaBaud] }
        return VISCASession(configuration: settings)
    }
}
