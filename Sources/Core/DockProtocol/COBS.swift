/// Consistent Overhead Byte Stuffing (Cheshire and Baker, 1999): removes every 0x00 from a frame
/// body so that 0x00 can delimit frames on the line.
///
/// The body is cut into blocks of at most 254 non-zero bytes; each block is preceded by a code
/// byte, one more than the block's length. A code below 0xFF means the block was followed by a
/// zero in the body (except after the last block); 0xFF means a full block with no zero after it.
public enum COBS {
    /// The largest encoded size of a body of `count` bytes.
    public static func maximumEncodedCount(forBodyCount count: Int) -> Int {
        count + count / 254 + 1
    }

    /// Encodes `body`, appending the stuffed bytes (none of them 0x00) to `output`.
    public static func encode(_ body: some Collection<UInt8>, into output: inout [UInt8]) {
        var codeIndex = output.count
        output.append(0x01)
        var code: UInt8 = 1
        for byte in body {
            if byte == 0 {
                output[codeIndex] = code
                codeIndex = output.count
                output.append(0x01)
                code = 1
            } else {
                output.append(byte)
                code += 1
                if code == 0xFF {
                    output[codeIndex] = code
                    codeIndex = output.count
                    output.append(0x01)
                    code = 1
                }
            }
        }
        output[codeIndex] = code
    }

    /// Why a run of stuffed bytes is not valid COBS.
    public enum DecodingError: Error, Equatable, Sendable {
        /// A code byte announces more bytes than the run holds: the frame was cut short.
        case blockOverrunsEnd
        /// A 0x00 appears inside the run, which a correct encoder never produces.
        case zeroInsideRun
    }

    /// Decodes one run of stuffed bytes (without its delimiters), appending the body to `output`.
    public static func decode(
        _ encoded: some Collection<UInt8>, into output: inout [UInt8]
    ) throws(DecodingError) {
        var index = encoded.startIndex
        while index != encoded.endIndex {
            let code = encoded[index]
            guard code != 0 else { throw .zeroInsideRun }
            index = encoded.index(after: index)
            for _ in 1..<Int(code) {
                guard index != encoded.endIndex else { throw .blockOverrunsEnd }
                let byte = encoded[index]
                guard byte != 0 else { throw .zeroInsideRun }
                output.append(byte)
                index = encoded.index(after: index)
            }
            if code != 0xFF && index != encoded.endIndex {
                output.append(0)
            }
        }
    }
}
