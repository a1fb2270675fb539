import DockJSON
import Testing

/// The one JSON reader: what every user of it gets (lines, order, exact whole numbers, strict
/// grammar) and what each option changes.
struct JSONReaderTests {
    private func read(_ text: String, _ options: JSONReader.Options = JSONReader.Options()) throws -> JSONNode {
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

    @Test func everyValueKeepsItsLineAndMembersKeepTheirOrder() throws {
        let node = try read("{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null\n  ]\n}")
        #expect(node.line == 1)
        guard case .object(let members) = node.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[0].node.line == 2)
        #expect(members[1].node.line == 3)
        guard case .array(let elements) = members[1].node.value else {
            Issue.record("not an array")
            return
        }
        #expect(elements.map(\.line) == [4, 5])
        #expect(elements.map(\.value) == [.bool(true), .null])
    }

    @Test func numbersKeepTheirTextAndWholeOnesAreExactHoweverWritten() throws {
        #expect(try read("12").value == .number(12, text: "12"))
        #expect(try read("1.2e1").wholeNumber == 12)
        #expect(try read("12.0").wholeNumber == 12)
        #expect(try read("12.5").wholeNumber == nil)
        // Beyond a double's 53 bits, a number written as an integer is still read exactly.
        #expect(try read("9007199254740993").wholeNumber == 9_007_199_254_740_993)
        #expect(try read("-9223372036854775808").wholeNumber == Int64.min)
        #expect(try read("9223372036854775808").wholeNumber == nil)
        #expect(try read("\"12\"").wholeNumber == nil)
    }

    @Test func escapesAndSurrogatePairsBecomeTheirCharacters() throws {
        #expect(try read(#""a\"b\\c\/\n\t\u00e9""#).value == .string("a\"b\\c/\n\té"))
        #expect(try read(#""\ud83d\ude00 ok""#).value == .string("😀 ok"))
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
        #expect(try read(String(repeating: "[", count: 128) + String(repeating: "]", count: 128)).line == 1)
        #expect(refusal(String(repeating: "[", count: 129))?.message == "nested more than 128 levels deep")
        var shallow = JSONReader.Options()
        shallow.maximumDepth = 2
        #expect(refusal("[[[]]]", shallow)?.message == "nested more than 2 levels deep")
    }

    @Test func aNumberBeyondADoubleIsAnErrorOrAnInfinityByOption() throws {
        #expect(refusal("[1e999]") == JSONSyntaxError(line: 1, offset: 1, message: "1e999 is beyond the range of a double"))
        var options = JSONReader.Options()
        options.overflowIsInfinity = true
        #expect(try read("-1e999", options).value == .number(-.infinity, text: "-1e999"))
    }

    @Test func nonFiniteLiteralsAreReadOnlyForFiles() throws {
        #expect(refusal("NaN")?.message == "unexpected character 'N'")
        #expect(refusal("-Infinity")?.message == "a number needs digits")
        let file = JSONReader.Options.file
        #expect(try read("Infinity", file).value == .number(.infinity, text: "Infinity"))
        #expect(try read("-Infinity", file).value == .number(-.infinity, text: "-Infinity"))
        guard case .number(let nan, "NaN") = try read("NaN", file).value else {
            Issue.record("NaN not read")
            return
        }
        #expect(nan.isNaN)
    }

    @Test func aKeyGivenTwiceIsKeptOrRefusedByOption() throws {
        guard case .object(let members) = try read(#"{"a": 1, "a": 2}"#).value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["a", "a"])
        #expect(refusal("{\"a\": 1,\n \"a\": 2}", .file) == JSONSyntaxError(line: 2, offset: 10, message: "key \"a\" appears twice"))
    }
}
