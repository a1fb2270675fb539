import DockVision
import Foundation
import Testing
import VisionService

@Suite struct DecodingTests {
    /// A frame whose left half is light grey (Y 200) and right half dark (Y 50), colourless.
    func greyHalves(_ format: PixelFormat, width: Int = 16, height: Int = 4) -> [UInt8] {
        switch format {
        case .yuyv:
            return (0..<height).flatMap { _ in
                (0..<width / 2).flatMap { pair -> [UInt8] in
                    let y: UInt8 = pair < width / 4 ? 200 : 50
                    return [y, 128, y, 128]
                }
            }
        case .nv12:
            let plane = (0..<height).flatMap { _ in (0..<width).map { $0 < width / 2 ? UInt8(200) : 50 } }
            return plane + [UInt8](repeating: 128, count: width * height / 2)
        case .mjpeg:
            return []
        }
    }

    func pixel(_ bytes: [UInt8], width: Int, x: Int, y: Int) -> [Int] {
        let index = (y * width + x) * 3
        return bytes[index..<index + 3].map(Int.init)
    }

    @Test(arguments: [PixelFormat.yuyv, .nv12])
    func uncompressedFramesBecomeTheirColours(format: PixelFormat) throws {
        let image = VisionImage()
        let frame = greyHalves(format)
        try frame.withUnsafeBytes { raw in
            try image.set(raw, format: format, size: FrameSize(width: 16, height: 4), stride: 0, working: FrameSize(width: 16, height: 4))
        }
        let bgr = image.bgrBytes()
        // OpenCV's YUV to BGR is BT.601 with video range: Y 200 is about 215, Y 50 about 40.
        for channel in pixel(bgr, width: 16, x: 2, y: 1) { #expect(abs(channel - 215) <= 3, "\(format) \(channel)") }
        for channel in pixel(bgr, width: 16, x: 13, y: 2) { #expect(abs(channel - 40) <= 3, "\(format) \(channel)") }
    }

    @Test func anMJPEGFrameDecodesAsTheFileDoesAndACutOneIsNamed() throws {
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(examples)/messi5.jpg")))
        let fromFile = VisionImage(), fromFrame = VisionImage()
        try fromFile.load(path: "\(examples)/messi5.jpg")
        try jpeg.withUnsafeBytes { raw in
            try fromFrame.set(
                raw, format: .mjpeg, size: FrameSize(width: 548, height: 342), stride: 0, working: FrameSize(width: 548, height: 342))
        }
        #expect(fromFrame.bgrBytes() == fromFile.bgrBytes())
        // Cut short in transfer: refused before the decoder sees it.
        let cut = Array(jpeg.prefix(jpeg.count / 2))
        #expect(throws: FrameError.jpegCutShort(bytes: cut.count)) {
            try cut.withUnsafeBytes {
                try fromFrame.set(
                    $0, format: .mjpeg, size: FrameSize(width: 548, height: 342), stride: 0, working: FrameSize(width: 548, height: 342))
            }
        }
        // Whole in its markers, garbage inside: the decoder's refusal, named.
        let garbage = [0xFF, 0xD8] + [UInt8](repeating: 0x55, count: 300) + [0xFF, 0xD9]
        #expect(throws: FrameError.undecodable("JPEG frame of 304 bytes could not be decoded")) {
            try garbage.withUnsafeBytes {
                try fromFrame.set(
                    $0, format: .mjpeg, size: FrameSize(width: 548, height: 342), stride: 0, working: FrameSize(width: 274, height: 171))
            }
        }
        #expect(fromFrame.width == 0)
    }

    @Test func aShortUncompressedFrameIsNamed() throws {
        let image = VisionImage()
        let frame = [UInt8](repeating: 0, count: 100)
        #expect(throws: FrameError.truncated(bytes: 100, needed: 128)) {
            try frame.withUnsafeBytes {
                try image.set($0, format: .yuyv, size: FrameSize(width: 16, height: 4), stride: 0, working: FrameSize(width: 16, height: 4))
            }
        }
    }

    @Test func aPersonsAppearanceIsTheirTorsosColours() throws {
        // A frame that is pure red (BGR 0, 0, 255) on the left and pure blue on the right: the
        // torso of a box on the left is all in one hue bin.
        let width = 64, height = 64
        var bgr = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height { for x in 0..<width { bgr[(y * width + x) * 3 + (x < width / 2 ? 2 : 0)] = 255 } }
        let path = try writePPM(bgr, width: width, height: height)
        let image = VisionImage()
        try image.load(path: path)
        let red = try #require(image.appearance(of: PixelBox(x: 0, y: 0, width: 30, height: 60)))
        #expect(red.count == 32)
        #expect(red[3] == 1)  // hue 0 (bin 0), saturation 255 (bin 3)
        let blue = try #require(image.appearance(of: PixelBox(x: 34, y: 0, width: 30, height: 60)))
        #expect(blue[5 * 4 + 3] == 1)  // hue 120 of 180 (bin 5)
    }

    func writePPM(_ bgr: [UInt8], width: Int, height: Int) throws -> String {
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        for index in stride(from: 0, to: bgr.count, by: 3) { bytes += [bgr[index + 2], bgr[index + 1], bgr[index]] }
        return try TinyONNX.write(bytes, name: "halves.ppm")
    }
}
