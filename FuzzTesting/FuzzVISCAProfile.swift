// libFuzzer entry point for VISCA camera profiles (the JSON of Protocol/visca/*.json, which
// `dockd --profile FILE` reads). Built by `scripts/fuzz visca-profile`, compiled in one module
// with Sources/Core/VISCAProtocol.
//
// Invariants checked on every input:
// - a profile is accepted or refused by name (`VISCAError.invalidProfile` with its field and a
//   line inside the text);
// - parsing is deterministic;
// - what an accepted profile says can be used without trapping: on both axes the limits in counts
//   are ordered, every angle (infinite and NaN included) maps to a count inside them and back to a
//   finite angle, and the speed table answers every step and every speed with a step it has.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVISCAProfile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let profile: VISCAProfile
    do {
        profile = try VISCAProfile.parse(json: text)
    } catch {
        guard case .invalidProfile(let field, let line, _) = error, !field.isEmpty else {
            preconditionFailure("a profile refused as \(error)")
        }
        let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
        precondition((1...lines).contains(line), "\(error) for a text of \(lines) lines")
        return 0
    }
    precondition((try? VISCAProfile.parse(json: text)) == profile, "parsing is not deterministic")
    for axis in [profile.pan, profile.tilt] {
        precondition(axis.minimumCount <= axis.maximumCount, "\(axis): limits out of order")
        for radians in [0, axis.minimumRadians, axis.maximumRadians, -.infinity, .infinity, .nan, 1e300, -1e300] {
            let count = axis.count(radians: radians)
            precondition((axis.minimumCount...axis.maximumCount).contains(count), "\(axis): \(radians) rad gives \(count)")
            precondition(axis.radians(count: count).isFinite, "\(axis): count \(count) has no finite angle")
        }
        let table = axis.speeds
        for step in 0...table.maximumStep {
            precondition(!table.radiansPerSecond(step: step).isNaN, "\(table): step \(step)")
        }
        for speed in [0, table.maximumRadiansPerSecond, table.maximumRadiansPerSecond * 2, .infinity, -.infinity, .nan, -1] {
            for current in [nil, 0, table.maximumStep] as [UInt8?] {
                let step = table.step(for: speed, current: current)
                precondition(step <= table.maximumStep, "\(table): \(speed) rad/s gives step \(step)")
            }
        }
    }
    return 0
}
