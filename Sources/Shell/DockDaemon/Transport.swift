public import DockSockets
public import DockSystem
import Glibc

/// Something a session can open to reach a dock: a serial device, a pseudo-terminal, a network
/// camera, a webcam, or the in-process simulator. Opened links live on the daemon's event loop.
public protocol DockTransport {
    /// A name for logs (a device path, or "simulator").
    var name: String { get }
    /// Opens the link on `loop`, at a serial speed the session chose (probing a camera's baud) or,
    /// for nil, the transport's own; a link that is no serial line ignores the speed. What the
    /// dock sends and its hang-up reach `events` on the loop, never from inside `open`, `write`
    /// or `close`.
    func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection
}

/// What an open link tells the session, on the loop.
public struct DockLinkEvents {
    /// Bytes from the dock, in order.
    public var received: ([UInt8]) -> Void
    /// The link is gone (a pulled cable, a closed socket); nothing more arrives.
    public var hungUp: () -> Void

    /// Creates the pair of handlers.
    public init(received: @escaping ([UInt8]) -> Void, hungUp: @escaping () -> Void) {
        self.received = received
        self.hungUp = hungUp
    }
}

/// An open link.
public protocol DockConnection: AnyObject {
    /// Writes bytes; returns false when they could not all be written.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool
    /// Closes the link; no event follows.
    func close()
    /// Whether the link is a stream of bytes, so that two writes may go as one (a serial line,
    /// a pty, TCP); not a link of messages (a UDP camera's datagrams, a webcam's controls).
    var isByteStream: Bool { get }
}

extension DockConnection {
    /// A link is taken to carry messages unless it says otherwise.
    public var isByteStream: Bool { false }
}

/// A link over an open descriptor, watched by the loop: each read is handed over in order (for a
/// datagram socket, each datagram). A datagram socket's read errors (an ICMP "port unreachable"
/// from a camera not yet up) are no hang-up.
final class DescriptorConnection: DockConnection {
    private let port: FileDescriptor
    private let isDatagram: Bool
    private let loop: any EventLoop
    private let events: DockLinkEvents
    private var isClosed = false

    init(_ port: FileDescriptor, isDatagram: Bool = false, loop: any EventLoop, events: DockLinkEvents) {
        self.port = port
        self.isDatagram = isDatagram
        self.loop = loop
        self.events = events
        loop.watch(port, for: .readable) { [weak self] _ in self?.readable() }
    }

    private func readable() {
        while !isClosed {
            switch try? port.read(maximumCount: 65_536) {
            case .bytes(let bytes)?:
                events.received(bytes)
                // A stream's read that did not fill its buffer emptied it: the loop is
                // level-triggered and wakes us when more comes, so no second read just to hear
                // EAGAIN (one for each of the dock's 50 telemetry frames a second). Each
                // datagram is one read, so a datagram socket reads on until it is empty.
                if !isDatagram, bytes.count < 65_536 { return }
            case .wouldBlock?: return
            case nil where isDatagram: return
            case .hangUp?, nil:
                close()
                events.hungUp()
                return
            }
        }
    }

    func write(_ bytes: [UInt8]) -> Bool {
        guard !isClosed else { return false }
        return (try? port.write(bytes)) == bytes.count
    }

    var isByteStream: Bool { !isDatagram }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.unwatch(port)
        port.close()
    }
}

/// A serial device or pseudo-terminal at a path.
public struct DevicePortTransport: DockTransport {
    /// The device path.
    public let path: String
    /// Serial speed.
    public let baudRate: Int

    /// Creates the transport.
    public init(path: String, baudRate: Int) {
        self.path = path
        self.baudRate = baudRate
    }

    public var name: String { path }

    public func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection {
        DescriptorConnection(try SerialPort.open(path: path, baudRate: baudRate ?? self.baudRate), loop: loop, events: events)
    }
}

/// A network camera: UDP (each read one datagram, each write one) or TCP, connected to one
/// address. A UDP camera that is not there is noticed by its silence, not by the socket.
public struct NetworkTransport: DockTransport {
    /// UDP or TCP.
    public let kind: NetworkSocket.Kind
    /// Where the camera is.
    public let address: NetworkAddress

    /// Creates the transport.
    public init(kind: NetworkSocket.Kind, address: NetworkAddress) {
        self.kind = kind
        self.address = address
    }

    public var name: String { (kind == .datagram ? "udp:" : "tcp:") + address.description }

    public func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection {
        DescriptorConnection(try NetworkSocket.connect(kind, to: address), isDatagram: kind == .datagram, loop: loop, events: events)
    }
}

/// The dock found by its USB IDs: each time the session opens the link, udev is asked which
/// `tty` device matches, so a dock plugged in later (or on another port) is found on the next
/// attempt.
public struct DiscoveredPortTransport: DockTransport {
    /// USB vendor ID, 4 hex digits.
    public let vendorID: String
    /// USB product ID, 4 hex digits.
    public let productID: String
    /// USB serial number to insist on; empty for any.
    public let serialNumber: String
    /// Serial speed.
    public let baudRate: Int

    /// Creates the transport.
    public init(vendorID: String, productID: String, serialNumber: String, baudRate: Int) {
        self.vendorID = vendorID
        self.productID = productID
        self.serialNumber = serialNumber
        self.baudRate = baudRate
    }

    public var name: String {
        "USB \(vendorID):\(productID)" + (serialNumber.isEmpty ? "" : " serial \(serialNumber)")
    }

    public func open(baudRate: Int?, on loop: any EventLoop, events: DockLinkEvents) throws(SystemError) -> any DockConnection {
        guard
            let device = DeviceDiscovery.serialDevices().first(where: {
                DeviceDiscovery.matches($0, vendorID: vendorID, productID: productID, serialNumber: serialNumber)
            })
        else {
            throw SystemError("find", name, code: ENODEV)
        }
        return try DevicePortTransport(path: device.path, baudRate: self.baudRate).open(baudRate: baudRate, on: loop, events: events)
    }
}
