// libFuzzer entry point for the API's JSON reader. Built by `scripts/fuzz json`, compiled in one
// module with Sources/DockAPI/JSONParser.swift and JSONValue.swift (the API's reading, internal) over DockJSON.
//
// Invariants checked on every input:
// - the reader accepts or refuses by name (`JSONParser.Malformed`), never traps;
// - what it accepts serialises to JSON it reads back as the same value, and serialising that
//   gives the same text (decode → encode → decode is stable);
// - differentially, against Foundation's `JSONSerialization` (fragments allowed): what ours
//   accepts Foundation accepts with the same values (numbers equal as doubles or as 64-bit
//   integers; within 10⁻¹⁴ where Foundation keeps a long number as NSDecimalNumber). The other
//   way is not checked: Foundation is the more lenient (it takes a trailing comma, `[1,]`, UTF-16
//   and UTF-32 text, nesting deeper than 128).
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
    }
    return 0
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
