import CSerialPort
public import DockSockets
import Glibc

/// Opening a dock's serial port: a real USB serial device through libserialport, or a
/// pseudo-terminal through termios (libserialport looks ports up in sysfs and refuses ptys). Either
/// way the port is exclusive (`TIOCEXCL`), raw, 8N1 without flow control, flushed, and returned as
/// a non-blocking descriptor that the caller owns.
public enum SerialPort {
    /// Whether `path` (after following links) is a pseudo-terminal slave.
    public static func isPseudoTerminal(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        return String(cString: resolved).hasPrefix("/dev/pts/")
    }

    /// Opens the port at `path` at `baudRate`.
    public static func open(path: String, baudRate: Int) throws(SystemError) -> FileDescriptor {
        isPseudoTerminal(path)
            ? try openWithTermios(path: path, baudRate: baudRate)
            : try openWithLibserialport(path: path, baudRate: baudRate)
    }

    private static func openWithTermios(path: String, baudRate: Int) throws(SystemError) -> FileDescriptor {
        let raw = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard raw >= 0 else { throw SystemError("open", path) }
        let port = FileDescriptor(rawValue: raw)
        do throws(SystemError) {
            guard ioctl(raw, UInt(TIOCEXCL)) == 0 else { throw SystemError("ioctl TIOCEXCL", path) }
            try port.makeRaw()
            var settings = termios()
            if tcgetattr(raw, &settings) == 0, let speed = speedConstant(baudRate) {
                cfsetispeed(&settings, speed)
                cfsetospeed(&settings, speed)
                _ = tcsetattr(raw, TCSANOW, &settings)
            }
            _ = tcflush(raw, TCIOFLUSH)
            return port
        } catch {
            port.close()
            throw error
        }
    }

    private static func openWithLibserialport(path: String, baudRate: Int) throws(SystemError) -> FileDescriptor {
        var handle: OpaquePointer?
        guard sp_get_port_by_name(path, &handle) == SP_OK, let port = handle else {
            throw SystemError("sp_get_port_by_name", path, code: ENODEV)
        }
        defer { sp_free_port(port) }
        guard sp_open(port, SP_MODE_READ_WRITE) == SP_OK else {
            throw SystemError("sp_open", path, code: errno == 0 ? EIO : errno)
        }
        var descriptor: Int32 = -1
        guard sp_set_baudrate(port, Int32(baudRate)) == SP_OK, sp_set_bits(port, 8) == SP_OK,
            sp_set_parity(port, SP_PARITY_NONE) == SP_OK, sp_set_stopbits(port, 1) == SP_OK,
            sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE) == SP_OK, sp_flush(port, SP_BUF_BOTH) == SP_OK,
            sp_get_port_handle(port, &descriptor) == SP_OK, descriptor >= 0
        else {
            sp_close(port)
            throw SystemError("configure serial port", path, code: EIO)
        }
        // Keep our own descriptor: libserialport's closes with its port structure.
        let owned = dup(descriptor)
        sp_close(port)
        guard owned >= 0 else { throw SystemError("dup", path) }
        let result = FileDescriptor(rawValue: owned)
        do throws(SystemError) {
            guard ioctl(owned, UInt(TIOCEXCL)) == 0 else { throw SystemError("ioctl TIOCEXCL", path) }
            try result.makeRaw()
            try result.setNonBlocking()
            return result
        } catch {
            result.close()
            throw error
        }
    }

    private static func speedConstant(_ baudRate: Int) -> speed_t? {
        switch baudRate {
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        case 230_400: speed_t(B230400)
        case 460_800: speed_t(B460800)
        case 921_600: speed_t(B921600)
        default: nil
        }
    }
}
