/// Little-endian reading and writing of the fixed-width fields of a payload.

struct ByteWriter {
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func write<Value: FixedWidthInteger>(_ value: Value) {
        var remaining = value.littleEndian
        withUnsafeBytes(of: &remaining) { bytes.append(contentsOf: $0) }
    }

    mutating func writeText(_ text: String) {
        let utf8 = Array(text.utf8)
        write(UInt8(truncatingIfNeeded: utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var remainingCount: Int { bytes.endIndex - index }

    /// Reads the next integer, or nil when too few bytes remain.
    mutating func read<Value: FixedWidthInteger>(_: Value.Type = Value.self) -> Value? {
        let size = MemoryLayout<Value>.size
        guard remainingCount >= size else { return nil }
        var value = Value.zero
        for offset in 0..<size {
            value |= Value(truncatingIfNeeded: bytes[index + offset]) << (8 * offset)
        }
        index += size
        return value
    }

    /// Reads a length-prefixed text field; nil when too few bytes remain.
    mutating func readTextBytes() -> ArraySlice<UInt8>? {
        guard let count = read(UInt8.self), remainingCount >= Int(count) else { return nil }
        defer { index += Int(count) }
        return bytes[index..<index + Int(count)]
    }
}
