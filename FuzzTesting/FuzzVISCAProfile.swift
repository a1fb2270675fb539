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
//   finite angle, and the speed table answers every step and every speed with a step it has;
// - its zoom, where it has one: every finite fraction (one that is not has none) maps to a position
//   inside the range and back to a fraction in 0...1, and every position to a finite magnification
//   of at least 1 that does not fall as the position rises (where the table has points).

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
    if let range = profile.zoom {
        for fraction in [0, 0.5, 1, -1, 2, 1e300, -1e300] {
            guard let position = profile.zoomPosition(fraction: fraction), range.contains(position),
                let back = profile.zoomFraction(position: position), (0...1).contains(back)
            else { preconditionFailure("zoom fraction \(fraction) gives no position in \(range)") }
        }
        for fraction in [Double.nan, .infinity, -.infinity] {
            precondition(profile.zoomPosition(fraction: fraction) == nil, "a zoom of \(fraction) has a position")
        }
        var last = 1.0
        let points = profile.zoomMagnification.map(\.position)
        for position in ([0, range.lowerBound, range.upperBound, .max] + points).sorted() {
            guard let magnification = profile.magnification(atZoomPosition: position) else {
                precondition(points.isEmpty, "a table without a magnification at \(position)")
                continue
            }
            precondition(magnification.isFinite && magnification >= last, "magnification \(magnification) at \(position)")
            last = magnification
        }
    }
    return 0
}
