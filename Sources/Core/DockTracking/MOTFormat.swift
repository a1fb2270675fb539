/// MOTChallenge text files (Milan et al., "MOT16: A Benchmark for Multi-Object Tracking", 2016),
/// the format of recorded detections and of tracking results: one box per line,
/// `frame,id,x,y,w,h,conf,...`, fields separated by commas, the box's top-left corner and size in
/// pixels, frames counted from 1. Detection files give -1 as the id; result files are
/// `frame,id,x,y,w,h,conf,-1,-1,-1`. Our one extension: a detection line may go on after its ten
/// fields with an appearance descriptor (`Observation.appearance`: 4 to 512 finite numbers), as
/// `examples/detect_video.py --appearance` writes them. Reading and writing only: no file is
/// touched here.

/// A box in an image, in pixels: its top-left corner and its size.
public struct PixelRect: Hashable, Sendable {
    /// Left edge, pixels from the image's left.
    public var x: Double
    /// Top edge, pixels from the image's top.
    public var y: Double
    /// Width, pixels.
    public var width: Double
    /// Height, pixels.
    public var height: Double

    /// Creates a box.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Intersection over union, 0...1 (0 for boxes without area).
    public func intersectionOverUnion(_ other: PixelRect) -> Double {
        let overlapWidth = min(x + width, other.x + other.width) - max(x, other.x)
        let overlapHeight = min(y + height, other.y + other.height) - max(y, other.y)
        guard overlapWidth > 0, overlapHeight > 0 else { return 0 }
        let overlap = overlapWidth * overlapHeight
        let union = width * height + other.width * other.height - overlap
        return union > 0 ? overlap / union : 0
    }
}

/// One line of a MOTChallenge file: one box in one frame.
public struct MOTRecord: Hashable, Sendable {
    /// The frame, counted from 1.
    public var frame: Int
    /// The track's identifier; -1 in a detection file.
    public var identifier: Int
    /// The box, in pixels.
    public var box: PixelRect
    /// The detector's score or the tracker's confidence: any finite number (some detectors' scores
    /// are not within 0...1).
    public var confidence: Double
    /// The appearance descriptor written after the line's tenth field, if any.
    public var appearance: [Float]?

    /// Creates a record.
    public init(frame: Int, identifier: Int, box: PixelRect, confidence: Double, appearance: [Float]? = nil) {
        self.frame = frame
        self.identifier = identifier
        self.box = box
        self.confidence = confidence
        self.appearance = appearance
    }
}

/// The seven fields every MOTChallenge line starts with, numbered from 1 as in error messages.
public enum MOTField: Int, CaseIterable, Hashable, Sendable {
    /// The frame number.
    case frame = 1
    /// The track's identifier.
    case identifier
    /// The box's left edge.
    case x
    /// The box's top edge.
    case y
    /// The box's width.
    case width
    /// The box's height.
    case height
    /// The confidence.
    case confidence

    /// The field's name in the MOTChallenge documentation.
    public var name: String {
        switch self {
        case .frame: "frame"
        case .identifier: "id"
        case .x: "x"
        case .y: "y"
        case .width: "w"
        case .height: "h"
        case .confidence: "conf"
        }
    }
}

/// Why a MOTChallenge file could not be read; every case names the line (counted from 1).
public enum MOTFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A line that is not blank has fewer than the seven fields `frame,id,x,y,w,h,conf`.
    case tooFewFields(line: Int, count: Int)
    /// A frame number is not a whole number from 1 to `MOTFormat.maximumFrame`.
    case badFrame(line: Int, text: String)
    /// An identifier is not a whole number.
    case badIdentifier(line: Int, text: String)
    /// A coordinate or the confidence is not a finite number.
    case notFinite(line: Int, field: MOTField, text: String)
    /// A width or height is not a positive number.
    case notPositive(line: Int, field: MOTField, text: String)
    /// The fields after the tenth, four or more of them (an appearance descriptor), are not up to
    /// 512 finite numbers: how many there are, and the first that is not a finite number, if one is not.
    case badAppearance(line: Int, count: Int, text: String?)

    /// The line the error is on, counted from 1.
    public var line: Int {
        switch self {
        case .tooFewFields(let line, _), .badFrame(let line, _), .badIdentifier(let line, _),
            .notFinite(let line, _, _), .notPositive(let line, _, _), .badAppearance(let line, _, _):
            line
        }
    }

    /// The field the error is in, if it is about one field.
    public var field: MOTField? {
        switch self {
        case .tooFewFields, .badAppearance: nil
        case .badFrame: .frame
        case .badIdentifier: .identifier
        case .notFinite(_, let field, _), .notPositive(_, let field, _): field
        }
    }

    public var description: String {
        func about(_ field: MOTField, _ problem: String, _ text: String) -> String {
            let shown = text.count > 24 ? String(text.prefix(24)) + "…" : text
            return "line \(line): field \(field.rawValue) (\(field.name)): \(problem), got '\(shown)'"
        }
        switch self {
        case .tooFewFields(let line, let count):
            return "line \(line): \(count) field\(count == 1 ? "" : "s"); a MOTChallenge line has at least 7: frame,id,x,y,w,h,conf"
        case .badFrame(_, let text):
            return about(.frame, "not a whole number from 1 to \(MOTFormat.maximumFrame)", text)
        case .badIdentifier(_, let text):
            return about(.identifier, "not a whole number", text)
        case .notFinite(_, let field, let text):
            return about(field, "not a finite number", text)
        case .notPositive(_, let field, let text):
            return about(field, "not a positive number", text)
        case .badAppearance(let line, let count, let text?):
            let shown = text.count > 24 ? String(text.prefix(24)) + "…" : text
            return "line \(line): the appearance after field 10 (\(count) values): not a finite number, got '\(shown)'"
        case .badAppearance(let line, let count, nil):
            return "line \(line): the appearance after field 10 has \(count) values; it needs 4 to 512"
        }
    }
}

/// Reads and writes MOTChallenge files.
public enum MOTFormat {
    /// The highest frame number accepted: about 92 hours at 30 frames per second, and a bound on
    /// the work a replay of a hostile file can cause.
    public static let maximumFrame = 10_000_000

    /// Parses a whole file. Blank lines are skipped; fields may have spaces around them; the eighth
    /// to tenth fields are not read, and four or more after the tenth are an appearance descriptor; lines
    /// may come in any order (ground-truth files are sorted by id),
    /// and are returned in file order.
    ///
    /// - Throws: `MOTFormatError` for the first line that is malformed.
    public static func parse(_ text: String) throws(MOTFormatError) -> [MOTRecord] {
        var records: [MOTRecord] = []
        var lineNumber = 0
        for line in lines(of: text) {
            lineNumber += 1
            if let record = try record(fromLine: line, lineNumber: lineNumber) { records.append(record) }
        }
        return records
    }

    /// The text's lines without their breaks, as `split(whereSeparator: \.isNewline)` gives them
    /// (empty ones kept), read over the Unicode scalars rather than the Characters.
    ///
    /// A newline scalar (LF, VT, FF, CR, NEL, LS, PS) is a grapheme-cluster control: always a
    /// Character of its own, but for CR LF, which is one. So splitting the scalars at each, CR LF
    /// as one break, cuts where the Characters would; building every Character to ask whether it is
    /// a newline was a third of the MOT fuzz target's time.
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029:
                lines.append(text[start..<index])
                index = scalars.index(after: index)
                if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
                start = index
            default:
                index = scalars.index(after: index)
            }
        }
        lines.append(text[start...])
        return lines
    }

    /// Parses one line; nil for a blank one.
    ///
    /// - Parameters:
    ///   - line: the line, without its line break.
    ///   - lineNumber: its number, for errors.
    /// - Throws: `MOTFormatError` naming the line and the field.
    public static func record(fromLine line: Substring, lineNumber: Int) throws(MOTFormatError) -> MOTRecord? {
        guard !trimmed(line).isEmpty else { return nil }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
        guard fields.count >= 7 else { throw .tooFewFields(line: lineNumber, count: fields.count) }
        guard let frame = wholeNumber(fields[0]), (1...maximumFrame).contains(frame) else {
            throw .badFrame(line: lineNumber, text: String(fields[0]))
        }
        guard let identifier = wholeNumber(fields[1]) else { throw .badIdentifier(line: lineNumber, text: String(fields[1])) }
        func finite(_ field: MOTField) throws(MOTFormatError) -> Double {
            let text = fields[field.rawValue - 1]
            guard let value = number(text), value.isFinite else {
                throw .notFinite(line: lineNumber, field: field, text: String(text))
            }
            return value
        }
        func positive(_ field: MOTField) throws(MOTFormatError) -> Double {
            let text = fields[field.rawValue - 1]
            guard let value = number(text), value.isFinite, value > 0 else {
                throw .notPositive(line: lineNumber, field: field, text: String(text))
            }
            return value
        }
        let box = PixelRect(x: try finite(.x), y: try finite(.y), width: try positive(.width), height: try positive(.height))
        var appearance: [Float]?
        // Fewer than four fields after the tenth are not read (some tools write one or two more).
        if fields.count >= 14 {
            let count = fields.count - 10
            guard count <= 512 else { throw .badAppearance(line: lineNumber, count: count, text: nil) }
            var values: [Float] = []
            values.reserveCapacity(count)
            for text in fields[10...] {
                guard let value = number(text).map(Float.init), value.isFinite else {
                    throw .badAppearance(line: lineNumber, count: count, text: String(text))
                }
                values.append(value)
            }
            appearance = values
        }
        return MOTRecord(frame: frame, identifier: identifier, box: box, confidence: try finite(.confidence), appearance: appearance)
    }

    /// One line, `frame,id,x,y,w,h,conf,-1,-1,-1`, without a line break: pixels and confidence
    /// with two decimals; then the appearance descriptor's values, if the record has one, each
    /// as the shortest text that reads back as the same `Float` (so a file written here is read
    /// back with the same descriptors).
    public static func line(_ record: MOTRecord) -> String {
        let box = record.box
        var line =
            "\(record.frame),\(record.identifier),\(decimal(box.x)),\(decimal(box.y)),\(decimal(box.width)),"
            + "\(decimal(box.height)),\(decimal(record.confidence)),-1,-1,-1"
        for value in record.appearance ?? [] { line += ",\(value)" }
        return line
    }

    /// A whole file: one line per record, in the order given, each ended by a line break.
    public static func text(_ records: [MOTRecord]) -> String {
        var text = ""
        for record in records {
            text += line(record)
            text += "\n"
        }
        return text
    }

    /// `value` with exactly two decimals (written by hand: this module uses the standard library
    /// only, which has no number formatting).
    static func decimal(_ value: Double) -> String {
        // Beyond 1e15 hundredths no longer fit exactly, and such a box is nonsense anyway.
        guard value.isFinite, abs(value) < 1e13 else { return "\(value)" }
        let hundredths = Int((value * 100).rounded())
        let magnitude = hundredths.magnitude
        let fraction = magnitude % 100
        return (hundredths < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// A whole number written as an integer or as a number with no fractional part (`3` or `3.0`,
    /// as some tools write them).
    private static func wholeNumber(_ text: Substring) -> Int? {
        if let value = Int(text) { return value }
        guard let value = number(text), value.isFinite, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// The number `text` spells, or nil; a NUL byte makes it nil (the standard library's parser
    /// would stop there and accept the part before it).
    private static func number(_ text: Substring) -> Double? {
        guard !text.utf8.contains(0) else { return nil }
        return Double(text)
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
