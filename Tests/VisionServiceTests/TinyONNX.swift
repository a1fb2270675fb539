import Foundation

/// A small, valid ONNX model written byte by byte (protocol buffers by hand, after onnx.proto),
/// for the loading code's tests: no model file is downloaded or shipped.
///
/// The graph: input `images` [1, 3, 4, 4] → a 1 x 1 convolution with zero weights and bias
/// `bias` (5 channels) → reshaped to [1, 5, 16]. Every one of its 16 candidates is therefore the
/// bias: centre x, centre y, width, height in the 4 x 4 input's pixels, then the person's score —
/// the layout `dv_onnx_person_create` reads.
enum TinyONNX {
    static func model(bias: [Float]) -> [UInt8] {
        precondition(bias.count == 5)
        let weights = tensor(name: "W", dims: [5, 3, 1, 1], floats: [Float](repeating: 0, count: 15))
        let biasTensor = tensor(name: "B", dims: [5], floats: bias)
        let shape = tensor(name: "shape", dims: [3], int64s: [1, 5, 16])
        // AttributeProto { name: "kernel_shape", ints: [1, 1], type: INTS (7) }
        let kernelShape = field(1, Array("kernel_shape".utf8)) + varintField(8, 1) + varintField(8, 1) + varintField(20, 7)
        let convolution = node(inputs: ["images", "W", "B"], outputs: ["features"], name: "conv", op: "Conv") + field(5, kernelShape)
        let reshape = node(inputs: ["features", "shape"], outputs: ["output"], name: "reshape", op: "Reshape")
        var graph: [UInt8] = []
        graph += field(1, convolution) + field(1, reshape)
        graph += field(2, Array("tiny".utf8))
        graph += field(5, weights) + field(5, biasTensor) + field(5, shape)
        graph += field(11, valueInfo(name: "images", dims: [1, 3, 4, 4]))
        graph += field(12, valueInfo(name: "output", dims: [1, 5, 16]))
        var model: [UInt8] = []
        model += varintField(1, 7)  // ir_version
        model += field(2, Array("dockd-tests".utf8))  // producer_name
        model += field(7, graph)
        model += field(8, varintField(2, 13))  // opset_import { version: 13 }
        return model
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value != 0
        return bytes
    }

    static func varintField(_ number: UInt64, _ value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }

    static func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes }

    static func tensor(name: String, dims: [Int64], floats: [Float]) -> [UInt8] {
        var raw: [UInt8] = []
        for value in floats { withUnsafeBytes(of: value.bitPattern.littleEndian) { raw += $0 } }
        return dims.flatMap { varintField(1, UInt64($0)) } + varintField(2, 1) + field(8, Array(name.utf8)) + field(9, raw)
    }

    static func tensor(name: String, dims: [Int64], int64s: [Int64]) -> [UInt8] {
        var raw: [UInt8] = []
        for value in int64s { withUnsafeBytes(of: value.littleEndian) { raw += $0 } }
        return dims.flatMap { varintField(1, UInt64($0)) } + varintField(2, 7) + field(8, Array(name.utf8)) + field(9, raw)
    }

    static func node(inputs: [String], outputs: [String], name: String, op: String) -> [UInt8] {
        inputs.flatMap { field(1, Array($0.utf8)) } + outputs.flatMap { field(2, Array($0.utf8)) } + field(3, Array(name.utf8))
            + field(4, Array(op.utf8))
    }

    static func valueInfo(name: String, dims: [Int64]) -> [UInt8] {
        let shape = dims.flatMap { field(1, varintField(1, UInt64($0))) }
        let tensorType = varintField(1, 1) + field(2, shape)
        return field(1, Array(name.utf8)) + field(2, field(1, tensorType))
    }

    /// Writes bytes to a new file in a temporary folder; returns its path.
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dockd-vision-tests-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}
