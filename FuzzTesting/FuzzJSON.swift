// libFuzzer entry point for the API's JSON reader. Built by `scripts/fuzz json`, compiled in one
// module with Sources/Core/DockAPI/JSONParser.swift (the API's reading, internal) over DockJSON and its JSONValue.
//
// Invariants checked on every input:
// - the reader accepts or refuses by name (`JSONParser.Malformed`), never traps;
// - what it accepts serialises to JSON it reads back as the same value, and serialising that
//   gives the same text (decode → encode → decode is stable);
// - differentially, both ways, against Foundation's `JSONSerialization` (fragments allowed):
//   what ours accepts Foundation accepts with the same values (numbers equal as doubles or as
//   64-bit integers; within 10⁻¹⁴ where Foundation keeps a long number as NSDecimalNumber), and
//   what Foundation accepts ours accepts too, unless the input is one of these deliberate
//   deviations (`Deviation`, each recognised from the input and our error, never assumed), where
//   ours refuses what Foundation takes:
//   - `trailingComma`: `[1,]`, `{"a":1,}` — RFC 8259 has no trailing comma;
//   - `notUTF8`: a byte-order mark, or UTF-16 or UTF-32 text — a Varlink message is UTF-8;
//   - `nestedTooDeeply`: 129 to 512 levels (Foundation refuses more) — a bound on the reader's
//     recursion;
//   - `numberOutOfRange`: a number past a double's range (`8415e09551614`) as the value of a key
//     that a later duplicate replaces — Foundation keeps the last value and never reads the first
//     (the long run found it); ours refuses such a number wherever it stands, as Foundation does
//     everywhere else (`1e999`, `[1e999]`).
//   Both refuse the rest, as RFC 8259 does, and agree on a few things it leaves open: a lone
//   surrogate (`"\ud800"`) is refused by both, a duplicate key keeps the last value in both
//   (checked by hand against this toolchain's Foundation). Each deviation is named again in
//   BENCHMARKS.md.
import DockJSON
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let ours: Result<JSONValue, JSONParser.Malformed>
    do {
        ours = .success(try JSONParser.parse(bytes))
    } catch {
        ours = .failure(error)
    }
    let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])

    switch ours {
    case .success(let value):
        let text = value.serialized
        guard let again = try? JSONParser.parse(Array(text.utf8)) else {
            preconditionFailure("\(value) serialises as \(text), which does not parse")
        }
        precondition(again == value, "\(value) serialises as \(text), which reads as \(again)")
        precondition(again.serialized == text, "serialising is not stable: \(text) then \(again.serialized)")
        guard let foundation else { preconditionFailure("ours accepts what Foundation refuses: \(value)") }
        precondition(same(value, foundation), "ours reads \(value), Foundation \(foundation)")
    case .failure(let error):
        precondition(error.offset >= 0 && error.offset <= count, "error offset \(error.offset) outside \(count) bytes")
        if let foundation {
            precondition(
                Deviation(bytes, error) != nil,
                "Foundation reads \(foundation) where ours refuses \(String(decoding: bytes, as: UTF8.self)): \(error)")
        }
    }
    return 0
}

/// Where ours refuses, on purpose, what Foundation accepts (the header says why for each).
enum Deviation {
    case trailingComma, notUTF8, nestedTooDeeply, numberOutOfRange

    /// The deviation that explains our refusal of `bytes`, or nil when none does.
    init?(_ bytes: [UInt8], _ error: JSONParser.Malformed) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
        {
            self = .notUTF8
            return
        }
        if error.reason.hasPrefix("nested more than ") {
            self = .nestedTooDeeply
            return
        }
        if error.reason.hasSuffix(" is beyond the range of a double") {
            self = .numberOutOfRange
            return
        }
        switch error.reason {
        case "expected a quoted key", "unexpected character ']'", "unexpected character '}'":
            // At a closing bracket whose last non-blank byte before it is a comma.
            guard error.offset < bytes.count, bytes[error.offset] == UInt8(ascii: "]") || bytes[error.offset] == UInt8(ascii: "}"),
                bytes[..<error.offset].last(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: ",")
            else { return nil }
            self = .trailingComma
        default:
            return nil
        }
    }
}

/// Whether Foundation's reading holds the same value as ours.
private func same(_ value: JSONValue, _ object: Any) -> Bool {
    switch value {
    case .null:
        return object is NSNull
    case .bool(let flag):
        return (object as? Bool) == flag
    case .integer(let integer):
        guard let number = object as? NSNumber else { return false }
        return number.int64Value == integer || close(Double(integer), number)
    case .number(let double):
        guard let number = object as? NSNumber else { return false }
        return close(double, number)
    case .string(let text):
        return (object as? String) == text
    case .array(let elements):
        guard let others = object as? [Any], others.count == elements.count else { return false }
        return zip(elements, others).allSatisfy { same($0, $1) }
    case .object(let members):
        guard let others = object as? [String: Any] else { return false }
        // Swift's String compares canonically equivalent keys as one; NSString does not.
        guard Set(others.keys) == Set(members.keys) else { return false }
        return members.allSatisfy { key, member in
            others.contains { $0.key == key && same(member, $0.value) }
        }
    }
}

/// Whether Foundation's number is `value`. Foundation keeps long numbers (1.7777777777777777, 62
/// digits) as `NSDecimalNumber`: 38 digits, and a `doubleValue` several ulps off where ours is
/// correctly rounded (FuzzTesting/regressions/json/foundation-decimal-*). A decimal is read back
/// from its text and may differ from ours by one part in 10¹⁴.
private func close(_ value: Double, _ number: NSNumber) -> Bool {
    if number.doubleValue == value { return true }
    guard number is NSDecimalNumber, let decimal = Double(number.description) else { return false }
    return abs(decimal - value) <= abs(value) * 1e-14
}
