import DockJSON
import Foundation
import Testing

@testable import DockAPI

/// The JSON reader against Foundation's, on valid texts, and on the invalid ones it must refuse.
@Suite struct JSONParserTests {
    /// The value Foundation's JSONDecoder reads through JSONValue's Decodable conformance (what
    /// dockd used before this reader).
    func reference(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test func validTextsReadAsFoundationReadsThem() throws {
        let texts = [
            #"{"method":"io.dockd.Dock.Track","parameters":{"observations":[{"kind":"body","box":{"x":0.1,"y":0.2,"width":0.3,"height":0.4},"confidence":0.9}],"camera":{"horizontal_fov":1.2,"aspect_ratio":1.7777777777777777},"capture_time":12345.678901}}"#,
            #"  [1, -2, 3.5, -0.25, 1e3, 2.5E-3, 0, -0, true, false, null, "", "a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4e2d\ud83d\ude00", "é中😀"] "#,
            #"{"nested":{"a":[[],[{}],{"b":[1,[2,[3]]]}]},"big":9223372036854775807,"small":-9223372036854775808}"#,
            "\"plain\"", "17", "-3.25", "12.5e1",
        ]
        for text in texts {
            #expect(try JSONValue.parse(bytes: Array(text.utf8)) == reference(text), "\(text)")
        }
        #expect(try JSONValue.parse(bytes: Array("12".utf8)) == .integer(12))
        #expect(try JSONValue.parse(bytes: Array("12.0".utf8)) == .integer(12), "a whole number, as Foundation reads it")
        #expect(try JSONValue.parse(bytes: Array("9223372036854775808".utf8)) == .number(9_223_372_036_854_775_808))
    }

    @Test func invalidTextsAreRefused() {
        let texts = [
            "", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1 2]", "01", "1.", ".5", "-", "1e", "+1",
            "1e999", "-1e999", "tru", "nul", "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"", "\"\\udc00\"",
            "\"tab\there\"", "[1] x", "NaN", "Infinity", "\"\\u12\"",
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        ]
        for text in texts {
            #expect(throws: (any Error).self, "\(text.debugDescription)") { try JSONValue.parse(bytes: Array(text.utf8)) }
        }
        // Invalid UTF-8 inside a string.
        #expect(throws: (any Error).self) { try JSONValue.parse(bytes: [0x22, 0xC3, 0x28, 0x22]) }
    }

    /// A number past a double's range is refused wherever it stands, also as the value of a key
    /// that a later duplicate replaces: Foundation accepts that one (it keeps the last value and
    /// never reads the first), the deviation `numberOutOfRange` of FuzzTesting/FuzzJSON.swift,
    /// found by the two-way check (FuzzTesting/regressions/json/foundation-overflow-under-duplicate-key).
    @Test func aNumberOutOfRangeIsRefusedEvenUnderADuplicateKey() throws {
        let text = #"{"big":8415e09551614,"big":33720}"#
        #expect(throws: JSONParser.Malformed.self) { try JSONParser.parse(Array(text.utf8)) }
        do {
            _ = try JSONParser.parse(Array(text.utf8))
        } catch {
            #expect(error.reason == "8415e09551614 is beyond the range of a double" && error.offset == 7, "\(error)")
        }
        #expect(try JSONParser.parse(Array(#"{"big":1e308,"big":33720}"#.utf8)) == .object(["big": .integer(33720)]))
        let kept = try JSONParser.parse(Array(text.utf8), keepsOverflow: true)
        #expect(kept == .object(["big": .integer(33720)]), "a Varlink call's reader keeps the overflow, and the last value wins")
    }

    /// The serialiser writes bytes: keys sorted, only what RFC 8259 requires escaped (control
    /// characters as lower-case \u00XX), other UTF-8 as it is, whole doubles with ".0".
    @Test func theSerialiserEscapesOnlyWhatJSONRequiresAndSortsKeys() throws {
        let value = JSONValue.object([
            "b": .string("q\"\\\n\r\t\u{1}\u{1F}é😀/"), "a": .array([.integer(-3), .number(2), .number(0.5), .null, .bool(true)]),
        ])
        #expect(value.serialized == #"{"a":[-3,2.0,0.5,null,true],"b":"q\"\\\n\r\t\u0001\u001fé😀/"}"#)
        #expect(value.serializedBytes == Array(value.serialized.utf8))
        #expect(
            try JSONParser.parse(value.serializedBytes)
                == .object([
                    "b": .string("q\"\\\n\r\t\u{1}\u{1F}é😀/"), "a": .array([.integer(-3), .integer(2), .number(0.5), .null, .bool(true)]),
                ]))
    }

    @Test func seededRandomDocumentsRoundTripThroughTheSerialiser() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func make(_ depth: Int) -> JSONValue {
            switch next() % (depth > 3 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(next() % 2 == 0)
            case 2: return .integer(Int64(bitPattern: next()) >> Int64(next() % 60))
            case 3: return .number(Double(Int64(bitPattern: next()) % 1_000_000) / 997 + 0.125)
            case 4: return .string(String((0..<(next() % 12)).map { _ in Character(Unicode.Scalar(UInt8(32 + next() % 90))) }) + "é\n\"")
            case 5: return .array((0..<(next() % 5)).map { _ in make(depth + 1) })
            default:
                return .object(Dictionary((0..<(next() % 5)).map { index in ("k\(index)", make(depth + 1)) }, uniquingKeysWith: { $1 }))
            }
        }
        for _ in 0..<500 {
            let value = make(0)
            #expect(try JSONValue.parse(bytes: Array(value.serialized.utf8)) == value, "\(value.serialized)")
        }
    }
}
