import Testing

@testable import DockJSON

/// The one JSON reader: what every user of it gets (one value tree with exact whole numbers, a
/// strict grammar; for a file, each value's line, the members' order and the numbers' text) and
/// what each option changes.
struct JSONReaderTests {
    private func read(_ text: String, _ options: JSONReader.Options = JSONReader.Options()) throws -> JSONValue {
        try JSONReader.parse(text, options: options)
    }

    private func refusal(_ text: String, _ options: JSONReader.Options = JSONReader.Options()) -> JSONSyntaxError? {
        do {
            _ = try JSONReader.parse(text, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func aDocumentKeepsEveryValuesLineAndTheMembersOrder() throws {
        let document = try JSONReader.document("{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null\n  ]\n}")
        #expect(document.value == .object(["b": .integer(1), "a": .array([.bool(true), .null])]))
        #expect(document.line == 1)
        #expect(document.place.members.map(\.key) == ["b", "a"])
        #expect(document.place.members.map(\.place.line) == [2, 3])
        #expect(document.place.member("a")?.elements.map(\.line) == [4, 5])
        #expect(document.place.member("b")?.text == "1")
        #expect(try JSONReader.document("[\n1]").line == 1, "a value's line is where it starts")
    }

    @Test func wholeNumbersAreIntegersHoweverWrittenAndExact() throws {
        #expect(try read("12") == .integer(12))
        #expect(try read("1.2e1") == .integer(12))
        #expect(try read("12.0") == .integer(12))
        #expect(try read("-0") == .integer(0))
        #expect(try read("12.5") == .number(12.5))
        // Beyond a double's 53 bits, a number written as an integer is still read exactly.
        #expect(try read("9007199254740993") == .integer(9_007_199_254_740_993))
        #expect(try read("-9223372036854775808") == .integer(Int64.min))
        #expect(try read("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try read("\"12\"") == .string("12"))
        #expect(try JSONReader.document("[1.2e1, 12.0]").place.elements.map(\.text) == ["1.2e1", "12.0"], "a document keeps the text")
    }

    @Test func escapesAndSurrogatePairsBecomeTheirCharacters() throws {
        #expect(try read(#""a\"b\\c\/\n\t\u00e9""#) == .string("a\"b\\c/\n\té"))
        #expect(try read(#""\ud83d\ude00 ok""#) == .string("😀 ok"))
        #expect(refusal(#""\ud83d""#)?.message == "a lone surrogate \\uD83D in a string")
        #expect(refusal(#""\ude00""#)?.message == "a lone surrogate \\uDE00 in a string")
        #expect(refusal("\"\u{1}\"")?.message == "control character in a string")
        #expect(refusal("\"a\nb\"")?.message == "a string runs past the end of the line")
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: JSONSyntaxError(line: 1, offset: 1, message: "invalid UTF-8 in a string")) {
            try JSONReader.parse([0x22, 0xC3, 0x28, 0x22])
        }
    }

    @Test func mistakesAreRefusedWithTheirLineAndOffset() {
        #expect(refusal("{\n\"a\": 01}") == JSONSyntaxError(line: 2, offset: 7, message: "a number must not start with 0"))
        #expect(refusal("[1,]")?.message == "unexpected character ']'")
        #expect(refusal("{\"a\" 1}")?.message == "expected ':' after key \"a\"")
        #expect(refusal("[1] x") == JSONSyntaxError(line: 1, offset: 4, message: "unexpected text after the JSON value"))
        #expect(refusal("")?.message == "unexpected end of the text")
        #expect(refusal("tru")?.message == "unexpected end of the text, expected 'true'")
        #expect(refusal("1.")?.message == "a number needs digits after '.'")
        #expect(refusal("1e")?.message == "a number needs digits in its exponent")
    }

    @Test func nestingIsBoundedByTheOption() throws {
        #expect(try JSONReader.document(String(repeating: "[", count: 128) + String(repeating: "]", count: 128)).line == 1)
        #expect(refusal(String(repeating: "[", count: 129))?.message == "nested more than 128 levels deep")
        var shallow = JSONReader.Options()
        shallow.maximumDepth = 2
        #expect(refusal("[[[]]]", shallow)?.message == "nested more than 2 levels deep")
    }

    @Test func aNumberBeyondADoubleIsAnErrorOrAnInfinityByOption() throws {
        #expect(refusal("[1e999]") == JSONSyntaxError(line: 1, offset: 1, message: "1e999 is beyond the range of a double"))
        var options = JSONReader.Options()
        options.overflowIsInfinity = true
        #expect(try read("-1e999", options) == .number(-.infinity))
    }

    @Test func nonFiniteLiteralsAreReadOnlyForFiles() throws {
        #expect(refusal("NaN")?.message == "unexpected character 'N'")
        #expect(refusal("-Infinity")?.message == "a number needs digits")
        let file = JSONReader.Options.file
        #expect(try read("Infinity", file) == .number(.infinity))
        #expect(try JSONReader.document("-Infinity").value == .number(-.infinity))
        #expect(try JSONReader.document("[-Infinity]").place.elements.first?.text == "-Infinity")
        let nan = try JSONReader.document("NaN")
        guard case .number(let value) = nan.value else {
            Issue.record("NaN not read")
            return
        }
        #expect(value.isNaN && nan.place.text == "NaN")
    }

    @Test func aKeyGivenTwiceIsKeptOrRefusedByOption() throws {
        #expect(try read(#"{"a": 1, "a": 2}"#) == .object(["a": .integer(2)]), "the last one counts, as in Foundation")
        #expect(refusal("{\"a\": 1,\n \"a\": 2}", .file) == JSONSyntaxError(line: 2, offset: 10, message: "key \"a\" appears twice"))
    }
}
