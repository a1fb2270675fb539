import DockAPI
import DockJSON
import Foundation
import Testing

/// Varlink framing, calls and replies, and the interface text.
@Suite struct VarlinkTests {
    @Test func theServedDefinitionIsTheFileByteForByte() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/io.dockd.Dock.varlink")
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(DockInterface.definition == file)
        #expect(file.contains("interface io.dockd.Dock\n"))
    }

    @Test func framesSplitAtNulInAnyChunking() throws {
        let stream = Array("{\"method\":\"a\"}\u{0}{\"method\":\"b\"}\u{0}{\"meth".utf8)
        var whole = VarlinkFrameSplitter()
        #expect(try whole.append(stream).count == 2)
        var bytewise = VarlinkFrameSplitter()
        var count = 0
        for byte in stream { count += try bytewise.append([byte]).count }
        #expect(count == 2)
        #expect(
            try bytewise.append(Array("od\":\"c\"}".utf8) + [0]).map { String(decoding: $0, as: UTF8.self) }
                == ["{\"meth" + "od\":\"c\"}"])
    }

    @Test func anOversizeMessageIsRefused() {
        var splitter = VarlinkFrameSplitter()
        #expect(throws: VarlinkFrameSplitter.Oversize()) {
            _ = try splitter.append([UInt8](repeating: 0x20, count: VarlinkFrameSplitter.maximumMessageBytes + 1))
        }
        // The longest message is taken whole, and its limit counts what earlier reads held back.
        var longest = VarlinkFrameSplitter()
        let half = VarlinkFrameSplitter.maximumMessageBytes / 2
        #expect((try? longest.append([UInt8](repeating: 0x20, count: half)))?.isEmpty == true)
        #expect((try? longest.append([UInt8](repeating: 0x20, count: half) + [0]))?.map(\.count) == [half * 2])
        var over = VarlinkFrameSplitter()
        _ = try? over.append([UInt8](repeating: 0x20, count: half + 1))
        #expect(throws: VarlinkFrameSplitter.Oversize()) { _ = try over.append([UInt8](repeating: 0x20, count: half) + [0]) }
    }

    @Test func callsParseAndMalformedOnesAreNamed() throws {
        let call = try VarlinkCall.parse(
            Array(#"{"method":"io.dockd.Dock.SetVelocity","parameters":{"yaw":0.5,"pitch":0},"more":false}"#.utf8))
        #expect(call.method == "io.dockd.Dock.SetVelocity")
        #expect(call.parameters["yaw"] == .number(0.5))
        #expect(call.parameters["pitch"] == .integer(0))
        #expect(!call.wantsMore && !call.isOneway)
        #expect(throws: VarlinkCall.Malformed(reason: "not valid JSON")) { try VarlinkCall.parse(Array("{nope".utf8)) }
        #expect(throws: VarlinkCall.Malformed(reason: "a call needs a \"method\" string")) {
            try VarlinkCall.parse(Array("{\"parameters\":{}}".utf8))
        }
        #expect(throws: VarlinkCall.Malformed(reason: "\"parameters\" must be an object, got an array")) {
            try VarlinkCall.parse(Array("{\"method\":\"x\",\"parameters\":[]}".utf8))
        }
        #expect(throws: VarlinkCall.Malformed(reason: "\"more\" must be a Boolean, got a string")) {
            try VarlinkCall.parse(Array("{\"method\":\"x\",\"more\":\"yes\"}".utf8))
        }
    }

    @Test func repliesSerialiseDeterministically() {
        let reply = VarlinkReply.success(
            ["b": .integer(1), "a": .array([.number(0.25), .bool(true), .null, .string("q\"\n")])],
            continues: true)
        #expect(
            String(decoding: reply.bytes.dropLast(), as: UTF8.self)
                == #"{"continues":true,"parameters":{"a":[0.25,true,null,"q\"\n"],"b":1}}"#)
        #expect(reply.bytes.last == 0)
        let error = VarlinkReply.failure(DockInterface.Error.busy, ["holder": .integer(3)])
        #expect(
            String(decoding: error.bytes.dropLast(), as: UTF8.self)
                == #"{"error":"io.dockd.Dock.Busy","parameters":{"holder":3}}"#)
        #expect(JSONValue.number(2).serialized == "2.0")
        #expect(JSONValue.number(.nan).serialized == "null")
        // The empty success (kept written) is what the writer makes of it, and only it is kept.
        #expect(VarlinkReply.success().bytes == JSONValue.object(["parameters": .object([:])]).serializedBytes + [0])
        #expect(
            String(decoding: VarlinkReply.success(continues: true).bytes.dropLast(), as: UTF8.self)
                == #"{"continues":true,"parameters":{}}"#)
        #expect(String(decoding: VarlinkReply.failure("x.Y").bytes.dropLast(), as: UTF8.self) == #"{"error":"x.Y","parameters":{}}"#)
    }
}
