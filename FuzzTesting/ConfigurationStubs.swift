// Stand-ins for what `Configuration.validated()` calls from Configuration+VISCA.swift, whose real
// versions need DockSystem (sockets) and read profile files: `scripts/fuzz configuration` fuzzes
// Configuration.swift on its own, and these keep that file compiling unchanged.

/// A network VISCA address, as far as the fuzz target cares: one with a colon.
struct ViscaAddress {
    init?(_ text: String) {
        guard text.contains(":") else { return nil }
    }
}

extension Configuration {
    /// Accepts every profile: reading one is the visca-profile target's business.
    func viscaProfile() throws(Configuration.Error) {}
}

extension Configuration {
    /// Accepts every UVC model: reading one is the model parser's business.
    func uvcCameraModel() throws(Configuration.Error) {}
}
