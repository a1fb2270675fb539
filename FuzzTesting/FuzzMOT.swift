// libFuzzer entry point for MOTChallenge files (ground truth and results). Built by
// `scripts/fuzz mot`, compiled in one module with Sources/Core/DockTracking.
//
// Invariants checked on every input:
// - a file is accepted, or refused naming a line inside it (and the field, where one is wrong);
// - every record accepted is in range: frame 1...maximumFrame, a finite box of positive size,
//   a finite confidence;
// - parsing line by line gives what parsing the whole file gives;
// - records written back (`MOTFormat.text`, two decimals) read back as records with the same
//   frames and identifiers, the values within 0.005, whenever every width and height is at least
//   0.005 (below that two decimals write 0.00); and writing those gives the same text again.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMOT(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    let records: [MOTRecord]
    do {
        records = try MOTFormat.parse(text)
    } catch {
        precondition((1...lines.count).contains(error.line), "\(error) for a file of \(lines.count) lines")
        return 0
    }
    var byLine: [MOTRecord] = []
    for (index, line) in lines.enumerated() {
        guard let record = try? MOTFormat.record(fromLine: line, lineNumber: index + 1) else { continue }
        byLine.append(record)
    }
    precondition(byLine == records, "line by line differs from the whole file")
    for record in records {
        precondition((1...MOTFormat.maximumFrame).contains(record.frame), "frame \(record.frame)")
        let box = record.box
        precondition([box.x, box.y, box.width, box.height, record.confidence].allSatisfy(\.isFinite), "\(record)")
        precondition(box.width > 0 && box.height > 0, "\(record)")
    }
    guard records.allSatisfy({ $0.box.width >= 0.005 && $0.box.height >= 0.005 }) else { return 0 }
    let written = MOTFormat.text(records)
    let again: [MOTRecord]
    do {
        again = try MOTFormat.parse(written)
    } catch {
        preconditionFailure("records written as\n\(written)\ndo not read back: \(error)")
    }
    precondition(again.count == records.count, "\(records.count) records written, \(again.count) read")
    for (record, read) in zip(records, again) {
        precondition(record.frame == read.frame && record.identifier == read.identifier, "\(record) read as \(read)")
        for (a, b) in [
            (record.box.x, read.box.x), (record.box.y, read.box.y), (record.box.width, read.box.width),
            (record.box.height, read.box.height), (record.confidence, read.confidence),
        ] {
            precondition(abs(a - b) <= 0.005 + abs(a) * 1e-12, "\(record) read back as \(read)")
        }
    }
    precondition(MOTFormat.text(again) == written, "writing is not stable:\n\(written)")
    return 0
}
