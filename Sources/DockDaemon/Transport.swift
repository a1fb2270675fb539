import Foundation
import Glibc
import Synchronization
public import DockSystem

/// Something a session can open to reach a dock: a serial device, a pseudo-terminal, or the
/// in-process simulator.
public protocol DockTransport: Sendable {
    /// A name for logs (a device path, or "simulator").
    var name: String { get }
    /// Opens the link.
    func open() throws(SystemError) -> DockConnection
    /// Opens the link at a serial speed the session chose (probing a camera's baud); a link
    /// that is no serial line opens as `open()` does.
    func open(baudRate: Int) throws(SystemError) -> DockConnection
}

extension DockTransport {
    public func open(baudRate: Int) throws(SystemError) -> DockConnection { try open() }
}

/// An open link: bytes arrive on `incoming` (which finishes at a hang-up); `write` sends.
public final class DockConnection: Sendable {
    /// Bytes from the dock, in order; finishes when the link is gone.
    public let incoming: AsyncStream<[UInt8]>
    private let writer: @Sendable ([UInt8]) -> Bool
    private let closer: @Sendable () -> Void

    /// Creates a connection from its parts.
    public init(incoming: AsyncStream<[UInt8]>, write: @escaping @Sendable ([UInt8]) -> Bool,
                close: @escaping @Sendable () -> Void) {
        self.incoming = incoming
        writer = write
        closer = close
    }

    /// Writes bytes; returns false when they could not all be written.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool { writer(bytes) }

    /// Closes the link; `incoming` finishes.
    public func close() { closer() }
}

/// A serial device or pseudo-terminal at a path, read by a thread of its own that waits in
/// `poll(2)` and hands the bytes over in order.
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

    public func open() throws(SystemError) -> DockConnection { try open(baudRate: baudRate) }

    public func open(baudRate: Int) throws(SystemError) -> DockConnection {
        try readingConnection(try SerialPort.open(path: path, baudRate: baudRate), name: path)
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

    public func open() throws(SystemError) -> DockConnection {
        try readingConnection(try NetworkSocket.connect(kind, to: address), name: name, isDatagram: kind == .datagram)
    }
}

/// A connection over an open descriptor, read by a thread of its own that waits in `poll(2)` and
/// hands each read over in order (for a datagram socket, each datagram). The descriptor stays
/// open until the reader thread has stopped, so its number cannot be reused under a late write;
/// writes after close are refused under the lock. A datagram socket's read errors (an ICMP
/// "port unreachable" from a camera not yet up) are no hang-up.
private func readingConnection(_ port: FileDescriptor, name: String, isDatagram: Bool = false) throws(SystemError)
    -> DockConnection
{
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else {
        port.close()
        throw SystemError("pipe")
    }
    let wake = (read: FileDescriptor(rawValue: pipeEnds[0]), write: FileDescriptor(rawValue: pipeEnds[1]))
    let isClosed = Mutex(false)
    let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
    let reader = Thread {
        while true {
            guard let ready = try? Poll.waitForReading([port, wake.read], timeout: .seconds(1)) else { break }
            if ready.contains(wake.read) { break }
            guard ready.contains(port) else { continue }
            switch try? port.read(maximumCount: 65_536) {
            case .bytes(let bytes)?: continuation.yield(bytes)
            case .wouldBlock?: continue
            case nil where isDatagram: continue
            case .hangUp?, nil:
                continuation.finish()
                isClosed.withLock { closed in
                    if !closed { closed = true }
                }
                closeAll(port, wake)
                return
            }
        }
        continuation.finish()
        isClosed.withLock { $0 = true }
        closeAll(port, wake)
    }
    reader.name = "dockd reader \(name)"
    reader.start()
    return DockConnection(
        incoming: stream,
        write: { bytes in
            isClosed.withLock { closed in
                guard !closed else { return false }
                return (try? port.write(bytes)) == bytes.count
            }
        },
        close: {
            let shouldWake = isClosed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            if shouldWake { _ = try? wake.write.write([1]) }
        })
}

private func closeAll(_ port: FileDescriptor, _ wake: (read: FileDescriptor, write: FileDescriptor)) {
    port.close()
    wake.read.close()
    wake.write.close()
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

    public func open() throws(SystemError) -> DockConnection { try open(baudRate: baudRate) }

    public func open(baudRate: Int) throws(SystemError) -> DockConnection {
        guard let device = DeviceDiscovery.serialDevices().first(where: {
            DeviceDiscovery.matches($0, vendorID: vendorID, productID: productID, serialNumber: serialNumber)
        }) else {
            throw SystemError("find", name, code: ENODEV)
        }
        return try DevicePortTransport(path: device.path, baudRate: baudRate).open()
    }
}
