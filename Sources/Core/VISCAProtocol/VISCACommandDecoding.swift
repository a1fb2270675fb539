extension VISCACommand {
    /// Camera side: parses one packet (header ... FF).
    ///
    /// - Returns: the camera address the packet is for (1...7, or 8 for a broadcast) and the
    ///   command.
    /// - Throws: a named `VISCAError`: `.tooShort`, `.missingTerminator`, `.earlyTerminator` or
    ///   `.tooLong` for bad framing, `.badHeader`, `.unknownCommand` for bytes no command has,
    ///   `.wrongLength` for a known command of the wrong size, `.badNibble` for a value byte over
    ///   0x0F, `.badParameter` for a direction that is not 1, 2 or 3.
    public static func decode(_ packet: [UInt8]) throws(VISCAError) -> (address: UInt8, command: VISCACommand) {
        try checkFraming(packet)
        let header = packet[0]
        let address: UInt8
        if header == 0x88 {
            address = 8
        } else if (0x81...0x87).contains(header) {
            address = header & 0x07
        } else {
            throw .badHeader(header)
        }
        let command = try command(in: packet)
        // Only address set and IF_Clear are broadcast, and address set only so.
        switch command {
        case .addressSet:
            guard address == 8 else { throw .badHeader(header) }
        case .interfaceClear:
            break
        case .cancel, .panTiltDrive, .absolutePosition, .relativePosition, .home, .reset, .zoomStop, .zoomTele,
            .zoomWide, .zoomDirect, .memoryReset, .memorySet, .memoryRecall, .versionInquiry, .panTiltPositionInquiry, .zoomPositionInquiry,
            .panTiltMaxSpeedInquiry:
            guard address != 8 else { throw .badHeader(header) }
        }
        return (address, command)
    }

    /// The command that a framed packet's body names.
    private static func command(in packet: [UInt8]) throws(VISCAError) -> VISCACommand {
        let reader = PacketReader(packet)
        switch reader.byte(1) {
        case 0x01:
            switch (reader.byte(2), reader.byte(3)) {
            case (0x00, 0x01):
                try reader.expect("interface_clear", count: 5)
                return .interfaceClear
            case (0x06, 0x01):
                try reader.expect("pan_tilt_drive", count: 9)
                guard let pan = PanDirection(rawValue: packet[6]) else {
                    throw .badParameter(message: "pan_tilt_drive", field: "pan_direction", byte: packet[6])
                }
                guard let tilt = TiltDirection(rawValue: packet[7]) else {
                    throw .badParameter(message: "pan_tilt_drive", field: "tilt_direction", byte: packet[7])
                }
                return .panTiltDrive(panSpeed: packet[4], tiltSpeed: packet[5], pan: pan, tilt: tilt)
            case (0x06, 0x02):
                try reader.expect("absolute_position", count: 15)
                return .absolutePosition(
                    panSpeed: packet[4], tiltSpeed: packet[5],
                    pan: Int16(bitPattern: try reader.nibbles(at: 6, "absolute_position")),
                    tilt: Int16(bitPattern: try reader.nibbles(at: 10, "absolute_position")))
            case (0x06, 0x03):
                try reader.expect("relative_position", count: 15)
                return .relativePosition(
                    panSpeed: packet[4], tiltSpeed: packet[5],
                    pan: Int16(bitPattern: try reader.nibbles(at: 6, "relative_position")),
                    tilt: Int16(bitPattern: try reader.nibbles(at: 10, "relative_position")))
            case (0x06, 0x04):
                try reader.expect("home", count: 5)
                return .home
            case (0x06, 0x05):
                try reader.expect("reset", count: 5)
                return .reset
            case (0x04, 0x07):
                guard let parameter = reader.byte(4) else { throw .unknownCommand(bytes: packet) }
                switch parameter >> 4 {
                case 0x0 where parameter == 0x00:
                    try reader.expect("zoom_stop", count: 6)
                    return .zoomStop
                case 0x2:
                    try reader.expect("zoom_tele", count: 6)
                    return .zoomTele(speed: parameter & 0x0F)
                case 0x3:
                    try reader.expect("zoom_wide", count: 6)
                    return .zoomWide(speed: parameter & 0x0F)
                default:
                    // 02 and 03 (tele and wide at the standard speed) and the rest: not ours.
                    throw .unknownCommand(bytes: packet)
                }
            case (0x04, 0x47):
                try reader.expect("zoom_direct", count: 9)
                return .zoomDirect(position: try reader.nibbles(at: 4, "zoom_direct"))
            case (0x04, 0x3F):
                try reader.expect("memory", count: 7)
                // The number is the byte as sent: Sony's `0p` and a whole byte read alike.
                switch packet[4] {
                case 0x00: return .memoryReset(number: packet[5])
                case 0x01: return .memorySet(number: packet[5])
                case 0x02: return .memoryRecall(number: packet[5])
                default: throw .badParameter(message: "memory", field: "action", byte: packet[4])
                }
            default:
                throw .unknownCommand(bytes: packet)
            }
        case 0x09:
            switch (reader.byte(2), reader.byte(3)) {
            case (0x00, 0x02):
                try reader.expect("version_inquiry", count: 5)
                return .versionInquiry
            case (0x06, 0x12):
                try reader.expect("pan_tilt_position_inquiry", count: 5)
                return .panTiltPositionInquiry
            case (0x04, 0x47):
                try reader.expect("zoom_position_inquiry", count: 5)
                return .zoomPositionInquiry
            case (0x06, 0x11):
                try reader.expect("pan_tilt_max_speed_inquiry", count: 5)
                return .panTiltMaxSpeedInquiry
            default:
                throw .unknownCommand(bytes: packet)
            }
        case 0x30:
            guard let first = reader.byte(2) else { throw .unknownCommand(bytes: packet) }
            try reader.expect("address_set", count: 4)
            // Every manual sends 01: the first camera takes 1 and hands 2 on.
            guard first == 0x01 else { throw .badParameter(message: "address_set", field: "first_address", byte: first) }
            return .addressSet
        case let byte? where byte >> 4 == 0x2:
            try reader.expect("cancel", count: 3)
            return .cancel(socket: byte & 0x0F)
        default:
            throw .unknownCommand(bytes: packet)
        }
    }
}

/// Checks what every VISCA packet must be: 3 to 16 bytes, one 0xFF, at the end.
func checkFraming(_ packet: [UInt8]) throws(VISCAError) {
    guard packet.count >= 3 else { throw .tooShort(byteCount: packet.count) }
    guard packet.last == 0xFF else { throw .missingTerminator }
    if let index = packet.dropLast().firstIndex(of: 0xFF) { throw .earlyTerminator(index: index) }
    guard packet.count <= VISCAPacketDecoder.maximumPacketCount else { throw .tooLong(byteCount: packet.count) }
}

/// Reads the fields of a framed packet.
struct PacketReader {
    let packet: [UInt8]

    init(_ packet: [UInt8]) { self.packet = packet }

    /// The body byte at `index`, nil past the body (the terminator is not part of it).
    func byte(_ index: Int) -> UInt8? { index < packet.count - 1 ? packet[index] : nil }

    /// Throws `.wrongLength` unless the packet has `count` bytes.
    func expect(_ message: String, count: Int) throws(VISCAError) {
        guard packet.count == count else { throw .wrongLength(message: message, expected: count, actual: packet.count) }
    }

    /// The 16-bit value in the four nibble bytes from `index`.
    func nibbles(at index: Int, _ message: String) throws(VISCAError) -> UInt16 {
        var value: UInt16 = 0
        for offset in index..<index + 4 {
            let byte = packet[offset]
            guard byte <= 0x0F else { throw .badNibble(message: message, index: offset, byte: byte) }
            value = value << 4 | UInt16(byte)
        }
        return value
    }
}
