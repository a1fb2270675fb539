import DockSimulator
import Testing

@testable import DockTracking

/// MOTChallenge files read and written, and every malformed line refused with its line and field.
@Suite struct MOTFormatTests {
    @Test func aDetectionFileParses() throws {
        let text = """
            1,-1,794.2,47.5,71.2,174.8,67.5,-1,-1,-1
            1,-1,164.1,19.6,66.5,163.2,29.4,-1,-1,-1
            2,-1,781.7,25.1,69.2,170.2,58.1,-1,-1,-1

            """
        #expect(
            try MOTFormat.parse(text) == [
                MOTRecord(frame: 1, identifier: -1, box: PixelRect(x: 794.2, y: 47.5, width: 71.2, height: 174.8), confidence: 67.5),
                MOTRecord(frame: 1, identifier: -1, box: PixelRect(x: 164.1, y: 19.6, width: 66.5, height: 163.2), confidence: 29.4),
                MOTRecord(frame: 2, identifier: -1, box: PixelRect(x: 781.7, y: 25.1, width: 69.2, height: 170.2), confidence: 58.1),
            ])
    }

    @Test func sevenFieldsAreEnoughAndLaterOnesAreNotRead() throws {
        // A ground-truth file's line: frame,id,x,y,w,h,consider,class,visibility.
        #expect(
            try MOTFormat.parse("3,7,-10,5,20,40,1,1,0.83\n3,8,0,0,1,1,0.5") == [
                MOTRecord(frame: 3, identifier: 7, box: PixelRect(x: -10, y: 5, width: 20, height: 40), confidence: 1),
                MOTRecord(frame: 3, identifier: 8, box: PixelRect(x: 0, y: 0, width: 1, height: 1), confidence: 0.5),
            ])
        #expect(try MOTFormat.parse("1,-1,0,0,5,5,0.9,whatever,else,here,too").count == 1)
    }

    @Test func blankLinesSpacesAndCarriageReturnsAreTolerated() throws {
        let text = "\n  \n1, 2 ,3,4,5,6,0.7\r\n\t\n2.0,-1,3,4,5,6,-0.25\r\n\n"
        #expect(
            try MOTFormat.parse(text) == [
                MOTRecord(frame: 1, identifier: 2, box: PixelRect(x: 3, y: 4, width: 5, height: 6), confidence: 0.7),
                MOTRecord(frame: 2, identifier: -1, box: PixelRect(x: 3, y: 4, width: 5, height: 6), confidence: -0.25),
            ])
        #expect(try MOTFormat.parse("").isEmpty)
        #expect(try MOTFormat.parse("\n\n").isEmpty)
    }

    @Test func framesOutOfOrderAreKeptInFileOrder() throws {
        // Ground-truth files are sorted by identifier, so frames go back and forth.
        let records = try MOTFormat.parse("5,1,0,0,1,1,1\n2,1,0,0,1,1,1\n9,2,0,0,1,1,1\n1,2,0,0,1,1,1\n")
        #expect(records.map(\.frame) == [5, 2, 9, 1])
        #expect(records.map(\.identifier) == [1, 1, 2, 2])
    }

    @Test func everyBadFieldIsNamedWithItsLine() {
        let good = "1,-1,10,20,30,40,0.9"
        func error(_ bad: String, after lines: Int = 2) -> MOTFormatError? {
            do {
                _ = try MOTFormat.parse(Array(repeating: good, count: lines).joined(separator: "\n") + "\n" + bad + "\n" + good)
                return nil
            } catch {
                return error
            }
        }
        let cases: [(String, MOTFormatError, String)] = [
            (
                "1,-1,10,20", .tooFewFields(line: 3, count: 4),
                "line 3: 4 fields; a MOTChallenge line has at least 7: frame,id,x,y,w,h,conf"
            ),
            (
                "garbage", .tooFewFields(line: 3, count: 1),
                "line 3: 1 field; a MOTChallenge line has at least 7: frame,id,x,y,w,h,conf"
            ),
            (
                "0,-1,10,20,30,40,0.9", .badFrame(line: 3, text: "0"),
                "line 3: field 1 (frame): not a whole number from 1 to 10000000, got '0'"
            ),
            (
                "1.5,-1,10,20,30,40,0.9", .badFrame(line: 3, text: "1.5"),
                "line 3: field 1 (frame): not a whole number from 1 to 10000000, got '1.5'"
            ),
            (
                "10000001,-1,10,20,30,40,0.9", .badFrame(line: 3, text: "10000001"),
                "line 3: field 1 (frame): not a whole number from 1 to 10000000, got '10000001'"
            ),
            (
                "999999999999999999999999999999,-1,10,20,30,40,0.9", .badFrame(line: 3, text: "999999999999999999999999999999"),
                "line 3: field 1 (frame): not a whole number from 1 to 10000000, got '999999999999999999999999…'"
            ),
            (
                "1,x,10,20,30,40,0.9", .badIdentifier(line: 3, text: "x"),
                "line 3: field 2 (id): not a whole number, got 'x'"
            ),
            (
                "1,-1,,20,30,40,0.9", .notFinite(line: 3, field: .x, text: ""),
                "line 3: field 3 (x): not a finite number, got ''"
            ),
            (
                "1,-1,10,nan,30,40,0.9", .notFinite(line: 3, field: .y, text: "nan"),
                "line 3: field 4 (y): not a finite number, got 'nan'"
            ),
            (
                "1,-1,10,20,-30,40,0.9", .notPositive(line: 3, field: .width, text: "-30"),
                "line 3: field 5 (w): not a positive number, got '-30'"
            ),
            (
                "1,-1,10,20,30,0,0.9", .notPositive(line: 3, field: .height, text: "0"),
                "line 3: field 6 (h): not a positive number, got '0'"
            ),
            (
                "1,-1,10,20,30,1e999,0.9", .notPositive(line: 3, field: .height, text: "1e999"),
                "line 3: field 6 (h): not a positive number, got '1e999'"
            ),
            (
                "1,-1,10,20,30,40,inf", .notFinite(line: 3, field: .confidence, text: "inf"),
                "line 3: field 7 (conf): not a finite number, got 'inf'"
            ),
            (
                "1;-1;10;20;30;40;0.9", .tooFewFields(line: 3, count: 1),
                "line 3: 1 field; a MOTChallenge line has at least 7: frame,id,x,y,w,h,conf"
            ),
            (
                "1,-1,10,20,30,40,0.9,-1,-1,-1,0.5,0.5,1e999,0.5", .badAppearance(line: 3, count: 4, text: "1e999"),
                "line 3: the appearance after field 10 (4 values): not a finite number, got '1e999'"
            ),
            (
                "1,-1,10,20,30,40,0.9,-1,-1,-1,0.5,0.5,1e300,0.5", .badAppearance(line: 3, count: 4, text: "1e300"),
                "line 3: the appearance after field 10 (4 values): not a finite number, got '1e300'"
            ),
        ]
        for (line, expected, message) in cases {
            let found = error(line)
            #expect(found == expected, "\(line)")
            #expect(found?.description == message)
            #expect(found?.line == 3)
        }
        #expect(MOTFormatError.notPositive(line: 12, field: .width, text: "-3").field == .width)
        #expect(MOTFormatError.tooFewFields(line: 12, count: 3).field == nil)
    }

    @Test func anAppearanceDescriptorAfterTheTenthFieldIsRead() throws {
        let records = try MOTFormat.parse("1,-1,10,20,30,40,0.9,-1,-1,-1, 0.5,0,0.25,1\n1,-1,10,20,30,40,0.9,-1,-1,-1\n2,-1,1,2,3,4,0.5\n")
        #expect(records.map(\.appearance) == [[0.5, 0, 0.25, 1], nil, nil])
        #expect(records[0].box == PixelRect(x: 10, y: 20, width: 30, height: 40) && records[0].confidence == 0.9)
        // Fewer than four after the tenth are not read, as before; more than 512 are refused.
        #expect(try MOTFormat.parse("1,-1,10,20,30,40,0.9,-1,-1,-1,0.5,x,0.5").first?.appearance == nil)
        let long = "1,-1,10,20,30,40,0.9,-1,-1,-1" + String(repeating: ",0.5", count: 513)
        #expect(throws: MOTFormatError.badAppearance(line: 1, count: 513, text: nil)) { try MOTFormat.parse(long) }
        #expect(
            MOTFormatError.badAppearance(line: 1, count: 513, text: nil).description
                == "line 1: the appearance after field 10 has 513 values; it needs 4 to 512")
    }

    @Test func anAppearanceIsWrittenAndReadBackAsTheSameFloats() throws {
        let values: [Float] = [0.1, 1.0 / 3, 0, -2.5e-7, 123_456.79, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        let described = MOTRecord(
            frame: 3, identifier: -1, box: PixelRect(x: 10, y: 20, width: 30, height: 40), confidence: 0.9, appearance: values)
        let plain = MOTRecord(frame: 3, identifier: 7, box: PixelRect(x: 1, y: 2, width: 3, height: 4), confidence: 1)
        #expect(MOTFormat.line(plain) == "3,7,1.00,2.00,3.00,4.00,1.00,-1,-1,-1", "no descriptor: the ten fields as before")
        let read = try MOTFormat.parse(MOTFormat.text([described, plain]))
        #expect(read.map(\.appearance) == [values, nil])
    }

    @Test func lineNumbersCountBlankLines() {
        #expect(throws: MOTFormatError.notPositive(line: 4, field: .width, text: "0")) {
            try MOTFormat.parse("1,-1,0,0,1,1,1\n\n\n1,-1,0,0,0,1,1\n")
        }
        #expect(throws: MOTFormatError.badFrame(line: 2, text: "-3")) { try MOTFormat.parse("1,-1,0,0,1,1,1\r\n-3,-1,0,0,1,1,1") }
    }

    @Test func linesBreakWhereCharacterIsNewlineBreaksThem() {
        // Every newline scalar, CR LF as one break, a lone CR and LF CR as two, breaks at the ends,
        // and combining marks and a flag next to breaks (a break never joins a cluster).
        let texts = [
            "", "\n", "\r\n", "\n\r", "\r\r\n\n", "a\u{0B}b\u{0C}c\rd\ne\r\nf\u{85}g\u{2028}h\u{2029}i",
            "1,-1,0,0,1,1,1\r\n\r\n\u{2028}x", "\n\u{301}a\r\n\u{301}", "e\u{301}\n\u{1F1E9}\u{1F1EA}\r",
            "\u{600}\n\u{600}\r\n", "\u{1F469}\u{200D}\u{1F4BB}\u{2029}\u{1F469}",
        ]
        for text in texts {
            let expected = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            #expect(MOTFormat.lines(of: text) == expected, "\(text.unicodeScalars.map { $0.value })")
        }
        // As parse numbers them: the record after a CR LF, a blank line and an LS is on line 4.
        #expect(throws: MOTFormatError.tooFewFields(line: 4, count: 1)) { try MOTFormat.parse("1,-1,0,0,1,1,1\r\n\r\n\u{2028}x") }
    }

    @Test func malformedBytesGiveAnErrorNotACrash() {
        let inputs = [
            "\u{FFFD}\u{0}", ",,,,,,,", "1,-1,0,0,1,1,1\u{0}", String(repeating: ",", count: 10_000),
            "1,-1,0,0,1,1", String(repeating: "9", count: 400) + ",1,1,1,1,1,1",
        ]
        for input in inputs {
            #expect(throws: MOTFormatError.self) { try MOTFormat.parse(input) }
        }
    }

    @Test func resultLinesHaveTwoDecimalsAndTheMOTTail() {
        let record = MOTRecord(
            frame: 12, identifier: 3, box: PixelRect(x: 794.204, y: -0.004, width: 71.2, height: 174.875),
            confidence: 1)
        #expect(MOTFormat.line(record) == "12,3,794.20,0.00,71.20,174.88,1.00,-1,-1,-1")
        #expect(
            MOTFormat.line(
                MOTRecord(
                    frame: 1, identifier: -1, box: PixelRect(x: -5.5, y: 0.05, width: 0.01, height: 1e6),
                    confidence: 0.999))
                == "1,-1,-5.50,0.05,0.01,1000000.00,1.00,-1,-1,-1")
        #expect(MOTFormat.text([record, record]) == MOTFormat.line(record) + "\n" + MOTFormat.line(record) + "\n")
        #expect(MOTFormat.text([]) == "")
        #expect(MOTFormat.decimal(-0.999) == "-1.00")
        #expect(MOTFormat.decimal(-0.01) == "-0.01")
        #expect(MOTFormat.decimal(.nan) == "nan", "never a crash, even for nonsense")
        #expect(MOTFormat.decimal(1e300) == "1e+300")
    }

    @Test func whatIsWrittenReadsBackWithinHalfAHundredth() throws {
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var random = SimulationRandom(seed: seed)
        var records: [MOTRecord] = []
        for index in 0..<200 {
            records.append(
                MOTRecord(
                    frame: index / 4 + 1, identifier: index % 4 + 1,
                    box: PixelRect(
                        x: random.unit() * 3000 - 500, y: random.unit() * 2000 - 300,
                        width: random.unit() * 400 + 0.01, height: random.unit() * 800 + 0.01),
                    confidence: 1))
        }
        let read = try MOTFormat.parse(MOTFormat.text(records))
        #expect(read.count == records.count, "seed \(seed)")
        for (written, back) in zip(records, read) {
            #expect(written.frame == back.frame && written.identifier == back.identifier)
            for (a, b) in [
                (written.box.x, back.box.x), (written.box.y, back.box.y),
                (written.box.width, back.box.width), (written.box.height, back.box.height),
            ] {
                #expect(abs(a - b) <= 0.005 + 1e-9, "seed \(seed)")
            }
        }
    }

    @Test func pixelIntersectionOverUnion() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersectionOverUnion(a) == 1)
        #expect(a.intersectionOverUnion(PixelRect(x: 5, y: 0, width: 10, height: 10)) == 50.0 / 150)
        #expect(a.intersectionOverUnion(PixelRect(x: 10, y: 0, width: 10, height: 10)) == 0, "touching is no overlap")
        #expect(a.intersectionOverUnion(PixelRect(x: 2, y: 2, width: 0, height: 0)) == 0)
    }
}
