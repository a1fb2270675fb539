/// The framing that carries ioctls over a byte-oriented transport: the UVC session's "bytes"
/// are requests, and what comes back are their results. Little-endian throughout.
///
///     request: u32 request number │ u32 length │ length bytes (the struct's image)
///     reply:   u32 request number │ i32 errno (0: success) │ u32 length │ length bytes
///
/// For `G/S/TRY_EXT_CTRLS` the image is the 32-byte `v4l2_ext_controls` header followed by its
/// array of 20-byte `v4l2_ext_control`, the header's `controls` pointer zero: the transport
/// that performs the ioctl points it at the array, and frames the array back after the header.
/// Every request gets exactly one reply, in order.
public enum V4L2Frame {
    /// The longest struct image a frame may carry.
    public static let maximumLength = 64 * 1024

    /// One ioctl to perform.
    public struct Request: Hashable, Sendable {
        /// The `VIDIOC_*` number.
        public var request: UInt32
        /// The struct's image.
        public var bytes: [UInt8]

        /// Creates a request.
        public init(request: UInt32, bytes: [UInt8]) {
            self.request = request
            self.bytes = bytes
        }

        /// The framed bytes.
        public func encode() -> [UInt8] {
            var frame = [UInt8](repeating: 0, count: 8)
            frame.put(request, at: 0)
            frame.put(UInt32(bytes.count), at: 4)
            return frame + bytes
        }
    }

    /// The result of one ioctl.
    public struct Reply: Hashable, Sendable {
        /// The `VIDIOC_*` number it answers.
        public var request: UInt32
        /// 0 on success, else the errno the ioctl failed with.
        public var errno: Int32
        /// The struct's image after the call (as the kernel left it, also on failure).
        public var bytes: [UInt8]

        /// Creates a reply.
        public init(request: UInt32, errno: Int32, bytes: [UInt8]) {
            self.request = request
            self.errno = errno
            self.bytes = bytes
        }

        /// The framed bytes.
        public func encode() -> [UInt8] {
            var frame = [UInt8](repeating: 0, count: 12)
            frame.put(request, at: 0)
            frame.put(errno, at: 4)
            frame.put(UInt32(bytes.count), at: 8)
            return frame + bytes
        }
    }

    /// A frame's length field is over `maximumLength`: the stream is not this framing.
    public struct OversizedFrame: Error, Hashable, Sendable {
        /// The length the frame claimed.
        public var length: UInt32
    }

    /// Splits a byte stream into frames as they complete (header of `headerSize` bytes whose
    /// last four are the length); bytes may come in any pieces.
    public struct Decoder: Sendable {
        private var buffer: [UInt8] = []
        private let headerSize: Int

        /// A decoder of replies (12-byte headers).
        public static func replies() -> Decoder { Decoder(headerSize: 12) }
        /// A decoder of requests (8-byte headers).
        public static func requests() -> Decoder { Decoder(headerSize: 8) }

        private init(headerSize: Int) { self.headerSize = headerSize }

        /// Takes bytes; returns each complete frame's header fields and image.
        ///
        /// - Throws: `OversizedFrame` when a length is past `maximumLength` (the buffer is then
        ///   dropped).
        public mutating func decode(_ bytes: [UInt8]) throws(OversizedFrame) -> [(header: [UInt8], body: [UInt8])] {
            buffer += bytes
            var frames: [(header: [UInt8], body: [UInt8])] = []
            var start = 0
            while buffer.count - start >= headerSize {
                let header = Array(buffer[start..<(start + headerSize)])
                let length = header.uint32(at: headerSize - 4)
                guard length <= maximumLength else {
                    buffer.removeAll()
                    throw OversizedFrame(length: length)
                }
                let end = start + headerSize + Int(length)
                guard buffer.count >= end else { break }
                frames.append((header, Array(buffer[(start + headerSize)..<end])))
                start = end
            }
            buffer.removeFirst(start)
            return frames
        }

        /// Takes bytes and returns the complete replies.
        public mutating func replies(_ bytes: [UInt8]) throws(OversizedFrame) -> [Reply] {
            try decode(bytes).map { Reply(request: $0.header.uint32(at: 0), errno: $0.header.int32(at: 4), bytes: $0.body) }
        }

        /// Takes bytes and returns the complete requests.
        public mutating func requests(_ bytes: [UInt8]) throws(OversizedFrame) -> [Request] {
            try decode(bytes).map { Request(request: $0.header.uint32(at: 0), bytes: $0.body) }
        }
    }
}
