// libFuzzer entry point for simulator scenario files (Scenarios/*.json, read by docksim
// and `dockd --simulator --scenario FILE`). Built by `scripts/fuzz scenario` against the
// DockSimulator module.
//
// Invariants checked on every input:
// - a file is accepted, or refused with a ScenarioError whose line is inside the file and whose
//   message is not empty;
// - parsing is deterministic (the same error, or the same scenario);
// - an accepted scenario lasts more than zero and at most an hour.
import DockSimulator

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    let text = String(decoding: input, as: UTF8.self)
    let scenario: Scenario
    do {
        scenario = try Scenario.parse(text)
    } catch {
        // Only when refused, and over the input's bytes rather than String.UTF8View's iterator
        // (the text's LFs are the input's: a replacement character never swallows one).
        let lineCount = input.count { $0 == UInt8(ascii: "\n") } + 1
        precondition((1...lineCount).contains(error.line), "\(error) for a file of \(lineCount) lines")
        precondition(!error.message.isEmpty, "an error without a message at line \(error.line)")
        do {
            _ = try Scenario.parse(text)
            preconditionFailure("refused once, accepted the second time")
        } catch let again {
            precondition(again == error, "refused as \(error), then as \(again)")
        }
        return 0
    }
    precondition(scenario.duration > .zero && scenario.duration <= .seconds(3600), "duration \(scenario.duration)")
    guard let again = try? Scenario.parse(text) else { preconditionFailure("accepted once, refused the second time") }
    precondition(
        again.subjects == scenario.subjects && again.faults == scenario.faults
            && again.events == scenario.events && again.duration == scenario.duration, "parsing is not deterministic")
    return 0
}
