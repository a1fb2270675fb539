/// A message from the host (the VISCA "controller") to a camera: the commands and inquiries dockd
/// sends. `Protocol/visca.md` gives every one with its bytes and the manual page it comes from.
public enum VISCACommand: Hashable, Sendable {
    /// `88 30 01 FF`: numbers the cameras on a serial chain from 1 (always broadcast; the address
    /// given to `encode` is ignored). Answered `88 30 0w FF`, w being the last address + 1.
    case addressSet
    /// `8x 01 00 01 FF`: empties the camera's command buffers and cancels what runs. Answered
    /// `y0 50 FF` (Completion on socket 0, no ACK). Encoded for address 8 it is the broadcast
    /// `88 01 00 01 FF`, which comes back unchanged.
    case interfaceClear
    /// `8x 2z FF`: cancels the command running in socket z. Answered `y0 6z 04 FF` (cancelled) or
    /// `y0 6z 05 FF` (no socket).
    case cancel(socket: UInt8)
    /// `8x 01 06 01 VV WW PP TT FF`: turns each axis at a speed step until told otherwise. It
    /// does not end by itself: the host is the dead man's handle.
    case panTiltDrive(panSpeed: UInt8, tiltSpeed: UInt8, pan: PanDirection, tilt: TiltDirection)
    /// `8x 01 06 02 VV WW 0Y0Y0Y0Y 0Z0Z0Z0Z FF`: moves to a pan and tilt position, in the model's
    /// counts (signed 16 bits, one nibble a byte, most significant first).
    case absolutePosition(panSpeed: UInt8, tiltSpeed: UInt8, pan: Int16, tilt: Int16)
    /// `8x 01 06 03 VV WW 0Y0Y0Y0Y 0Z0Z0Z0Z FF`: moves by a pan and tilt offset, in counts.
    case relativePosition(panSpeed: UInt8, tiltSpeed: UInt8, pan: Int16, tilt: Int16)
    /// `8x 01 06 04 FF`: moves to the home position.
    case home
    /// `8x 01 06 05 FF`: re-initialises the pan-tilt mechanism (it turns to both ends, then home).
    case reset
    /// `8x 01 04 07 00 FF`: stops the zoom.
    case zoomStop
    /// `8x 01 04 07 2p FF`: zooms in (tele) at speed p, 0 (slow) to 7 on most models (a nibble).
    case zoomTele(speed: UInt8)
    /// `8x 01 04 07 3p FF`: zooms out (wide) at speed p.
    case zoomWide(speed: UInt8)
    /// `8x 01 04 47 0p 0q 0r 0s FF`: zooms to a position (0 is the wide end; the tele end is the
    /// model's, e.g. 0x4000 optical).
    case zoomDirect(position: UInt16)
    /// `8x 01 04 3F 00 pp FF` (CAM_Memory Reset): empties the camera's preset memory `pp`
    /// (Sony's manuals write `0p`, 0 to 5 or 0 to F; others a whole byte).
    case memoryReset(number: UInt8)
    /// `8x 01 04 3F 01 pp FF` (CAM_Memory Set): stores where the camera points (and its zoom)
    /// in preset memory `pp`.
    case memorySet(number: UInt8)
    /// `8x 01 04 3F 02 pp FF` (CAM_Memory Recall): the camera goes to what memory `pp` holds at
    /// its own preset speed.
    case memoryRecall(number: UInt8)
    /// `8x 09 00 02 FF`: asks for vendor, model, ROM revision and socket count.
    case versionInquiry
    /// `8x 09 06 12 FF`: asks for the pan and tilt position.
    case panTiltPositionInquiry
    /// `8x 09 04 47 FF`: asks for the zoom position.
    case zoomPositionInquiry
    /// `8x 09 06 11 FF`: asks for the highest pan and tilt speed steps.
    case panTiltMaxSpeedInquiry

    /// How a camera answers a command (VISCA's command/acknowledge protocol).
    public enum ExpectedReply: Hashable, Sendable {
        /// ACK `y0 4z FF` naming the socket z it took, then Completion `y0 5z FF` when done (or
        /// an error on z); some cameras send Completion without the ACK.
        case acknowledgementThenCompletion
        /// Only `y0 50 FF`, Completion on socket 0 (IF_Clear).
        case completionOnSocketZero
        /// `y0 50 <data> FF` with the data asked for, no ACK.
        case inquiryData
        /// `88 30 0w FF` (address set).
        case addressSet
        /// `y0 6z 04 FF` or `y0 6z 05 FF` (cancel).
        case cancelOutcome
    }

    /// Whether it is an inquiry (answered on socket 0 with data, no ACK).
    public var isInquiry: Bool {
        switch self {
        case .versionInquiry, .panTiltPositionInquiry, .zoomPositionInquiry, .panTiltMaxSpeedInquiry:
            true
        case .addressSet, .interfaceClear, .cancel, .panTiltDrive, .absolutePosition, .relativePosition, .home,
            .reset, .zoomStop, .zoomTele, .zoomWide, .zoomDirect, .memoryReset, .memorySet, .memoryRecall:
            false
        }
    }

    /// What the camera answers with when all goes well.
    public var expectedReply: ExpectedReply {
        switch self {
        case .addressSet: .addressSet
        case .interfaceClear: .completionOnSocketZero
        case .cancel: .cancelOutcome
        case .versionInquiry, .panTiltPositionInquiry, .zoomPositionInquiry, .panTiltMaxSpeedInquiry: .inquiryData
        case .panTiltDrive, .absolutePosition, .relativePosition, .home, .reset, .zoomStop, .zoomTele, .zoomWide,
            .zoomDirect, .memoryReset, .memorySet, .memoryRecall:
            .acknowledgementThenCompletion
        }
    }

    /// The command's name in `Protocol/visca.md` and the vectors (`pan_tilt_drive` ...).
    public var name: String {
        switch self {
        case .addressSet: "address_set"
        case .interfaceClear: "interface_clear"
        case .cancel: "cancel"
        case .panTiltDrive: "pan_tilt_drive"
        case .absolutePosition: "absolute_position"
        case .relativePosition: "relative_position"
        case .home: "home"
        case .reset: "reset"
        case .zoomStop: "zoom_stop"
        case .zoomTele: "zoom_tele"
        case .zoomWide: "zoom_wide"
        case .zoomDirect: "zoom_direct"
        case .memoryReset: "memory_reset"
        case .memorySet: "memory_set"
        case .memoryRecall: "memory_recall"
        case .versionInquiry: "version_inquiry"
        case .panTiltPositionInquiry: "pan_tilt_position_inquiry"
        case .zoomPositionInquiry: "zoom_position_inquiry"
        case .panTiltMaxSpeedInquiry: "pan_tilt_max_speed_inquiry"
        }
    }

    /// The bytes on the wire for the camera at `address` (1...7).
    ///
    /// - Precondition: `address` is 1...7 (8, the broadcast, also for `interfaceClear`; ignored for
    ///   `addressSet`); a socket or zoom speed fits a nibble (0...15); no speed byte or memory
    ///   number is 0xFF.
    public func encode(address: UInt8) -> [UInt8] {
        if case .addressSet = self { return [0x88, 0x30, 0x01, 0xFF] }
        let broadcastAllowed = self == .interfaceClear
        precondition(
            (1...7).contains(address) || (broadcastAllowed && address == 8),
            "VISCA camera address \(address) is outside 1...7 for \(name)")
        let header = 0x80 | address
        switch self {
        case .addressSet:
            preconditionFailure("address set is encoded above")
        case .interfaceClear:
            return [header, 0x01, 0x00, 0x01, 0xFF]
        case .cancel(let socket):
            return [header, 0x20 | nibble(socket, "socket"), 0xFF]
        case .panTiltDrive(let panSpeed, let tiltSpeed, let pan, let tilt):
            return [header, 0x01, 0x06, 0x01, speed(panSpeed), speed(tiltSpeed), pan.rawValue, tilt.rawValue, 0xFF]
        case .absolutePosition(let panSpeed, let tiltSpeed, let pan, let tilt):
            return [header, 0x01, 0x06, 0x02, speed(panSpeed), speed(tiltSpeed)]
                + nibbles(UInt16(bitPattern: pan)) + nibbles(UInt16(bitPattern: tilt)) + [0xFF]
        case .relativePosition(let panSpeed, let tiltSpeed, let pan, let tilt):
            return [header, 0x01, 0x06, 0x03, speed(panSpeed), speed(tiltSpeed)]
                + nibbles(UInt16(bitPattern: pan)) + nibbles(UInt16(bitPattern: tilt)) + [0xFF]
        case .home:
            return [header, 0x01, 0x06, 0x04, 0xFF]
        case .reset:
            return [header, 0x01, 0x06, 0x05, 0xFF]
        case .zoomStop:
            return [header, 0x01, 0x04, 0x07, 0x00, 0xFF]
        case .zoomTele(let speed):
            return [header, 0x01, 0x04, 0x07, 0x20 | nibble(speed, "zoom speed"), 0xFF]
        case .zoomWide(let speed):
            return [header, 0x01, 0x04, 0x07, 0x30 | nibble(speed, "zoom speed"), 0xFF]
        case .zoomDirect(let position):
            return [header, 0x01, 0x04, 0x47] + nibbles(position) + [0xFF]
        case .memoryReset(let number):
            return [header, 0x01, 0x04, 0x3F, 0x00, memory(number), 0xFF]
        case .memorySet(let number):
            return [header, 0x01, 0x04, 0x3F, 0x01, memory(number), 0xFF]
        case .memoryRecall(let number):
            return [header, 0x01, 0x04, 0x3F, 0x02, memory(number), 0xFF]
        case .versionInquiry:
            return [header, 0x09, 0x00, 0x02, 0xFF]
        case .panTiltPositionInquiry:
            return [header, 0x09, 0x06, 0x12, 0xFF]
        case .zoomPositionInquiry:
            return [header, 0x09, 0x04, 0x47, 0xFF]
        case .panTiltMaxSpeedInquiry:
            return [header, 0x09, 0x06, 0x11, 0xFF]
        }
    }

    private func nibble(_ value: UInt8, _ field: String) -> UInt8 {
        precondition(value <= 0x0F, "VISCA \(name) \(field) \(value) does not fit a nibble")
        return value
    }

    private func memory(_ value: UInt8) -> UInt8 {
        precondition(value != 0xFF, "VISCA \(name) memory number 0xFF would end the packet")
        return value
    }

    private func speed(_ value: UInt8) -> UInt8 {
        precondition(value != 0xFF, "VISCA \(name) speed 0xFF would end the packet")
        return value
    }
}

/// A 16-bit value as VISCA carries it: four bytes `0p 0q 0r 0s`, most significant nibble first.
func nibbles(_ value: UInt16) -> [UInt8] {
    [UInt8(value >> 12), UInt8(value >> 8 & 0x0F), UInt8(value >> 4 & 0x0F), UInt8(value & 0x0F)]
}
