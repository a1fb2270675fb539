/// Reading and writing little-endian integers at byte offsets of a C struct's image.
extension [UInt8] {
    /// The unsigned 32-bit integer at `offset`.
    func uint32(at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }

    /// The signed 32-bit integer at `offset`.
    func int32(at offset: Int) -> Int32 { Int32(bitPattern: uint32(at: offset)) }

    /// The signed 64-bit integer at `offset`.
    func int64(at offset: Int) -> Int64 {
        Int64(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(self[offset + $1]) << (8 * $1) })
    }

    /// The NUL-terminated text in the `count` bytes at `offset`.
    func text(at offset: Int, count: Int) -> String {
        let field = self[offset..<(offset + count)]
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Writes an unsigned 32-bit integer at `offset`.
    mutating func put(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// Writes a signed 32-bit integer at `offset`.
    mutating func put(_ value: Int32, at offset: Int) { put(UInt32(bitPattern: value), at: offset) }

    /// Writes a signed 64-bit integer at `offset`.
    mutating func put(_ value: Int64, at offset: Int) {
        let bits = UInt64(bitPattern: value)
        for index in 0..<8 { self[offset + index] = UInt8(truncatingIfNeeded: bits >> (8 * index)) }
    }

    /// Writes text into the `count` bytes at `offset`, NUL-padded (cut to leave one NUL).
    mutating func put(text: String, at offset: Int, count: Int) {
        let bytes = Array(text.utf8.prefix(count - 1))
        for index in 0..<count { self[offset + index] = index < bytes.count ? bytes[index] : 0 }
    }
}
