/// The answer to the version inquiry `8x 09 00 02 FF`: `y0 50 GG GG HH HH JJ JJ KK FF`.
public struct VISCAVersion: Hashable, Sendable {
    /// `GGGG`, the vendor (Sony's manuals give 0x0001 on the SRG series, 0x0020 on FCB modules).
    public var vendor: UInt16
    /// `HHHH`, the model (0x0513 is the SRG-300H).
    public var model: UInt16
    /// `JJJJ`, the ROM revision.
    public var romVersion: UInt16
    /// `KK`, the highest socket number (2 on every manual seen).
    public var maximumSocket: UInt8

    /// Creates a version.
    public init(vendor: UInt16, model: UInt16, romVersion: UInt16, maximumSocket: UInt8) {
        self.vendor = vendor
        self.model = model
        self.romVersion = romVersion
        self.maximumSocket = maximumSocket
    }

    /// Reads the data of an inquiry reply; nil unless it is exactly 7 bytes.
    public init?(data: [UInt8]) {
        guard data.count == 7 else { return nil }
        vendor = UInt16(data[0]) << 8 | UInt16(data[1])
        model = UInt16(data[2]) << 8 | UInt16(data[3])
        romVersion = UInt16(data[4]) << 8 | UInt16(data[5])
        maximumSocket = data[6]
    }

    /// The 7 data bytes of the inquiry reply (a camera whose fields hold 0xFF cannot send them:
    /// VISCA has no escape).
    public var data: [UInt8] {
        [
            UInt8(vendor >> 8), UInt8(vendor & 0xFF), UInt8(model >> 8), UInt8(model & 0xFF),
            UInt8(romVersion >> 8), UInt8(romVersion & 0xFF), maximumSocket,
        ]
    }
}

/// The answer to the pan-tilt position inquiry `8x 09 06 12 FF`: `y0 50 0p0p0p0p 0t0t0t0t FF`,
/// signed 16-bit counts, one nibble a byte.
public struct VISCAPanTiltPosition: Hashable, Sendable {
    /// Pan, in the model's counts (> 0 right of home).
    public var pan: Int16
    /// Tilt, in the model's counts (> 0 above home).
    public var tilt: Int16

    /// Creates a position.
    public init(pan: Int16, tilt: Int16) {
        self.pan = pan
        self.tilt = tilt
    }

    /// Reads the data of an inquiry reply; nil unless it is 8 bytes of one nibble each.
    public init?(data: [UInt8]) {
        guard data.count == 8, let pan = readNibbles(data[0..<4]), let tilt = readNibbles(data[4..<8]) else { return nil }
        self.pan = Int16(bitPattern: pan)
        self.tilt = Int16(bitPattern: tilt)
    }

    /// The 8 data bytes of the inquiry reply.
    public var data: [UInt8] { nibbles(UInt16(bitPattern: pan)) + nibbles(UInt16(bitPattern: tilt)) }
}

/// The answer to the zoom position inquiry `8x 09 04 47 FF`: `y0 50 0p 0q 0r 0s FF`.
public struct VISCAZoomPosition: Hashable, Sendable {
    /// The zoom position: 0 at the wide end, rising towards tele.
    public var position: UInt16

    /// Creates a zoom position.
    public init(position: UInt16) { self.position = position }

    /// Reads the data of an inquiry reply; nil unless it is 4 bytes of one nibble each.
    public init?(data: [UInt8]) {
        guard data.count == 4, let position = readNibbles(data[...]) else { return nil }
        self.position = position
    }

    /// The 4 data bytes of the inquiry reply.
    public var data: [UInt8] { nibbles(position) }
}

/// The answer to the pan-tilt maximum speed inquiry `8x 09 06 11 FF`: `y0 50 ww zz FF`, the
/// highest speed step each axis takes.
public struct VISCAPanTiltMaxSpeed: Hashable, Sendable {
    /// `ww`, the highest pan speed step (0x18 on most models).
    public var pan: UInt8
    /// `zz`, the highest tilt speed step (0x14 or 0x17 on Sony models, 0x12 on Telycam's).
    public var tilt: UInt8

    /// Creates the maximum speeds.
    public init(pan: UInt8, tilt: UInt8) {
        self.pan = pan
        self.tilt = tilt
    }

    /// Reads the data of an inquiry reply; nil unless it is exactly 2 bytes.
    public init?(data: [UInt8]) {
        guard data.count == 2 else { return nil }
        pan = data[0]
        tilt = data[1]
    }

    /// The 2 data bytes of the inquiry reply.
    public var data: [UInt8] { [pan, tilt] }
}

/// The 16-bit value of four nibble bytes, nil if any byte is over 0x0F.
func readNibbles(_ bytes: ArraySlice<UInt8>) -> UInt16? {
    var value: UInt16 = 0
    for byte in bytes {
        guard byte <= 0x0F else { return nil }
        value = value << 4 | UInt16(byte)
    }
    return value
}
