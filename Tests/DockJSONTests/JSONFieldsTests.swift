import DockJSON
import Testing

/// The one field reader: every wrong field named by its path and, in a document, its line; the
/// API's reading (null absent, no lines) and a file's (null a value, unread members refused).
struct JSONFieldsTests {
    static let text = """
        {
          "name": "demo",
          "count": 3,
          "ratio": 0.5,
          "flag": true,
          "nothing": null,
          "kind": "face",
          "inner": {
            "x": 1.0,
            "big": 1e999
          },
          "list": [
            {"a": 1},
            {"a": "one"}
          ],
          "texts": ["a", 2]
        }
        """

    func fields() throws -> JSONFields { try JSONReader.document(Self.text).fields() }

    /// The error reading the document's fields with `read` throws (nil: none).
    func error(_ read: (JSONFields) throws -> Any) throws -> JSONFieldError? {
        let fields = try fields()
        do {
            _ = try read(fields)
            return nil
        } catch {
            return error as? JSONFieldError
        }
    }

    @Test func valuesOfEveryTypeAreRead() throws {
        let fields = try fields()
        #expect(try fields.string("name") == "demo")
        #expect(try fields.integer("count") == 3 && fields.integer("count", in: 1...5) == 3)
        #expect(try fields.number("ratio") == 0.5 && fields.number("count") == 3)
        #expect(try fields.bool("flag"))
        #expect(try fields.optionalString("absent") == nil)
        #expect(try fields.choice("kind", [("face", 1), ("body", 2)]) == 1)
        #expect(try fields.object("inner").number("x") == 1)
        #expect(try fields.objects("list") { item throws(JSONFieldError) in item.value("a") }.count == 2)
        #expect(try fields.array("texts").map(\.path) == ["texts[0]", "texts[1]"])
        #expect(fields.isNull("nothing"))
    }

    @Test func everyErrorNamesThePathAndTheLine() throws {
        #expect(
            try error { try $0.string("count") }
                == JSONFieldError(path: "count", line: 3, problem: .wrongType(expected: "a string", found: "a number")))
        #expect(try error { try $0.string("missing") } == JSONFieldError(path: "missing", line: 1, problem: .missing))
        #expect(
            try error { try $0.object("inner").number("big") }
                == JSONFieldError(path: "inner.big", line: 10, problem: .notFinite(written: "1e999")))
        #expect(
            try error { try $0.object("inner").integer("x") }
                == JSONFieldError(path: "inner.x", line: 9, problem: .notWhole(written: "1.0")))
        #expect(try error { try $0.integer("ratio") } == JSONFieldError(path: "ratio", line: 4, problem: .notWhole(written: "0.5")))
        #expect(
            try error { try $0.integer("count", in: 4...5) }
                == JSONFieldError(path: "count", line: 3, problem: .outOfRange(lower: "4", upper: "5", found: "3")))
        #expect(
            try error { try $0.objects("list") { item throws(JSONFieldError) in try item.integer("a") } }
                == JSONFieldError(path: "list[1].a", line: 14, problem: .wrongType(expected: "a whole number", found: "a string")))
        #expect(
            try error { _ = try $0.strings("texts") }
                == JSONFieldError(path: "texts[1]", line: 16, problem: .wrongType(expected: "a string", found: "a number")))
        #expect(
            try error { _ = try $0.choice("kind", [("body", 2)]) }
                == JSONFieldError(path: "kind", line: 7, problem: .notOneOf(["body"], found: .name("face"))))
        #expect(
            try error { _ = try $0.choice("flag", [("body", 2)]) }
                == JSONFieldError(path: "flag", line: 5, problem: .notOneOf(["body"], found: .type("a Boolean"))))
        #expect(
            try error { try $0.number("nothing") }
                == JSONFieldError(path: "nothing", line: 6, problem: .wrongType(expected: "a number", found: "null")),
            "in a file null is a value")
        #expect(
            try error { throw $0.error("ratio", "must be below 0.1") }
                == JSONFieldError(path: "ratio", line: 4, problem: .invalid("must be below 0.1")))
    }

    @Test func aFilesReaderRefusesTheFirstMemberNobodyReadInTheTextsOrder() throws {
        let fields = try fields()
        _ = try fields.string("name")
        #expect(throws: JSONFieldError(path: "count", line: 3, problem: .unknown)) { try fields.finish() }
        let inner = try fields.object("inner")
        _ = try inner.number("x")
        #expect(throws: JSONFieldError(path: "inner.big", line: 10, problem: .unknown)) { try inner.finish() }
    }

    @Test func theAPIsReadingCountsNullAsAbsentAndHasNoLines() throws {
        let value = JSONValue.object(["yaw": .null, "pitch": .string("up"), "b": .integer(1), "a": .integer(2)])
        let fields = try JSONFields(value, path: "call")
        #expect(try fields.optionalNumber("yaw") == nil)
        #expect(throws: JSONFieldError(path: "call.yaw", line: nil, problem: .missing)) { try fields.number("yaw") }
        #expect(throws: JSONFieldError(path: "call.pitch", line: nil, problem: .wrongType(expected: "a number", found: "a string"))) {
            try fields.number("pitch")
        }
        #expect(throws: JSONFieldError(path: "call.a", line: nil, problem: .unknown), "the first in sorted order") {
            try fields.refuseUnknown(allowing: { $0 == "yaw" || $0 == "pitch" })
        }
        try fields.finish()  // a value read without places keeps no note of what was read
        #expect(try JSONFields(.object(["n": .integer(12)])).integer("n") == 12)
        #expect(try JSONFields(JSONReader.parse("{\"n\": 12.0}")).integer("n") == 12, "the API reads 12.0 as Foundation does")
        #expect(throws: JSONFieldError(path: "", line: nil, problem: .wrongType(expected: "an object", found: "an array"))) {
            try JSONFields(.array([]))
        }
    }

    @Test func errorsSayWhatIsWrongAsAFilesReaderDoes() {
        func reason(_ problem: JSONFieldError.Problem) -> String { JSONFieldError(path: "a.b", line: 3, problem: problem).reason }
        #expect(reason(.missing) == "is required")
        #expect(reason(.unknown) == "is not a known field")
        #expect(reason(.wrongType(expected: "a number", found: "a string")) == "must be a number, got a string")
        #expect(reason(.notFinite(written: "NaN")) == "must be a finite number, got NaN")
        #expect(reason(.notWhole(written: "1.5")) == "must be a whole number, got 1.5")
        #expect(reason(.notOneOf(["a", "b"], found: .name("c"))) == "unknown value \"c\"; expected one of \"a\", \"b\"")
        #expect(reason(.notOneOf(["a", "b"], found: .type("a number"))) == "must be one of \"a\", \"b\", got a number")
        #expect(reason(.outOfRange(lower: "1", upper: "7", found: "9")) == "must be from 1 to 7, got 9")
        #expect(JSONFieldError(path: "a.b", line: 3, problem: .missing).description == "line 3: a.b: is required")
        #expect(JSONFieldError(path: "", line: nil, problem: .invalid("empty")).description == "empty")
    }
}
