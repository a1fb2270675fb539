public import DockSockets
public import DockSystem

/// The "port" of an accessory with no wire (a digital crop, `DigitalSession`): it opens at once,
/// takes whatever is written without a word, and never hangs up.
public struct NoWireTransport: DockTransport {
    /// Creates the transport.
    public init() {}

    public var name: String { "digital" }

    public func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection {
        NoWireConnection()
    }
}

/// An open port with no wire behind it.
final class NoWireConnection: DockConnection {
    func write(_ bytes: [UInt8]) -> Bool { true }
    func close() {}
}
