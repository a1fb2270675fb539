/// CRC-32C (Castagnoli), the checksum that ends every dock frame.
///
/// Parameters in the Rocksoft/Williams model: width 32, polynomial 0x1EDC6F41 (reflected
/// 0x82F63B78), initial value 0xFFFFFFFF, input and output reflected, final XOR 0xFFFFFFFF.
/// Its check value, the CRC of the ASCII bytes "123456789", is 0xE3069283.
public struct CRC32C: Sendable {
    /// The check value of the algorithm: the CRC of the ASCII string "123456789".
    public static let checkValue: UInt32 = 0xE306_9283

    @usableFromInline static let table: [UInt32] = (0..<256).map { index in
        var remainder = UInt32(index)
        for _ in 0..<8 {
            remainder = remainder & 1 == 1 ? (remainder >> 1) ^ 0x82F6_3B78 : remainder >> 1
        }
        return remainder
    }

    @usableFromInline var register: UInt32 = 0xFFFF_FFFF

    /// Creates a checksum over no bytes yet.
    public init() {}

    /// Feeds more bytes into the checksum. Inlinable, so that a caller in another module gets it
    /// specialised for its own sequence (an array, a slice) rather than a byte at a time through
    /// the generic iterator.
    @inlinable
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            register = Self.table[Int((register ^ UInt32(byte)) & 0xFF)] ^ (register >> 8)
        }
    }

    /// The checksum of all bytes fed so far.
    public var value: UInt32 { register ^ 0xFFFF_FFFF }

    /// The checksum of `bytes`.
    @inlinable
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }
}
