/// Sizes and ranges fixed by `Protocol/dock-serial.md`, version 1.
public enum WireLimits {
    /// The protocol version this library speaks.
    public static let protocolVersion: UInt8 = 1
    /// The byte that delimits frames on the line; it never occurs inside an encoded frame.
    public static let delimiter: UInt8 = 0x00
    /// Bytes before the payload: type (1) and sequence number (2).
    public static let headerCount = 3
    /// Bytes after the payload: the CRC-32C.
    public static let checksumCount = 4
    /// The largest payload of any message.
    public static let maximumPayloadCount = 240
    /// The largest frame body: header, payload and checksum.
    public static let maximumBodyCount = headerCount + maximumPayloadCount + checksumCount
    /// The most bytes between two delimiters in a valid frame (the stuffed body).
    public static let maximumEncodedCount = COBS.maximumEncodedCount(forBodyCount: maximumBodyCount)

    /// Largest magnitude of an angle (position, target or limit): 4π rad, rounded up.
    public static let angleMagnitudeMicroradians: Int32 = 12_566_371
    /// Largest magnitude of an angular rate: 20 rad/s.
    public static let rateMagnitudeMicroradiansPerSecond: Int32 = 20_000_000
    /// Largest angular acceleration an accessory may report: 200 rad/s².
    public static let maximumAccelerationMicroradiansPerSecondSquared: UInt32 = 200_000_000
    /// Time-to-live of a velocity command, in milliseconds.
    public static let velocityTimeToLiveMilliseconds: ClosedRange<UInt32> = 1...5_000
    /// Duration of an orientation move, in milliseconds.
    public static let moveDurationMilliseconds: ClosedRange<UInt32> = 1...60_000
    /// Telemetry rate, in frames per second.
    public static let telemetryRateHertz: ClosedRange<UInt8> = 1...200
    /// Failsafe timeout, in milliseconds.
    public static let failsafeTimeoutMilliseconds: ClosedRange<UInt32> = 50...10_000
    /// Longest text field (model, firmware, serial number), in UTF-8 bytes.
    public static let maximumTextCount = 32
    /// A telemetry frame sets `yaw_moving` (`pitch_moving`) exactly when the magnitude of its yaw
    /// (pitch) rate is above this, in µrad/s.
    public static let movingThresholdMicroradiansPerSecond: Int32 = 1_000

    /// The text a sender puts in a text field: `text` itself when it fits in
    /// `maximumTextCount` UTF-8 bytes, else its longest prefix that fits and ends on a code point
    /// boundary (a multi-byte sequence is never cut).
    public static func fieldText(_ text: String) -> String {
        guard text.utf8.count > maximumTextCount else { return text }
        var prefix = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            count += UTF8.width(scalar)
            guard count <= maximumTextCount else { break }
            prefix.append(scalar)
        }
        return String(prefix)
    }
}
